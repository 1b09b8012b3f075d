// One tournament game's result as a form (issues 47, 63): her score card on her phone and the
// Director's "Change a game" at the desk ask it the same way, with every case the rules score
// (standardized tournament rules 4.4, 11 and 14.4): who made Mah Jongg or a wall game, the
// hand's value, how she won, the exposures, no jokers; and behind "Something rare?" a game not
// finished in time, a Mah Jongg in error, East's dealt hand, a Singles and Pairs hand, a misnamed
// tile. The form shows only what its answer needs (its data-kind: won, wall, late, error).

import { el } from './dom.js';

/**
 * @typedef {{ winner: string | null, value?: number, selfPicked?: boolean, thrower?: string, exposures?: number, jokerless?: boolean, singlesAndPairs?: boolean, dead?: string[], incomplete?: boolean, heavenly?: boolean, misnamed?: boolean, intact?: string[] }} Result
 * @typedef {{ seat: string, short: string, long: string }} SeatLabel a seat and its player in a few words ("Rose (B)") and in full ("Rose (B, North)")
 */

/** The kind of answer a result is, as the form's data-kind says it. @param {Result | null} r */
export const resultKind = (r) => (r === null ? '' : r.incomplete ? 'late' : r.winner !== null ? 'won' : r.intact?.length ? 'error' : 'wall');

/**
 * A game's result in one sentence.
 * @param {Result} r @param {(seat: string) => string} seatWords
 */
export function resultWords(r, seatWords) {
  if (r.incomplete) return "Not finished in the round's time: everyone scores zero.";
  if (r.winner === null && r.intact?.length) return `A Mah Jongg in error ended the game, leaving ${r.intact.map(seatWords).join(' and ')} with a hand intact.`;
  if (r.winner === null) return `A wall game${r.dead?.length ? `; dead: ${r.dead.map(seatWords).join(', ')}` : ''}.`;
  const how = r.heavenly ? 'dealt to her as East' : r.selfPicked ? 'picked from the wall herself' : `on a discard by ${seatWords(r.thrower ?? '')}${r.misnamed ? ', who misnamed it' : ''}`;
  return `${seatWords(r.winner)} made Mah Jongg: a ${r.value}-point hand, ${how}${r.jokerless ? ', no jokers' : ''}.`;
}

/**
 * The result's fields, to put in `form` (which gets the class game-form): its inputs are named
 * and identified `${prefix}-winner`, `${prefix}-how`... The form shows what the answer chosen
 * needs, and nobody throws her own winning tile.
 * @param {HTMLFormElement} form @param {string} prefix @param {SeatLabel[]} seats @param {Result | null} r
 * @returns {HTMLElement[]}
 */
