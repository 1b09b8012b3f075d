import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LESSONS } from '../../agents/coach/lessons.js';
import { encodeAction } from '../../engine/mah-jongg/mah-jongg.js';
import type { Action } from '../../engine/mah-jongg/game.js';
import { loadCard } from '../../io/cards.js';
import { lessonMoves } from '../lesson-moves.js';
import { axeViolations, openBrowser, SHOTS, type BrowserTable } from './browser.js';
import { everyControlInside } from './page-checks.js';

/**
 * The lessons (issue 46) walked through at phone size, end to end: at every step a wrong move
 * first (refused, with its reason, and the step stays), then a right one (explained, and on to
 * the next step); a reload mid-course goes on where she stopped. Screenshots of each step.
 */

const cc = loadCard();
let t: BrowserTable;
beforeAll(async () => {
  t = await openBrowser('lessons', { screen: 'phone' });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const settled = (page: Page) => page.waitForSelector('body[data-busy="0"]');

/** Makes the move on the page as she would: tiles tapped on the rack and the main button, the call's button, or the answer's. */
async function play(page: Page, a: Action | { choice: string }): Promise<void> {
  if ('choice' in a) return page.click(`#answer [data-choice="${a.choice}"]`);
  const json = encodeAction(a) as { type: string; tiles?: string[]; tile?: string };
  if (json.type === 'call') return page.click('#answer button:has-text("Call the")');
  if (json.type === 'decline') return page.click('#decline-button');
  if (json.type === 'exchange') return page.click('[data-action="exchange"] >> nth=0');
  const tiles = json.tiles ?? [json.tile!];
  const rack = await page.$$eval('#drill-rack .tile', (els) => els.map((e) => (e as HTMLElement).dataset.tile));
  const used: number[] = [];
  for (const tile of tiles) {
    const at = rack.findIndex((x, i) => x === tile && !used.includes(i));
    used.push(at);
    await page.click(`#drill-rack .tile >> nth=${at}`);
  }
  await page.click('#answer-button');
}

describe('page: lessons', () => {
  it('every step of every lesson refuses a wrong move with its reason and takes a right one, at phone size; a reload goes on where she stopped', async () => {
    const { page, base, pageErrors } = t;
    await page.goto(`${base}/drills.html`);
    await page.evaluate(() => localStorage.removeItem('tilemate-lessons'));
    await page.reload();
    await page.waitForSelector('#lesson-list li');
    await expect(page.$$eval('#lesson-list li', (els) => els.length)).resolves.toBe(LESSONS.length);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'lessons-phone.png'), fullPage: true });
    const firstLong = LESSONS.findIndex((l) => l.steps.length > 1);
    for (const [li, lesson] of LESSONS.entries()) {
      await page.click(`#lesson-${lesson.id}`);
      for (let n = 1; n <= lesson.steps.length; n++) {
        await page.waitForFunction((want) => document.getElementById('drill-title')?.textContent === want, `Lesson: ${lesson.title}, step ${n} of ${lesson.steps.length}`);
        await settled(page);
        await expect(page.textContent('#drill-question')).resolves.toBe(lesson.steps[n - 1].say);
        expect(await everyControlInside(page)).toEqual([]);
        const { wrong, right } = lessonMoves(cc, lesson.id, n);
        await play(page, wrong);
        await page.waitForFunction(() => /^Not yet: /.test(document.getElementById('drill-message')?.textContent ?? ''));
        await settled(page);
        await expect(page.isVisible('#result')).resolves.toBe(false);
        await page.screenshot({ path: join(SHOTS, `lesson-${li + 1}-${n}-not-yet.png`), fullPage: true });
        await play(page, right);
        await page.waitForSelector('#result:not(.hidden)');
        await settled(page);
        expect((await page.textContent('#result .verdict'))!.length).toBeGreaterThan(10);
        await page.screenshot({ path: join(SHOTS, `lesson-${li + 1}-${n}-done.png`), fullPage: true });
        expect(await axeViolations(page)).toEqual([]);
        if (li === firstLong && n === 1) {
          // a reload after the first step: the course remembers it, and goes on at step 2
          await page.goto(`${base}/drills.html`);
          await page.waitForSelector('#lesson-list li');
          await expect(page.textContent(`#lesson-list li >> nth=${li}`)).resolves.toContain(`1 of ${lesson.steps.length} done.`);
          await page.click(`#lesson-${lesson.id}`);
          continue;
        }
        await page.click('#next-button');
      }
      // the list is drawn again from the server once she is back: wait for it to say so
      await page.waitForSelector('#lessons:not(.hidden)');
      await page.waitForFunction((n) => (document.querySelectorAll('#lesson-list li')[n]?.textContent ?? '').includes('Done.'), li);
    }
    expect(pageErrors).toEqual([]);
  }, 300_000);
});
