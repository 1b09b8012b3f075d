import { describe, expect, it } from 'vitest';
import type { Game, GameSpec } from '../engine/games.js';
import { RecordWriter, replayRecord } from '../engine/record.js';
import { GAMES, loadGame } from '../engine/registry.js';
import { nextInt, seedRng } from '../engine/rng.js';
import { CardCache, readCardText } from '../io/cards.js';

/**
 * One random-simulation suite for every registered game and every parameter setting
 * (OpenSpiel's random-game test), through the game interface alone: seeded games of random
 * legal actions, and at every step
 * - every invariant of the state holds (validate);
 * - the seats waited on are exactly those with legal actions, and the first of them is next to act;
 * - an action written by the codec reads back as the same action;
 * - at sampled steps, every legal action of a seat waited on is accepted on a copy (which
 *   then validates), a legal action sent for a seat not waited on is refused, and neither
 *   changes the game;
 * - a seat's view of a game in play holds no seed, no generator and no wall;
 * and once a game ends, nothing more is accepted. Then OpenSpiel's check of saving and loading:
 * a record of every prefix-length sample (written every few actions, as a live game's journal
 * is) replays to the same state, and a whole record replays to the same end.
 */

const CARD = { text: readCardText() };
const cards = new CardCache();

/** Every game's parameter settings: each ruleset, and for Mexican Train every table size and the one-round games. */
const SETTINGS: Record<string, Record<string, unknown>[]> = {
  'mah-jongg': GAMES['mah-jongg'].rulesets.map((ruleset) => ({ ruleset, card: CARD })),
  'mexican-train': GAMES['mexican-train'].rulesets.flatMap((ruleset) => [...[2, 3, 4, 5, 6, 7, 8].map((players) => ({ ruleset, players })), { ruleset, players: 4, game: { round: 5 } }]),
};

/** Games per setting, and how often the heavier checks run. */
const GAMES_EACH = 12;
const ACCEPT_EVERY = 9;
const PREFIX_EVERY = 37;
const MAX_ACTIONS = 20_000;

const HIDDEN_KEYS = ['seed', 'rng', 'wall'];

function keysOf(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) keysOf(v, out);
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      out.add(k);
      keysOf(v, out);
    }
  return out;
}

/** The state as plain data, for comparing two states (the ruleset and card are the game's, not the state's). */
const snapshot = (state: object): string => JSON.stringify(state, (k, v) => (k === 'rules' || k === 'cc' ? undefined : v));

interface Count {
  games: number;
  actions: number;
  legal: number;
  accepted: number;
  refused: number;
  prefixes: number;
}

