/**
 * `npm run build && node dist/bench/card-render.bench.js`: how fast the practice card is drawn
 * as printed (issue 44), each format beside the layout alone (the baseline every renderer
 * shares), measured in the same run: these machines are noisy, so the ratios are what to compare.
 */
import Benchmark from 'benchmark';
import { drawCard } from '../api/shared/card-drawing.js';
import { cardSvg, layoutCard } from '../api/shared/card-picture.js';
import { printedFromText } from '../engine/mah-jongg/printed-card.js';
import { readCardText } from '../io/cards.js';
import { runSuite } from './common.js';

const text = readCardText();
const card = printedFromText(text);
// the libraries and the font files are loaded once, before anything is timed
drawCard(text, 'png');
drawCard(text, 'pdf');

const suite = new Benchmark.Suite('card render')
  .add('layout (baseline)', () => {
    layoutCard(card);
  })
  .add('layout + SVG', () => {
    cardSvg(layoutCard(card));
  })
  .add('PNG (parse, layout, resvg)', () => {
    drawCard(text, 'png');
  })
  .add('PDF (parse, layout, pdfkit, 2 letter pages)', () => {
    drawCard(text, 'pdf');
  });

const hz = await runSuite(suite);
const base = hz.get('layout (baseline)')!;
console.log(`Tilemate Practice Card 2026, ${card.sections.reduce((n, s) => n + s.lines.length, 0)} lines, 1700 px wide, two columns`);
for (const [name, ops] of hz) console.log(`${name.padEnd(46)} ${ops.toFixed(ops < 10 ? 2 : 0).padStart(8)} ops/s   ${(base / ops).toFixed(1).padStart(7)}x the layout's time`);
