// The card editor of My card (issue 44): a card entered as it is printed. Each line is its
// groups as printed (FF 2026 2222 2222), each group's colour chosen by a tap (green, red, blue:
// one colour, one suit; winds, flowers and Soap have none), the note as printed, X or C and the
// value, under the card's section headings (engine/mah-jongg/printed-card.ts, STYLE.md "A card as the
// player holds it"). After each change the whole card is read by the server (POST
// /api/cards/read): each line's notation, what was understood of its note, its questions (the
// answers apply the option's patch), its problems and its example hands, shown under the line.
// Nothing is guessed, one bad line never hides another, and what she typed is never changed
// behind her back. Importing this module starts nothing: the page makes a CardEditor.

import { call, errorCode, errorWords } from './client.js';
import { $, el } from './dom.js';
import { pageTile } from './lines.js';

/** A group of a line as printed, with the colour she tapped (null: none). @typedef {{ text: string, colour: string | null }} Group */

/** Her answers for a line: how its numbers may move, the suits of its colours, no jokers, the note's unknown words she answered. @typedef {{ numbers?: 'fixed' | 'consec' | 'other' | number[], pins?: Record<string, string>, nojoker?: boolean, remark?: string }} Answers */

/**
 * A line as the server takes it and gives it back (PrintedCard's line, engine/mah-jongg/printed-card.ts).
 * @typedef {{ number?: number, groups: Group[], note: string, concealed: boolean | null, value: number | null, answers?: Answers, unsure?: string }} PrintedLine
 */

/** A printed card (PrintedCard): its name and its sections of lines. @typedef {{ name?: string, sections?: { title?: string, numbers?: 'fixed' | 'consec', lines?: PrintedLine[] }[] }} PrintedCard */

/**
 * A question the server asks of a line, with the answers it offers; an answer's patch sets
 * colours, group texts, the line's answers or the section's numbers.
 * @typedef {{
 *   about: string,
 *   text: string,
 *   options: { label: string, text?: string, patch?: { colours?: { group: number, colour: string | null }[], texts?: { group: number, text: string }[], answers?: Answers, section?: { numbers?: 'fixed' | 'consec' } } }[],
 * }} Question
 */

/**
 * What POST /api/cards/read says of one line: its notation (null until it can be played), what
 * was understood of its note, its questions and problems, example hands, how many forms.
 * @typedef {{ id: string, notation: string | null, understood: string[], questions: Question[], problems: string[], examples: string[], forms: number, groups: Group[] }} LineReading
 */

/** A reading of the whole card (POST /api/cards/read). @typedef {{ lines: LineReading[], ready?: number, text?: string }} CardReading */

/**
 * A line in the editor: the printed line's parts as she typed them (`groupsText`, `valueText`),
 * a key for its elements, and the change (`version`) it was last edited at.
 * @typedef {{
 *   key: string, number?: number, groups: Group[], groupsText: string, note: string, concealed: boolean | null,
 *   valueText: string, answers?: Answers, unsure?: string, version: number, touched: boolean,
 * }} EditorLine
 */

/** A section in the editor. @typedef {{ key: string, title: string, numbers?: 'fixed' | 'consec', lines: EditorLine[] }} EditorSection */

/** The card in the editor. @typedef {{ name: string, sections: EditorSection[] }} EditorCard */

/**
 * The page's elements the editor uses.
 * @typedef {{ title: HTMLInputElement, sections: HTMLElement, status: HTMLElement, message: HTMLElement, cardProblems: HTMLElement, addSection: HTMLButtonElement }} EditorElements
 */

/**
 * What the page hears of the editor.
 * @typedef {{ changed?: () => void, busy?: (on: boolean) => void, undoable?: (words: string) => void }} EditorHooks
 */

const COLOURS = ['green', 'red', 'blue'];
/**
 * The small mark beside each colour's word, so the colour is never the only signal.
 * @type {Record<string, string>}
 */
const MARKS = { green: '\u25CF', red: '\u25B2', blue: '\u25A0' };

/** The values cards print most, offered after a card's own (original to Tilemate: the common hand values of any card, exposed and concealed). */
const COMMON_VALUES = ['X 25', 'X 30', 'X 35', 'C 30', 'C 35', 'X 40', 'C 40', 'X 45', 'C 45', 'X 50', 'C 50', 'C 55', 'C 60', 'C 75'];
const DECORATION = new Set(['+', '=', 'x', 'X', '\u00D7', '-']);

/** The bounds the server holds a printed card to (engine/mah-jongg/printed-card.ts PRINTED_LIMITS). */
export const LIMITS = { sections: 40, lines: 200, groups: 64, groupChars: 40, noteChars: 200, nameChars: 80 };

/** Quiet time after a change before the card is read, and the least time between two readings (the server's heavy budget is 60 a minute). */
const QUIET_MS = 350;
const GAP_MS = 1100;

// ---------------------------------------------------------------- groups, as the engine reads them

/** A line typed as printed split into its groups, uncoloured (engine/mah-jongg/printed-card.ts groupsFromText). */
/**
 * @param {string} text
 * @returns {Group[]}
 */
export function groupsFromText(text) {
  return text.split(/[\s,]+/).filter((t) => t !== '').map((t) => {
    const up = DECORATION.has(t) ? t : t.toUpperCase().replace(/(?<=.)\/(?=.)/g, '|');
    return { text: up === 'X' ? 'x' : up, colour: null };
  });
}

/** @param {string} text */
const isDecoration = (text) => DECORATION.has(text);
/** @param {string} text */
const isOr = (text) => text.toUpperCase() === 'OR';
/** @param {string} text */
function alternativesOf(text) {
  return text.split(/[|/]/).map((alt) => {
    const last = alt.at(-1) ?? '';
    return alt.length > 1 && 'abc'.includes(last) ? { body: alt.slice(0, -1), letter: last } : { body: alt, letter: null };
  });
}
/** A group whose tiles take a suit: it holds a number or a D. */
export const isSuited = (/** @type {string} */ text) => !isDecoration(text) && !isOr(text) && alternativesOf(text).some((a) => /[1-9D]/.test(a.body));
/**
 * The note a line's numbers suggest, or null: groups each of one number, the numbers a run with
 * no gap ("Any 3 Consec. Nos.") or all one number ("Any Like Nos."); the groups as typed, before
 * any reading. @param {Group[]} groups
 */
export function numbersNote(groups) {
  const plain = groups.filter((g) => isSuited(g.text));
  if (plain.length < 2 || !plain.every((g) => /^([1-9])\1*$/.test(g.text))) return null;
  const nos = [...new Set(plain.map((g) => Number(g.text[0])))].sort((a, b) => a - b);
  if (nos.length === 1) return 'Any Like Nos.';
  return nos.every((n, i) => i === 0 || n === nos[i - 1] + 1) ? `Any ${nos.length} Consec. Nos.` : null;
}

/** A group as the card draws it: choices with "/" (the notation's "|"). */
const shown = (/** @type {string} */ text) => text.replace(/\|/g, '/');
export const groupsText = (/** @type {Group[]} */ groups) => groups.map((g) => shown(g.text)).join(' ');

