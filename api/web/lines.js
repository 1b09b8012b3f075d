// One card line as the analyzer pages show it: tiles away, the closest form tile by tile
// (have / a joker can fill / still needed), and the same tiles in words, both read from the
// API's marks so the picture and the sentence can never disagree.

import { tileElement, tileLabel } from './tiles.js';

/** @import { AnalysisLine, Simulated, Tile } from './types.js' */
/** @import { TileOptions } from './tiles.js' */

/** @type {Record<string, [string, string]>} */
const MARKS = {
  have: ['have', 'you have it'],
  exposed: ['have', 'exposed on your rack'],
  joker: ['joker-can', 'missing; a joker can fill it'],
  need: ['need', 'missing; only this tile will do'],
};

/** The key to the colours, as tiles the size of the words. */
export function LEGEND() {
  const box = document.createElement('p');
  box.className = 'legend';
  for (const [cls, words] of [['have', 'you have it'], ['have by-joker', 'your joker stands in'], ['joker-can', 'missing, a joker can fill it'], ['need', 'missing, only that tile will do']]) {
    const item = document.createElement('span');
    const t = document.createElement('span');
    t.className = `tile size-key ${cls}`;
    t.setAttribute('aria-hidden', 'true');
    item.append(t, ` ${words}`);
    box.append(item);
  }
  return box;
}

/**
 * What the marks say in words: the missing tiles, those a joker can fill, those your jokers already fill.
 * @param {AnalysisLine} line
 */
export function marksInWords(line) {
  const tiles = (line.groups ?? []).flat();
  const missing = tiles.filter((t) => t.status === 'need' || t.status === 'joker').map((t) => t.tile);
  const jokerCan = tiles.filter((t) => t.status === 'joker').map((t) => t.tile);
  const byJoker = tiles.filter((t) => t.status === 'have' && t.joker).map((t) => t.tile);
  return { missing, jokerCan, byJoker };
}

/**
 * A tile for these pages: named by what it shows (no aria-label that could differ from its
 * visible words), with the mark's meaning in words for screen readers.
 * @template {boolean} [B=false]
 * @param {Tile} name
 * @param {TileOptions & { button?: B }} [opts]
 */
export function pageTile(name, opts = {}) {
  const el = tileElement(name, { ...opts, size: 'page' });
  el.removeAttribute('aria-label');
  if (opts.markLabel) {
    const extra = document.createElement('span');
    extra.className = 'sr-only';
    extra.textContent = `, ${opts.markLabel}`;
    el.append(extra);
  }
  return el;
}

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth', 'eleventh', 'twelfth'];

/**
 * A card line as players name it, by its section and its place there: "the second 2468 line",
 * as the advice says it (agents/mah-jongg/advice.ts lineName), read from the line's id ("2468 #2").
 * An id of another shape is said as it is.
 * @param {string} id
 * @returns {string}
 */
export function lineName(id) {
  const m = /^(.+) #(\d{1,3})$/.exec(id.trim());
  if (!m) return `the line ${id}`;
  const n = Number(m[2]);
  return n >= 1 && n <= ORDINALS.length ? `the ${ORDINALS[n - 1]} ${m[1]} line` : `line ${n} under ${m[1]}`;
}

/** A group of the card's notation ("1111a", "NNN|SSS", "2026a", "RG0"), or what joins groups ("+", "=", "or"). */
const NOTATION = '(?:[0-9A-Z|]+[abc]?)(?: (?:[0-9A-Z|]+[abc]?|[+=]|or))*';
/** A line in the card's notation followed by its id, and what more the brackets say: "FF 2468a 4444b 888b (2468 #2, 25 points)". */
const LINE_IN_NOTATION = new RegExp(String.raw`(^|[\s"“(:])(${NOTATION}) \(([^(),]+ #\d{1,3})(?:, ([^()]*))?\)`, 'g');

/**
 * The server's sentences with each card line named as players name it rather than written in the
 * card's notation, which a beginner cannot read: "You made Mah Jongg with FFF 2468a 4444b 888b
 * (2468 #2, a 25-point hand)" becomes "You made Mah Jongg with the second 2468 line (a 25-point
 * hand)". A sentence that begins with a line begins with a capital.
 * @param {string | null | undefined} text
 * @returns {string}
 */
export function plainLines(text) {
  return String(text ?? '').replace(LINE_IN_NOTATION, (_, before, _form, id, more, at, all) => {
    const name = lineName(id);
    const first = /** @type {number} */ (at) === 0 || /[.!?]\s*$/.test(String(all).slice(0, at + before.length));
    return `${before}${first ? name.charAt(0).toUpperCase() + name.slice(1) : name}${more ? ` (${more})` : ''}`;
  });
}

