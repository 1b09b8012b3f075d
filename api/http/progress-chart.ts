import type { TopLevelSpec } from 'vega-lite';
import type { Progress } from '../../agents/coach/progress.js';

/**
 * A player's progress as an SVG chart, drawn by vega-lite rendered headless by vega: her
 * win share week by week against each level of bots (Mah Jongg), and what her mistakes cost
 * a reviewed game, by kind.
 */
export async function progressChart(p: Progress, opts: { narrow?: boolean } = {}): Promise<string> {
  // a phone's chart: narrower panels and bigger words, so that shown at a phone's width its words
  // are as big as the page's small print, not shrunk to half
  const narrow = opts.narrow === true;
  const font = narrow ? { label: 17, title: 18, heading: 19 } : { label: 15, title: 16, heading: 18 };
  const week = { field: 'week', type: 'ordinal', title: 'week of', axis: { labelAngle: -40 } } as const;
  const wins = p.weeks.filter((w) => w.game === 'mah-jongg');
  const costs = p.mistakes.filter((m) => m.kind !== 'dead hand');
  // a heading in two lines on a phone (split at its comma), in one elsewhere
  const heading = (title: string) => (narrow ? title.split(/(?<=,) /) : title);
  const panel = (title: string, values: object[], inner: object) => ({ width: narrow ? 230 : 380, height: 180, title: { text: heading(title) }, data: { values }, ...inner });
  const panels = [
    panel("Mah Jongg games won (%), by the bots' level", wins, {
      mark: { type: 'line', point: { size: 90 }, strokeWidth: 3 },
      encoding: { x: week, y: { field: 'winShare', type: 'quantitative', title: 'won (%)', scale: { domain: [0, 100] } }, color: { field: 'against', type: 'nominal', title: 'bots' } },
    }),
    // what mistakes cost, once some game has been reviewed
    ...(costs.length > 0
      ? [
          panel('Points lost to mistakes, per reviewed game', costs, {
            mark: { type: 'bar' },
            encoding: { x: week, y: { field: 'costPerGame', type: 'quantitative', title: 'points a game', stack: 'zero' }, color: { field: 'kind', type: 'nominal', title: 'mistakes in' } },
          }),
        ]
      : []),
  ];
  const spec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    config: {
      font: 'sans-serif',
      title: { fontSize: font.heading },
      axis: { labelFontSize: font.label, titleFontSize: font.title },
      legend: { labelFontSize: font.label, titleFontSize: font.title, orient: 'bottom' },
    },
    resolve: { scale: { color: 'independent' }, legend: { color: 'independent' } },
    vconcat: panels,
  } as TopLevelSpec;
  const [vega, { compile }] = await Promise.all([import('vega'), import('vega-lite')]);
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return svg;
}
