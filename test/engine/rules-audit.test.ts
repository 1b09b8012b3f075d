import { describe, expect, it } from 'vitest';
import type { Agent } from '../../agents/agent.js';
import { GreedyAgent } from '../../agents/mah-jongg/greedy.js';
import { RandomAgent } from '../../agents/mah-jongg/random.js';
import { playOut } from '../../agents/table.js';
import type { ErrorCode } from '../../engine/errors.js';
import { apply, cloneState, legalActions, newGame, validate, view, waitingOn, type Action, type GameState } from '../../engine/mah-jongg/game.js';
import { seedRng } from '../../engine/rng.js';
import { RULESETS, type Ruleset } from '../../engine/mah-jongg/rulesets.js';
import { JOKER, KINDS } from '../../engine/mah-jongg/tiles.js';
import { playMatch, playTournament } from '../../training/tournament.js';
import { cc, refusal, snapshot } from './game-helpers.js';
import { mahJonggGame } from '../../engine/mah-jongg/mah-jongg.js';

/**
 * Mah Jongg's rules audited at sampled decisions, for every ruleset (test/conformance.test.ts
 * is the suite every game passes; this is what Mah Jongg adds): seeded games by random and by
 * greedy players, and at sampled decisions every legal action is accepted (on a copy, which
 * validates), actions outside the rules (Mah Jongg's own: a joker passed, a pair called, a
 * discard out of turn...) are refused with their stable code and change nothing, and no view
 * shows what its seat may not see (other racks, the wall, the passes in flight).
 *
 * Sized for about 90 s on a 2-core machine, run beside the rest of the suite: the greedy
 * games dominate (15-20 ms each). Each ruleset plays its own seeds, so the two 4-player
 * rulesets (which differ only in scoring) see different deals.
 */

const RANDOM_GAMES = 200;
const GREEDY_GAMES = 500;
/** Audit every Nth decision an agent takes. */
const AUDIT_RANDOM = 11;
const AUDIT_GREEDY = 97;
/** No game of any ruleset comes near this many actions (a Siamese game by random players takes about 250). */
const MAX_ACTIONS = 5000;
/** Check the views at every Nth audit. */
const VIEWS_EVERY = 3;
/** Per test: the default 5 s is for unit tests, not hundreds of games. */
const TIMEOUT = 120_000;

interface Tally {
  games: number;
  actions: number;
  audits: number;
  viewsChecked: number;
  legalChecked: number;
  refusalsChecked: number;
  mahJonggs: number;
  exposures: number;
  exchanges: number;
  wallGames: number;
  deadHands: number;
  ms: number;
}

const emptyTally = (): Tally => ({
  games: 0,
  actions: 0,
  audits: 0,
  viewsChecked: 0,
  legalChecked: 0,
  refusalsChecked: 0,
  mahJonggs: 0,
  exposures: 0,
  exchanges: 0,
  wallGames: 0,
  deadHands: 0,
  ms: 0,
});
const greedyTotals = emptyTally();
const tallies: Record<string, Tally> = {};

/** An action in a canonical form, so a pass of [5, 2, 9] matches the listed [2, 5, 9]. */
function canonical(a: Action): string {
  switch (a.type) {
    case 'pass':
      return JSON.stringify({ type: a.type, seat: a.seat, tiles: [...a.tiles].sort((x, y) => x - y), blind: a.blind ?? 0 });
    case 'courtesy':
      return JSON.stringify({ type: a.type, seat: a.seat, tiles: [...a.tiles].sort((x, y) => x - y) });
    case 'declare':
    case 'call':
    case 'callMahJongg':
    case 'callDead':
      return JSON.stringify({ ...a, rack: a.rack ?? 0 });
    default:
      return JSON.stringify(a);
  }
}

