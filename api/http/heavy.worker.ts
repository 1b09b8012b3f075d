import { runTask, type HeavyTask, type TaskResult } from './heavy-tasks.js';

/** A piscina worker of the practice server's pool (api/http/heavy.ts): one heavy task per call. */
export default function (task: HeavyTask): TaskResult {
  return runTask(task);
}
