// The card the player chose (issue 29, "the card follows her"): one of her saved cards
// (api/http/routes/cards.ts), kept by name in this browser's localStorage so that every page
// (Which hand?, the practice table, a table with friends) starts on it, after a reload too, and
// for a player without an account. '' is Tilemate's own practice card. An address that names
// one of her saved cards (?card=name, as My card's links do) chooses it. A card shared with her
// (api/http/routes/card-sharing.ts) is chosen the same way by its reference, shared:CODE, once
// it is on her list of cards (kept from the shared card's page, or offered by her coach).

/** @import { SavedCard } from './types.js' */

const KEY = 'tilemate-card';
/** A card shared with her by its code (api/store/card-shares.ts: 8 of these letters and digits). */
export const SHARED_CARD = /^shared:([2-9A-HJKMNP-Z]{8})$/;
/** A saved card's name (api/http/routes/cards.ts), or a shared card's reference. */
export const CARD_NAME = /^(?:[a-z0-9][a-z0-9-]{0,39}|shared:[2-9A-HJKMNP-Z]{8})$/;

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
  try {
    if (name && CARD_NAME.test(name)) localStorage.setItem(KEY, name);
    else localStorage.removeItem(KEY);
  } catch { /* private mode: this page only */ }
}

/** The card a page starts on: the one its address names (?card=name), else the chosen one. */
export function startingCard(search = location.search) {
  const asked = new URLSearchParams(search).get('card');
  return asked !== null && CARD_NAME.test(asked) ? asked : chosenCard();
}

/**
 * The starting card checked against her saved cards (`cards` from GET /api/cards): one of
 * them, it is chosen for every page (a card named by the address too); not among them
 * (deleted, or a link from someone else's browser), the practice card is used, a kept choice
 * of it forgotten, with a sentence saying so.
 * @param {string} name
 * @param {readonly { name: string }[]} cards
 * @returns {{ name: string, note: string }}
 */
export function checkChosen(name, cards) {
  if (!name) return { name: '', note: '' };
  if (cards.some((c) => c.name === name)) { chooseCard(name); return { name, note: '' }; }
  if (chosenCard() === name) chooseCard('');
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