/** Every key path in a value, e.g. `exposures.jokers` (arrays add no step; arrays of numbers are skipped). */
function keyPaths(value: unknown, prefix = '', out: string[] = []): string[] {
  if (Array.isArray(value)) {
    if (value.length > 0 && typeof value[0] !== 'number') for (const v of value) keyPaths(v, prefix, out);
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const path = prefix === '' ? k : `${prefix}.${k}`;
      out.push(path);
      keyPaths(v, path, out);
    }
  }
  return out;
}

/** A failed check; cheaper than expect() in loops that run a million times. */
function check(ok: boolean, what: () => string): void {
  if (!ok) throw new Error(`conformance: ${what()}`);
}

/** A tile the seat does not hold, if there is one. */
function tileNotHeld(state: GameState, seat: number): number | undefined {
  const c = state.players[seat].concealed;
  for (let t = 0; t < KINDS; t++) if (c[t] === 0) return t;
  return undefined;
}

/** Actions the rules never allow in this state, each with the code it must be refused with. */
function illegalActions(state: GameState): { action: Action; code: ErrorCode }[] {
  const out: { action: Action; code: ErrorCode }[] = [];
  const n = state.rules.players;
  const ph = state.phase;
  if (ph.kind === 'ended') {
    for (let s = 0; s < n; s++) out.push({ action: { type: 'draw', seat: s }, code: 'TM_GAME_OVER' });
    return out;
  }
  out.push({ action: { type: 'draw', seat: n }, code: 'TM_ILLEGAL_ACTION' });
  out.push({ action: { type: 'nonsense', seat: 0 } as unknown as Action, code: 'TM_ILLEGAL_ACTION' });
  switch (ph.kind) {
    case 'charleston': {
      for (let s = 0; s < n; s++) {
        const c = state.players[s].concealed;
        const own = c.flatMap((k, t) => (t === JOKER ? [] : new Array<number>(k).fill(t))).slice(0, 3);
        if (ph.choices[s] !== null) {
          out.push({ action: { type: 'pass', seat: s, tiles: own, blind: 0 }, code: 'TM_NOT_YOUR_TURN' });
          continue;
        }
        out.push({ action: { type: 'pass', seat: s, tiles: own.slice(0, 2), blind: 0 }, code: 'TM_ILLEGAL_ACTION' });
        out.push({ action: { type: 'pass', seat: s, tiles: [...own.slice(0, 2), JOKER], blind: 0 }, code: 'TM_ILLEGAL_ACTION' });
        const missing = tileNotHeld(state, s);
        if (missing !== undefined && missing !== JOKER) out.push({ action: { type: 'pass', seat: s, tiles: [...own.slice(0, 2), missing], blind: 0 }, code: 'TM_ILLEGAL_ACTION' });
        out.push({ action: { type: 'discard', seat: s, tile: own[0] }, code: 'TM_ILLEGAL_ACTION' });
        out.push({ action: { type: 'draw', seat: s }, code: 'TM_ILLEGAL_ACTION' });
        if (!state.rules.charleston!.blindPasses.includes(ph.pass)) out.push({ action: { type: 'pass', seat: s, tiles: own.slice(0, 2), blind: 1 }, code: 'TM_ILLEGAL_ACTION' });
        if (s !== 0) out.push({ action: { type: 'declare', seat: s }, code: 'TM_ILLEGAL_ACTION' });
      }
      break;
    }
    case 'vote':
      ph.votes.forEach((v, s) =>
        out.push(v === null ? { action: { type: 'discard', seat: s, tile: 0 }, code: 'TM_ILLEGAL_ACTION' } : { action: { type: 'vote', seat: s, yes: true }, code: 'TM_NOT_YOUR_TURN' }),
      );
      break;
    case 'courtesy':
      ph.offers.forEach((o, s) =>
        out.push(
          o === null ? { action: { type: 'courtesy', seat: s, tiles: [0, 0, 0, 0] }, code: 'TM_ILLEGAL_ACTION' } : { action: { type: 'courtesy', seat: s, tiles: [] }, code: 'TM_NOT_YOUR_TURN' },
        ),
      );
      break;
    case 'draw': {
      const t = state.turn;
      for (let s = 0; s < n; s++) if (s !== t) out.push({ action: { type: 'draw', seat: s }, code: 'TM_NOT_YOUR_TURN' });
      const held = state.players[t].concealed.findIndex((k) => k > 0);
      out.push({ action: { type: 'discard', seat: t, tile: held }, code: 'TM_ILLEGAL_ACTION' });
      out.push({ action: { type: 'call', seat: t, size: 3, jokers: 0 }, code: 'TM_ILLEGAL_ACTION' });
      state.players.forEach((o, owner) =>
        o.exposures.forEach((x, i) => {
          if (x.jokers > 0) out.push({ action: { type: 'exchange', seat: t, owner, exposure: i }, code: 'TM_ILLEGAL_ACTION' });
        }),
      );
      break;
    }
    case 'discard': {
      const t = state.turn;
      for (let s = 0; s < n; s++) {
        if (s === t) continue;
        const held = state.players[s].concealed.findIndex((k) => k > 0);
        if (held >= 0) out.push({ action: { type: 'discard', seat: s, tile: held }, code: 'TM_NOT_YOUR_TURN' });
      }
      const missing = tileNotHeld(state, t);
      if (missing !== undefined) out.push({ action: { type: 'discard', seat: t, tile: missing }, code: 'TM_ILLEGAL_ACTION' });
      out.push({ action: { type: 'discard', seat: t, tile: KINDS }, code: 'TM_ILLEGAL_ACTION' });
      out.push({ action: { type: 'draw', seat: t }, code: 'TM_ILLEGAL_ACTION' });
      out.push({ action: { type: 'decline', seat: t }, code: 'TM_ILLEGAL_ACTION' });
      out.push({ action: { type: 'exchange', seat: t, owner: 0, exposure: 99 }, code: 'TM_ILLEGAL_ACTION' });
      break;
    }
    case 'claims': {
      out.push({ action: { type: 'call', seat: ph.discarder, size: 3, jokers: 0 }, code: 'TM_NOT_YOUR_TURN' });
      out.push({ action: { type: 'decline', seat: ph.discarder }, code: 'TM_NOT_YOUR_TURN' });
      ph.responses.forEach((r, s) => {
        if (r !== null) {
          if (s !== ph.discarder) out.push({ action: { type: 'decline', seat: s }, code: 'TM_NOT_YOUR_TURN' });
          return;
        }
        // teaching guide 5.6: never for a single or a pair; 4.2: up to a quint (a sextet on cards that have one)
        out.push({ action: { type: 'call', seat: s, size: 2, jokers: 0 }, code: 'TM_ILLEGAL_ACTION' });
        out.push({ action: { type: 'call', seat: s, size: 1, jokers: 0 }, code: 'TM_ILLEGAL_ACTION' });
        out.push({ action: { type: 'call', seat: s, size: 7, jokers: 0 }, code: 'TM_ILLEGAL_ACTION' });
        out.push({ action: { type: 'call', seat: s, size: 3, jokers: 3 }, code: 'TM_ILLEGAL_ACTION' });
        out.push({ action: { type: 'draw', seat: s }, code: 'TM_ILLEGAL_ACTION' });
        const held = state.players[s].concealed.findIndex((k) => k > 0);
        if (held >= 0) out.push({ action: { type: 'discard', seat: s, tile: held }, code: 'TM_ILLEGAL_ACTION' });
      });
      break;
    }
    default:
      break;
  }
  return out;
}

