// Which hand? with no connection: the page's requests go to the server as before, and when it
// cannot be reached, the routes the page needs (/api/analyze, /api/charleston, /api/vote,
// /api/courtesy, /api/advice) are answered on this device by the server's own engine, bundled
// for the browser (/offline-engine.js, api/http/offline-bundle.ts; kept by sw.js) and run on a
// thread of its own (offline-worker.js) so the page stays alive. Anything else is told, in one
// sentence, to need the connection.

import { ApiError, call as serverCall } from './client.js';

const ON_TABLET = new Set(['/api/analyze', '/api/charleston', '/api/vote', '/api/courtesy', '/api/advice']);

/**
 * The note at the top of the page while the answers are the device's own.
 * @param {boolean} offline
 */
function note(offline) {
  let p = document.getElementById('offline-note');
  if (!offline) { p?.remove(); return; }
  if (p) return;
  p = document.createElement('p');
  p.id = 'offline-note';
  p.className = 'note';
  p.setAttribute('role', 'status');
  p.textContent = 'There is no connection to Tilemate, so this device is working out the answers itself, the same way the server does.';
  document.querySelector('main')?.prepend(p);
}

/**
 * The engine's thread (offline-worker.js), its answers awaited by request number.
 * @type {Worker | null}
 */
let worker = null;
/** @type {Map<number, (answer: WorkerAnswer) => void>} */
const waiting = new Map();
let asked = 0;

/**
 * What offline-worker.js answers: the route's value, or the engine's refusal.
 * @typedef {{ ok: boolean, value?: unknown, code: string, message: string }} WorkerAnswer
 */

/** @returns {Promise<Worker>} */
function startWorker() {
  return new Promise((resolve, reject) => {
    const w = new Worker('/offline-worker.js', { type: 'module' });
    w.onmessage = (event) => {
      if (event.data.ready) { resolve(w); return; }
      const done = waiting.get(event.data.id);
      waiting.delete(event.data.id);
      done?.(event.data.answer);
    };
    w.onerror = (event) => { event.preventDefault(); w.terminate(); reject(new Error('the offline engine could not be loaded')); };
  });
}

/**
 * The engine, started once the page has settled: a page already open keeps answering when the
 * connection drops, even where the browser allows no service worker (a plain http:// address
 * on the club's network), where nothing is kept for a reload.
 */
const loading = new Promise((r) => setTimeout(r, 1500)).then(startWorker).then((w) => {
  worker = w;
  document.documentElement.dataset.offlineReady = '1';
}, () => { /* started again when needed */ });

/**
 * Works out a route's answer on the device, as the server would give it.
 * @param {string} path
 * @param {unknown} body
 * @returns {Promise<any>}
 */
async function onTablet(path, body) {
  await loading;
  try {
    worker ??= await startWorker();
  } catch {
    throw new ApiError(0, 'TM_NETWORK', 'There is no connection to Tilemate, and this device has not yet kept what it needs to answer on its own: open this page once while connected.');
  }
  note(true);
  const id = ++asked;
  const running = worker;
  /** @type {WorkerAnswer} */
  const r = await new Promise((resolve) => {
    waiting.set(id, resolve);
    running.postMessage({ id, path, body: body ?? {} });
  });
  if (!r.ok) throw new ApiError(400, r.code, r.message);
  return r.value;
}

/**
 * client.js's call, answered on the tablet when the server cannot be reached.
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @param {string | null} [token]
 * @returns {Promise<any>}
 */
export async function call(method, path, body, token) {
  const here = method === 'POST' && ON_TABLET.has(path);
  if (here && navigator.onLine === false) return onTablet(path, body);
  try {
    const answer = await serverCall(method, path, body, token);
    note(false);
    return answer;
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== 'TM_NETWORK') throw err;
    if (here) return onTablet(path, body);
    throw new ApiError(0, 'TM_NETWORK', 'This needs the connection to Tilemate, which is down just now.');
  }
}
