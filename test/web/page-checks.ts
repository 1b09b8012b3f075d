import type { Page } from 'playwright-core';

/** Checks every page passes: controls on screen, text size, keyboard reach. */

const CONTROLS = 'button, a[href], input, select, textarea, summary';

/** Visible controls that stick out of the viewport sideways, or are covered where a tap would land (empty when none). */
export async function everyControlInside(page: Page): Promise<string[]> {
  const width = page.viewportSize()!.width;
  return page.$$eval(
    CONTROLS,
    (els, w) => {
      const bad: string[] = [];
      for (const el of els as HTMLElement[]) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) continue; // not shown
        const closed = el.closest('details:not([open])');
        if (closed !== null && !closed.querySelector(':scope > summary')?.contains(el)) continue; // inside a closed <details>: not shown, though Chromium gives it a box
        const name = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.dataset.tile ? `[${el.dataset.tile}]` : ''} "${(el.textContent ?? '').trim().slice(0, 30)}"`;
        if (r.left < 0 || r.right > w + 0.5) {
          bad.push(`${name} at ${Math.round(r.left)}..${Math.round(r.right)}`);
          continue;
        }
        // what a tap at the middle would hit, once scrolled into view
        el.scrollIntoView({ block: 'center' });
        // an inline link may wrap over two lines: aim at its first line box
        const s = el.getClientRects()[0];
        const hit = document.elementFromPoint(s.left + s.width / 2, s.top + s.height / 2);
        if (hit !== null && hit !== el && !el.contains(hit) && !(el.tagName === 'INPUT' && hit.closest('label')?.contains(el))) bad.push(`${name} is covered by ${hit.tagName.toLowerCase()}`);
      }
      window.scrollTo(0, 0);
      return bad;
    },
    width,
  );
}

/** The smallest computed font size (px) of the visible elements matching the selector. */
export async function smallestText(page: Page, selector: string): Promise<number> {
  return page.$$eval(selector, (els) =>
    Math.min(...(els as HTMLElement[]).filter((e) => e.getClientRects().length > 0 && (e.textContent ?? '').trim() !== '').map((e) => parseFloat(getComputedStyle(e).fontSize))),
  );
}

/** Visible controls that pressing Tab never reaches (empty when every one is reached). */
export async function keyboardReaches(page: Page): Promise<string[]> {
  const total = await page.$$eval(CONTROLS, (els) => {
    let n = 0;
    for (const el of els as HTMLElement[]) {
      if (el.getClientRects().length === 0 || (el as HTMLButtonElement).disabled) continue;
      el.dataset.kb = String(n++);
    }
    return n;
  });
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.focus();
  });
  const reached = new Set<string>();
  // radio buttons of one group take one Tab stop (arrow keys move within it)
  const radios = await page.$$eval('input[type="radio"][data-kb]', (rs) => rs.map((r) => ({ kb: (r as HTMLElement).dataset.kb!, name: (r as HTMLInputElement).name })));
  for (let i = 0; i < total + 10; i++) {
    await page.keyboard.press('Tab');
    const kb = await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.kb);
    if (kb !== undefined) reached.add(kb);
  }
  // a radio group reached once counts for its every button
  for (const r of radios) if (radios.some((o) => o.name === r.name && reached.has(o.kb))) reached.add(r.kb);
  return page.$$eval(
    '[data-kb]',
    (els, got) => (els as HTMLElement[]).filter((e) => !got.includes(e.dataset.kb!)).map((e) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''} "${(e.textContent ?? '').trim().slice(0, 30)}"`),
    [...reached],
  );
}