const HIDDEN = ['wall', 'wallPos', 'rng', 'seed', 'reveal', 'choices', 'offers', 'responses', 'votes'];

/** What a seat sees while the game is live: no hidden tiles, no wall, no generator, no seed. */
function auditViews(state: GameState): void {
  const n = state.rules.players;
  const live = state.phase.kind !== 'ended';
  const sizes = state.players.map((p) => p.concealed.reduce((a, b) => a + b, 0));
  const waiting = JSON.stringify(waitingOn(state));
  for (let s = 0; s < n; s++) {
    const v = view(state, s);
    // the view as it would travel (the server serialises it)
    const paths = keyPaths(JSON.parse(JSON.stringify(v)));
    check(JSON.stringify(v.concealed) === JSON.stringify(state.players[s].concealed), () => `seat ${s}'s view shows a rack not its own`);
    // others' racks appear as counts only
    const concealed = paths.filter((p) => /(^|\.)concealed$/.test(p));
    check(concealed.length === 1 && concealed[0] === 'concealed', () => `seat ${s}'s view shows concealed tiles at ${concealed.join(', ')}`);
    check(JSON.stringify(v.concealedCounts) === JSON.stringify(sizes), () => `seat ${s}'s view counts racks ${JSON.stringify(v.concealedCounts)}, not ${JSON.stringify(sizes)}`);
    check(JSON.stringify(v.waitingOn) === waiting, () => `seat ${s}'s view waits on ${JSON.stringify(v.waitingOn)}, the game on ${waiting}`);
    if (!live) continue;
    for (const hidden of HIDDEN) {
      check(!paths.some((p) => p === hidden || p.endsWith(`.${hidden}`)), () => `seat ${s}'s view of a live game shows "${hidden}"`);
    }
    check(v.result === null, () => `seat ${s}'s view of a live game shows a result`);
    check(v.wallLeft === state.wall.length - state.wallPos, () => `seat ${s}'s view counts ${v.wallLeft} tiles in the wall`);
  }
}

