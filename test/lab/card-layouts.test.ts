import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { parseCard } from '../../engine/mah-jongg/card.js';
import { printedFromNotation } from '../../engine/mah-jongg/printed-card.js';
import { drawCard, drawnPng, LAYOUTS, panelPngs, type DrawnCard } from '../../lab/card-layouts/layouts.js';
import { phonePhoto } from '../../lab/card-layouts/photo.js';

/**
 * The card-layout family (lab/card-layouts/, issue 62): each layout of the practice card drawn,
 * its picture the size the layout says, the same bytes every time, every line of the card in
 * it, each layout's choices visible in where it put things; and a phone photo of it seeded and
 * deterministic. Drawn small (panels 500 px wide) to keep the test short.
 */

const PRACTICE = printedFromNotation(parseCard(readFileSync(new URL('../../cards/practice-2026.card', import.meta.url), 'utf8')));
const LINES = PRACTICE.sections.reduce((n, s) => n + s.lines.length, 0);
const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

describe('card layouts - the family', () => {
  it('names at least five layouts, some to tune on and some held out, each choice both ways on each side', () => {
    expect(LAYOUTS.length).toBeGreaterThanOrEqual(5);
    expect(new Set(LAYOUTS.map((l) => l.name)).size).toBe(LAYOUTS.length);
    const tune = LAYOUTS.filter((l) => l.use === 'tune'),
      held = LAYOUTS.filter((l) => l.use === 'held-out');
    expect(tune.length).toBeGreaterThan(0);
    expect(held.length).toBeGreaterThan(0);
    for (const side of [tune, held]) {
      for (const key of ['values', 'note', 'headings', 'panels', 'wrap'] as const) expect(new Set(side.map((l) => l.choices[key])).size, key).toBe(2);
    }
    const faces = new Set(LAYOUTS.map((l) => l.choices.typeface));
    for (const f of ['serif', 'sans', 'condensed'] as const) expect(faces.has(f) || (f === 'condensed' && faces.has('serif-condensed')), f).toBe(true);
  });

  it('draws every layout of a card: the picture its layout size, the same bytes every time, every line, the choices where they belong', async () => {
    const hashes = new Set<string>();
    for (const style of LAYOUTS) {
      const c = style.choices;
      const d: DrawnCard = drawCard(PRACTICE, style, { panelWidth: 500 });
      expect(drawCard(PRACTICE, style, { panelWidth: 500 }), style.name).toEqual(d);
      const png = drawnPng(d);
      expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
      const meta = await sharp(png).metadata();
      expect([meta.width, meta.height], style.name).toEqual([d.width, d.height]);
      expect(sha(drawnPng(d)), `${style.name}: the same bytes`).toBe(sha(png));
      hashes.add(sha(png));

      // every line, with as many groups as printed, on the page
      expect(d.lines.length).toBe(LINES);
      expect(d.lines.map((l) => l.id)).toContain('Addition #1');
      for (const l of d.lines) {
        expect(l.groups.length).toBe(l.printed.groups.length);
        for (const t of [...l.groups, ...l.note, l.value]) {
          expect(t.x).toBeGreaterThanOrEqual(0);
          expect(t.x + t.w).toBeLessThanOrEqual(d.width + 0.5);
          expect(t.y + t.h).toBeLessThanOrEqual(d.height);
        }
      }
      expect(d.panels.length).toBe(c.panels);
      expect(new Set(d.lines.map((l) => l.panel)).size).toBe(c.panels);
      expect(d.headings.length).toBe(PRACTICE.sections.length);
      if (c.headingCase === 'upper') expect(d.headings.every((h) => h.text === h.text.toUpperCase())).toBe(true);

      // far: every value right-aligned in one column, X/C in another, a wide gap after the groups; near: the value right after them
      const groupsEnd = (l: (typeof d.lines)[number]) => Math.max(...l.groups.map((g) => g.x + g.w));
      if (c.values === 'far') {
        for (const p of [0, 1].slice(0, c.panels)) {
          const ls = d.lines.filter((l) => l.panel === p);
          expect(new Set(ls.map((l) => Math.round(l.value.x + l.value.w))).size).toBe(1);
          expect(Math.min(...ls.map((l) => l.xc!.x - groupsEnd(l)))).toBeGreaterThan(50);
        }
      } else {
        for (const l of d.lines) {
          expect(l.xc).toBeNull();
          expect(l.value.text).toMatch(/^[XC] \d+$/);
          // after whatever ends its row: the groups, or a note beside them
          const sameRow = [...l.groups, ...l.note].filter((g) => g.baseline === l.value.baseline);
          expect(sameRow.length).toBeGreaterThan(0);
          expect(l.value.x).toBeGreaterThan(Math.max(...sameRow.map((g) => g.x + g.w)));
        }
      }
      // beside: some notes on a row of groups, in parentheses; below: every note under its groups
      const withNote = d.lines.filter((l) => l.note.length > 0);
      if (c.note === 'beside') {
        expect(withNote.some((l) => l.groups.some((g) => g.baseline === l.note[0].baseline))).toBe(true);
        expect(withNote.every((l) => l.note[0].text.startsWith('('))).toBe(true);
      } else for (const l of withNote) expect(l.note[0].y).toBeGreaterThan(Math.max(...l.groups.map((g) => g.y + g.h)) - 1);
      // the practice card's long line (three ways, 14 groups) wraps, or is set smaller (and wraps only past half size)
      const long = d.lines.find((l) => l.id === 'Addition #1')!;
      if (c.wrap) expect(Math.max(...long.groups.map((g) => g.row))).toBeGreaterThan(0);
      else expect(long.groups.every((g) => g.size < d.lines[0].groups[0].size)).toBe(true);
    }
    expect(hashes.size).toBe(LAYOUTS.length);
  });

  it('a phone photo is seeded: the same seed the same bytes, another seed another photo, the longer side 1,200 to 3,000 px', async () => {
    const style = LAYOUTS.find((l) => l.use === 'held-out' && l.choices.panels === 2)!;
    const d = drawCard(PRACTICE, style, { panelWidth: 500 });
    const [panel] = await panelPngs(d, drawnPng(d));
    const a = await phonePhoto(panel, 7, { size: [1200, 1400] });
    const again = await phonePhoto(panel, 7, { size: [1200, 1400] });
    expect(a.format).toBe('jpeg');
    expect(a.bytes.subarray(0, 2).toString('hex')).toBe('ffd8');
    expect(sha(again.bytes)).toBe(sha(a.bytes));
    expect(again.note).toBe(a.note);
    const meta = await sharp(a.bytes).metadata();
    expect([meta.width, meta.height]).toEqual([a.width, a.height]);
    expect(Math.max(a.width, a.height)).toBeGreaterThanOrEqual(1200);
    expect(Math.max(a.width, a.height)).toBeLessThanOrEqual(1400);
    expect(a.note).toMatch(/perspective.*bowed.*turned -?\d\.\d\d°.*shadow.*glare.*JPEG (6\d|7\d|8[0-5])$/);

    const other = await phonePhoto(panel, 8, { size: [1200, 1400] });
    expect(sha(other.bytes)).not.toBe(sha(a.bytes));

    // the effects one at a time: only a turn, as a PNG
    const turned = await phonePhoto(panel, 7, { effects: ['turn'], size: [1200, 1200] });
    expect(turned.format).toBe('png');
    expect(turned.note).toMatch(/^\d+ by 1200 px, turned -?\d\.\d\d°$/);
  });
});
