import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { liveForms } from '../../agents/mah-jongg/heuristic.js';
import { makeAgent } from '../../agents/mah-jongg/levels.js';
import { playOut } from '../../agents/table.js';
import { newGame, view } from '../../engine/mah-jongg/game.js';
import { mahJonggGame } from '../../engine/mah-jongg/mah-jongg.js';
import { actionLine, endLine } from '../../engine/record.js';
import { seedRng } from '../../engine/rng.js';
import { loadRuleset } from '../../engine/mah-jongg/rulesets.js';
import { unseenCounts } from '../../engine/mah-jongg/seat.js';
import { JOKER } from '../../engine/mah-jongg/tiles.js';
import { cc } from '../engine/game-helpers.js';

/**
 * The bots' play pinned: speed work (caches, memos, work caps) and changes elsewhere must not
 * change a single decision. Each game below is stored whole in test/agents/pinned/, one line
 * per action as records write them (engine/record.ts actionLine), then the end line (winners,
 * scores), and played again here action by action; a game that differs fails with the first
 * action that differs. The streams were written from the bots as they played when the games
 * were pinned by hashes (checked equal to those hashes).
 *
 * A bot changed on purpose is pinned again with
 *     UPDATE_PINS=1 npx vitest run test/agents/pinned.test.ts
 * which writes every file from the bots as they now play (and checks nothing): read the
 * files' diff before committing it.
 */

const PINNED_DIR = join(import.meta.dirname, 'pinned');
const UPDATE = process.env.UPDATE_PINS === '1';

/** A pinned game: the ruleset, the bot in each seat, the seed of the deal. */
interface PinnedGame {
  ruleset: string;
  bots: string[];
  seed: number;
}

const same = (bot: string, players: number): string[] => new Array<string>(players).fill(bot);

const GAMES: PinnedGame[] = [
  // one bot at every seat, a few seeds per ruleset
  ...(
    [
      ['nmjl-4p', 'random', 1],
      ['nmjl-4p', 'random', 2],
      ['nmjl-4p', 'random', 3],
      ['nmjl-4p', 'greedy', 4],
      ['nmjl-4p', 'greedy', 5],
      ['nmjl-4p', 'medium', 6],
      ['nmjl-3p-courtesy', 'random', 7],
      ['nmjl-3p-courtesy', 'random', 8],
      ['nmjl-4p-tournament', 'greedy', 9],
      ['siamese-2p', 'random', 10],
      ['siamese-2p', 'random', 11],
      ['siamese-2p', 'random', 12],
      ['siamese-2p', 'greedy', 13],
      ['siamese-2p', 'medium', 14],
      ['royale-siamese-4p', 'random', 15],
      ['royale-siamese-4p', 'random', 16],
      ['royale-siamese-4p', 'greedy', 17],
    ] as const
  ).map(([ruleset, bot, seed]) => ({ ruleset, bots: same(bot, loadRuleset(ruleset).players), seed })),
  // medium, strong and easy at one table
  ...[1, 2, 3, 4, 5, 6].map((seed) => ({ ruleset: 'nmjl-4p-tournament', bots: ['medium', 'strong', 'easy', 'medium'], seed })),
  // medium in a 3-player game
  ...[7, 8, 9].map((seed) => ({ ruleset: 'nmjl-3p', bots: same('medium', 3), seed })),
  // the Monte Carlo player (hard until issue 48) at a table of medium players
  { ruleset: 'nmjl-4p', bots: ['montecarlo', 'medium', 'medium', 'medium'], seed: 11 },
];

/** The bots named once when every seat has the same one, else seat by seat. */
const botsName = (bots: readonly string[]): string => (bots.every((b) => b === bots[0]) ? bots[0] : bots.join('-'));
const fileOf = (g: PinnedGame): string => join(PINNED_DIR, `${g.ruleset}-${botsName(g.bots)}-${g.seed}.jsonl`);