/** The new groups of a line whose text changed, keeping the colours she tapped on the groups that stay. */
/**
 * @param {Group[]} old
 * @param {Group[]} fresh
 * @returns {Group[]}
 */
function mergeGroups(old, fresh) {
  /** @type {Set<number>} */
  const used = new Set();
  return fresh.map((g, i) => {
    if (!isSuited(g.text)) return g;
    if (old[i] && old[i].text === g.text) { used.add(i); return { ...g, colour: old[i].colour }; }
    // a group edited in place (same count of groups): its colour stays
    if (old.length === fresh.length && old[i] && isSuited(old[i].text)) { used.add(i); return { ...g, colour: old[i].colour }; }
    // groups added or taken away: a group keeps the colour of the same group before
    const j = old.findIndex((o, k) => !used.has(k) && o.text === g.text);
    if (j >= 0) { used.add(j); return { ...g, colour: old[j].colour }; }
    return g;
  });
}

/** @type {(text: string, tiles: string[]) => boolean} */
const anyOf = (text, tiles) => {
  const n = text.split('|')[0].length;
  return text === tiles.map((t) => t.repeat(n)).join('|');
};

// ---------------------------------------------------------------- small DOM helpers

/** @param {string} text */
const srOnly = (text) => el('span', { class: 'sr-only', text });

/**
 * @param {string} text
 * @param {() => void} onClick
 * @param {string} [cls]
 * @param {string} [extra] words for screen readers after the visible ones
 */
function button(text, onClick, cls = 'btn btn-quiet', extra = '') {
  const b = el('button', { type: 'button', class: cls }, [text]);
  if (extra) b.append(srOnly(extra));
  b.addEventListener('click', onClick);
  return b;
}

let nextKey = 1;
/** @param {string} what */
const newKey = (what) => `${what}${nextKey++}`;

/**
 * The words of a line's answers, for "Your answers: ...".
 * @param {Answers} a
 */
function answerWords(a) {
  /** @type {string[]} */
  const out = [];
  if (a.numbers === 'fixed') out.push('only the numbers printed');
  else if (a.numbers === 'consec') out.push('the numbers may move up or down together');
  else if (a.numbers === 'other') out.push('each different number may be any number, as long as they stay different');
  else if (Array.isArray(a.numbers)) {
    const ups = a.numbers.filter((n) => n !== 0);
    out.push(ups.length ? `the numbers as printed, or all of them ${ups.join(' or ')} higher` : 'only the numbers printed');
  }
  for (const [c, s] of Object.entries(a.pins ?? {})) out.push(`the ${c} groups are ${/** @type {Record<string, string>} */ ({ B: 'Bams', C: 'Craks', D: 'Dots' })[s]}`);
  if (a.nojoker) out.push('no jokers');
  if (a.remark) out.push(`you answered what the note's words "${a.remark}" mean`);
  return out;
}

// ---------------------------------------------------------------- the editor

/**
 * The editor on the page. `els`: title (the card's name input), sections (the box the
 * sections are drawn in), status (a line saying how many lines are ready), message (a failure
 * to read, in one sentence). `hooks.changed()` is called after every change she makes (for the
 * draft), `hooks.busy(on)` while a reading is due or on its way, `hooks.undoable(words)` before a
 * change that Undo can take back (an answer, a line or section removed).
 */
export class CardEditor {
  /**
   * @param {EditorElements} els
   * @param {EditorHooks} [hooks]
   */
  constructor(els, hooks = {}) {
    this.els = els;
    this.hooks = hooks;
    this.card = this.blank();
    /** Every change counts one; a reading is fresh for a line changed no later than the reading's count. */
    this.changes = 0;
    this.applied = -1;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
    /** @type {Promise<CardReading> | null} */
    this.inFlight = null;
    this.lastStart = 0;
    this.failures = 0;
    /** @type {{ resolve: (r: CardReading | null) => void, reject: (err: unknown) => void }[]} */
    this.waiters = [];
    /** @type {CardReading | null} */
    this.lastReading = null;
    /** Per line key: { line: the server's reading, seq }. @type {Map<string, { line: LineReading, seq: number }>} */
    this.readings = new Map();
    // the card's name changes no line's reading
    els.title.addEventListener('input', () => { this.card.name = els.title.value; this.changed([]); });
    this.render();
  }

  /** @returns {EditorCard} */
  blank() {
    return { name: '', sections: [this.newSection('')] };
  }

  /**
   * @param {string} title
   * @returns {EditorSection}
   */
  newSection(title) {
    return { key: newKey('s'), title, lines: [this.newLine()] };
  }

  /**
   * @param {Partial<PrintedLine> | null} [from]
   * @returns {EditorLine}
   */
  newLine(from = null) {
    const groups = from?.groups?.map((g) => ({ text: g.text, colour: g.colour !== null && COLOURS.includes(g.colour) ? g.colour : null })) ?? [];
    return {
      key: newKey('l'),
      ...(typeof from?.number === 'number' ? { number: from.number } : {}),
      groups,
      groupsText: groupsText(groups),
      note: from?.note ?? '',
      concealed: typeof from?.concealed === 'boolean' ? from.concealed : null,
      valueText: typeof from?.value === 'number' ? String(from.value) : '',
      ...(from?.answers && Object.keys(from.answers).length ? { answers: structuredClone(from.answers) } : {}),
      ...(typeof from?.unsure === 'string' && from.unsure ? { unsure: from.unsure } : {}),
      version: 0,
      touched: from !== null,
    };
  }

  /**
   * Replaces the card with a printed card (PrintedCard), as it is.
   * @param {PrintedCard} printed
   */
  load(printed) {
    this.card = {
      name: printed.name ?? '',
      sections: (printed.sections ?? []).map((s) => ({
        key: newKey('s'), title: s.title ?? '', ...(s.numbers ? { numbers: s.numbers } : {}),
        lines: (s.lines ?? []).map((l) => this.newLine(l)),
      })),
    };
    if (this.card.sections.length === 0) this.card.sections.push(this.newSection(''));
    this.readings.clear();
    this.render();
    this.changed(null, { quiet: true });
  }

  /** Nothing typed yet: the editor may take another card without asking. */
  isEmpty() {
    return this.card.name.trim() === '' && this.card.sections.every((s) => s.title.trim() === '' && s.lines.every((l) => this.lineIsEmpty(l)));
  }

  /** @param {EditorLine} l */
  lineIsEmpty(l) {
    return l.groups.length === 0 && l.note.trim() === '' && l.valueText.trim() === '' && l.concealed === null;
  }

  /** The editor's card to keep (the draft) and to put back (Undo). */
  snapshot() {
    return structuredClone(this.card);
  }