/**
 * The audit at one decision: the agent's choice is among the legal actions; every seat's
 * legal actions are accepted on a copy (which validates) and only seats waited on have any;
 * illegal actions are refused with their code and leave the state as it was; the views
 * hide what they must (every `viewsEvery`-th audit: views cost as much as the rest).
 */
function audit(state: GameState, seat: number, chosen: Action, tally: Tally): void {
  const where = `${state.rules.name} seed ${state.seed} action ${state.actionCount} (${state.phase.kind})`;
  const before = snapshot(state);
  const waiting = waitingOn(state);
  check(waiting.includes(seat), () => `${where}: seat ${seat} was asked but is not waited on`);
  const mine = legalActions(state, seat).map(canonical);
  const choice = canonical(chosen);
  check(mine.includes(choice), () => `${where}: seat ${seat} chose ${choice}, not among its ${mine.length} legal actions`);
  // a Charleston or courtesy pass has hundreds of ways to choose; there only the deciding seat's are all tried
  const bulky = state.phase.kind === 'charleston' || state.phase.kind === 'courtesy';
  for (let s = 0; s < state.rules.players; s++) {
    const legal = legalActions(state, s);
    check(waiting.includes(s) || legal.length === 0, () => `${where}: seat ${s} is not waited on yet has ${JSON.stringify(legal)}`);
    if (bulky && s !== seat) continue;
    for (const a of legal) {
      const copy = cloneState(state);
      const code = refusal(copy, a);
      check(code === null, () => `${where}: legal action ${JSON.stringify(a)} refused with ${code}`);
      validate(copy);
      tally.legalChecked++;
    }
  }
  check(snapshot(state) === before, () => `${where}: applying actions to a copy changed the original`);
  for (const { action, code } of illegalActions(state)) {
    const got = refusal(state, action);
    check(got === code, () => `${where}: ${JSON.stringify(action)} answered ${got}, expected ${code}`);
    check(snapshot(state) === before, () => `${where}: the refused ${JSON.stringify(action)} changed the state`);
    tally.refusalsChecked++;
  }
  if (tally.audits++ % VIEWS_EVERY === 0) {
    auditViews(state);
    tally.viewsChecked++;
  }
}

