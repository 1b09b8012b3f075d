import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { featureWidth } from '../../agents/mah-jongg/features.js';
import { LearnedAgent } from '../../agents/mah-jongg/learned.js';
import type { ValueModel } from '../../agents/mah-jongg/model.js';
import { playOut } from '../../agents/table.js';
import { newGame } from '../../engine/mah-jongg/game.js';
import { mahJonggGame } from '../../engine/mah-jongg/mah-jongg.js';
import { seedRng } from '../../engine/rng.js';
import { RULESETS } from '../../engine/mah-jongg/rulesets.js';
import { selfPlay } from '../../training/selfplay.js';
import { TRAIN_DEFAULTS } from '../../training/train.js';
import { cc } from '../engine/game-helpers.js';

/**
 * The learned player's play pinned by digests: speed work on the learned player (the encoder,
 * the forward pass, the habits' ranking it reads) must not change a single choice nor a single
 * example. Each digest is a SHA-256 over every action of the games (and, for self-play, the
 * examples' bytes and the stats), taken from the code as it played when pinned. A player changed
 * on purpose is pinned again by printing the new digests (PRINT_PINS=1) and reading why they moved.
 */

const rules = RULESETS['nmjl-4p'];
const PRINT = process.env.PRINT_PINS === '1';
/**
 * The shipped model's feature version, in which the digests are pinned (the first were pinned
 * in version 1 with version 2's and 3's beside them, until the encoders of 1 and 3 were retired;
 * version 2's digests are the ones pinned then).
 */
const SHIPPED = 2;

/** Small random weights of the shipped network's shape (deterministic), so the pins hold whatever model ships. */
function randomModel(seed: number, version = SHIPPED): ValueModel {
  let x = seed;
  const rand = (n: number) => Float32Array.from({ length: n }, () => ((x = (x * 1103515245 + 12345) >>> 0) / 2 ** 32 - 0.5) * 0.4);
  const widths = [featureWidth(version), 64, 32, 2];
  return { featureVersion: version, layers: widths.slice(1).map((m, i) => ({ inputs: widths[i], outputs: m, relu: i < 2, kernel: rand(widths[i] * m), bias: rand(m) })), info: {} };
}

/** SHA-256 of the actions of games of four learned players, seeds from .. from + games - 1. */
function gamesDigest(model: ValueModel | null, from: number, games: number, explore = 0, version = SHIPPED): string {
  const width = featureWidth(version);
  const hash = createHash('sha256');
  for (let seed = from; seed < from + games; seed++) {
    const rows: number[] = [];
    const agent = new LearnedAgent(cc, model, {
      explore,
      featureVersion: version,
      record: (seat, x, offset, predicted) => {
        rows.push(seat, ...x.subarray(offset, offset + width), predicted?.win ?? -1, predicted?.score ?? -1);
      },
    });
    const state = newGame(rules, cc, seed);
    playOut(mahJonggGame(rules, cc), state, [agent, agent, agent, agent], seedRng(seed), (a) => hash.update(JSON.stringify(a)));
    hash.update(JSON.stringify(state.result));
    hash.update(new Float64Array(rows));
  }
  return hash.digest('hex');
}

function selfPlayDigest(model: ValueModel | null, seeds: number[], version = SHIPPED): string {
  const { examples, stats } = selfPlay({ ...TRAIN_DEFAULTS.play, ruleset: rules, cc, model, featureVersion: version }, seeds);
  const hash = createHash('sha256');
  hash.update(new Uint8Array(examples.x.buffer, examples.x.byteOffset, examples.x.byteLength));
  hash.update(new Uint8Array(examples.y.buffer, examples.y.byteOffset, examples.y.byteLength));
  hash.update(JSON.stringify(stats));
  return hash.digest('hex');
}

describe('the learned player pinned', () => {
  const check = (name: string, got: string, pinned: string) => {
    if (PRINT) console.log(`${name}: '${got}'`);
    else expect(got, name).toBe(pinned);
  };

  it('learned play - games of four learned players (random weights, no exploring) give the same actions and examples', () => {
    check('random weights', gamesDigest(randomModel(5), 100, 6), '3d5e679cc7da341221f00793e990180bdda42f9e71aec7c5cc27cb7e0886b427');
  });

  it('learned play - exploring players give the same actions and examples', () => {
    check('explore', gamesDigest(randomModel(9), 200, 6, 0.1), 'abc6c47f7e8b8ca7737b782eb8b77d53fa602c494b716f8b9045ea04893db649');
  });

  it("learned play - without a model (the habits' choices) the same actions and examples", () => {
    check('no model', gamesDigest(null, 300, 4, 0.1), '67d1d4f6f2e1b6241945b8fb1df4285a8b5bb2030df1832934bdebe4278b76f2');
  });

  it('self-play - the same examples and stats from the same seeds', () => {
    check(
      'self-play',
      selfPlayDigest(
        randomModel(11),
        Array.from({ length: 16 }, (_, i) => 400 + i),
      ),
      '760a59b4dce5fbd6c7802ff61ece4f06b43545e4b0c6dd9026880592a4a14b5a',
    );
  });

  it('feature version 4 (the reading of the table) - games and self-play give the same actions and examples', () => {
    check('version 4', gamesDigest(randomModel(5, 4), 100, 4, 0, 4), '300ac2148b5be8cdc370e5eeb07bec151cbdd1b593bb8546e44699fa54058243');
    check(
      'version 4 self-play',
      selfPlayDigest(
        randomModel(11, 4),
        Array.from({ length: 8 }, (_, i) => 400 + i),
        4,
      ),
      '673dfac33f87be4a61602d93fb0be4173f1d6aa7341db0c4f6b870c1ecf572e7',
    );
  });
}, 120_000);