  /**
   * Puts back a card from snapshot() (Undo, or a draft kept in this browser), checked field by field and given fresh keys.
   * @param {any} card a snapshot, or a draft kept in this browser: anything, checked here
   */
  restore(card) {
    /** @type {{ name?: unknown, sections: any[] }} */
    const c = card && Array.isArray(card.sections) ? card : this.blank();
    this.card = {
      name: typeof c.name === 'string' ? c.name : '',
      sections: c.sections.slice(0, LIMITS.sections).map((s) => ({
        key: newKey('s'),
        title: typeof s?.title === 'string' ? s.title : '',
        ...(s?.numbers === 'fixed' || s?.numbers === 'consec' ? { numbers: s.numbers } : {}),
        lines: (Array.isArray(s?.lines) ? s.lines : []).map((/** @type {unknown} */ l) => this.lineFromSnapshot(l)),
      })),
    };
    if (this.card.sections.length === 0) this.card.sections.push(this.newSection(''));
    this.readings.clear();
    this.render();
    this.changed(null, { quiet: true });
  }

  /** @param {any} l a line of a snapshot or a draft: anything, checked here */
  lineFromSnapshot(l) {
    const line = this.newLine({
      ...(typeof l?.number === 'number' ? { number: l.number } : {}),
      groups: Array.isArray(l?.groups) ? l.groups.filter((/** @type {any} */ g) => typeof g?.text === 'string') : [],
      note: typeof l?.note === 'string' ? l.note : '',
      concealed: l?.concealed,
      answers: l?.answers && typeof l.answers === 'object' ? l.answers : undefined,
      unsure: l?.unsure,
    });
    if (typeof l?.groupsText === 'string') line.groupsText = l.groupsText;
    if (typeof l?.valueText === 'string') line.valueText = l.valueText;
    line.touched = l?.touched !== false;
    return line;
  }

  /** How many lines there are, and how many are ready, by the latest readings. */
  counts() {
    let total = 0, ready = 0, open = 0;
    for (const s of this.card.sections) {
      for (const l of s.lines) {
        if (this.lineIsEmpty(l)) continue;
        total++;
        const r = this.readings.get(l.key);
        if (r && r.line.notation !== null) ready++;
        else open++;
      }
    }
    return { total, ready, open };
  }

  // ------------------------------------------------------------ what is sent

