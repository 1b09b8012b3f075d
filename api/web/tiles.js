// Tiles as a person reads them: "5 Bam", "Red", "Joker". The server speaks in tile names
// (5B, RD, J: engine/mah-jongg/tiles.ts); this module turns a name into a large, readable tile.

/** @import { Tile } from './types.js' */

/** @type {Record<string, string>} */
const SUIT_WORDS = { B: 'Bam', C: 'Crak', D: 'Dot' };
/** @type {Record<string, [string, string]>} */
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

/**
 * Sorts tile names the way a player racks them.
 * @param {readonly Tile[]} names
 * @returns {Tile[]}
 */
export function sortTiles(names) {
  return [...names].sort((a, b) => TILE_ORDER.indexOf(a) - TILE_ORDER.indexOf(b));
}

/**
 * Tile names from counts per kind (the engine's concealed counts, length 36).
 * @param {readonly number[]} counts
 * @returns {Tile[]}
 */
export function tilesFromCounts(counts) {
  /** @type {Tile[]} */
  const out = [];
  counts.forEach((n, t) => { for (let i = 0; i < n; i++) out.push(TILE_ORDER[t]); });
  return out;
}

/**
 * The words for a tile: { big, small, kind } — "5" over "Bam", or "North" alone.
 * @param {Tile} name
 * @returns {{ big: string, small: string, kind: string }}
 */
export function tileWords(name) {
  const m = /^([1-9])([BCD])$/.exec(name);
  if (m) return { big: m[1], small: SUIT_WORDS[m[2]], kind: m[2].toLowerCase() === 'b' ? 'bam' : m[2] === 'C' ? 'crak' : 'dot' };
  const h = HONOURS[name];
  if (h) return { big: h[0], small: name === 'GD' || name === 'RD' ? 'Dragon' : name === 'WD' ? 'White' : '', kind: h[1] };
  return { big: name, small: '', kind: 'unknown' };
}

/**
 * "5 Bam", "North", "Red Dragon", "Soap", "Joker": for prompts, hints and screen readers.
 * @param {Tile} name
 * @returns {string}
 */
export function tileLabel(name) {
  if (name === 'WD') return 'Soap'; // the white dragon, as players call it (teaching guide)
  const w = tileWords(name);
  return w.small ? `${w.big} ${w.small}` : w.big;
}

/**
 * A list of tile names in words: "3 Crak, 7 Dot and North".
 * @param {readonly Tile[]} names
 * @returns {string}
 */