/** An agent wrapper that audits the state at every `every`-th decision before answering. */
function audited(inner: Agent, state: () => GameState, every: number, counter: { n: number }, tally: Tally): Agent {
  return {
    name: inner.name,
    act(turn) {
      const a = inner.act(turn);
      if (++counter.n % every === 0) audit(state(), turn.seat, a, tally);
      return a;
    },
  };
}

type AgentKind = 'random' | 'greedy';

const makeAgents = (rules: Ruleset, kind: AgentKind): Agent[] => Array.from({ length: rules.players }, () => (kind === 'random' ? new RandomAgent() : new GreedyAgent(cc)));

/** Plays one seeded game, validating after every action and auditing every `every`-th decision. */
function play(rules: Ruleset, kind: AgentKind, seed: number, tally: Tally, every: number): void {
  const state = newGame(rules, cc, seed);
  validate(state);
  const counter = { n: 0 };
  const agents = makeAgents(rules, kind).map((a) => audited(a, () => state, every, counter, tally));
  let actions = 0,
    exchanges = 0;
  playOut(mahJonggGame(state.rules, state.cc), state, agents, seedRng(seed * 7919 + 17), (a, s) => {
    validate(s);
    if (a.type === 'exchange') exchanges++;
    if (++actions > MAX_ACTIONS) throw new Error(`${rules.name} seed ${seed}: the game has not ended after ${MAX_ACTIONS} actions`);
  });
  expect(state.phase.kind).toBe('ended');
  const r = state.result!;
  expect(r).not.toBeNull();
  tally.games++;
  tally.actions += actions;
  tally.mahJonggs += r.winners.length;
  tally.exposures += state.players.reduce((a, p) => a + p.exposures.length, 0);
  tally.exchanges += exchanges;
  tally.wallGames += r.wallGame ? 1 : 0;
  tally.deadHands += state.players.reduce((a, p) => a + p.dead.filter((d) => d).length, 0);
  // the end: a wall game has no winner; a Mah Jongg in a 3-4 player game ends it
  if (r.wallGame) expect(r.winners).toEqual([]);
  if (rules.racks === 1) expect(r.winners.length).toBeLessThanOrEqual(1);
  expect(r.scores).toHaveLength(rules.players);
  // social play is payments between players: what one pays another collects
  if (rules.scoring.payments) expect(r.scores.reduce((a, b) => a + b, 0)).toBe(0);
  // after the end: nothing more is accepted, and the view reveals every rack
  for (const { action, code } of illegalActions(state)) expect(refusal(state, action)).toBe(code);
  const v = view(state, 0);
  expect(v.reveal?.concealed).toEqual(state.players.map((p) => p.concealed));
}

Object.values(RULESETS).forEach((rules, index) => {
  const seeds = 1_000_000 * (index + 1);
  describe(`rules audit - ${rules.name}`, () => {
    const tally = emptyTally();
    tallies[rules.name] = tally;

    // two sets at four double racks (Royale Siamese) make a game about six times as long: fewer of them
    const scale = rules.sets * rules.racks * rules.players >= 8 ? 5 : 1;
    const randomGames = RANDOM_GAMES / scale,
      greedyGames = GREEDY_GAMES / scale;
    it(
      `${randomGames} games by random players end, every action is accepted and every state validates`,
      () => {
        const t0 = performance.now();
        for (let seed = 1; seed <= randomGames; seed++) play(rules, 'random', seeds + seed, tally, AUDIT_RANDOM);
        tally.ms = Math.round(performance.now() - t0);
        expect(tally.games).toBe(randomGames);
        expect(tally.audits).toBeGreaterThan(randomGames);
      },
      TIMEOUT,
    );

    it(
      `${greedyGames} games by greedy players end, every action is accepted and every state validates`,
      () => {
        const g = emptyTally();
        const t0 = performance.now();
        for (let seed = 1; seed <= greedyGames; seed++) play(rules, 'greedy', seeds + 100_000 + seed, g, AUDIT_GREEDY);
        g.ms = Math.round(performance.now() - t0);
        expect(g.games).toBe(greedyGames);
        for (const k of Object.keys(g) as (keyof Tally)[]) greedyTotals[k] += g[k];
        tallies[`${rules.name} greedy`] = g;
        // every ruleset's greedy games reach each of the things the suite counts
        expect(g.mahJonggs).toBeGreaterThan(0);
        expect(g.exposures).toBeGreaterThan(0);
        // no jokers in the game (Royale Siamese), no exchanges
        if (rules.jokers) expect(g.exchanges).toBeGreaterThan(0);
        else expect(g.exchanges).toBe(0);
      },
      TIMEOUT,
    );
  });
});

