import { describe, expect, it } from 'vitest';
import { loadCard } from '../../io/cards.js';
import { defaultWall, lineChances } from '../../agents/mah-jongg/advice.js';
import { HeuristicAgent, MEDIUM_HABITS } from '../../agents/mah-jongg/heuristic.js';
import { analysisInput, Analyzer } from '../../engine/mah-jongg/analyzer.js';
import { apply, legalActions, newGame, view, waitingOn } from '../../engine/mah-jongg/game.js';
import { seedRng } from '../../engine/rng.js';
import { loadRuleset } from '../../engine/mah-jongg/rulesets.js';
import { COPIES, formatTiles, tilesFromCounts } from '../../engine/mah-jongg/tiles.js';

const groups = (list: readonly { tile: number; size: number; jokers: number }[]) => list.map((x) => formatTiles([...Array(x.size - x.jokers).fill(x.tile), ...Array(x.jokers).fill(35)])).join('; ');

describe('the wall behind the chances', () => {
  it("other players' exposures are seen but not gone from the wall: the true wall is accepted and is the default on a turn", () => {
    const cc = loadCard();
    const rules = loadRuleset('nmjl-4p');
    const state = newGame(rules, cc, 1);
    const bots = [0, 1, 2, 3].map(() => new HeuristicAgent(cc, MEDIUM_HABITS));
    const rng = seedRng(1);
    let checked = 0;
    while (state.phase.kind !== 'ended') {
      const seat = waitingOn(state)[0];
      if (state.phase.kind === 'discard' && seat === 1 && state.players.some((p, s) => s !== 1 && p.exposures.length > 0)) {
        const v = view(state, 1);
        const seen = v.discards.flat();
        const [right, across, left] = [2, 3, 0].map((s) => groups(v.exposures[s]));
        const input = analysisInput(COPIES, formatTiles(tilesFromCounts(v.concealed)), groups(v.exposures[1]), formatTiles(seen), { right, across, left });
        // the exposures count as seen (outs, dead lines), and not as gone from the wall
        const exposedTiles = [0, 2, 3].reduce((n, s) => n + v.exposures[s].reduce((m, x) => m + x.size, 0), 0);
        expect(input.seen.reduce((a, b) => a + b, 0)).toBe(seen.length + exposedTiles);
        expect(defaultWall(input)).toBe(v.wallLeft);
        const results = new Analyzer(cc).analyze(input, { top: 3 });
        expect(lineChances(cc, input, results, { deals: 20, wall: v.wallLeft }).wall).toBe(v.wallLeft);
        // given as seen tiles instead, the same exposures would make the wall look shorter
        const lumped = analysisInput(COPIES, formatTiles(tilesFromCounts(v.concealed)), groups(v.exposures[1]), [formatTiles(seen), right, across, left].join(' ').replace(/;/g, ' '));
        expect(defaultWall(lumped)).toBeLessThan(v.wallLeft);
        checked++;
      }
      const a = bots[seat].act({ seat, phase: state.phase.kind, view: () => view(state, seat), legal: () => legalActions(state, seat), rng });
      apply(state, a);
    }
    expect(checked).toBeGreaterThan(0);
  });
});