export function tilesLabel(names) {
  const words = names.map(tileLabel);
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

/**
 * The tiles that came in a pass, named: the rack after, less the rack before without the
 * tiles passed from it (tiles passed on blind were never on the rack).
 * @param {readonly Tile[]} before
 * @param {readonly Tile[]} passed
 * @param {readonly Tile[]} after
 * @returns {string}
 */
export function receivedWords(before, passed, after) {
  const left = [...before];
  for (const t of passed) { const i = left.indexOf(t); if (i >= 0) left.splice(i, 1); }
  /** @type {Tile[]} */
  const got = [];
  for (const t of after) { const i = left.indexOf(t); if (i >= 0) left.splice(i, 1); else got.push(t); }
  return got.length ? `You received ${tilesLabel(sortTiles(got))}.` : 'You received no tiles.';
}

/**
 * The blind pass's choice (standardized rules 4.5): how many of the tiles coming to her she
 * passes on unseen, from none to `upTo`, as one short row of toggles after its words. The
 * chosen one is pressed (aria-pressed) and drawn as a choice made, never like the main button:
 * the Pass button beside it stays the one solid button. Each button's data-action is blind-N.
 * @param {number} upTo
 * @param {number} chosen
 * @param {(blind: number) => void} onChoose
 * @param {(text: string, onClick: () => void, cls: string, kind: string) => HTMLButtonElement} makeButton the page's own button
 * @returns {HTMLElement}
 */
export function blindChoice(upTo, chosen, onChoose, makeButton) {
  const box = document.createElement('div');
  box.className = 'blind-choice';
  box.setAttribute('role', 'group');
  box.setAttribute('aria-label', 'How many of the tiles coming to you to pass on unseen (a blind pass)');
  const words = document.createElement('span');
  words.className = 'blind-words';
  words.textContent = 'Blind pass:';
  box.append(words);
  for (let b = 0; b <= upTo; b++) {
    const bb = makeButton(String(b), () => onChoose(b), 'btn-toggle', `blind-${b}`);
    bb.setAttribute('aria-pressed', String(chosen === b));
    box.append(bb);
  }
  return box;
}

/**
 * One tile element. `opts.button` makes it a focusable button (the rack); `opts.size` is
 * 'big' (the rack), 'mid' (exposures, the card) or 'small' (the discard pool); `opts.mark`
 * adds a class such as 'have', 'joker-can', 'need'. The faces are the labelled words, or
 * the classic pictures when the display setting asks for them (display.js). The name a
 * screen reader hears is the tile's words: the visible words themselves, or hidden text
 * beside a picture (a label that differs from the visible text confuses voice control).
 * A button's element is typed as one (HTMLButtonElement), so the rack may disable it.
 * @template {boolean} [B=false]
 * @param {Tile} name
 * @param {TileOptions & { button?: B }} [opts]
 * @returns {B extends true ? HTMLButtonElement : HTMLElement}
 */
export function tileElement(name, opts = {}) {
  const w = tileWords(name);
  const classic = document.documentElement.dataset.faces === 'classic';
  const el = document.createElement(opts.button ? 'button' : 'span');
  el.className = `tile tile-${w.kind}${w.big.length > 2 ? ' wordy' : ''} size-${opts.size ?? 'mid'}${opts.mark ? ` ${opts.mark}` : ''}${classic ? ' classic-face' : ''}`;
  if (el instanceof HTMLButtonElement) el.type = 'button';
  el.dataset.tile = name;
  el.title = tileLabel(name) + (opts.markLabel ? ` (${opts.markLabel})` : '');
  if (classic) {
    el.append(classicFace(name), hiddenText(tileLabel(name)));
  } else {
    const big = document.createElement('span');
    big.className = 'face';
    big.textContent = w.big;
    el.append(big);
    if (w.small) {
      const small = document.createElement('span');
      small.className = 'word';
      // the space keeps the words apart for screen readers ("5 Bam", not "5Bam")
      small.textContent = ` ${w.small}`;
      el.append(small);
    }
  }
  if (opts.markLabel) el.append(hiddenText(`, ${opts.markLabel}`));
  return /** @type {B extends true ? HTMLButtonElement : HTMLElement} */ (el);
}

/**
 * How a tile is drawn: `size` 'big' (the rack), 'mid', 'small', 'page' or 'key'; `mark` a
 * class such as 'have'; `markLabel` the mark's meaning, in words for screen readers.
 * @typedef {{ size?: string, mark?: string, markLabel?: string }} TileOptions
 */

/** @param {string} text */
function hiddenText(text) {
  const s = document.createElement('span');
  s.className = 'sr-only';
  s.textContent = text;
  return s;
}

// ---------------------------------------------------------------- classic faces

const SVG = 'http://www.w3.org/2000/svg';
const INK = { bam: '#0b6b2e', crak: '#b3121b', dot: '#0b4aa8', wind: '#111', green: '#0b6b2e', red: '#b3121b', soap: '#0b4aa8', flower: '#7a1f8f', joker: '#8a5a00' };

/**
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 * @param {(Node | string)[]} [children]
 * @returns {SVGElement}
 */
function svgEl(tag, attrs, children = []) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  e.append(...children);
  return e;
}