describe('rules audit - across every ruleset', () => {
  it('greedy games reach thousands of Mah Jonggs, exposures and joker exchanges', () => {
    for (const [name, t] of Object.entries(tallies)) console.log(`${name}: ${JSON.stringify(t)}`);
    console.log(`greedy totals: ${greedyTotals.games} games, ${greedyTotals.mahJonggs} Mah Jonggs, ${greedyTotals.exposures} exposures, ${greedyTotals.exchanges} joker exchanges`);
    const greedy = Object.entries(tallies).filter(([k]) => k.endsWith(' greedy'));
    expect(greedy).toHaveLength(Object.keys(RULESETS).length);
    expect(greedyTotals.games).toBe(greedy.reduce((a, [, t]) => a + t.games, 0));
    expect(greedyTotals.mahJonggs).toBeGreaterThanOrEqual(1000);
    expect(greedyTotals.exposures).toBeGreaterThanOrEqual(1000);
    expect(greedyTotals.exchanges).toBeGreaterThanOrEqual(1000);
  });
});

/**
 * A match (the deal passing to the right, teaching guide 7.2) and the Mah Jongg tournament
 * (tournament 3, 20, 21): every game of them is replayed from its seed, each action audited
 * (among the seat's legal actions, refusals checked, the state validated) and the result
 * matched; the books (seating, running totals, standings) are checked against the games.
 */