  /** The card as the server takes it (PrintedCard), with what she typed that it cannot take said on the page instead. */
  printed() {
    const titles = new Set();
    /** @type {string[]} */
    const keys = [];
    const sections = this.card.sections.map((s, i) => {
      let title = s.title.replace(/[[\]]/g, '').replace(/\s+/g, ' ').trim().slice(0, LIMITS.nameChars) || `Section ${i + 1}`;
      while (titles.has(title)) title = `${title.slice(0, LIMITS.nameChars - 4)} (${i + 1})`;
      titles.add(title);
      return {
        title,
        ...(s.numbers ? { numbers: s.numbers } : {}),
        lines: s.lines.map((l) => { keys.push(l.key); return this.sendable(l); }),
      };
    });
    const name = this.card.name.replace(/\/\//g, '/').replace(/\s+/g, ' ').trim().slice(0, LIMITS.nameChars);
    return { card: { name, sections }, keys };
  }

  /**
   * @param {EditorLine} l
   * @returns {PrintedLine}
   */
  sendable(l) {
    const value = /^\s*\d{1,6}\s*$/.test(l.valueText) ? Number(l.valueText) : null;
    return {
      ...(l.number !== undefined ? { number: l.number } : {}),
      groups: l.groups.slice(0, LIMITS.groups).map((g) => ({ text: g.text.slice(0, LIMITS.groupChars), colour: g.colour })),
      note: l.note.replace(/\/\//g, '/').replace(/\s+/g, ' ').slice(0, LIMITS.noteChars),
      concealed: l.concealed,
      value,
      ...(l.answers ? { answers: l.answers } : {}),
      ...(l.unsure ? { unsure: l.unsure.slice(0, 300) } : {}),
    };
  }

  /**
   * What the page itself finds wrong with a line before the server reads it, each one sentence.
   * @param {EditorLine} l
   */
  localProblems(l) {
    /** @type {string[]} */
    const out = [];
    if (l.groups.length > LIMITS.groups) out.push(`The line has ${l.groups.length} groups; a card line has at most ${LIMITS.groups}.`);
    const long = l.groups.find((g) => g.text.length > LIMITS.groupChars);
    if (long) out.push(`The group "${long.text.slice(0, 12)}…" is too long for a group on a card.`);
    if (l.valueText.trim() !== '' && !/^\s*\d{1,6}\s*$/.test(l.valueText)) out.push('The value must be a whole number, such as 25.');
    if (l.note.includes('//')) out.push('A note may not hold two slashes together.');
    return out;
  }

  /** Problems of the card as a whole (two sections with one heading), which keep it from being saved. */
  cardProblems() {
    /** @type {string[]} */
    const out = [];
    const seen = new Map();
    for (const s of this.card.sections) {
      const t = s.title.trim().toLowerCase();
      if (t !== '' && seen.has(t)) out.push(`Two sections have the heading "${s.title.trim()}": give each its own heading.`);
      seen.set(t, true);
    }
    if (this.card.name.includes('//')) out.push('The card\'s name may not hold two slashes together.');
    return out;
  }

  // ------------------------------------------------------------ reading

  /** A change: the lines it touched wait for a fresh reading; the card is read once she pauses. */
  /**
   * @param {EditorLine[] | null} lines null: every line
   * @param {{ quiet?: boolean }} [options]
   */
  changed(lines, { quiet = false } = {}) {
    this.changes++;
    for (const l of lines ?? this.allLines()) { l.version = this.changes; this.markStale(l); }
    if (!quiet) this.hooks.changed?.();
    this.schedule(QUIET_MS);
    this.showStatus();
  }

  allLines() {
    return this.card.sections.flatMap((s) => s.lines);
  }

  /** @param {number} ms */
  schedule(ms) {
    if (this.timer !== null) clearTimeout(this.timer);
    this.hooks.busy?.(true);
    this.timer = setTimeout(() => { this.timer = null; this.pump(); }, ms);
  }

  /** Sends the card when nothing is on its way and the last reading started long enough ago; one at a time, always the latest. */
  async pump() {
    if (this.inFlight) return;
    const wait = this.lastStart + GAP_MS - Date.now();
    if (wait > 0) { this.schedule(wait); return; }
    const seq = this.changes;
    const { card, keys } = this.printed();
    this.lastStart = Date.now();
    this.inFlight = call('POST', '/api/cards/read', { card });
    let retryIn = 0;
    try {
      const r = await this.inFlight;
      this.failures = 0;
      this.els.message.textContent = '';
      if (seq > this.applied) this.apply(r, seq, keys);
    } catch (err) {
      retryIn = this.failed(err);
    } finally {
      this.inFlight = null;
    }
    if (retryIn > 0) this.schedule(retryIn);
    else if (this.changes > seq) this.schedule(0);
    else {
      this.hooks.busy?.(false);
      for (const w of this.waiters.splice(0)) w.resolve(this.lastReading);
    }
  }

  /**
   * A reading that failed, said in one sentence; returns when to try again (ms), or 0 to wait for her next change.
   * @param {unknown} err
   */
  failed(err) {
    const msg = this.els.message;
    const code = errorCode(err);
    if (code === 'TM_RATE_LIMITED') {
      const s = Number(/try again in (\d+)/.exec(errorWords(err))?.[1] ?? 10);
      msg.textContent = `Tilemate has checked many changes this minute, so it checks your card again in ${s} ${s === 1 ? 'second' : 'seconds'}.`;
      return Math.min(60, Math.max(1, s)) * 1000;
    }
    if (code === 'TM_BUSY' || code === 'TM_TOO_SLOW') {
      msg.textContent = 'Tilemate is busy, so it checks your card again in a moment.';
      return 2000;
    }
    if (code === 'TM_NETWORK') {
      this.failures++;
      msg.textContent = 'Tilemate cannot be reached, so your lines are not checked yet; they are kept in this browser.';
      for (const w of this.waiters.splice(0)) w.reject(err);
      return Math.min(30_000, 2000 * 2 ** Math.min(4, this.failures));
    }
    msg.textContent = `Tilemate could not check the card: ${errorWords(err)}`;
    for (const w of this.waiters.splice(0)) w.reject(err);
    return 0;
  }

  /**
   * A reading of the card as it is now (waits for one on its way, or asks for one).
   * @returns {Promise<CardReading | null>}
   */
  reading() {
    if (!this.timer && !this.inFlight && this.applied === this.changes && this.lastReading) return Promise.resolve(this.lastReading);
    return new Promise((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      if (!this.timer && !this.inFlight) this.schedule(0);
    });
  }

  /**
   * @param {CardReading} r
   * @param {number} seq
   * @param {string[]} keys
   */
  apply(r, seq, keys) {
    this.applied = seq;
    this.lastReading = r;
    const byKey = new Map(keys.map((k, i) => [k, r.lines[i]]));
    for (const s of this.card.sections) {
      for (const l of s.lines) {
        const rl = byKey.get(l.key);
        if (!rl || l.version > seq) continue; // changed since: its reading is on its way
        this.readings.set(l.key, { line: rl, seq });
        this.drawReading(l, s);
      }
    }
    this.showStatus();
  }

  showStatus() {
    const { total, ready, open } = this.counts();
    const status = this.els.status;
    const problems = this.cardProblems();
    this.els.cardProblems.replaceChildren(...problems.map((p) => el('li', { class: 'problem', text: p })));
    if (total === 0) status.textContent = 'Type the first line of your card to begin.';
    else if (open === 0) status.textContent = total === 1 ? 'The line is ready.' : `All ${total} lines are ready.`;
    else status.textContent = `${ready} of ${total} lines are ready; ${open} ${open === 1 ? 'waits' : 'wait'} for an answer or a mend.`;
  }

  // ------------------------------------------------------------ drawing

  render() {
    this.els.title.value = this.card.name;
    const box = this.els.sections;
    box.replaceChildren(...this.card.sections.map((s) => this.sectionElement(s)));
    this.refreshButtons();
    this.showStatus();
  }

  refreshButtons() {
    const lines = this.allLines().length;
    for (const b of /** @type {NodeListOf<HTMLButtonElement>} */ (this.els.sections.querySelectorAll('.add-line'))) b.disabled = lines >= LIMITS.lines;
    this.els.addSection.disabled = this.card.sections.length >= LIMITS.sections;
  }

  /**
   * @param {EditorSection} s
   * @param {number} i
   */
  sectionTitle(s, i) {
    return s.title.trim() || `Section ${i + 1}`;
  }

  /** @param {EditorSection} s */
  sectionElement(s) {
    const head = el('h3', { id: `${s.key}-h`, class: 'ed-section-name' });
    const input = el('input', { type: 'text', id: `${s.key}-title`, class: 'ed-heading', maxLength: LIMITS.nameChars, autocomplete: 'off', spellcheck: false, value: s.title, placeholder: 'such as 2468' });
    const numbers = el('p', { class: 'section-numbers' });
    const lines = el('div', { class: 'ed-lines' });
    const add = button('Add a line', () => this.addLine(s), 'btn add-line');
    const remove = button('Remove this section', () => this.removeSection(s), 'btn btn-quiet');
    const box = el('section', { class: 'ed-section', 'data-key': s.key, 'aria-labelledby': `${s.key}-h` }, [
      el('div', { class: 'ed-section-head' }, [
        head,
        el('p', { class: 'ed-field' }, [el('label', { for: `${s.key}-title`, text: 'Heading, as printed' }), input]),
        remove,
      ]),
      numbers, lines, el('p', {}, [add]),
    ]);
    const name = () => {
      const t = this.sectionTitle(s, this.card.sections.indexOf(s));
      head.textContent = s.title.trim() ? t : `${t} (no heading yet)`;
      add.replaceChildren('Add a line', srOnly(` to ${t}`));
      remove.replaceChildren('Remove this section', srOnly(`: ${t}`));
    };
    input.addEventListener('input', () => {
      s.title = input.value;
      name();
      this.drawSectionNumbers(s, numbers);
      for (const l of s.lines) this.drawLineName(l, s);
      this.changed(s.lines);
    });
    name();
    this.drawSectionNumbers(s, numbers);
    lines.append(...s.lines.map((l) => this.lineElement(l, s)));
    return box;
  }

  /** A section's answer for its lines whose note says nothing of their numbers, with a way to take it back. */
  /**
   * @param {EditorSection} s
   * @param {HTMLElement} box
   */
  drawSectionNumbers(s, box) {
    if (!s.numbers) { box.replaceChildren(); box.hidden = true; return; }
    box.hidden = false;
    const t = this.sectionTitle(s, this.card.sections.indexOf(s));
    box.replaceChildren(
      `Your answer for the lines of ${t} whose note says nothing: ${s.numbers === 'fixed' ? 'only the numbers printed' : 'the numbers may move up or down together'}.`, ' ',
      button('Forget this answer', () => {
        this.hooks.undoable?.('Your answer for the section is forgotten; Undo brings it back.');
        delete s.numbers;
        this.drawSectionNumbers(s, box);
        this.changed(s.lines);
      }, 'btn btn-quiet', ` for ${t}`),
    );
  }

  /** @param {EditorLine} line */
  sectionOf(line) {
    return this.card.sections.find((s) => s.lines.includes(line));
  }

  /**
   * @param {EditorLine} l
   * @param {EditorSection} s
   */
  lineName(l, s) {
    let n = 0;
    for (const x of s.lines) {
      n = x.number ?? n + 1;
      if (x === l) break;
    }
    return `${this.sectionTitle(s, this.card.sections.indexOf(s))} #${n}`;
  }

  /**
   * @param {EditorLine} l
   * @param {EditorSection} s
   */
  drawLineName(l, s) {
    const box = this.lineBox(l);
    if (!box) return;
    const name = this.lineName(l, s);
    $('.ed-line-name', box).textContent = name;
    for (const b of box.querySelectorAll('[data-names-line] .sr-only')) b.textContent = `: ${name}`;
  }

  /**
   * @param {EditorLine} l
   * @returns {HTMLElement | null}
   */
  lineBox(l) {
    return this.els.sections.querySelector(`.ed-line[data-key="${l.key}"]`);
  }

  /**
   * @param {EditorLine} l
   * @param {EditorSection} s
   */
  lineElement(l, s) {
    const k = l.key;
    const name = el('h4', { class: 'ed-line-name', id: `${k}-name` });
    const state = el('span', { class: 'ed-state', id: `${k}-state` });
    const remove = button('Remove this line', () => this.removeLine(l), 'btn btn-quiet ed-remove', ': line');
    remove.dataset.namesLine = '';

    const groups = el('input', { type: 'text', id: `${k}-groups`, class: 'ed-groups', autocomplete: 'off', spellcheck: false, autocapitalize: 'characters', placeholder: 'such as FF 2026 2222 2222', value: l.groupsText, 'aria-describedby': `${k}-name` });
    const note = el('input', { type: 'text', id: `${k}-note`, class: 'ed-note', list: 'phrases', maxLength: LIMITS.noteChars, autocomplete: 'off', placeholder: 'such as Any 3 Suits', value: l.note, 'aria-describedby': `${k}-name` });
    const x = el('button', { type: 'button', class: 'btn xc', 'data-xc': 'x' }, [el('strong', { text: 'X' }), ' exposed']);
    const c = el('button', { type: 'button', class: 'btn xc', 'data-xc': 'c' }, [el('strong', { text: 'C' }), ' concealed']);
    const value = el('input', { type: 'text', id: `${k}-value`, class: 'ed-value', maxLength: 10, autocomplete: 'off', value: l.valueText, 'aria-describedby': `${k}-name` });
    const chips = el('div', { class: 'chips', role: 'group', 'aria-label': 'The groups in their colours: tap a group to change its colour' });
    const unsure = el('div', { class: 'ed-unsure', hidden: true });
    const feedback = el('div', { class: 'ed-feedback', 'aria-live': 'off' });

    const box = el('article', { class: 'ed-line', 'data-key': k, 'aria-labelledby': `${k}-name` }, [
      el('div', { class: 'ed-line-head' }, [name, state]),
      unsure,
      el('div', { class: 'ed-fields' }, [
        el('p', { class: 'ed-field ed-field-groups' }, [el('label', { for: `${k}-groups`, text: 'Groups, as printed' }), groups]),
        chips,
        el('p', { class: 'ed-field ed-field-note' }, [el('label', { for: `${k}-note`, text: 'Note, as printed' }), note]),
        el('div', { class: 'note-hints', role: 'group', 'aria-label': 'Notes to choose with one tap', hidden: true }),
        el('div', { class: 'ed-field ed-field-xc', role: 'group', 'aria-labelledby': `${k}-xc` }, [el('span', { class: 'ed-label', id: `${k}-xc`, text: 'Exposed or concealed' }), el('span', { class: 'xc-pair' }, [x, c])]),
        el('p', { class: 'ed-field ed-field-value' }, [el('label', { for: `${k}-value`, text: 'Value (or X 25, C 40 as printed)' }), value]),
        el('div', { class: 'note-hints value-hints', role: 'group', 'aria-label': 'X or C and values to choose with one tap', hidden: true }),
      ]),
      feedback,
      el('div', { class: 'ed-line-foot' }, [remove]),
    ]);

    const edited = () => { l.touched = true; this.clearUnsure(l); this.changed([l]); };
    groups.addEventListener('input', () => {
      l.groupsText = groups.value;
      l.groups = mergeGroups(l.groups, groupsFromText(groups.value));
      this.drawChips(l);
      // the notes offered follow the groups ("Any 3 Consec. Nos." for 111 222 333): one may be tapped straight from the groups
      this.drawNoteHints(l);
      edited();
    });
    note.addEventListener('input', () => { l.note = note.value; this.drawNoteHints(l); edited(); });
    note.addEventListener('focus', () => this.drawNoteHints(l));
    value.addEventListener('input', () => {
      // typed as the card prints it, "X 25" or "C 40" (or "25 x"): the letter sets exposed or concealed, the number is the value
      const m = /^\s*([xXcC])?\s*(\d*)\s*([xXcC])?\s*$/.exec(value.value);
      const letter = m?.[1] ?? m?.[3];
      if (m && letter) {
        l.concealed = letter.toLowerCase() === 'c';
        this.drawXC(l);
        l.valueText = m[2];
      } else l.valueText = value.value;
      this.drawValueHints(l);
      edited();
    });
    value.addEventListener('focus', () => this.drawValueHints(l));
    // Enter goes on as a person reads the row: the groups, the note, the value, then the next line
    groups.addEventListener('keydown', (ev) => { if (ev.key === 'Enter') { ev.preventDefault(); note.focus(); } });
    note.addEventListener('keydown', (ev) => { if (ev.key === 'Enter' && !ev.isComposing) { ev.preventDefault(); value.focus(); } });
    value.addEventListener('keydown', (ev) => { if (ev.key === 'Enter') { ev.preventDefault(); this.nextLine(l); } });
    /** @param {boolean} concealed */
    const xc = (concealed) => {
      l.concealed = concealed;
      this.drawXC(l);
      edited();
    };
    x.addEventListener('click', () => xc(false));
    c.addEventListener('click', () => xc(true));

    queueMicrotask(() => {
      this.drawLineName(l, s);
      this.drawXC(l);
      this.drawChips(l);
      this.drawNoteHints(l);
      this.drawValueHints(l);
      this.drawUnsure(l);
      const r = this.readings.get(l.key);
      if (r) this.drawReading(l, s);
      else this.drawWaiting(l);
    });
    return box;
  }

  /** @param {EditorLine} l */
  drawXC(l) {
    const box = this.lineBox(l);
    if (!box) return;
    for (const b of /** @type {NodeListOf<HTMLElement>} */ (box.querySelectorAll('.xc'))) b.setAttribute('aria-pressed', String(l.concealed === (b.dataset.xc === 'c')));
  }

  /**
   * The groups drawn as chips in their colours: a tap cycles none and the three colours (tapColour).
   * @param {EditorLine} l
   */
  drawChips(l) {
    const box = this.lineBox(l);
    if (!box) return;
    const chips = $('.chips', box);
    const r = this.readings.get(l.key);
    const settled = r && r.seq >= l.version ? r.line.groups : null;
    const items = l.groups.map((g, i) => {
      const text = shown(g.text);
      if (isOr(g.text)) return el('span', { class: 'chip-or', text: 'or' });
      if (isDecoration(g.text)) return el('span', { class: 'chip-deco', text: g.text });
      const s = settled?.[i];
      if (!isSuited(g.text) || (s && !isSuited(s.text))) {
        const what = s && anyOf(s.text, ['R', 'G', '0']) && s.text !== g.text ? 'any dragon, by the note'
          : s && anyOf(s.text, ['N', 'E', 'W', 'S']) && s.text !== g.text ? 'any wind, by the note' : 'no colour';
        return el('span', { class: 'chip chip-none' }, [el('span', { class: 'chip-text', text }), el('span', { class: 'chip-colour', text: what })]);
      }
      let colour = g.colour;
      let words = colour ?? 'no colour yet';
      let byNote = false;
      if (!colour && s?.colour) { colour = s.colour; words = `${colour}, by the note`; byNote = true; }
      const b = el('button', { type: 'button', class: `chip ${colour ? `chip-${colour}` : 'chip-unset'}${byNote ? ' chip-by-note' : ''}`, 'data-group': String(i), 'data-colour': g.colour ?? '' }, [
        el('span', { class: 'chip-text', text }),
        el('span', { class: 'chip-colour' }, [el('span', { class: 'chip-mark', 'aria-hidden': 'true', text: colour ? MARKS[colour] : '\u25CB' }), ` ${words}`]),
      ]);
      b.addEventListener('click', () => this.tapColour(l, i));
      // a tap with the finger or the mouse leaves the cursor where she was typing (the note or the value), so she types on after the colours
      b.addEventListener('mousedown', (ev) => {
        const typing = document.activeElement;
        if (typing instanceof HTMLInputElement && box.contains(typing)) ev.preventDefault();
      });
      return b;
    });
    // the chip she reached with the keyboard keeps the focus: a redraw puts it back on the same group
    const active = document.activeElement;
    const focused = active instanceof HTMLElement && chips.contains(active) ? active.dataset.group : undefined;
    chips.replaceChildren(...items);
    chips.hidden = items.length === 0;
    if (focused !== undefined) /** @type {HTMLElement | null} */ (chips.querySelector(`[data-group="${focused}"]`))?.focus();
  }

  /**
   * @param {EditorLine} l
   * @param {number} i
   */
  tapColour(l, i) {
    const g = l.groups[i];
    // a first tap gives the colour of the nearest coloured group before it (groups of one suit
    // often stand together); the taps after go round the other colours, then back to none
    const before = l.groups.slice(0, i).reverse().find((x) => x.colour && isSuited(x.text))?.colour;
    const start = COLOURS.indexOf(before ?? 'green');
    const order = [...COLOURS.slice(start), ...COLOURS.slice(0, start)];
    const at = g.colour === null ? -1 : order.indexOf(g.colour);
    g.colour = at === order.length - 1 ? null : order[at + 1];
    l.touched = true;
    this.clearUnsure(l);
    this.drawChips(l);
    this.drawNoteHints(l);
    this.changed([l]);
  }

  /**
   * X or C with a value, to choose with one tap: those this card already has, most used first,
   * then the commonest (six at most); as she types ("C", "X 3"), those that begin so. A tap sets
   * both and goes on to the next line.
   * @param {EditorLine} l
   */
  drawValueHints(l) {
    const box = this.lineBox(l);
    const hints = box && /** @type {HTMLElement | null} */ (box.querySelector('.value-hints'));
    if (!box || !hints) return;
    /** @type {Map<string, number>} */
    const used = new Map();
    for (const x of this.allLines()) {
      if (x === l || x.concealed === null || !/^\s*\d{1,6}\s*$/.test(x.valueText)) continue;
      const words = `${x.concealed ? 'C' : 'X'} ${Number(x.valueText)}`;
      used.set(words, (used.get(words) ?? 0) + 1);
    }
    // what she has typed, written as the hints are ("c40" is "C 40"); a value already whole offers nothing
    const typed = /** @type {HTMLInputElement} */ ($('.ed-value', box)).value.trim().toUpperCase().replace(/^([XC])\s*/, '$1 ');
    const whole = /^[XC] \d{2,3}$/.test(typed) || /^\d{2,3}$/.test(typed);
    const offer = whole ? [] : [...[...used].sort((a, b) => b[1] - a[1]).map(([w]) => w), ...COMMON_VALUES].filter((w, k, all) => all.indexOf(w) === k && w.startsWith(typed)).slice(0, 6);
    hints.hidden = offer.length === 0;
    hints.replaceChildren(...offer.map((w) => button(w, () => {
      const [xc, points] = w.split(' ');
      const input = /** @type {HTMLInputElement} */ ($('.ed-value', box));
      input.value = points;
      l.valueText = points;
      l.concealed = xc === 'C';
      l.touched = true;
      this.drawXC(l);
      this.clearUnsure(l);
      this.drawValueHints(l);
      this.changed([l]);
      // the value is the last thing a printed row says: the tap goes on to the next line, as Enter does
      this.nextLine(l);
    }, 'btn btn-quiet value-hint', w.startsWith('C') ? ': concealed' : ': exposed')));
  }

  /**
   * Notes to choose with one tap: while the line's note is empty, the suits its colours show
   * ("Any 2 Suits"), the notes this card already has, most used first, and the commonest
   * phrases (six at most); as she types, the notes and phrases with a word that begins so
   * ("even" offers "Kong Any Even No."), those that begin so first (six at most).
   * @param {EditorLine} l
   */
  drawNoteHints(l) {
    const box = this.lineBox(l);
    const hints = box && /** @type {HTMLElement | null} */ (box.querySelector('.note-hints'));
    if (!box || !hints) return;
    /** @type {string[]} */
    const offer = [];
    /** @type {Map<string, number>} */
    const used = new Map();
    // the notes of her section count for more: a card's sections print their lines' notes alike
    const section = this.card.sections.find((x) => x.lines.includes(l));
    for (const x of this.allLines()) if (x !== l && x.note.trim() !== '') used.set(x.note.trim(), (used.get(x.note.trim()) ?? 0) + (section?.lines.includes(x) ? 100 : 1));
    const mostUsed = [...used].sort((a, b) => b[1] - a[1]).map(([n]) => n);
    const typed = l.note.trim().toLowerCase();
    if (typed === '') {
      const colours = new Set(l.groups.filter((g) => isSuited(g.text) && g.colour).map((g) => g.colour));
      if (colours.size > 0) offer.push(colours.size === 1 ? 'Any 1 Suit' : `Any ${colours.size} Suits`);
      const numbers = numbersNote(l.groups);
      if (numbers) offer.push(numbers);
      // then the card's notes, most used first, and the commonest phrases of any card
      for (const n of [...mostUsed, 'Any 1 Suit', 'Any 2 Suits', 'Any 3 Suits']) if (offer.length < 6 && !offer.includes(n)) offer.push(n);
    } else {
      // as she types: the card's notes and the phrases Tilemate knows that begin so
      const known = [...document.querySelectorAll('#phrases option')].map((o) => /** @type {HTMLOptionElement} */ (o).value);
      const all = [...mostUsed, ...known].filter((n, k, list) => list.indexOf(n) === k && n.toLowerCase() !== typed);
      const starts = all.filter((n) => n.toLowerCase().startsWith(typed));
      const within = all.filter((n) => !starts.includes(n) && n.toLowerCase().includes(` ${typed}`));
      offer.push(...[...starts, ...within].slice(0, 6));
    }
    hints.hidden = offer.length === 0;
    hints.replaceChildren(...offer.map((n) => button(n, () => {
      const input = /** @type {HTMLInputElement} */ ($('.ed-note', box));
      input.value = n;
      l.note = n;
      l.touched = true;
      this.clearUnsure(l);
      this.drawNoteHints(l);
      this.changed([l]);
      /** @type {HTMLElement} */ ($('.ed-value', box)).focus();
    }, 'btn btn-quiet note-hint', '')));
  }

  /** @param {EditorLine} l */
  drawUnsure(l) {
    const box = this.lineBox(l);
    if (!box) return;
    const u = $('.ed-unsure', box);
    box.classList.toggle('unsure', Boolean(l.unsure));
    if (!l.unsure) { u.hidden = true; u.replaceChildren(); return; }
    u.hidden = false;
    u.replaceChildren(
      el('p', {}, [el('strong', { text: 'Check this line against your card: ' }), l.unsure]),
      button('It is right as it is', () => { this.clearUnsure(l); this.changed([l]); }, 'btn', ''),
    );
  }

  /** @param {EditorLine} l */
  clearUnsure(l) {
    if (!l.unsure) return;
    delete l.unsure;
    this.drawUnsure(l);
  }

  /**
   * A line whose reading is on its way: its answers wait (an answer to an old question could be wrong).
   * @param {EditorLine} l
   */
  markStale(l) {
    const box = this.lineBox(l);
    if (!box) return;
    box.classList.add('stale');
    for (const b of /** @type {NodeListOf<HTMLButtonElement>} */ (box.querySelectorAll('.question button'))) b.disabled = true;
    if (!this.lineIsEmpty(l)) this.setState(box, 'checking', 'Being checked');
  }

  /**
   * @param {HTMLElement} box
   * @param {string} state
   * @param {string} words
   */
  setState(box, state, words) {
    box.dataset.state = state;
    $('.ed-state', box).textContent = words;
  }

  /** @param {EditorLine} l */
  drawWaiting(l) {
    const box = this.lineBox(l);
    if (!box) return;
    const fb = $('.ed-feedback', box);
    if (this.lineIsEmpty(l)) {
      this.setState(box, 'empty', 'Not started');
      fb.replaceChildren(el('p', { class: 'ed-hint', text: 'Type the groups as the card prints them, such as FF 2026 2222 2222.' }));
    } else this.setState(box, 'checking', 'Being checked');
  }

  /** A line's reading under it: what was understood, its questions with their answers, its problems, example hands, the notation. */
  /**
   * @param {EditorLine} l
   * @param {EditorSection} s
   */
  drawReading(l, s) {
    const box = this.lineBox(l);
    const r = this.readings.get(l.key);
    if (!box || !r) return;
    const rl = r.line;
    const fresh = r.seq >= l.version;
    box.classList.toggle('stale', !fresh);
    this.drawChips(l);
    if (this.lineIsEmpty(l) && !l.touched) { this.drawWaiting(l); return; }
    const local = this.localProblems(l);
    // a value typed that is not a number is said once, in the page's words
    const problems = [...local, ...rl.problems.filter((p) => !(l.valueText.trim() !== '' && p.startsWith('Type the value printed')))];
    const key = JSON.stringify([rl, local, l.answers ?? null]);
    if (fresh) {
      if (rl.notation !== null && problems.length === 0) this.setState(box, 'ready', 'Ready');
      else if (problems.length > 0) this.setState(box, 'mend', problems.length === 1 ? 'One thing to mend' : `${problems.length} things to mend`);
      else this.setState(box, 'asks', rl.questions.length === 1 ? 'A question for you' : `${rl.questions.length} questions for you`);
    }
    if (box.dataset.drawn === key) {
      for (const b of /** @type {NodeListOf<HTMLButtonElement>} */ (box.querySelectorAll('.question button'))) b.disabled = !fresh;
      return;
    }
    box.dataset.drawn = key;
    const parts = [];
    const said = [...rl.understood];
    const answers = answerWords(l.answers ?? {});
    if (said.length > 0 || answers.length > 0) {
      const ul = el('ul', { class: 'understood' }, said.map((t) => el('li', { text: t })));
      if (answers.length > 0) {
        ul.append(el('li', {}, [`Your answers: ${answers.join('; ')}. `, button('Forget my answers', () => {
          this.hooks.undoable?.('Your answers for the line are forgotten; Undo brings them back.');
          delete l.answers;
          this.changed([l]);
        }, 'btn btn-quiet btn-small', ` for ${this.lineName(l, s)}`)]));
      }
      parts.push(el('p', { class: 'ed-sub', text: 'What Tilemate understood:' }), ul);
    }
    if (problems.length > 0) parts.push(el('ul', { class: 'problems' }, problems.map((p) => el('li', { class: 'problem', text: p }))));
    for (const q of rl.questions) {
      const answersBox = el('div', { class: 'answers' }, q.options.map((o) => {
        const b = button(o.label, () => this.answer(l, o), 'btn');
        b.disabled = !fresh;
        return b;
      }));
      parts.push(el('div', { class: 'question', 'data-about': q.about, role: 'group', 'aria-label': 'A question about this line' }, [el('p', { text: q.text }), answersBox]));
    }
    if (rl.examples.length > 0) {
      parts.push(el('p', { class: 'ed-sub', text: rl.examples.length === 1 ? 'A hand that makes it:' : 'Hands that make it, for example:' }));
      parts.push(...rl.examples.map((hand, i) => el('div', { class: 'tile-row example', role: 'group', 'aria-label': `Example ${i + 1}` },
        hand.split(' ').filter(Boolean).map((t) => { const tile = pageTile(t); tile.classList.add('ed-tile'); return tile; }))));
      // a phone shows one hand; the others are a tap away (card-editor.css)
      if (rl.examples.length > 1) {
        const more = button(box.classList.contains('all-hands') ? 'Show one hand' : `Show ${rl.examples.length - 1} more ${rl.examples.length === 2 ? 'hand' : 'hands'}`, () => {
          const all = box.classList.toggle('all-hands');
          more.replaceChildren(all ? 'Show one hand' : `Show ${rl.examples.length - 1} more ${rl.examples.length === 2 ? 'hand' : 'hands'}`);
          more.setAttribute('aria-expanded', String(all));
        }, 'btn btn-quiet btn-small more-hands');
        more.setAttribute('aria-expanded', String(box.classList.contains('all-hands')));
        parts.push(more);
      }
    }
    if (rl.notation !== null) {
      parts.push(el('details', { class: 'ed-notation' }, [
        el('summary', { text: 'Tilemate\'s notation' }),
        el('p', {}, [el('code', { text: rl.notation })]),
        el('p', { text: rl.forms === 1 ? 'There is one way to make this line.' : `There are ${rl.forms.toLocaleString('en-US')} ways to make this line.` }),
      ]));
    }
    const fb = $('.ed-feedback', box);
    // only the line she is working on speaks up (a card read whole would announce every line)
    fb.setAttribute('aria-live', box.contains(document.activeElement) ? 'polite' : 'off');
    fb.replaceChildren(...parts);
  }

  /** An answer to a question: its patch applied (colours, group texts, the line's answers, or the section's). */
  /**
   * @param {EditorLine} l
   * @param {Question['options'][number]} option
   */
  answer(l, option) {
    const s = this.sectionOf(l);
    if (!s) return;
    this.hooks.undoable?.(`You answered "${option.label}"; Undo takes it back.`);
    const p = option.patch ?? {};
    for (const c of p.colours ?? []) if (l.groups[c.group]) l.groups[c.group].colour = c.colour;
    for (const t of p.texts ?? []) if (l.groups[t.group]) l.groups[t.group].text = t.text;
    if (p.texts?.length) {
      l.groupsText = groupsText(l.groups);
      const input = /** @type {HTMLInputElement | null | undefined} */ (this.lineBox(l)?.querySelector('.ed-groups'));
      if (input) input.value = l.groupsText;
    }
    if (p.answers) l.answers = { ...l.answers, ...p.answers };
    l.touched = true;
    this.clearUnsure(l);
    this.drawChips(l);
    if (p.section) {
      s.numbers = p.section.numbers;
      const box = /** @type {HTMLElement | null} */ (this.els.sections.querySelector(`.ed-section[data-key="${s.key}"] .section-numbers`));
      if (box) this.drawSectionNumbers(s, box);
      this.changed(s.lines);
    } else this.changed([l]);
    // the focus stays on the line: its next field, or its first question left
    /** @type {HTMLElement | null | undefined} */ (this.lineBox(l)?.querySelector('.ed-groups'))?.focus({ preventScroll: true });
  }

  // ------------------------------------------------------------ adding and removing

  /**
   * The line after `l` (a new one when `l` is its section's last), its groups' box focused: Enter in the value box.
   * @param {EditorLine} l
   */
  nextLine(l) {
    const s = this.sectionOf(l);
    if (!s) return;
    const next = s.lines[s.lines.indexOf(l) + 1];
    if (next) /** @type {HTMLElement | null | undefined} */ (this.lineBox(next)?.querySelector('.ed-groups'))?.focus();
    else this.addLine(s);
  }

  /** @param {EditorSection} s */
  addLine(s) {
    if (this.allLines().length >= LIMITS.lines) return;
    const l = this.newLine();
    l.touched = false;
    s.lines.push(l);
    const lines = $(`.ed-section[data-key="${s.key}"] .ed-lines`, this.els.sections);
    lines.append(this.lineElement(l, s));
    this.refreshButtons();
    this.changed([l]);
    queueMicrotask(() => /** @type {HTMLElement | null | undefined} */ (this.lineBox(l)?.querySelector('.ed-groups'))?.focus());
    return l;
  }

  addSection() {
    if (this.card.sections.length >= LIMITS.sections) return;
    const s = this.newSection('');
    s.lines[0].touched = false;
    this.card.sections.push(s);
    this.els.sections.append(this.sectionElement(s));
    this.refreshButtons();
    this.changed(s.lines);
    queueMicrotask(() => document.getElementById(`${s.key}-title`)?.focus());
    return s;
  }

  /** @param {EditorLine} l */
  removeLine(l) {
    const s = this.sectionOf(l);
    if (!s) return;
    if (!this.lineIsEmpty(l)) this.hooks.undoable?.(`${this.lineName(l, s)} is removed; Undo puts it back.`);
    const i = s.lines.indexOf(l);
    s.lines.splice(i, 1);
    this.lineBox(l)?.remove();
    this.readings.delete(l.key);
    for (const x of s.lines) this.drawLineName(x, s);
    const next = s.lines[i] ?? s.lines[i - 1];
    if (next) /** @type {HTMLElement | null | undefined} */ (this.lineBox(next)?.querySelector('.ed-groups'))?.focus();
    else /** @type {HTMLElement | null} */ (this.els.sections.querySelector(`.ed-section[data-key="${s.key}"] .add-line`))?.focus();
    this.refreshButtons();
    this.changed(s.lines);
  }

  /** @param {EditorSection} s */
  removeSection(s) {
    const empty = s.title.trim() === '' && s.lines.every((l) => this.lineIsEmpty(l));
    if (!empty) this.hooks.undoable?.(`The section ${this.sectionTitle(s, this.card.sections.indexOf(s))} is removed; Undo puts it back.`);
    this.card.sections.splice(this.card.sections.indexOf(s), 1);
    if (this.card.sections.length === 0) this.card.sections.push(this.newSection(''));
    this.render();
    this.els.addSection.focus();
    this.changed(null);
  }
}

// ---------------------------------------------------------------- a line shown as printed, read-only

/**
 * One line of a card as the card prints it, to look at (A shared card): its groups in their
 * colours (each colour also said in words), its note, X or C and its value, and a hand that
 * makes it. `rl` is the line's reading (POST /api/cards/read), `line` the printed line.
 */
/**
 * @param {LineReading} rl
 * @param {PrintedLine} line
 */
export function printedLineView(rl, line) {
  const chips = rl.groups.map((g) => {
    if (isOr(g.text)) return el('span', { class: 'chip-or', text: 'or' });
    if (isDecoration(g.text)) return el('span', { class: 'chip-deco', text: g.text });
    const text = anyOf(g.text, ['R', 'G', '0']) ? `${'D'.repeat(g.text.split('|')[0].length)}` : anyOf(g.text, ['N', 'E', 'W', 'S']) ? g.text.split('|')[0] : shown(g.text);
    const words = anyOf(g.text, ['R', 'G', '0']) ? 'any dragon' : anyOf(g.text, ['N', 'E', 'W', 'S']) ? 'any wind' : isSuited(g.text) && g.colour ? g.colour : 'no colour';
    const colour = isSuited(g.text) ? g.colour : null;
    return el('span', { class: `chip ${colour ? `chip-${colour}` : 'chip-none'}` }, [
      el('span', { class: 'chip-text', text }),
      el('span', { class: 'chip-colour' }, colour ? [el('span', { class: 'chip-mark', 'aria-hidden': 'true', text: MARKS[colour] }), ` ${words}`] : [words]),
    ]);
  });
  const xc = line.concealed ? 'C' : 'X';
  const hand = rl.examples[0] ?? '';
  return el('article', { class: 'card-line my-line printed-line', 'data-id': rl.id }, [
    el('h3', {}, [el('span', { text: rl.id }), el('span', { text: `${xc} ${line.value}`, 'aria-label': `${line.concealed ? 'concealed' : 'exposed'}, ${line.value} points` })]),
    el('div', { class: 'chips', role: 'group', 'aria-label': 'The groups in their colours' }, chips),
    ...(line.note ? [el('p', { class: 'ed-sub', text: line.note })] : []),
    ...(hand ? [el('p', { class: 'ed-sub', text: 'A hand that makes it:' }), el('div', { class: 'tile-row example' }, hand.split(' ').filter(Boolean).map((t) => pageTile(t)))] : []),
  ]);
}