/**
 * Where n pips sit on a 60x80 face, as the classic tiles lay them out (1 to 9).
 * @param {number} n
 * @returns {number[][]}
 */
function pipSpots(n) {
  const c = 30, l = 14, r = 46, t = 14, m = 40, b = 66;
  /** @type {Record<number, number[][]>} */
  const spots = {
    1: [[c, m]], 2: [[c, 24], [c, 56]], 3: [[l, t], [c, m], [r, b]], 4: [[l, 24], [r, 24], [l, 56], [r, 56]],
    5: [[l, t], [r, t], [c, m], [l, b], [r, b]], 6: [[l, t], [r, t], [l, m], [r, m], [l, b], [r, b]],
    7: [[l, 10], [c, 20], [r, 30], [l, 50], [r, 50], [l, 70], [r, 70]],
    8: [[l, 10], [r, 10], [l, 30], [r, 30], [l, 50], [r, 50], [l, 70], [r, 70]],
    9: [[l, t], [c, t], [r, t], [l, m], [c, m], [r, m], [l, b], [c, b], [r, b]],
  };
  return spots[n];
}

/** A dot: a ring with a centre, the colours of the tile's suit. @type {(x: number, y: number, rad: number) => SVGElement} */
const dot = (x, y, rad) => svgEl('g', {}, [
  svgEl('circle', { cx: x, cy: y, r: rad, fill: 'none', stroke: INK.dot, 'stroke-width': 3 }),
  svgEl('circle', { cx: x, cy: y, r: rad * 0.4, fill: INK.crak }),
]);

/** A bamboo stick: a green stem with two joints. @type {(x: number, y: number) => SVGElement} */
const stick = (x, y) => svgEl('g', {}, [
  svgEl('rect', { x: x - 3.5, y: y - 9, width: 7, height: 18, rx: 3, fill: INK.bam }),
  svgEl('line', { x1: x - 4, y1: y - 2, x2: x + 4, y2: y - 2, stroke: '#fffdf5', 'stroke-width': 1.5 }),
  svgEl('line', { x1: x - 4, y1: y + 3, x2: x + 4, y2: y + 3, stroke: '#fffdf5', 'stroke-width': 1.5 }),
]);

/** The Crak suit's mark under the numeral: red brush strokes, the project's own drawing. */
const crakMark = () => svgEl('path', { d: 'M16 48 H44 M20 56 H40 M30 44 V74 M18 74 C24 64 36 64 42 74', fill: 'none', stroke: INK.crak, 'stroke-width': 4, 'stroke-linecap': 'round' });

/** @type {(x: number, y: number, size: number, fill: string, words: string, extra?: Record<string, string>) => SVGElement} */
const text = (x, y, size, fill, words, extra = {}) =>
  svgEl('text', { x, y, 'font-size': size, 'font-weight': 800, 'text-anchor': 'middle', 'dominant-baseline': 'central', fill, 'font-family': 'serif', ...extra }, [words]);

/**
 * A classic face drawn as SVG: pips for Dots, sticks for Bams, a numeral over red strokes
 * for Craks, a compass needle and letter for the winds, the dragons as a box, a cloud and a frame, a
 * flower and a joker star. The project's own drawings (STYLE.md: never copied from a set).
 * @param {Tile} name
 * @returns {SVGElement}
 */