/** @param {number} x */
const percent = (x) => Math.round(x * 100);
const COUNT_WORDS = ['', 'a', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'];

/**
 * Tiles counted as a player says them: "a Flower, two 9 Craks and three Green Dragons".
 * @param {Tile[]} tiles
 */
function countedLabel(tiles) {
  /** @type {Map<Tile, number>} */
  const counts = new Map();
  for (const t of tiles) counts.set(t, (counts.get(t) ?? 0) + 1);
  const words = [...counts].map(([t, n]) => (n === 1 ? `${/^[8E]/.test(tileLabel(t)) ? 'an' : 'a'} ${tileLabel(t)}` : `${COUNT_WORDS[n] ?? n} ${tileLabel(t)}s`));
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

/**
 * A line's chance in one sentence: "about 62 times in 100", "about once in 100", "almost never".
 * @param {number} chance
 */
export function chanceWords(chance) {
  const n = percent(chance);
  if (n === 0) return 'In practice deals this line was almost never finished from here.';
  return `In practice deals this line was finished about ${n === 1 ? 'once' : `${n} times`} in 100.`;
}

/**
 * A line's heading: its name (concealed or not) and how far away it is.
 * @param {AnalysisLine} line
 */
export function lineHeading(line) {
  const h = document.createElement('h3');
  const id = document.createElement('span');
  id.textContent = `${line.id}${line.concealed ? ' (concealed)' : ''}`;
  const away = document.createElement('span');
  away.className = 'away';
  away.textContent = !line.possible ? 'out of reach' : line.tilesAway === 0 ? 'Mah Jongg!' : `${line.tilesAway} tile${line.tilesAway === 1 ? '' : 's'} away`;
  h.append(id, away);
  return h;
}

/**
 * A line: its name and tiles away, the form tile by tile, one sentence of what is missing, numbers behind "details".
 * @param {AnalysisLine} line
 * @param {Simulated | null} [simulated]
 * @param {string | null} [simulateError]
 */
export function lineElement(line, simulated, simulateError) {
  const el = document.createElement('article');
  el.className = 'card-line chase-line';
  el.dataset.id = line.id;
  el.dataset.away = String(line.possible ? line.tilesAway : -1);
  el.append(lineHeading(line));

  const row = document.createElement('div');
  row.className = 'tile-row form';
  for (const group of line.groups ?? []) {
    const g = document.createElement('span');
    g.className = 'form-word';
    for (const t of group) {
      const [cls, words] = MARKS[t.status] ?? MARKS.need;
      const byJoker = t.status === 'have' && t.joker;
      g.append(pageTile(t.tile, { mark: byJoker ? `${cls} by-joker` : `${cls} mark-${t.status}`, markLabel: byJoker ? 'your joker stands in' : words }));
    }
    row.append(g);
  }
  el.append(row);

  const { missing, jokerCan, byJoker } = marksInWords(line);
  const needs = document.createElement('p');
  needs.className = 'needs';
  const parts = [];
  if (!line.possible) parts.push(`Out of reach: ${line.reason.replace(/^out: /, '')}.`);
  else if (missing.length === 0) parts.push(`Complete! It is worth ${line.value} points.`);
  else {
    parts.push(`Still needed: ${countedLabel(missing)}.`);
    if (jokerCan.length) parts.push(jokerCan.length < missing.length ? `A joker can take the place of ${countedLabel(jokerCan)}.` : missing.length === 1 ? 'A joker can take its place.' : 'A joker can take the place of any of them.');
  }
  if (byJoker.length) parts.push(`Your joker${byJoker.length === 1 ? '' : 's'} already stand${byJoker.length === 1 ? 's' : ''} in for ${countedLabel(byJoker)}.`);
  needs.textContent = parts.join(' ');
  needs.dataset.missing = missing.join(' ');
  el.append(needs);

  if (simulated && typeof simulated.chance === 'number') {
    const c = document.createElement('p');
    c.className = 'chance';
    c.textContent = chanceWords(simulated.chance);
    el.append(c);
  } else if (simulateError) {
    const c = document.createElement('p');
    c.className = 'chance';
    c.textContent = `The chances could not be worked out: ${simulateError}`;
    el.append(c);
  }

  const d = document.createElement('details');
  const s = document.createElement('summary');
  s.textContent = 'Details';
  const facts = [
    `Worth ${line.value} points${line.concealed ? ', concealed' : ''}.`,
    `Closest form: ${line.form || 'none'}.`,
    `Unseen tiles that would help: ${line.outs}.`,
  ];
  if (simulated && typeof simulated.chance === 'number') facts.push(`Chance ${percent(simulated.chance)}%, expected score ${simulated.expectedScore} points, over ${simulated.deals} simulated deals.`);
  const p = document.createElement('p');
  p.textContent = facts.join(' ');
  d.append(s, p);
  el.append(d);
  return el;
}