/** The game played: its record lines, one per action, then the end line. */
function play(g: PinnedGame): string[] {
  const rules = loadRuleset(g.ruleset);
  const game = mahJonggGame(rules, cc);
  const agents = g.bots.map((b) => makeAgent(b, cc, rules));
  const state = game.newGame(g.seed);
  const lines: string[] = [];
  // the bots' generator seeded as the server seeds it (botRng in agents/bots.ts)
  playOut(game, state, agents, seedRng((g.seed ^ 0x5bd1e995) >>> 0), (a) => {
    lines.push(actionLine(game, lines.length + 1, a));
  });
  lines.push(endLine(game, state));
  return lines;
}

/** Where two streams first part, in words (null when they are the same). */
function firstDifference(expected: readonly string[], got: readonly string[]): string | null {
  const what = (i: number, lines: readonly string[]): string => (i >= lines.length ? 'nothing (the stream has ended)' : lines[i]);
  for (let i = 0; i < Math.max(expected.length, got.length); i++) {
    if (expected[i] === got[i]) continue;
    const where = i < expected.length - 1 ? `action ${i + 1}` : 'the end';
    return `${where} differs: expected ${what(i, expected)}, got ${what(i, got)}`;
  }
  return null;
}

describe('the bots play as they did', () => {
  it.each(GAMES.map((g) => [`${g.ruleset}, ${g.bots.join(' ')}, seed ${g.seed}`, g] as const))('%s: the same actions, action by action, and the same outcome', (_name, g) => {
    const got = play(g);
    const file = fileOf(g);
    if (UPDATE) {
      mkdirSync(PINNED_DIR, { recursive: true });
      writeFileSync(file, `${got.join('\n')}\n`);
      return;
    }
    if (!existsSync(file)) expect.fail(`game ${g.ruleset} ${botsName(g.bots)} seed ${g.seed}: no pinned stream ${file} (UPDATE_PINS=1 writes it)`);
    const expected = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l !== '');
    const diff = firstDifference(expected, got);
    if (diff !== null) expect.fail(`game ${g.ruleset} ${botsName(g.bots)} seed ${g.seed}: ${diff}`);
  });
});

describe('liveForms', () => {
  /** The answer worked out afresh (what the kept, mended answer must equal). */
  function fresh(held: number[], unseen: number[]): Uint8Array {
    const out = new Uint8Array(cc.formCount);
    const jokers = held[JOKER] + unseen[JOKER];
    for (let f = 0; f < cc.formCount; f++) {
      const jokersLeft = cc.lineJokers[cc.formLine[f]] === 1 ? jokers : 0;
      let short = 0,
        ok = true;
      for (let e = cc.entryStart[f]; e < cc.entryStart[f + 1]; e++) {
        const t = cc.entryKind[e];
        if (t === JOKER) continue;
        const avail = held[t] + unseen[t];
        if (cc.entrySingle[e] > avail) ok = false;
        else if (cc.entryNeed[e] > avail) short += cc.entryNeed[e] - avail;
      }
      out[f] = ok && short <= jokersLeft ? 1 : 0;
    }
    return out;
  }

  it('mended from the last answer equals the answer afresh, step by step through whole games, and an answer once given never changes', () => {
    const r = loadRuleset('nmjl-4p');
    let checked = 0,
      dead = 0;
    const given: { answer: Uint8Array; copy: Uint8Array }[] = [];
    for (const seed of [21, 22]) {
      const agents = [0, 1, 2, 3].map(() => makeAgent('medium', cc, r));
      playOut(mahJonggGame(r, cc), newGame(r, cc, seed), agents, seedRng(seed), (_a, s) => {
        if (s.phase.kind !== 'discard') return;
        for (let seat = 0; seat < 4; seat++) {
          const v = view(s, seat);
          const held = [...v.concealed];
          const unseen = unseenCounts(v);
          const answer = liveForms(cc, held, unseen);
          expect(answer).toEqual(fresh(held, unseen));
          given.push({ answer, copy: answer.slice() });
          checked++;
          dead += answer.length - answer.reduce((a, b) => a + b, 0);
        }
      });
    }
    for (const g of given) expect(g.answer).toEqual(g.copy);
    expect(checked).toBeGreaterThan(200);
    expect(dead).toBeGreaterThan(0); // some forms did die along the way, so mending was tested
  });
});
