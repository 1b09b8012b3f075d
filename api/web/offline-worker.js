// The offline engine (/offline-engine.js) on a thread of its own, so the page stays alive while
// the tablet works out a hand's chances or plays deals out for advice (api/web/offline.js).
import { run } from '/offline-engine.js';

self.onmessage = (event) => {
  const { id, path, body } = event.data;
  let answer;
  try {
    answer = run(path, body);
  } catch (err) {
    answer = { ok: false, code: 'TM_INTERNAL', message: `this device could not work it out (${err instanceof Error ? err.message : String(err)})` };
  }
  self.postMessage({ id, answer });
};
self.postMessage({ ready: true });