function playChecked<G extends GameSpec>(game: Game<G>, seed: number, count: Count): void {
  const where = (state: G['state']) => `${game.type.name} ${JSON.stringify({ ...game.params, card: undefined })} seed ${seed} action ${game.actionCount(state)}`;
  const rng = seedRng(seed ^ 0x2545f491);
  const state = game.newGame(seed);
  const writer = new RecordWriter(game, seed, new Array<string>(game.players).fill('random'));
  game.validate(state);
  let steps = 0;
  while (!game.isOver(state)) {
    const waiting = game.waitingOn(state);
    expect(waiting.length, where(state)).toBeGreaterThan(0);
    expect(game.nextToAct(state), where(state)).toBe(waiting[0]);
    const legalBySeat = Array.from({ length: game.players }, (_, s) => game.legalActions(state, s));
    legalBySeat.forEach((legal, s) => expect(legal.length > 0, `${where(state)}: seat ${s} has legal actions exactly when waited on`).toBe(waiting.includes(s)));
    const seat = waiting[nextInt(rng, waiting.length)];
    const legal = legalBySeat[seat];
    count.legal += legal.length;
    if (steps % ACCEPT_EVERY === 0) {
      const before = snapshot(state);
      for (const a of legal) {
        const copy = game.clone(state);
        expect(game.tryApply(copy, a), `${where(state)}: legal ${JSON.stringify(a)} refused`).toBeNull();
        game.validate(copy);
        count.accepted++;
      }
      const idle = Array.from({ length: game.players }, (_, s) => s).find((s) => !waiting.includes(s));
      if (idle !== undefined) {
        expect(game.tryApply(state, { ...legal[0], seat: idle }), `${where(state)}: seat ${idle} acted out of turn`).not.toBeNull();
        count.refused++;
      }
      expect(snapshot(state), `${where(state)}: a question, a copy or a refusal changed the game`).toBe(before);
      for (let s = 0; s < game.players; s++) {
        const keys = keysOf(JSON.parse(JSON.stringify(game.view(state, s))));
        for (const hidden of HIDDEN_KEYS) expect(keys.has(hidden), `${where(state)}: seat ${s}'s view shows "${hidden}"`).toBe(false);
      }
    }
    const action = legal[nextInt(rng, legal.length)];
    expect(game.decodeAction(JSON.parse(JSON.stringify(game.encodeAction(action)))), `${where(state)}: the codec's round trip`).toEqual(action);
    game.apply(state, action);
    writer.action(action);
    game.validate(state);
    steps++;
    if (steps > MAX_ACTIONS) throw new Error(`${where(state)}: the game has not ended`);
    // saving and loading: the record so far replays to this very state
    if (steps % PREFIX_EVERY === 0) {
      const prefix = replayRecord(writer.text(state), { partial: true, cards: cards.compile });
      expect(snapshot(prefix.state), `${where(state)}: a record prefix replays elsewhere`).toBe(snapshot(state));
      count.prefixes++;
    }
  }
  expect(game.outcome(state)).not.toBeNull();
  expect(game.outcome(state)!.scores).toHaveLength(game.players);
  for (let s = 0; s < game.players; s++) expect(game.legalActions(state, s)).toEqual([]);
  expect(game.tryApply(state, { type: 'draw', seat: 0 } as G['action'])?.code).toBe('TM_GAME_OVER');
  const whole = replayRecord(writer.text(state), { cards: cards.compile });
  expect(snapshot(whole.state)).toBe(snapshot(state));
  expect(whole.actions).toBe(steps);
  count.games++;
  count.actions += steps;
}

describe('conformance: every game, every setting', () => {
  it('every registered game has its settings here', () => {
    expect(Object.keys(SETTINGS).sort()).toEqual(Object.keys(GAMES).sort());
  });

  const counts: Record<string, Count> = {};
  for (const [name, settings] of Object.entries(SETTINGS)) {
    settings.forEach((params, i) => {
      const label = `${name} ${JSON.stringify({ ...params, card: undefined })}`;
      it(`${label}: ${GAMES_EACH} random games keep every invariant, replay from their records and their prefixes`, () => {
        const game = loadGame(name, params, cards.compile);
        const count: Count = { games: 0, actions: 0, legal: 0, accepted: 0, refused: 0, prefixes: 0 };
        for (let g = 0; g < GAMES_EACH; g++) playChecked(game, 1000 * (i + 1) + g, count);
        counts[label] = count;
        expect(count.games).toBe(GAMES_EACH);
        expect(count.prefixes).toBeGreaterThan(0);
        expect(count.accepted).toBeGreaterThan(count.games);
      }, 120_000);
    });
  }

  it('the same seed gives the same game twice, through every game', () => {
    for (const [name, settings] of Object.entries(SETTINGS)) {
      const game = loadGame(name, settings[0], cards.compile);
      const a = game.newGame(77),
        b = game.newGame(77);
      expect(snapshot(b)).toBe(snapshot(a));
      const copy = game.clone(a);
      game.apply(copy, game.legalActions(copy, game.nextToAct(copy))[0]);
      expect(snapshot(a), `${name}: a copy plays on without its original`).toBe(snapshot(b));
    }
    console.log(
      Object.entries(counts)
        .map(([k, c]) => `${k}: ${c.games} games, ${c.actions} actions, ${c.legal} legal actions listed, ${c.accepted} accepted on copies, ${c.refused} refused, ${c.prefixes} prefixes replayed`)
        .join('\n'),
    );
  });
});
