// "A shared card" (issue 44, Share a card): a card another player shares, opened by its code
// (typed in the box, or ?code= in the link she gave). It shows the card's title, whose it is
// and its lines, read-only: there is nothing here to change it. Playing on it, choosing a hand
// with it or making it her card keeps it on her list of cards as shared:CODE
// (POST /api/shared-cards/:code/keep), so every page offers it (chosen-card.js), always as its
// owner has it now.

import { chooseCard, chosenCard } from './chosen-card.js';
import { call, errorWords } from './client.js';
import { printedLineView } from './card-editor.js';
import { readCode } from './code-box.js';
import { byId as $ } from './dom.js';

/**
 * A shared card as GET /api/shared-cards/:code answers: its code and reference (shared:CODE),
 * title, owner, lines and text; `yours` when she shares it herself, `kept` when it is on her list.
 * @typedef {{
 *   code: string, reference: string, name?: string, title: string, owner: string, coach?: boolean,
 *   yours?: boolean, kept?: boolean, lines: unknown[], text: string,
 * }} SharedCard
 */

/** Requests under way: body[data-busy] counts them (the browser tests wait on it). */
let waiting = 0;

/** @param {boolean} on */
function busy(on) {
  waiting += on ? 1 : -1;
  document.body.dataset.busy = String(waiting);
}

/** The card open now (GET /api/shared-cards/:code), or null. @type {SharedCard | null} */
let card = null;

/** The card open now: the buttons that use it act only once one is open. */
const opened = () => /** @type {SharedCard} */ (card);

/** How the pages choose it: her own card by its name, another's by shared:CODE. */
const reference = () => (opened().yours && opened().name ? /** @type {string} */ (opened().name) : opened().reference);

/** @param {string} typed */
async function open(typed) {
  $('open-message').textContent = '';
  $('use-message').textContent = '';
  // read as the other code boxes read it (code-box.js): a code that cannot be one is said at once
  const read = readCode(typed);
  if (read.problem !== undefined) { $('open-message').textContent = read.problem; return; }
  const code = read.code;
  busy(true);
  try {
    const shared = /** @type {SharedCard} */ (await call('GET', `/api/shared-cards/${encodeURIComponent(code)}`));
    card = shared;
    history.replaceState(null, '', `${location.pathname}?code=${encodeURIComponent(shared.code)}`);
    /** @type {HTMLInputElement} */ ($('share-code')).value = shared.code;
    await draw();
  } catch (err) {
    card = null;
    $('shared-panel').classList.add('hidden');
    $('lines-panel').classList.add('hidden');
    $('open-message').textContent = errorWords(err);
  } finally {
    busy(false);
  }
}

/** The card's lines as its owner entered them, as printed (POST /api/cards/printed, then /api/cards/read for each line's groups and a hand). */
/**
 * @param {string} text
 * @returns {Promise<{ rl: import('./card-editor.js').LineReading, line: import('./card-editor.js').PrintedLine }[]>}
 */
async function printedLines(text) {
  const { card: printed } = await call('POST', '/api/cards/printed', { text });
  const reading = await call('POST', '/api/cards/read', { card: printed });
  /** @type {import('./card-editor.js').PrintedLine[]} */
  const lines = printed.sections.flatMap((/** @type {{ lines: import('./card-editor.js').PrintedLine[] }} */ s) => s.lines);
  /** @type {import('./card-editor.js').LineReading[]} */
  const readings = reading.lines;
  return readings.map((rl, i) => ({ rl, line: lines[i] })).filter((x) => x.rl.notation !== null);
}

async function draw() {
  const card = opened();
  $('card-title').textContent = card.title;
  $('card-owner').textContent = card.yours
    ? 'This is your own card, shared with this code: whoever has the code sees your changes.'
    : `Shared by ${card.owner}${card.coach ? ', your coach' : ''}. Only ${card.owner} can change it, and you always see her latest version.`;
  drawKept();
  $('lines-note').textContent = `${card.lines.length === 1 ? 'One line' : `${card.lines.length} lines`}, each as the card prints it, with a hand that makes it.`;
  try {
    const shownCard = card;
    const lines = await printedLines(card.text);
    if (card === shownCard) $('card-lines').replaceChildren(...lines.map(({ rl, line }) => printedLineView(rl, line)));
  } catch (err) {
    $('card-lines').replaceChildren();
    $('lines-note').textContent = `The lines could not be shown just now: ${errorWords(err)}`;
  }
  $('shared-panel').classList.remove('hidden');
  $('lines-panel').classList.remove('hidden');
}

/** Whether it is on her list of cards, and how. */
function drawKept() {
  const card = opened();
  $('card-kept').textContent = card.yours ? 'It is among your saved cards.'
    : card.coach ? `${card.owner} is your coach, so her shared cards are on your list of cards.`
    : card.kept ? 'It is on your list of cards, so every page can use it.'
    : 'Playing on it, or making it your card, puts it on your list of cards; you can take it off again.';
  $('take-off').classList.toggle('hidden', !card.kept);
}


/** Puts it on her list of cards (once), so that the page she goes to offers it; false when it could not be. */
async function listed() {
  const card = opened();
  if (card.yours || card.coach || card.kept) return true;
  busy(true);
  try {
    await call('POST', `/api/shared-cards/${encodeURIComponent(card.code)}/keep`);
    card.kept = true;
    drawKept();
    return true;
  } catch (err) {
    $('use-message').textContent = `It could not be put on your list of cards: ${errorWords(err)}`;
    return false;
  } finally {
    busy(false);
  }
}

$('open-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  open(/** @type {HTMLInputElement} */ ($('share-code')).value);
});
$('play').addEventListener('click', async () => {
  if (card && await listed()) location.href = `./?card=${encodeURIComponent(reference())}`;
});
$('chase').addEventListener('click', async () => {
  if (card && await listed()) location.href = `chase.html?card=${encodeURIComponent(reference())}`;
});
$('make-mine').addEventListener('click', async () => {
  if (!card || !await listed()) return;
  chooseCard(reference());
  $('use-message').textContent = 'It is your card now: the practice table, Which hand? and tables with friends start on it.';
});
$('take-off').addEventListener('click', async () => {
  if (!card) return;
  busy(true);
  try {
    await call('DELETE', `/api/shared-cards/${encodeURIComponent(card.code)}/keep`);
    if (chosenCard() === card.reference) chooseCard('');
    card.kept = false;
    drawKept();
    $('use-message').textContent = 'It is off your list of cards; the code still opens it here.';
  } catch (err) {
    $('use-message').textContent = `It could not be taken off your list: ${errorWords(err)}`;
  } finally {
    busy(false);
  }
});

const asked = new URLSearchParams(location.search).get('code');
if (asked) {
  /** @type {HTMLInputElement} */ ($('share-code')).value = asked.slice(0, 100);
  open(asked.slice(0, 100));
}
