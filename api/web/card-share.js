// Share a card (issue 44): the controls the card editor (My card) shows beside each of her saved
// cards, and the words for a card shared with her. A card is shared read-only by a code of 8
// letters and digits (api/http/routes/card-sharing.ts): whoever has the code opens it on
// shared-card.html, plays on it and chooses a hand with it, and sees her changes; she alone
// changes it, and stopping sharing makes the code open nothing. Importing this module starts
// nothing: the page calls shareControls(name, title) for each of her own cards.

import { call, errorCode, errorWords } from './client.js';
import { SHARED_CARD } from './chosen-card.js';

/** @import { SavedCard } from './types.js' */

/** A card she shares (GET /api/card-shares, POST /api/cards/:name/share): its name and its code. @typedef {{ name: string, code: string }} Share */

/**
 * Her shares, asked once for every control on the page (GET /api/card-shares), asked again after a change.
 * @type {Promise<Share[]> | null}
 */
let mine = null;
/** @returns {Promise<Share[]>} */
const shares = () => (mine ??= call('GET', '/api/card-shares').then((r) => r.shares, () => []));

/** Forgets the shares asked for (after signing in or out): the next controls ask again. */
export function forgetShares() { mine = null; }

/** The address that opens a shared card, on this server. */
export const shareAddress = (/** @type {string} */ code) => `${location.origin}/shared-card.html?code=${encodeURIComponent(code)}`;

/** Whether a name from GET /api/cards is a card shared with her (shared:CODE): read-only, its owner's. */
export const isSharedCard = (/** @type {string | null | undefined} */ name) => SHARED_CARD.test(name ?? '');

/** The code of a shared card's name (shared:CODE), or null. */
export const sharedCodeOf = (/** @type {string | null | undefined} */ name) => SHARED_CARD.exec(name ?? '')?.[1] ?? null;

/**
 * Who shares a card on her list (a GET /api/cards entry with `owner`), in one sentence:
 * "Shared with you by Rose, your coach; only she can change it."
 * @param {SavedCard & { coach?: boolean }} card
 */
export function sharedFromWords(card) {
  return `Shared with you by ${card.owner}${card.coach ? ', your coach' : ''}; only she can change it.`;
}

/**
 * Takes a shared card off her list of cards (the card stays its owner's). Resolves once done; throws the server's sentence.
 * @param {string} name
 */
export async function takeOffList(name) {
  const code = sharedCodeOf(name);
  if (code === null) throw new Error('That is not a card shared with you.');
  await call('DELETE', `/api/shared-cards/${code}/keep`);
}

/**
 * The share controls for one of her saved cards: "Share it" gives the code and the link (with
 * a Copy button each) and "Stop sharing"; a card shared already shows its code at once. `name`
 * is the saved card's name (PUT /api/cards/:name), `title` its own title, named to screen
 * readers on every control. Returns the element to place beside the card.
 * @param {string} name
 * @param {string} title
 */
export function shareControls(name, title) {
  const box = document.createElement('div');
  box.className = 'share-controls';
  box.setAttribute('role', 'group');
  box.setAttribute('aria-label', `Share ${title}`);
  const said = document.createElement('p');
  said.className = 'share-said';
  said.setAttribute('role', 'status');

  /** @param {Share | null} share */
  const show = (share) => {
    if (!share) {
      const go = control('Share it', title, async () => {
        go.disabled = true;
        try {
          const r = await call('POST', `/api/cards/${encodeURIComponent(name)}/share`);
          mine = null;
          show(r);
          said.textContent = 'Shared: give the code or the link to the players you choose. They can play on it but never change it.';
        } catch (err) {
          go.disabled = false;
          said.textContent = errorCode(err) === 'TM_UNAUTHORIZED' ? 'Sign in first (on My games): a shared card shows the name of the player who shares it.' : `The card could not be shared: ${errorWords(err)}`;
        }
      });
      box.replaceChildren(go, said);
      return;
    }
    const link = shareAddress(share.code);
    const code = document.createElement('p');
    code.className = 'share-code';
    code.append('Code: ', Object.assign(document.createElement('strong'), { textContent: share.code }));
    const address = document.createElement('p');
    address.className = 'share-link';
    const a = Object.assign(document.createElement('a'), { href: link, textContent: link });
    address.append('Link: ', a);
    const row = document.createElement('p');
    row.className = 'save-row';
    const copyCode = control('Copy the code', title, () => copy(share.code, 'The code is copied.'));
    const copyLink = control('Copy the link', title, () => copy(link, 'The link is copied.'));
    const stop = control('Stop sharing', title, async () => {
      if (!confirm(`Stop sharing ${title}? The code ${share.code} will stop working for everyone who has it.`)) return;
      stop.disabled = true;
      try {
        await call('DELETE', `/api/cards/${encodeURIComponent(name)}/share`);
        mine = null;
        show(null);
        said.textContent = 'No longer shared: the code opens nothing now.';
      } catch (err) {
        stop.disabled = false;
        said.textContent = `Sharing could not be stopped: ${errorWords(err)}`;
      }
    });
    row.append(copyCode, copyLink, stop);
    box.replaceChildren(code, address, row, said);
  };

  /**
   * @param {string} text
   * @param {string} done
   */
  async function copy(text, done) {
    try {
      await navigator.clipboard.writeText(text);
      said.textContent = done;
    } catch {
      said.textContent = `Copy it by hand: ${text}`;
    }
  }

  show(null);
  shares().then((all) => { const s = all.find((x) => x.name === name); if (s) show(s); });
  return box;
}

/**
 * A button whose visible words start its name, then the card it acts on for screen readers.
 * @param {string} text
 * @param {string} title
 * @param {() => void} onClick
 */
function control(text, title, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'btn btn-quiet';
  const extra = document.createElement('span');
  extra.className = 'sr-only';
  extra.textContent = `: ${title}`;
  b.replaceChildren(text, extra);
  b.addEventListener('click', onClick);
  return b;
}