describe('rules audit - a match and the Mah Jongg tournament', () => {
  /** Replays one game's actions on a fresh state, auditing every action; returns the tally's games. */
  function replayAudited(rules: Ruleset, seed: number, actions: Action[], scores: number[], tally: Tally): void {
    const state = newGame(rules, cc, seed);
    validate(state);
    actions.forEach((a, i) => {
      // time called (tournament 11.4) is the director's action, not a seat's
      if (i % 5 === 0 && a.type !== 'timeUp') audit(state, a.seat, a, tally);
      const code = refusal(state, a);
      check(code === null, () => `${rules.name} seed ${seed}: action ${i} ${JSON.stringify(a)} refused with ${code}`);
      validate(state);
    });
    expect(state.phase.kind).toBe('ended');
    expect(state.result!.scores).toEqual(scores);
    tally.games++;
    tally.actions += actions.length;
  }

  it(
    'a match: East passes to the right every game, every game replays and validates, the running totals add up',
    () => {
      const tally = emptyTally();
      for (const name of ['nmjl-4p', 'nmjl-3p', 'siamese-2p']) {
        const rules = RULESETS[name];
        const bots = Array.from({ length: rules.players }, (_, p) => (p % 2 === 0 ? 'greedy' : 'random'));
        const games: { seed: number; actions: Action[]; scores: number[] }[] = [];
        const m = playMatch(rules, cc, bots, 6, 77, (g, _s, actions, names) => {
          expect(names).toEqual(g.seating.map((p) => bots[p]));
          games.push({ seed: g.seed, actions, scores: g.scores });
        });
        m.games.forEach((g, i) => {
          // teaching guide 7.2: the next dealer is the player to the right of the previous one
          expect(g.seating[0]).toBe(i % rules.players);
          if (i > 0) expect(g.seating[0]).toBe(m.games[i - 1].seating[1]);
        });
        let totals = new Array<number>(rules.players).fill(0);
        m.games.forEach((g, i) => {
          g.seating.forEach((p, seat) => {
            totals = totals.map((t, q) => (q === p ? t + g.scores[seat] : t));
          });
          expect(m.running[i]).toEqual(totals);
        });
        expect(m.totals).toEqual(totals);
        for (const g of games) replayAudited(rules, g.seed, g.actions, g.scores, tally);
      }
      expect(tally.games).toBe(18);
      expect(tally.audits).toBeGreaterThan(100);
    },
    TIMEOUT,
  );

  it(
    'the tournament: tables of four, four games a round with each player East once, the moves of rule 20, totals and standings from the games',
    () => {
      const rules = RULESETS['nmjl-4p-tournament'];
      const tally = emptyTally();
      const games: { seed: number; actions: Action[]; scores: number[] }[] = [];
      const r = playTournament(rules, cc, { tables: 3, rounds: 2, bots: ['greedy', 'random'], seed: 5 }, (g, _s, actions) => games.push({ seed: g.seed, actions, scores: g.scores }));
      expect(r.tables).toHaveLength(6);
      expect(games).toHaveLength(24);
      for (const t of r.tables) {
        expect(t.games.map((g) => g.seating[0])).toEqual(t.players);
      }
      // rule 20: A up 1 table, B down 1, C up 2, D down 2, each keeping her letter
      const [r1, r2] = [r.tables.filter((t) => t.round === 0), r.tables.filter((t) => t.round === 1)];
      r1.forEach((t, i) => [1, -1, 2, -2].forEach((move, k) => expect(r2[(i + move + 3) % 3].players[k]).toBe(t.players[k])));
      const totals = new Array<number>(12).fill(0);
      for (const t of r.tables)
        for (const g of t.games)
          g.seating.forEach((p, seat) => {
            totals[p] += g.scores[seat];
          });
      expect(r.standings.map((s) => s.total)).toEqual([...totals].sort((a, b) => b - a));
      expect(r.standings.every((s) => s.games === 8 && s.total === totals[s.player])).toBe(true);
      for (const g of games) replayAudited(rules, g.seed, g.actions, g.scores, tally);
      expect(tally.games).toBe(24);
    },
    TIMEOUT,
  );
});

describe('rules audit - the tournament with tables of three and a time limit', () => {
  it(
    '10 players at 3 tables: tables of three play the 3-player ruleset, their fourth East by the dice; time called ends a game at zero and the round',
    () => {
      const rules = RULESETS['nmjl-4p-tournament'];
      const r = playTournament(rules, cc, { tables: 3, players: 10, threePlayer: RULESETS['nmjl-3p'], rounds: 2, bots: ['greedy', 'random'], seed: 9, timeLimit: 200 }, (g, state, actions) => {
        // every game replays from its seed under its own ruleset, every action validated
        const replay = newGame(state.rules, cc, g.seed);
        for (const a of actions) {
          apply(replay, a);
          validate(replay);
        }
        expect(replay.result).toEqual(state.result);
        if (g.unfinished) {
          expect(actions.at(-1)).toEqual({ type: 'timeUp', seat: 0 });
          expect(g.scores.every((x) => x === 0)).toBe(true);
        }
      });
      const threes = r.tables.filter((t) => t.players.length === 3);
      expect(threes).toHaveLength(4); // two tables of three each round
      for (const t of r.tables) {
        expect(t.games.reduce((a, g) => a + g.discards, 0)).toBeLessThanOrEqual(200);
        // games after the one time was called in are not started
        const cut = t.games.findIndex((g) => g.unfinished);
        if (cut >= 0) expect(t.games).toHaveLength(cut + 1);
      }
      expect(r.tables.some((t) => t.games.some((g) => g.unfinished))).toBe(true);
      expect(r.standings.reduce((a, s) => a + s.games, 0)).toBe(r.tables.reduce((a, t) => a + t.games.length * t.players.length, 0));
    },
    TIMEOUT,
  );
});
