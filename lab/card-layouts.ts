import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCard } from '../engine/mah-jongg/card.js';
import { printedFromNotation } from '../engine/mah-jongg/printed-card.js';
import { drawCard, drawnPng, LAYOUTS, layoutNamed, panelPngs } from './card-layouts/layouts.js';
import { phonePhoto } from './card-layouts/photo.js';

/**
 * Every layout of the card-layout family (lab/card-layouts/layouts.ts, issue 62) drawn for one
 * of the project's cards, written to a folder for a person to look at: each layout clean, the
 * whole card and each panel, and as phone photos (lab/card-layouts/photo.ts) of the whole card
 * and of a panel.
 *
 *   node dist/lab/card-layouts.js --out DIR [--card practice|garden|orchard|FILE] [--layouts ledger,primer] [--photos 2] [--seed 1]
 *
 * Files: `<layout>-<use>-clean.png`, `<layout>-<use>-panel-<n>.png`,
 * `<layout>-<use>-photo-<seed>.jpg` (the whole card), `<layout>-<use>-panel-1-photo-<seed>.jpg`;
 * `layouts.json` says what each layout is and what each photo's effects were.
 */

const CARDS: Record<string, string> = { practice: 'cards/practice-2026.card', garden: 'cards/garden-2026.card', orchard: 'cards/orchard-2026.card' };

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const out = arg('out');
  if (out === undefined) throw new Error('say where to write the pictures: --out DIR');
  const cardArg = arg('card') ?? 'practice';
  const card = printedFromNotation(parseCard(readFileSync(CARDS[cardArg] ?? cardArg, 'utf8')));
  const layouts = arg('layouts')?.split(',').map(layoutNamed) ?? LAYOUTS;
  const photos = Number(arg('photos') ?? 2);
  const seed0 = Number(arg('seed') ?? 1);
  mkdirSync(out, { recursive: true });
  const index: unknown[] = [];
  for (const style of layouts) {
    const t0 = Date.now();
    const drawn = drawCard(card, style);
    const png = drawnPng(drawn);
    const base = `${style.name}-${style.use}`;
    writeFileSync(join(out, `${base}-clean.png`), png);
    const panels = await panelPngs(drawn, png);
    panels.forEach((p, i) => writeFileSync(join(out, `${base}-panel-${i + 1}.png`), p));
    const shots: { file: string; note: string }[] = [];
    for (let s = seed0; s < seed0 + photos; s++) {
      const whole = await phonePhoto(png, s);
      const file = `${base}-photo-${s}.jpg`;
      writeFileSync(join(out, file), whole.bytes);
      shots.push({ file, note: whole.note });
      const one = await phonePhoto(panels[0], 1000 + s);
      const panelFile = `${base}-panel-1-photo-${s}.jpg`;
      writeFileSync(join(out, panelFile), one.bytes);
      shots.push({ file: panelFile, note: one.note });
    }
    index.push({
      layout: style.name,
      use: style.use,
      about: style.about,
      choices: style.choices,
      size: [drawn.width, drawn.height],
      panels: drawn.panels.length,
      lines: drawn.lines.length,
      photos: shots,
    });
    console.log(
      `${style.name} (${style.use}): ${drawn.width} by ${drawn.height} px, ${drawn.panels.length} panel(s), ${drawn.lines.length} lines, ${shots.length} photos, ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
  }
  writeFileSync(join(out, 'layouts.json'), `${JSON.stringify({ card: card.name, layouts: index }, null, 1)}\n`);
  console.log(`Wrote ${layouts.length} layouts of ${card.name} to ${out}`);
}

await main();