export function resultFields(form, prefix, seats, r) {
  const id = (/** @type {string} */ s) => `${prefix}-${s}`;
  const radio = (/** @type {string} */ name, /** @type {string} */ value, /** @type {string} */ text, /** @type {boolean} */ checked) =>
    el('label', { class: 'choice' }, el('input', { type: 'radio', name, value, checked }), ` ${text}`);
  const box = (/** @type {string} */ name, /** @type {string} */ value, /** @type {string} */ text, /** @type {boolean} */ checked) =>
    el('label', { class: 'choice' }, el('input', { type: 'checkbox', name, value, checked }), ` ${text}`);
  /** A choice as wide as the form. @param {HTMLElement} e */
  const wide = (e) => { e.classList.add('wide'); return e; };
  const kind = resultKind(r);
  form.classList.add('game-form');
  form.dataset.kind = kind;
  const fit = () => {
    const w = new FormData(form).get(id('winner'));
    form.dataset.kind = w === null ? '' : w === 'wall' || w === 'late' || w === 'error' ? String(w) : 'won';
    for (const x of /** @type {NodeListOf<HTMLInputElement>} */ (form.querySelectorAll(`input[name="${id('how')}"]`))) {
      const own = x.value === w;
      x.closest('label')?.classList.toggle('hidden', own);
      if (own) x.checked = false;
    }
  };
  // one listener a form, however often its fields are drawn again (they read the form as it is)
  if (form.dataset.fits !== prefix) form.addEventListener('change', fit);
  form.dataset.fits = prefix;
  queueMicrotask(fit);
  return [
    el('fieldset', {}, el('legend', { text: 'Who made Mah Jongg?' }),
      ...seats.map((s) => radio(id('winner'), s.seat, s.short, r?.winner === s.seat)),
      radio(id('winner'), 'wall', 'A wall game', kind === 'wall')),
    el('div', { class: 'if-won' },
      el('div', { class: 'game-numbers' },
        el('p', {}, el('label', { for: id('value'), text: "Her hand's value" }), el('br'), el('input', { id: id('value'), type: 'number', min: '1', max: '500', value: r?.value ?? '' })),
        el('p', {}, el('label', { for: id('exposures'), text: 'Her exposures' }), el('br'),
          el('select', { id: id('exposures') }, [0, 1, 2, 3, 4].map((x) => el('option', { value: String(x), text: String(x), selected: (r?.exposures ?? 0) === x }))))),
      el('fieldset', {}, el('legend', { text: 'How did she win?' }),
        radio(id('how'), 'self', 'From the wall', r?.selfPicked === true),
        ...seats.map((s) => radio(id('how'), s.seat, `Thrown by ${s.short}`, r?.thrower === s.seat))),
      el('label', { class: 'choice' }, el('input', { type: 'checkbox', id: id('jokerless'), checked: r?.jokerless === true }), ' No jokers in her hand')),
    // what happens rarely, behind a toggle (open when this game was one of them)
    el('details', { class: 'game-rare', open: Boolean(r?.incomplete || r?.intact?.length || r?.heavenly || r?.misnamed || r?.singlesAndPairs) },
      el('summary', { text: 'Something rare? (not finished, a Mah Jongg in error, a misnamed tile...)' }),
      el('div', { class: 'game-extras' },
        radio(id('winner'), 'late', 'Not finished in time (zero for everyone)', r?.incomplete === true),
        radio(id('winner'), 'error', 'A Mah Jongg in error ended it', kind === 'error'),
        el('div', { class: 'if-won wide game-extras' },
          radio(id('how'), 'heavenly', "East's dealt hand (no thrower)", r?.heavenly === true),
          el('label', { class: 'choice' }, el('input', { type: 'checkbox', id: id('pairs'), checked: r?.singlesAndPairs === true }), ' A Singles and Pairs hand'),
          wide(el('label', { class: 'choice' }, el('input', { type: 'checkbox', id: id('misnamed'), checked: r?.misnamed === true }), ' The thrower misnamed the tile (she pays 25)'))))),
    el('fieldset', { class: 'if-wall' }, el('legend', { text: 'Dead hands' }), ...seats.map((s) => box(id('dead'), s.seat, s.long, (r?.dead ?? []).includes(s.seat)))),
    el('fieldset', { class: 'if-error' }, el('legend', { text: 'Whose hand was left intact?' }), ...seats.map((s) => box(id('intact'), s.seat, s.long, (r?.intact ?? []).includes(s.seat)))),
  ];
}

/**
 * The result the form's fields say, or what is missing in words.
 * @param {HTMLFormElement} form @param {string} prefix @returns {{ result: Result } | { missing: string }}
 */
export function readResult(form, prefix) {
  const data = new FormData(form);
  const winner = data.get(`${prefix}-winner`);
  if (winner === null) return { missing: 'choose who made Mah Jongg, or a wall game' };
  const input = (/** @type {string} */ s) => /** @type {HTMLInputElement} */ (form.querySelector(`#${prefix}-${s}`));
  if (winner === 'late') return { result: { winner: null, incomplete: true } };
  if (winner === 'wall') return { result: { winner: null, dead: data.getAll(`${prefix}-dead`).map(String) } };
  if (winner === 'error') {
    const intact = data.getAll(`${prefix}-intact`).map(String);
    return intact.length === 0 ? { missing: 'tick whose hand was left intact' } : { result: { winner: null, intact } };
  }
  const how = data.get(`${prefix}-how`);
  if (how === null) return { missing: "say how she won: from the wall herself, on whose discard, or East's dealt hand" };
  return {
    result: {
      winner: String(winner),
      value: Number(input('value').value),
      ...(how === 'self' ? { selfPicked: true } : how === 'heavenly' ? { heavenly: true } : { thrower: String(how), ...(input('misnamed').checked ? { misnamed: true } : {}) }),
      exposures: Number(input('exposures').value),
      jokerless: input('jokerless').checked,
      singlesAndPairs: input('pairs').checked,
    },
  };
}
