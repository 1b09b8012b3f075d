// Tilemate's service worker: the pages open, and Which hand? answers, with no connection.
//
// Installing keeps every file of the pages (the list is the server's: /offline-files.json),
// including the engine bundled for the browser (/offline-engine.js, api/http/offline-bundle.ts).
// While the server can be reached everything comes from it, fresh (network first), and the
// kept copy is brought up to date; only when it cannot be reached is the kept copy used. So a
// page is never served stale while online. The card routes a player uses (/api/card,
// /api/cards, /api/cards/<name>) are kept the same way, so a saved card works offline once it
// has been opened online; every other request to /api/ goes to the server as it is (the page's
// offline answers are worked out by api/web/offline.js).

/** This worker's own scope: a service worker's (the WebWorker lib types `self` as any worker's). */
const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

const CACHE = 'tilemate-pages-v1';
/** How long a page waits for a server that does not answer before the kept copy is used. */
const WAIT_MS = 4000;
const KEPT_API = /^\/api\/(card|cards|cards\/[a-z0-9][a-z0-9-]{0,39})$/;

sw.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    const res = await fetch('/offline-files.json', { cache: 'no-store' });
    /** @type {{ files: string[] }} */
    const { files } = await res.json();
    // one by one: a file that cannot be fetched just now is fetched again on its first use
    await Promise.all(files.map((f) => cache.add(new Request(f, { cache: 'no-store' })).catch(() => undefined)));
    await sw.skipWaiting();
  })());
});

sw.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name.startsWith('tilemate-') && name !== CACHE) await caches.delete(name);
    await sw.clients.claim();
  })());
});

sw.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== sw.location.origin) return;
  if (url.pathname.startsWith('/api/') && !KEPT_API.test(url.pathname)) return;
  if (url.pathname.startsWith('/docs')) return;
  event.respondWith(networkFirst(req, event));
});

/**
 * @param {Request} req
 * @param {FetchEvent} event
 * @returns {Promise<Response>}
 */
async function networkFirst(req, event) {
  const cache = await caches.open(CACHE);
  // a page's address carries its rack (chase.html?hand=...): one page is kept once, whatever its rack
  const page = req.mode === 'navigate';
  const key = page ? new URL(req.url).pathname : req;
  const kept = () => cache.match(key, { ignoreSearch: page });
  const fresh = fetch(req).then((res) => {
    if (res.ok && res.type === 'basic' && !res.redirected) event.waitUntil(cache.put(key, res.clone()));
    return res;
  });
  fresh.catch(() => undefined); // answered below when it matters
  try {
    return await Promise.race([fresh, new Promise((_, no) => setTimeout(() => no(new Error('slow')), WAIT_MS))]);
  } catch {
    const hit = await kept();
    if (hit) return hit;
    try { return await fresh; } catch { /* no connection and nothing kept */ }
    if (req.mode === 'navigate') {
      return new Response('<!doctype html><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Tilemate</title>'
        + '<p style="font: 1.2rem system-ui; margin: 2rem">There is no connection to Tilemate, and this page was not kept on this device: <a href="/chase.html">Which hand should I chase?</a> works without one.</p>',
      { status: 503, headers: { 'content-type': 'text/html; charset=utf-8' } });
    }
    return Response.error();
  }
}
