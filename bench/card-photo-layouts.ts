import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseCard } from '../engine/mah-jongg/card.js';
import { printedFromNotation } from '../engine/mah-jongg/printed-card.js';
import { closeCardPhotoReader, readCardPhotos } from '../io/card-photo.js';
import type { LineOutcome } from '../io/card-photo-check.js';
import { drawCard, drawnPng, LAYOUTS, layoutNamed, panelPngs, type CardStyle } from '../lab/card-layouts/layouts.js';
import { phonePhoto } from '../lab/card-layouts/photo.js';
import { addDraft, median, merge, row, table, tally, type Tally } from './card-photo-tally.js';

/**
 * The photo import measured on card layouts unlike Tilemate's own drawing (issue 62): each of
 * the project's original cards drawn in the layouts of lab/card-layouts/layouts.ts, read back
 * with io/card-photo.ts, clean and as seeded phone photos (lab/card-layouts/photo.ts), one photo
 * per panel and one of the whole card, and held line by line to the card it was drawn from
 * (io/card-photo-check.ts). The layouts to tune the reader on and those held out are reported
 * apart: a figure for a held-out layout is one the reader was never tuned on.
 *
 * Printed per layout, card and condition: lines exact with a 95% Wilson interval, lines marked
 * unsure, false-sure (read wrong or lost and not marked), headings, seconds a photo; the
 * machine's load average before and after.
 *
 *   npm run bench:card-layouts                                   the tune layouts, every card, 2 seeds
 *   npm run bench:card-layouts -- --use held-out                 the held-out layouts
 *   ... -- --layouts ledger,column --cards practice --seeds 1    fewer
 *   ... -- --panels-only | --whole-only | --clean-only | --phone-only
 *   ... -- --json out.json   the per-line results too;   --save DIR   the photos made
 */

const CARDS = { practice: 'cards/practice-2026.card', garden: 'cards/garden-2026.card', orchard: 'cards/orchard-2026.card' } as const;
type CardName = keyof typeof CARDS;

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const flag = (name: string): boolean => process.argv.includes(`--${name}`);

const load = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

interface Run {
  /** clean or phone, panels or whole */
  label: string;
  photos: (seed: number) => Promise<{ bytes: Buffer; note: string }[]>;
  seeds: number[];
}

