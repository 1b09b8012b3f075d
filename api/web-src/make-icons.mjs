// The home-screen icons (api/web/icons/*.png) drawn from api/web/favicon.svg by Debian's
// Chromium: the plain icon at 192 and 512 pixels on a clear background, and a maskable one
// (the tile inside the middle 60%, on the felt green, so a launcher's round or squircle mask
// never cuts it). Run again after changing favicon.svg: node api/web-src/make-icons.mjs
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const web = join(dirname(fileURLToPath(import.meta.url)), '..', 'web');
const svg = readFileSync(join(web, 'favicon.svg'), 'utf8');
const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
const FELT = '#1f5f46';

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  for (const [file, size, maskable] of [['icon-192.png', 192, false], ['icon-512.png', 512, false], ['icon-maskable-512.png', 512, true]]) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const inner = maskable ? Math.round(size * 0.6) : size;
    await page.setContent(`<body style="margin:0;width:${size}px;height:${size}px;display:grid;place-items:center;background:${maskable ? FELT : 'transparent'}">`
      + `<div style="width:${inner}px;height:${inner}px;${maskable ? 'background:#f4f1e8;border-radius:18%;display:grid;place-items:center' : ''}"><img src="${src}" width="${maskable ? Math.round(inner * 0.9) : inner}" height="${maskable ? Math.round(inner * 0.9) : inner}"></div></body>`);
    await page.screenshot({ path: join(web, 'icons', file), omitBackground: !maskable });
    await page.close();
    console.log(`${file}: ${size}x${size}${maskable ? ', maskable' : ''}`);
  }
} finally {
  await browser.close();
}
