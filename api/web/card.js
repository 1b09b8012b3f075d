// The card panel: for the person's current rack, each line's tiles away and its closest
// form, every tile of the form coloured as players expect: have / a joker can fill /
// still needed.

import { errorWords } from './client.js';
import { lineHeading } from './lines.js';
import { tileElement, tilesLabel } from './tiles.js';

/** @import { AnalysisLine, CardAnswer } from './types.js' */

/** @type {Record<string, [string, string]>} */
const MARKS = {
  have: ['have', 'you have it'],
  exposed: ['have exposed', 'exposed on your rack'],
  joker: ['joker-can', 'a joker can fill it'],
  need: ['need', 'still needed'],
};

function legend() {
  const box = document.createElement('div');
  box.className = 'legend';
  for (const key of ['have', 'joker', 'need']) {
    const [cls, words] = MARKS[key];
    const item = document.createElement('span');
    const t = document.createElement('span');
    t.className = `tile size-small ${cls}`;
    item.append(t, ` ${words}`);
    box.append(item);
  }
  const j = document.createElement('span');
  const t = document.createElement('span');
  t.className = 'tile size-small have by-joker';
  j.append(t, ' your joker stands in');
  box.append(j);
  return box;
}

/**
 * One line: id, tiles away, value, and the closest form with each tile marked.
 * @param {AnalysisLine} line
 */
function lineElement(line) {
  const el = document.createElement('div');
  el.className = 'card-line';
  el.append(lineHeading(line));
  const row = document.createElement('div');
  row.className = 'tile-row';
  for (const group of line.groups ?? []) {
    for (const t of group) {
      const [cls, words] = MARKS[t.status] ?? MARKS.need;
      // a joker of the rack standing in: the tile it stands for, marked J
      const byJoker = t.status === 'have' && t.joker;
      row.append(tileElement(t.tile, { size: 'small', mark: byJoker ? `${cls} by-joker` : cls, markLabel: byJoker ? 'your joker stands in' : words }));
    }
    const gap = document.createElement('span');
    gap.className = 'gap';
    row.append(gap);
  }
  el.append(row);
  const needs = document.createElement('p');
  needs.className = 'needs';
  const need = line.need ?? [];
  needs.textContent = !line.possible
    ? (line.whyNot ?? 'Out of reach now.')
    : need.length === 0
      ? `Complete. Worth ${line.value}.`
      : `Still needed: ${tilesLabel(need)}${line.jokerSlots ? ` (a joker can fill ${line.jokerSlots})` : ''}. Worth ${line.value}.`;
  el.append(needs);
  return el;
}

/** How many lines the panel lists: the closest, as a player scans the card. */
const TOP = 12;

/**
 * The panel for the table's rack now: asked of the server once per rack, exposures and table.
 * @param {HTMLElement} panel
 * @param {{ view: { rack: string[], discards: string[][], exposures: unknown } | null, card: unknown, cardKey: string | null }} ui
 * @param {{ request(method: string, path: string): Promise<CardAnswer> }} live
 */
export async function renderCard(panel, ui, live) {
  const v = /** @type {NonNullable<typeof ui.view>} */ (ui.view);
  // the analysis changes with the rack, the exposures and the tiles seen on the table
  const key = `${v.rack.join(',')}|${v.discards.map((d) => d.length).join('.')}|${JSON.stringify(v.exposures)}`;
  if (ui.cardKey !== key) {
    ui.cardKey = key;
    try {
      ui.card = await live.request('GET', `/card?top=${TOP}`);
    } catch (err) {
      ui.card = { error: errorWords(err) };
    }
  }
  panel.replaceChildren();
  const h = document.createElement('h2');
  h.textContent = `The card: your ${TOP} closest lines`;
  panel.append(h, legend());
  const card = /** @type {CardAnswer} */ (ui.card);
  if (card.error) {
    const p = document.createElement('p');
    p.textContent = `The card could not be read just now: ${card.error}`;
    panel.append(p);
    return;
  }
  const lines = card.results ?? [];
  for (const line of lines) panel.append(lineElement(line));
  if (!lines.length) {
    const p = document.createElement('p');
    p.textContent = 'No line of the card is within reach of this rack.';
    panel.append(p);
  }
}

