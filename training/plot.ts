import type { TopLevelSpec } from 'vega-lite';

/** What the chart reads of a generation's row of the training log (train.ts's LogRow has them). */
export interface PlottedRow {
  generation: number;
  /** Win share against three medium bots less the strong habits', with its 95% interval (fractions). */
  vsHabits: number;
  vsHabitsLow: number;
  vsHabitsHigh: number;
  valLoss: number;
}

/**
 * The training log as an SVG chart, drawn by vega-lite rendered headless by vega: per
 * generation, the candidate's win-share difference against the strong habits with its 95%
 * interval, and the validation loss.
 */
export async function plotLog(log: readonly PlottedRow[]): Promise<string> {
  const values = log.map((r) => ({ ...r, vsHabits: r.vsHabits * 100, vsHabitsLow: r.vsHabitsLow * 100, vsHabitsHigh: r.vsHabitsHigh * 100 }));
  const x = { field: 'generation', type: 'quantitative', title: 'generation', axis: { tickMinStep: 1 } } as const;
  const spec: TopLevelSpec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    data: { values },
    vconcat: [
      {
        width: 480,
        height: 200,
        title: "win share against three medium bots, less the strong habits' (points, 95% interval)",
        layer: [
          { mark: { type: 'rule', color: '#888' }, encoding: { y: { datum: 0 } } },
          { mark: { type: 'errorbar' }, encoding: { x, y: { field: 'vsHabitsLow', type: 'quantitative', title: 'points' }, y2: { field: 'vsHabitsHigh' } } },
          { mark: { type: 'line', point: true }, encoding: { x, y: { field: 'vsHabits', type: 'quantitative' } } },
        ],
      },
      {
        width: 480,
        height: 160,
        title: 'validation loss',
        mark: { type: 'line', point: true, color: '#c44' },
        encoding: { x, y: { field: 'valLoss', type: 'quantitative', title: 'loss', scale: { zero: false } } },
      },
    ],
  };
  // loaded when a chart is drawn: vega is most of the command line's start-up otherwise
  const [vega, { compile }] = await Promise.all([import('vega'), import('vega-lite')]);
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return svg;
}
