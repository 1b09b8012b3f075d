import { checkDraft, type LineOutcome } from '../io/card-photo-check.js';
import type { PhotoDraft } from '../io/card-photo.js';

/**
 * The photo import's counting, shared by its two measurements (bench/card-photo.ts on
 * Tilemate's own drawing, bench/card-photo-layouts.ts on the card-layout family): lines
 * exact with a 95% Wilson interval, marked, false-sure, headings, seconds a photo; a table
 * of them as printed.
 */

/** The Wilson score interval of a share (95%). */
export function wilson(k: number, n: number, z = 1.96): { share: number; low: number; high: number } {
  if (n === 0) return { share: 0, low: 0, high: 0 };
  const p = k / n,
    z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { share: p, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

export interface Tally {
  lines: number;
  exact: number;
  flagged: number;
  wrong: number;
  missing: number;
  marked: number;
  needless: number;
  extraSure: number;
  headings: number;
  headingsOf: number;
  seconds: number[];
}
export const tally = (): Tally => ({ lines: 0, exact: 0, flagged: 0, wrong: 0, missing: 0, marked: 0, needless: 0, extraSure: 0, headings: 0, headingsOf: 0, seconds: [] });

export function add(t: Tally, outcomes: LineOutcome[], marked: number, needless: number, extraSure: number, headings: { exact: number; of: number }, seconds: number[]): void {
  t.lines += outcomes.length;
  for (const o of outcomes) t[o]++;
  t.marked += marked;
  t.needless += needless;
  t.extraSure += extraSure;
  t.headings += headings.exact;
  t.headingsOf += headings.of;
  t.seconds.push(...seconds);
}

export function merge(ts: Tally[]): Tally {
  const out = tally();
  for (const t of ts) {
    for (const k of ['lines', 'exact', 'flagged', 'wrong', 'missing', 'marked', 'needless', 'extraSure', 'headings', 'headingsOf'] as const) out[k] += t[k];
    out.seconds.push(...t.seconds);
  }
  return out;
}

export const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

export function row(label: string, t: Tally): string[] {
  const e = wilson(t.exact, t.lines);
  const fs = wilson(t.wrong + t.missing, t.lines);
  return [
    label,
    String(t.lines),
    `${pct(e.share)} [${pct(e.low)}, ${pct(e.high)}]`,
    String(t.marked),
    `${pct(fs.share)} [${pct(fs.low)}, ${pct(fs.high)}]`,
    `${t.wrong}/${t.missing}/${t.extraSure}`,
    `${t.headings}/${t.headingsOf}`,
    median(t.seconds).toFixed(1),
  ];
}

export function table(rows: string[][], first = 'card / distortion'): string {
  const head = [first, 'lines', 'exact [95% CI]', 'marked unsure', 'false-sure [95% CI]', 'wrong/lost/extra unmarked', 'headings', 's/photo'];
  const all = [head, ...rows];
  const w = head.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  const fmt = (r: string[]) => `| ${r.map((c, i) => c.padEnd(w[i])).join(' | ')} |`;
  return [fmt(head), `|${w.map((n) => '-'.repeat(n + 2)).join('|')}|`, ...rows.map(fmt)].join('\n');
}

/** A draft read from photos held to the card it was drawn from (io/card-photo-check.ts) and counted into `t`, each photo its share of `seconds`: the check and the lines marked, for the per-line results. */
export function addDraft(t: Tally, text: string, draft: PhotoDraft, seconds: number, photos: number): { check: ReturnType<typeof checkDraft>; marked: number } {
  const check = checkDraft(text, draft);
  const marked = draft.card.sections.reduce((n, s) => n + s.lines.filter((l) => l.unsure !== undefined).length, 0);
  add(
    t,
    check.lines.map((l) => l.outcome),
    marked,
    check.needlessFlags,
    check.extra.sure,
    check.headings,
    Array.from({ length: photos }, () => seconds / photos),
  );
  return { check, marked };
}
