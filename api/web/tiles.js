// Tiles as a person reads them: "5 Bam", "Red", "Joker". The server speaks in tile names
// (5B, RD, J: engine/tiles.ts); this module turns a name into a large, readable tile.

const SUIT_WORDS = { B: 'Bam', C: 'Crak', D: 'Dot' };
const HONOURS = {
  N: ['North', 'wind'], E: ['East', 'wind'], W: ['West', 'wind'], S: ['South', 'wind'],
  GD: ['Green', 'green'], RD: ['Red', 'red'], WD: ['Soap', 'soap'],
  F: ['Flower', 'flower'], J: ['Joker', 'joker'],
};

/** The engine's order (tiles.ts): Bams, Craks, Dots, winds N E W S, dragons GD RD WD, flower, joker. */
export const TILE_ORDER = [
  ...['B', 'C', 'D'].flatMap((s) => Array.from({ length: 9 }, (_, i) => `${i + 1}${s}`)),
  'N', 'E', 'W', 'S', 'GD', 'RD', 'WD', 'F', 'J',
];

/** Sorts tile names the way a player racks them. */
export function sortTiles(names) {
  return [...names].sort((a, b) => TILE_ORDER.indexOf(a) - TILE_ORDER.indexOf(b));
}

/** Tile names from counts per kind (the engine's concealed counts, length 36). */
export function tilesFromCounts(counts) {
  const out = [];
  counts.forEach((n, t) => { for (let i = 0; i < n; i++) out.push(TILE_ORDER[t]); });
  return out;
}

/** The words for a tile: { big, small, kind } — "5" over "Bam", or "North" alone. */
export function tileWords(name) {
  const m = /^([1-9])([BCD])$/.exec(name);
  if (m) return { big: m[1], small: SUIT_WORDS[m[2]], kind: m[2].toLowerCase() === 'b' ? 'bam' : m[2] === 'C' ? 'crak' : 'dot' };
  const h = HONOURS[name];
  if (h) return { big: h[0], small: name === 'GD' || name === 'RD' ? 'Dragon' : name === 'WD' ? 'White' : '', kind: h[1] };
  return { big: name, small: '', kind: 'unknown' };
}

/** "5 Bam", "North", "Red Dragon", "Soap", "Joker": for prompts, hints and screen readers. */
export function tileLabel(name) {
  if (name === 'WD') return 'Soap'; // the white dragon, as players call it (teaching guide)
  const w = tileWords(name);
  return w.small ? `${w.big} ${w.small}` : w.big;
}

/** A list of tile names in words: "3 Crak, 7 Dot and North". */
export function tilesLabel(names) {
  const words = names.map(tileLabel);
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

/**
 * One tile element. `opts.button` makes it a focusable button (the rack); `opts.size` is
 * 'big' (the rack), 'mid' (exposures, the card) or 'small' (the discard pool); `opts.mark`
 * adds a class such as 'have', 'joker-can', 'need'.
 */
export function tileElement(name, opts = {}) {
  const w = tileWords(name);
  const el = document.createElement(opts.button ? 'button' : 'span');
  el.className = `tile tile-${w.kind}${w.big.length > 2 ? ' wordy' : ''} size-${opts.size ?? 'mid'}${opts.mark ? ` ${opts.mark}` : ''}`;
  if (opts.button) el.type = 'button';
  el.dataset.tile = name;
  el.setAttribute('aria-label', tileLabel(name) + (opts.markLabel ? `, ${opts.markLabel}` : ''));
  el.title = tileLabel(name) + (opts.markLabel ? ` (${opts.markLabel})` : '');
  const big = document.createElement('span');
  big.className = 'face';
  big.textContent = w.big;
  el.append(big);
  if (w.small) {
    const small = document.createElement('span');
    small.className = 'word';
    small.textContent = w.small;
    el.append(small);
  }
  return el;
}

/**
 * Tile names inside the server's sentences ("discard 5B", "pass 3C 7D N") in words:
 * "discard 5 Bam". Only whole tokens that are plainly tiles are changed (suited tiles,
 * dragons, flower, joker), so line names such as "2468 #1" stay as they are.
 */
export function tilesInWords(text) {
  return String(text ?? '')
    .replace(/\b([1-9][BCD]|GD|RD|WD)\b/g, (m) => tileLabel(m))
    // a lone capital N E W S F J between spaces or commas is a tile ("pass N, 7D")
    .replace(/(^|[\s,(])([NEWSFJ])(?=$|[\s,.;:)])/g, (_, before, t) => before + tileLabel(t));
}