export function classicFace(name) {
  const m = /^([1-9])([BCD])$/.exec(name);
  /** @type {SVGElement[]} */
  const parts = [];
  if (m) {
    const n = Number(m[1]);
    if (m[2] === 'D') parts.push(...pipSpots(n).map(([x, y]) => dot(x, y, n === 1 ? 16 : n > 6 ? 7 : 9)));
    else if (m[2] === 'B') {
      if (n === 1) parts.push(svgEl('circle', { cx: 30, cy: 30, r: 12, fill: INK.bam }), svgEl('path', { d: 'M30 42 L22 70 M30 42 L38 70 M30 42 L30 72', stroke: INK.crak, 'stroke-width': 3, fill: 'none' }));
      else parts.push(...pipSpots(n).map(([x, y]) => stick(x, y)));
    } else parts.push(text(30, 22, 30, '#111', String(n)), crakMark());
  } else if (['N', 'E', 'W', 'S'].includes(name)) {
    // a compass needle pointing the wind's way over its letter (drawn: no font on the
    // player's machine need hold Chinese characters)
    const turn = /** @type {Record<string, number>} */ ({ N: 0, E: 90, S: 180, W: 270 })[name];
    parts.push(svgEl('path', { d: 'M30 8 L38 30 L30 26 L22 30 Z', fill: INK.crak, transform: `rotate(${turn} 30 30)` }), svgEl('circle', { cx: 30, cy: 30, r: 20, fill: 'none', stroke: '#111', 'stroke-width': 2 }), text(30, 66, 22, '#111', name, { 'font-family': 'sans-serif' }));
  } else if (name === 'RD') {
    parts.push(svgEl('rect', { x: 12, y: 12, width: 36, height: 56, rx: 4, fill: 'none', stroke: INK.crak, 'stroke-width': 4 }), svgEl('path', { d: 'M20 30 H40 V48 H20 Z M30 18 V62', fill: 'none', stroke: INK.crak, 'stroke-width': 5 }));
  } else if (name === 'GD') {
    parts.push(svgEl('path', { d: 'M30 14 C12 28 12 40 30 48 C48 40 48 28 30 14 Z M30 48 L30 70 M18 62 L30 54 L42 62', fill: 'none', stroke: INK.green, 'stroke-width': 4 }));
  } else if (name === 'WD') {
    parts.push(svgEl('rect', { x: 10, y: 10, width: 40, height: 60, rx: 3, fill: 'none', stroke: INK.soap, 'stroke-width': 4 }), svgEl('rect', { x: 17, y: 17, width: 26, height: 46, rx: 2, fill: 'none', stroke: INK.soap, 'stroke-width': 2 }));
  } else if (name === 'F') {
    for (let i = 0; i < 5; i++) parts.push(svgEl('ellipse', { cx: 30, cy: 24, rx: 7, ry: 12, fill: '#d77fe6', stroke: INK.flower, 'stroke-width': 2, transform: `rotate(${i * 72} 30 36)` }));
    parts.push(svgEl('circle', { cx: 30, cy: 36, r: 6, fill: '#f4c20d' }), svgEl('path', { d: 'M30 48 L30 74', stroke: INK.bam, 'stroke-width': 3 }));
  } else if (name === 'J') {
    parts.push(svgEl('path', { d: 'M30 8 L37 28 L56 28 L41 40 L47 60 L30 48 L13 60 L19 40 L4 28 L23 28 Z', fill: '#f4c20d', stroke: INK.joker, 'stroke-width': 2 }), text(30, 71, 14, INK.joker, 'JOKER', { 'font-family': 'sans-serif' }));
  }
  return svgEl('svg', { class: 'classic', viewBox: '0 0 60 80', 'aria-hidden': 'true', focusable: 'false' }, parts);
}

/**
 * Tile names inside the server's sentences ("discard 5B", "pass 3C 7D N") in words:
 * "discard 5 Bam". Only whole tokens that are plainly tiles are changed (suited tiles,
 * dragons, flower, joker), so line names such as "2468 #1" stay as they are.
 * @param {string | null | undefined} text
 * @returns {string}
 */
export function tilesInWords(text) {
  return String(text ?? '')
    .replace(/\b([1-9][BCD]|GD|RD|WD)\b/g, (m) => tileLabel(m))
    // a lone capital N E W S F J between spaces or commas is a tile ("pass N, 7D")
    .replace(/(^|[\s,(])([NEWSFJ])(?=$|[\s,.;:)])/g, (_, before, t) => before + tileLabel(t));
}
