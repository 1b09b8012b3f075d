// The engine bundled for the browser (GET /offline-engine.js, made by api/http/offline-bundle.ts
// from api/web-src/offline-engine.ts), as offline-worker.js imports it by its address
// (tsconfig.worker.json maps the address here).

/** A route's answer worked out on the device, as the server would give it, or its refusal. */
export function run(path: string, body: unknown): { ok: true; value: unknown } | { ok: false; code: string; message: string };
