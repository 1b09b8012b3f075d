/** What test/engine/views.test.ts and views.slow.test.ts share: a state written out to compare, and a careless bot's scribbling over a view. */

/** A state written out, to compare before and after (its card left out). */
export const snapshot = (s: object): string => JSON.stringify(s, (key, value: unknown) => (key === 'cc' ? undefined : value));

/** Writes into every list and object a view holds, as a careless bot might; counts the lists (not empty) it wrote into, by path. */
export function scribble(v: object, seen: Map<string, number>, path = ''): void {
  if (Array.isArray(v)) {
    if (v.length > 0) seen.set(path, (seen.get(path) ?? 0) + 1);
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (x !== null && typeof x === 'object') scribble(x, seen, `${path}[]`);
      else v[i] = typeof x === 'boolean' ? !x : typeof x === 'number' ? x + 7 : x;
    }
    v.push(v.length > 0 && typeof v[0] === 'object' ? { tile: 0, size: 3, jokers: 0, rack: 0, exchangeable: true } : 1);
    return;
  }
  for (const [k, x] of Object.entries(v)) {
    if (x !== null && typeof x === 'object') scribble(x as object, seen, `${path}.${k}`);
    else if (typeof x === 'number' && k !== 'seat') (v as Record<string, unknown>)[k] = x + 7;
  }
}