async function main(): Promise<void> {
  const use = arg('use') ?? 'tune';
  const styles: CardStyle[] = arg('layouts')?.split(',').map(layoutNamed) ?? LAYOUTS.filter((l) => use === 'all' || l.use === use);
  const cards = (arg('cards')?.split(',') ?? Object.keys(CARDS)) as CardName[];
  const seeds = Array.from({ length: Number(arg('seeds') ?? 2) }, (_, i) => i + 1);
  const save = arg('save');
  const json = arg('json');
  const panelsToo = !flag('whole-only'),
    wholeToo = !flag('panels-only');
  const cleanToo = !flag('phone-only'),
    phoneToo = !flag('clean-only');
  console.log(`load average before (1, 5, 15 min): ${load()} on ${cpus().length} cores`);
  const started = performance.now();
  const byCell = new Map<string, Tally>();
  const cpuWhole: number[] = [],
    cpuPanel: number[] = [];
  const results: { layout: string; card: string; run: string; seed: number; seconds: number; lines: { id: string; outcome: LineOutcome; read: string | null }[] }[] = [];
  for (const style of styles) {
    for (const name of cards) {
      const text = readFileSync(CARDS[name], 'utf8');
      const drawn = drawCard(printedFromNotation(parseCard(text)), style);
      const png = drawnPng(drawn);
      const panels = await panelPngs(drawn, png);
      const runs: Run[] = [];
      const asDrawn = (b: Buffer) => ({ bytes: b, note: 'as drawn' });
      if (cleanToo && panelsToo) runs.push({ label: 'clean, panels', photos: async () => panels.map(asDrawn), seeds: [0] });
      if (cleanToo && wholeToo) runs.push({ label: 'clean, whole', photos: async () => [asDrawn(png)], seeds: [0] });
      if (phoneToo && panelsToo)
        runs.push({
          label: 'phone, panels',
          // each panel its own photo, seeded apart from the whole card's
          photos: async (s) => Promise.all(panels.map((p, i) => phonePhoto(p, 1000 * s + 100 + i))),
          seeds,
        });
      if (phoneToo && wholeToo) runs.push({ label: 'phone, whole', photos: async (s) => [await phonePhoto(png, 1000 * s)], seeds });
      for (const r of runs) {
        const cell = tally();
        byCell.set(`${style.name}\t${name}\t${r.label}`, cell);
        for (const seed of r.seeds) {
          const photos = await r.photos(seed);
          if (save) photos.forEach((p, i) => writeFileSync(`${save}/${style.name}-${name}-${r.label.replace(/[^a-z]+/g, '-')}-${seed}-${i + 1}.${p.bytes[0] === 0xff ? 'jpg' : 'png'}`, p.bytes));
          const t0 = performance.now(),
            cpu0 = process.cpuUsage();
          const draft = await readCardPhotos(photos.map((p) => p.bytes));
          const seconds = (performance.now() - t0) / 1000;
          // the process's CPU time, the OCR's worker thread included: what a machine to itself would take, about
          const cpu = process.cpuUsage(cpu0);
          const cpuSeconds = (cpu.user + cpu.system) / 1e6;
          (r.label.endsWith('whole') ? cpuWhole : cpuPanel).push(...photos.map(() => cpuSeconds / photos.length));
          const { check, marked } = addDraft(cell, text, draft, seconds, photos.length);
          results.push({ layout: style.name, card: name, run: r.label, seed, seconds, lines: check.lines.map(({ id, outcome, read }) => ({ id, outcome, read })) });
          const bad = check.lines.filter((l) => l.outcome !== 'exact');
          process.stderr.write(
            `${style.name} ${name} ${r.label} #${seed}: ${check.lines.length - bad.length}/${check.lines.length} exact, ${marked} marked, ${check.extra.sure} extra unmarked, ${seconds.toFixed(1)} s, ${cpuSeconds.toFixed(1)} s of CPU (load ${load()})${
              bad.length ? `; not exact: ${bad.map((l) => `${l.id} (${l.outcome}${l.read ? `: ${l.read}` : ''})`).join('; ')}` : ''
            }\n`,
          );
        }
      }
    }
  }
  await closeCardPhotoReader();
  const rows: string[][] = [];
  const keys = [...byCell.keys()].map((k) => k.split('\t') as [string, string, string]);
  const labels = [...new Set(keys.map((k) => k[2]))];
  const cells = (f: (k: [string, string, string]) => boolean) => merge(keys.filter(f).map((k) => byCell.get(k.join('\t'))!));
  for (const style of styles) {
    for (const l of labels)
      rows.push(
        row(
          `${style.name} (${style.use}) / ${l}`,
          cells((k) => k[0] === style.name && k[2] === l),
        ),
      );
  }
  for (const u of [...new Set(styles.map((s) => s.use))]) {
    const names = new Set(styles.filter((s) => s.use === u).map((s) => s.name));
    for (const l of labels)
      rows.push(
        row(
          `every ${u} layout / ${l}`,
          cells((k) => names.has(k[0]) && k[2] === l),
        ),
      );
    rows.push(
      row(
        `every ${u} layout, all`,
        cells((k) => names.has(k[0])),
      ),
    );
  }
  console.log(table(rows, `layout (use) / condition, cards: ${cards.join(', ')}`));
  const whole = cells((k) => k[2].endsWith('whole'));
  const panel = cells((k) => k[2].endsWith('panels'));
  console.log(
    `\nseconds a photo: whole card median ${median(whole.seconds).toFixed(1)}, max ${Math.max(0, ...whole.seconds).toFixed(1)}; panel median ${median(panel.seconds).toFixed(1)}, max ${Math.max(0, ...panel.seconds).toFixed(1)}; phone seeds ${seeds.join(', ')}; ${((performance.now() - started) / 60000).toFixed(1)} min in all.`,
  );
  console.log(
    `CPU seconds a photo (the process's, OCR worker included): whole card median ${median(cpuWhole).toFixed(1)}, max ${Math.max(0, ...cpuWhole).toFixed(1)}; panel median ${median(cpuPanel).toFixed(1)}, max ${Math.max(0, ...cpuPanel).toFixed(1)}.`,
  );
  console.log(`load average after (1, 5, 15 min): ${load()} on ${cpus().length} cores`);
  console.log('false-sure: lines read wrong or lost and not marked unsure, of all lines; wrong/lost/extra unmarked: those lines, and lines the draft made up and did not mark.');
  if (json) writeFileSync(json, JSON.stringify(results, null, 1));
}

await main();
