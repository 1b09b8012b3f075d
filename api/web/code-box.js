// A club's card reached by hand (issue 62): the box on My card and on the practice table's page
// where she types the code of a shared card (api/http/routes/card-sharing.ts) as a person types
// it from a printed sheet: small letters, spaces, dashes of any kind, "shared:" before it, or the
// whole link pasted. A code that cannot be one is answered at once in one sentence naming what
// is wrong; a code of the right shape is asked of the server (GET /api/shared-cards/:code, on
// the budget that holds an address to a few dozen codes a minute), and the card it opens is
// shown on the shared card's page, exactly as its link opens it; a code that opens nothing gets
// the server's one sentence. Importing this module starts nothing: a page calls wireCodeBox.

import { call, errorWords } from './client.js';

/** The letters and digits of a code (api/store/card-shares.ts: none that looks like another). */
const ALPHABET = /^[2-9A-HJKMNP-Z]+$/;
/** Characters in a code. */
const LENGTH = 8;
/** What the box takes at most: a code with room for spaces, or a link to one. */
export const CODE_BOX_MAX = 100;
/** Spaces, hyphens and every dash a keyboard or a phone's autocorrect puts in, dots and underscores. */
const SEPARATORS = /[\s\-\u2010-\u2015\u2212\u00ad_.]+/g;

/** The look-alikes a code never has, named as she reads them. */
const LOOK_ALIKES = /** @type {Record<string, string>} */ ({
  O: 'the letter O',
  0: 'a zero',
  I: 'the letter I',
  L: 'the letter L',
  1: 'a one',
});

/**
 * A code as she typed it, made a code: `{ code }`, or `{ problem }`, one sentence naming what is
 * wrong with it. Never throws, whatever it is given.
 * @param {string} typed
 * @returns {{ code: string, problem?: undefined } | { problem: string, code?: undefined }}
 */
export function readCode(typed) {
  let text = String(typed ?? '').trim();
  if (text === '') return { problem: 'Type the card code you were given, then press Open the card.' };
  if (text.length > CODE_BOX_MAX) return { problem: 'That is much longer than a card code, which has 8 letters and digits.' };
  // the link itself, pasted: its code
  const inLink = /[?&]code=([^&#\s]*)/i.exec(text);
  if (inLink) {
    try { text = decodeURIComponent(inLink[1]); } catch { text = inLink[1]; }
  }
  text = text.normalize('NFKC').replace(/^shared:/i, '').replace(SEPARATORS, '').toUpperCase();
  if (text === '') return { problem: 'Type the card code you were given, then press Open the card.' };
  const odd = [...text].find((c) => !/^[A-Z0-9]$/.test(c));
  if (odd !== undefined) return { problem: `A card code has only letters and digits, so "${odd}" is not part of it.` };
  const lookAlike = [...text].find((c) => !ALPHABET.test(c));
  if (lookAlike !== undefined) return { problem: `A card code never has ${LOOK_ALIKES[lookAlike] ?? `"${lookAlike}"`} in it, so check that character on the sheet.` };
  if (text.length !== LENGTH) return { problem: `A card code has 8 letters and digits, and this one has ${text.length}.` };
  return { code: text };
}

/**
 * Wires a code box: a form holding the input and its submit button, and the element for its
 * sentence. A code that opens a card goes to the shared card's page, as its link does.
 * @param {{ form: HTMLFormElement, input: HTMLInputElement, message: HTMLElement, busy?: (on: boolean) => void }} box
 */
export function wireCodeBox({ form, input, message, busy = () => {} }) {
  let asking = false;
  // a sentence about what was typed goes once she types again
  input.addEventListener('input', () => { message.textContent = ''; });
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    if (asking) return;
    const read = readCode(input.value);
    if (read.problem !== undefined) { message.textContent = read.problem; input.focus(); return; }
    const code = read.code;
    message.textContent = '';
    asking = true;
    busy(true);
    try {
      await call('GET', `/api/shared-cards/${encodeURIComponent(code)}`);
      location.href = `shared-card.html?code=${encodeURIComponent(code)}`;
    } catch (err) {
      message.textContent = errorWords(err);
      input.focus();
    } finally {
      asking = false;
      busy(false);
    }
  });
}
