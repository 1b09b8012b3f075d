// The card the player chose (issue 29, "the card follows her"): one of her saved cards
// (api/http/routes/cards.ts), kept by name in this browser's localStorage so that every page
// (Which hand?, the practice table, a table with friends) starts on it, after a reload too, and
// for a player without an account. '' is Tilemate's own practice card. An address that names
// one of her saved cards (?card=name, as My card's links do) chooses it. A card shared with her
// (api/http/routes/card-sharing.ts) is chosen the same way by its reference, shared:CODE, once
// it is on her list of cards (kept from the shared card's page, or offered by her coach).
// Signed in, her choice is kept with her account too (issue 62, PUT /api/chosen-card), and a
// page that checks it against her cards (checkChosen, with GET /api/cards's `chosen`) starts on
// her account's choice, so a phone or a new browser signed in to it starts on the same card;
// a choice made in this browser and not yet kept there (no connection just then) wins, and is
// sent again. Signed out, each browser keeps its own, as before.

import { call, errorCode } from './client.js';

/** @import { SavedCard } from './types.js' */

const KEY = 'tilemate-card';
/** '1' while the choice made in this browser is not yet kept with her account (its PUT unanswered, or failed). */
const UNSAVED_KEY = 'tilemate-card-unsaved';
/** A card shared with her by its code (api/store/card-shares.ts: 8 of these letters and digits). */
export const SHARED_CARD = /^shared:([2-9A-HJKMNP-Z]{8})$/;
/** A saved card's name (api/http/routes/cards.ts), or a shared card's reference. */
export const CARD_NAME = /^(?:[a-z0-9][a-z0-9-]{0,39}|shared:[2-9A-HJKMNP-Z]{8})$/;

/** A choice was made on this page: newer than any the page was told of by the server. */
let chosenHere = false;
/** The choice being sent to her account just now, so that it is sent once. @type {string | null} */
let sending = null;
/** The choices sent, in turn. @type {Promise<void>} */
let queue = Promise.resolve();

/** @param {string} name */
function keep(name) {
  try {
    if (name && CARD_NAME.test(name)) localStorage.setItem(KEY, name);
    else localStorage.removeItem(KEY);
  } catch { /* private mode: this page only */ }
}

/** Whether this browser's choice waits to be kept with her account. */
function unsaved() {
  try { return localStorage.getItem(UNSAVED_KEY) === '1'; } catch { return false; }
}

/** @param {boolean} on */
function markUnsaved(on) {
  try {
    if (on) localStorage.setItem(UNSAVED_KEY, '1');
    else localStorage.removeItem(UNSAVED_KEY);
  } catch { /* private mode */ }
}

/**
 * Keeps the choice with her account (PUT /api/chosen-card). Signed out (401), or a card the
 * server will not keep (404), it stays this browser's alone; with no connection it is sent again
 * by the next page that checks it.
 * @param {string} name
 */
function sendChoice(name) {
  if (sending === name) return;
  sending = name;
  markUnsaved(true);
  // one after another, so that her account ends on the last choice made here
  queue = queue.then(() => call('PUT', '/api/chosen-card', { card: name }).then(
    () => { if (chosenCard() === name) markUnsaved(false); },
    (err) => { if (['TM_UNAUTHORIZED', 'TM_NOT_FOUND', 'TM_BAD_INPUT'].includes(errorCode(err)) && chosenCard() === name) markUnsaved(false); },
  )).finally(() => { if (sending === name) sending = null; });
}

/** The chosen card's name, or '' for the practice card. */
export function chosenCard() {
  let name = '';
  try { name = localStorage.getItem(KEY) ?? ''; } catch { /* private mode: the practice card */ }
  return CARD_NAME.test(name) ? name : '';
}

/**
 * Chooses a saved card for every page ('' goes back to the practice card).
 * @param {string} name
 */
export function chooseCard(name) {
  const card = name && CARD_NAME.test(name) ? name : '';
  keep(card);
  chosenHere = true;
  // signed in, it follows her to her other devices (signed out, the server says so and it stays here)
  sendChoice(card);
}

/** The card a page starts on: the one its address names (?card=name), else the chosen one. */
export function startingCard(search = location.search) {
  const asked = new URLSearchParams(search).get('card');
  return asked !== null && CARD_NAME.test(asked) ? asked : chosenCard();
}

/**
 * The starting card checked against her saved cards (`cards` from GET /api/cards) and, signed
 * in, against the card chosen with her account (`account`, that answer's `chosen`: undefined
 * signed out, null when she has chosen none signed in). Her account's choice is used unless the
 * address names a card, or the choice made in this browser is not yet kept with her account.
 * One of her cards, it is chosen for every page (a card named by the address too, and kept
 * with her account); not among them (deleted, or a link from someone else's browser), the
 * practice card is used, a kept choice of it forgotten, with a sentence saying so.
 * @param {string} name
 * @param {readonly { name: string }[]} cards
 * @param {string | null} [account]
 * @returns {{ name: string, note: string }}
 */
export function checkChosen(name, cards, account) {
  const asked = new URLSearchParams(location.search).get('card');
  const fromAddress = name !== '' && asked === name;
  if (typeof account === 'string' && (account === '' || CARD_NAME.test(account)) && !fromAddress && !unsaved() && !chosenHere) {
    name = account;
    keep(account);
  }
  const kept = checkedName(name, cards);
  // signed in: what this browser uses now is her account's choice too
  if (account !== undefined && kept.name !== (account ?? '')) sendChoice(kept.name);
  return kept;
}

/**
 * @param {string} name
 * @param {readonly { name: string }[]} cards
 * @returns {{ name: string, note: string }}
 */
function checkedName(name, cards) {
  if (!name) return { name: '', note: '' };
  if (cards.some((c) => c.name === name)) { keep(name); return { name, note: '' }; }
  if (chosenCard() === name) keep('');
  if (SHARED_CARD.test(name)) return { name: '', note: 'The shared card you chose is no longer on your list of cards, so the practice card is used.' };
  return { name: '', note: `The card "${name}" is not among your saved cards, so the practice card is used.` };
}

/**
 * How a card is called on a page: its own title, and its saved name when they differ; a shared card's, by whom.
 * @param {SavedCard | null | undefined} card
 * @returns {string}
 */
export function cardWords(card) {
  if (!card) return 'the Tilemate practice card';
  if (card.owner) return `${card.title || 'a card'} (shared by ${card.owner})`;
  return card.title && card.title !== card.name ? `${card.title} (${card.name})` : card.name;
}
