// "A shared card" (issue 44, Share a card): a card another player shares, opened by its code
// (typed in the box, or ?code= in the link she gave). It shows the card's title, whose it is
// and its lines, read-only: there is nothing here to change it. Playing on it, choosing a hand
// with it or making it her card keeps it on her list of cards as shared:CODE
// (POST /api/shared-cards/:code/keep), so every page offers it (chosen-card.js), always as its
// owner has it now.

import { chooseCard, chosenCard } from './chosen-card.js';
import { call } from './client.js';
import { printedLineView } from './card-editor.js';

const $ = (id) => document.getElementById(id);

function busy(on) {
  busy.n = (busy.n ?? 0) + (on ? 1 : -1);
  document.body.dataset.busy = String(busy.n);
}

/** The card open now (GET /api/shared-cards/:code), or null. */
let card = null;

/** How the pages choose it: her own card by its name, another's by shared:CODE. */
const reference = () => (card.yours && card.name ? card.name : card.reference);

async function open(typed) {
  const code = typed.trim();
  $('open-message').textContent = '';
  $('use-message').textContent = '';
  if (code === '') { $('open-message').textContent = 'Type the code you were given, then press Open it.'; return; }
  busy(true);
  try {
    card = await call('GET', `/api/shared-cards/${encodeURIComponent(code)}`);
    history.replaceState(null, '', `${location.pathname}?code=${encodeURIComponent(card.code)}`);
    $('share-code').value = card.code;
    await draw();
  } catch (err) {
    card = null;
    $('shared-panel').classList.add('hidden');
    $('lines-panel').classList.add('hidden');
    $('open-message').textContent = err.message;
  } finally {
    busy(false);
  }
}

/** The card's lines as its owner entered them, as printed (POST /api/cards/printed, then /api/cards/read for each line's groups and a hand). */
async function printedLines(text) {
  const { card: printed } = await call('POST', '/api/cards/printed', { text });
  const reading = await call('POST', '/api/cards/read', { card: printed });
  const lines = printed.sections.flatMap((s) => s.lines);
  return reading.lines.map((rl, i) => ({ rl, line: lines[i] })).filter((x) => x.rl.notation !== null);
}

async function draw() {
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
    $('lines-note').textContent = `The lines could not be shown just now: ${err.message}`;
  }
  $('shared-panel').classList.remove('hidden');
  $('lines-panel').classList.remove('hidden');
}

/** Whether it is on her list of cards, and how. */
function drawKept() {
  $('card-kept').textContent = card.yours ? 'It is among your saved cards.'
    : card.coach ? `${card.owner} is your coach, so her shared cards are on your list of cards.`
    : card.kept ? 'It is on your list of cards, so every page can use it.'
    : 'Playing on it, or making it your card, puts it on your list of cards; you can take it off again.';
  $('take-off').classList.toggle('hidden', !card.kept);
}


/** Puts it on her list of cards (once), so that the page she goes to offers it; false when it could not be. */
async function listed() {
  if (card.yours || card.coach || card.kept) return true;
  busy(true);
  try {
    await call('POST', `/api/shared-cards/${encodeURIComponent(card.code)}/keep`);
    card.kept = true;
    drawKept();
    return true;
  } catch (err) {
    $('use-message').textContent = `It could not be put on your list of cards: ${err.message}`;
    return false;
  } finally {
    busy(false);
  }
}

$('open-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  open($('share-code').value);
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
    $('use-message').textContent = `It could not be taken off your list: ${err.message}`;
  } finally {
    busy(false);
  }
});

const asked = new URLSearchParams(location.search).get('code');
if (asked) {
  $('share-code').value = asked.slice(0, 20);
  open(asked.slice(0, 20));
}
