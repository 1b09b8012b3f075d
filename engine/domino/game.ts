import { type ErrorCode, ruleViolation, TilemateError } from '../errors.js';
import { seedRng, shuffle, type RngState } from '../rng.js';
import { checkPlayers, type DominoRuleset } from './rulesets.js';
import { doubleOf, dominoName, fullDominoSet, hasEnd, HI, isDouble, LO, otherEnd, PIPS, SET_SIZE, type DominoId } from './tiles.js';

/**
 * Mexican Train as a pure, deterministic state machine, shaped like the Mah Jongg engine:
 * `newRound` / `newMatch`, then `legalActions(state, seat)` and `apply(state, action)`, which
 * checks an action in full before changing anything. All randomness comes from the seeded
 * generator held in the state. Seats are numbered in turn order; play passes to seat + 1
 * ("to the left" in both documents). `view(state, seat)` is what that seat may see.
 *
 * Trains: index s < players is seat s's own train, index `players` is the Mexican train.
 */

export interface Train {
  /** The owning seat, or -1 for the Mexican train. */
  owner: number;
  /** Tiles laid, from the station outwards. */
  tiles: DominoId[];
  /** The open end (the engine's pip while the train is not started). */
  end: number;
  /** A marker is up: the train is public (the Mexican train is always public). */
  marked: boolean;
}

export interface TurnStep {
  /** The tile drawn at this step, or -1: after a draw only that tile may be played. */
  drawn: DominoId;
  /** 'same-turn' doubles: the train whose double the doubler must cover now, or -1. */
  cover: number;
  /** 'free-turn' doubles: the doubler's extra turn, in which this turn's doubles do not block. */
  free: boolean;
}

export type DominoAction = { type: 'play'; seat: number; tile: DominoId; train: number } | { type: 'draw'; seat: number } | { type: 'pass'; seat: number };

export interface RoundResult {
  /** Index into the ruleset's engines (0 = the first round). */
  round: number;
  engine: number;
  /** The seat that went out, or -1 when the round was blocked. */
  outBy: number;
  /** Pips left in each hand: each seat's score for the round (senior games, Winning). */
  pipsLeft: number[];
}

export interface DominoResult {
  totals: number[];
  /** Seats with the lowest total (more than one on a tie). */
  winners: number[];
}

export interface DominoState {
  rules: DominoRuleset;
  players: number;
  seed: number;
  rng: RngState;
  /** Indices into rules.engines of the rounds this game plays, in order; `roundPos` the current one. */
  schedule: number[];
  roundPos: number;
  /** The tiles drawn for first player (public), and who won the draw. */
  firstDraw: DominoId[];
  firstPlayer: number;
  /** The seat that began the current round. */
  starter: number;
  /** The engine double in the station. */
  engine: DominoId;
  hands: DominoId[][];
  /** The boneyard; the next draw is its last tile. */
  boneyard: DominoId[];
  trains: Train[];
  /** Trains ending in a double not yet covered, in the order played. */
  openDoubles: number[];
  /**
   * Public inference, per seat: a bit mask of the pips its hand is known to lack. A draw shows
   * the player held nothing for the ends open to her (and the drawn tile is then played or
   * kept because it fits none of them either); a pass with the boneyard empty adds those ends.
   */
  lacks: number[];
  turn: number;
  step: TurnStep;
  phase: 'play' | 'ended';
  totals: number[];
  rounds: RoundResult[];
  actionCount: number;
  result: DominoResult | null;
}

const fail = (code: ErrorCode, message: string): never => {
  throw new TilemateError(code, message);
};
const freshStep = (): TurnStep => ({ drawn: -1, cover: -1, free: false });

export const mexicanTrain = (state: { players: number }): number => state.players;
export const trainName = (state: { players: number }, train: number): string => (train === state.players ? 'the Mexican train' : `seat ${train}'s train`);

// ------------------------------------------------------------------ setting up

/** A game of one round: `round` indexes the ruleset's engines (0: the first round's engine). */
export function newRound(rules: DominoRuleset, players: number, seed: number, round = 0): DominoState {
  if (!Number.isInteger(round) || round < 0 || round >= rules.engines.length) fail('TM_BAD_INPUT', `${rules.name} has rounds 0 to ${rules.engines.length - 1}, not ${String(round)}`);
  return start(rules, players, seed, [round]);
}

/** A whole game: every round of the ruleset, from the first engine down (senior games: six rounds). */
export function newMatch(rules: DominoRuleset, players: number, seed: number): DominoState {
  return start(
    rules,
    players,
    seed,
    rules.engines.map((_, i) => i),
  );
}

function start(rules: DominoRuleset, players: number, seed: number, schedule: number[]): DominoState {
  checkPlayers(rules, players);
  const rng = seedRng(seed);
  const { draw, winner } = drawForFirst(rng, players);
  const state: DominoState = {
    rules,
    players,
    seed,
    rng,
    schedule,
    roundPos: 0,
    firstDraw: draw,
    firstPlayer: winner,
    starter: winner,
    engine: 0,
    hands: [],
    boneyard: [],
    trains: [],
    openDoubles: [],
    lacks: [],
    turn: winner,
    step: freshStep(),
    phase: 'play',
    totals: new Array<number>(players).fill(0),
    rounds: [],
    actionCount: 0,
    result: null,
  };
  dealRound(state);
  return state;
}

/**
 * Both documents: each player draws one tile, the highest count plays first, the tiles go
 * back and are reshuffled. A tie draws again among the tied (neither document says; a
 * reading, docs/mexican-train.md).
 */
function drawForFirst(rng: RngState, players: number): { draw: DominoId[]; winner: number } {
  let contenders = Array.from({ length: players }, (_, s) => s);
  let first: DominoId[] = [];
  for (;;) {
    const set = shuffle(rng, fullDominoSet());
    const draw = contenders.map((_, i) => set[i]);
    if (first.length === 0) first = draw;
    const best = Math.max(...draw.map((t) => PIPS[t]));
    contenders = contenders.filter((_, i) => PIPS[draw[i]] === best);
    if (contenders.length === 1) return { draw: first, winner: contenders[0] };
  }
}

/** Shuffles, sets the engine, deals, and decides who begins (the round at schedule[roundPos]). */
function dealRound(state: DominoState): void {
  const { rules, players: n } = state;
  const pip = rules.engines[state.schedule[state.roundPos]];
  const engine = doubleOf(pip);
  const set = shuffle(state.rng, fullDominoSet());
  // the round's leader: the first draw's winner, then the next seat each round
  const leader = (state.firstPlayer + state.roundPos) % n;
  const size = rules.handSize[n];
  state.engine = engine;
  state.openDoubles = [];
  state.lacks = new Array<number>(n).fill(0);
  state.trains = Array.from({ length: n + 1 }, (_, s) => ({ owner: s < n ? s : -1, tiles: [], end: pip, marked: s === n }));
  state.step = freshStep();
  if (rules.engineSetAside) {
    // senior games: "Find the double 12 and place it in the Station Holder", then deal the rest
    const rest = set.filter((t) => t !== engine);
    state.hands = Array.from({ length: n }, (_, s) => rest.slice(s * size, (s + 1) * size));
    state.boneyard = rest.slice(n * size);
    state.starter = leader;
    state.turn = leader;
    return;
  }
  // district rules, Beginning the Game: the holder of the engine double plays it in the station;
  // if no one holds it, players draw one at a time, from the leader to the left, until it is drawn
  state.hands = Array.from({ length: n }, (_, s) => set.slice(s * size, (s + 1) * size));
  state.boneyard = set.slice(n * size);
  let holder = state.hands.findIndex((h) => h.includes(engine));
  for (let s = leader; holder < 0; s = (s + 1) % n) {
    const t = state.boneyard.pop()!;
    state.hands[s].push(t);
    if (t === engine) holder = s;
  }
  state.hands[holder].splice(state.hands[holder].indexOf(engine), 1);
  state.starter = holder;
  state.turn = holder;
  // "The rules for playing doubles applies": the player who played the engine plays again
  state.step = { drawn: -1, cover: -1, free: rules.doublerCovers === 'free-turn' };
}

// ------------------------------------------------------------------ legal actions

/**
 * The trains `seat` may play on now, as a bit mask over train indices, or 0 when it is not
 * the seat's turn. Senior games and district rules: your own train, the Mexican train and any
 * marked train; an uncovered double blocks every other play until it is covered.
 */
function targetMask(state: DominoState, seat: number): number {
  if (state.phase !== 'play' || seat !== state.turn) return 0;
  const step = state.step;
  // senior games: "If you play a double, you need to play a second tile that matches"
  if (step.cover >= 0) return 1 << step.cover;
  // district rules: the doubler's extra turn "may play anywhere they like"; otherwise
  // "no other train can be added to by any player until someone finishes the double"
  if (!step.free && state.openDoubles.length > 0) return 1 << state.openDoubles[0];
  let mask = (1 << seat) | (1 << state.players);
  for (let s = 0; s < state.players; s++) if (state.trains[s].marked) mask |= 1 << s;
  return mask;
}

/** Calls back each legal play of `seat` (tile, train). */
export function forEachPlay(state: DominoState, seat: number, cb: (tile: DominoId, train: number) => void): void {
  const mask = targetMask(state, seat);
  if (mask === 0) return;
  const hand = state.hands[seat];
  const drawn = state.step.drawn;
  for (let t = 0; t <= state.players; t++) {
    if ((mask & (1 << t)) === 0) continue;
    const end = state.trains[t].end;
    if (drawn >= 0) {
      if (hasEnd(drawn, end)) cb(drawn, t);
      continue;
    }
    for (let i = 0; i < hand.length; i++) if (hasEnd(hand[i], end)) cb(hand[i], t);
  }
}

/** The pips at the ends of the trains the seat may play on now, as a bit mask. */
function reachableEnds(state: DominoState, seat: number): number {
  const mask = targetMask(state, seat);
  let ends = 0;
  for (let t = 0; t <= state.players; t++) if (mask & (1 << t)) ends |= 1 << state.trains[t].end;
  return ends;
}

function canPlay(state: DominoState, seat: number): boolean {
  let any = false;
  forEachPlay(state, seat, () => {
    any = true;
  });
  return any;
}

/** Every action the seat may take now (empty when it is not the seat's turn). */
export function legalActions(state: DominoState, seat: number): DominoAction[] {
  const out: DominoAction[] = [];
  if (state.phase !== 'play' || seat !== state.turn) return out;
  forEachPlay(state, seat, (tile, train) => {
    out.push({ type: 'play', seat, tile, train });
  });
  if (out.length > 0) return out;
  // both documents: "If you can't make a move, draw 1 tile"; when it does not play, mark the train
  if (state.step.drawn < 0 && state.boneyard.length > 0) out.push({ type: 'draw', seat });
  else out.push({ type: 'pass', seat });
  return out;
}

// ------------------------------------------------------------------ apply

/** Applies an action, or throws a TilemateError (and changes nothing) when the rules do not allow it. */
export function apply(state: DominoState, action: DominoAction): void {
  if (state.phase === 'ended') fail('TM_GAME_OVER', 'the game has ended');
  const given = (action as { seat?: unknown } | null)?.seat;
  if (typeof given !== 'number' || !Number.isInteger(given) || given < 0 || given >= state.players) fail('TM_ILLEGAL_ACTION', `no seat ${String(given)} at this table`);
  const seat = given as number;
  if (seat !== state.turn) fail('TM_NOT_YOUR_TURN', `it is seat ${state.turn}'s turn, not seat ${String(seat)}'s`);
  switch (action.type) {
    case 'play': {
      const { tile, train } = action;
      if (typeof tile !== 'number' || !Number.isInteger(tile) || tile < 0 || tile >= SET_SIZE) fail('TM_BAD_TILE', `${String(tile)} is not a domino`);
      if (typeof train !== 'number' || !Number.isInteger(train) || train < 0 || train > state.players)
        fail('TM_ILLEGAL_ACTION', `there is no train ${String(train)} (seats' trains 0-${state.players - 1}, the Mexican train ${state.players})`);
      const hand = state.hands[seat];
      const at = hand.indexOf(tile);
      if (at < 0) fail('TM_ILLEGAL_ACTION', `seat ${seat} does not hold ${dominoName(tile)}`);
      if (state.step.drawn >= 0 && tile !== state.step.drawn) fail('TM_ILLEGAL_ACTION', `after drawing, only the drawn tile ${dominoName(state.step.drawn)} may be played`);
      if ((targetMask(state, seat) & (1 << train)) === 0) fail('TM_ILLEGAL_ACTION', whyNotTrain(state, seat, train));
      const t = state.trains[train];
      if (!hasEnd(tile, t.end)) fail('TM_ILLEGAL_ACTION', `${dominoName(tile)} does not match the ${t.end} at the end of ${trainName(state, train)}`);
      hand.splice(at, 1);
      t.tiles.push(tile);
      t.end = otherEnd(tile, t.end);
      // both documents: the owner playing on a marked train makes it private again
      if (train === seat && t.marked) t.marked = false;
      const open = state.openDoubles.indexOf(train);
      if (open >= 0) state.openDoubles.splice(open, 1);
      state.actionCount++;
      // district rules: a double that is the player's last domino need not be covered; the round ends
      if (hand.length === 0) {
        endRound(state, seat);
        return;
      }
      if (isDouble(tile)) {
        state.openDoubles.push(train);
        // the player who plays a double plays again (senior games: to cover it; district: a free turn)
        state.step = state.rules.doublerCovers === 'same-turn' ? { drawn: -1, cover: train, free: false } : { drawn: -1, cover: -1, free: true };
        return;
      }
      endTurn(state);
      return;
    }
    case 'draw': {
      if (canPlay(state, seat)) fail('TM_ILLEGAL_ACTION', 'a player draws only when no play is possible');
      if (state.step.drawn >= 0) fail('TM_ILLEGAL_ACTION', 'one draw a turn: the drawn tile does not play, so pass (your train is marked)');
      if (state.boneyard.length === 0) fail('TM_ILLEGAL_ACTION', 'the boneyard is empty: pass');
      // her hand had nothing for these ends; the drawn tile is played, or kept because it fits none
      state.lacks[seat] = reachableEnds(state, seat);
      const t = state.boneyard.pop()!;
      state.hands[seat].push(t);
      state.step.drawn = t;
      state.actionCount++;
      return;
    }
    case 'pass': {
      if (canPlay(state, seat)) fail('TM_ILLEGAL_ACTION', 'a player who can play must play');
      if (state.step.drawn < 0 && state.boneyard.length > 0) fail('TM_ILLEGAL_ACTION', 'draw first: a player passes only after drawing a tile that does not play, or with the boneyard empty');
      if (state.step.drawn < 0) state.lacks[seat] |= reachableEnds(state, seat);
      // both documents: unable to play after drawing, the player puts a marker on her train
      state.trains[seat].marked = true;
      state.actionCount++;
      endTurn(state);
      return;
    }
    default:
      fail('TM_ILLEGAL_ACTION', `unknown action "${String((action as { type?: unknown }).type)}"`);
  }
}

/** `apply` that answers instead of throwing: the error (state unchanged) or null. */
export function tryApply(state: DominoState, action: DominoAction): TilemateError | null {
  try {
    apply(state, action);
    return null;
  } catch (err) {
    if (err instanceof TilemateError) return err;
    throw err;
  }
}

function whyNotTrain(state: DominoState, _seat: number, train: number): string {
  const step = state.step;
  if (step.cover >= 0) return `the double on ${trainName(state, step.cover)} must be covered first (by the player who played it)`;
  if (!step.free && state.openDoubles.length > 0) return `the double on ${trainName(state, state.openDoubles[0])} must be covered before any other play`;
  return `${trainName(state, train)} is private: it has no marker, and only seat ${train} may play on it`;
}

function endTurn(state: DominoState): void {
  // district rules: "If a double remains unfinished after it has been played, the train becomes public"
  for (const t of state.openDoubles) if (t < state.players) state.trains[t].marked = true;
  state.turn = (state.turn + 1) % state.players;
  state.step = freshStep();
  if (state.boneyard.length === 0 && blocked(state)) endRound(state, -1);
}

/**
 * No one can ever move again: the boneyard is empty and no seat has a tile for any train
 * it could reach once every train is marked (a seat that cannot play marks its train when
 * its turn comes, so the others get no more than that).
 */
function blocked(state: DominoState): boolean {
  const ends: number[] = state.openDoubles.length > 0 ? [state.trains[state.openDoubles[0]].end] : state.trains.map((t) => t.end);
  for (const hand of state.hands) for (const tile of hand) for (const e of ends) if (hasEnd(tile, e)) return false;
  return true;
}

export const pipsIn = (hand: readonly DominoId[]): number => {
  let n = 0;
  for (const t of hand) n += PIPS[t];
  return n;
};

function endRound(state: DominoState, outBy: number): void {
  // senior games, Winning: the player who goes out scores zero, the others the pips left in their hands
  const pipsLeft = state.hands.map(pipsIn);
  state.rounds.push({ round: state.schedule[state.roundPos], engine: HI[state.engine], outBy, pipsLeft });
  pipsLeft.forEach((p, s) => {
    state.totals[s] += p;
  });
  if (state.roundPos + 1 < state.schedule.length) {
    state.roundPos++;
    dealRound(state);
    return;
  }
  const low = Math.min(...state.totals);
  state.result = { totals: [...state.totals], winners: state.totals.flatMap((x, s) => (x === low ? [s] : [])) };
  state.phase = 'ended';
}

// ------------------------------------------------------------------ views

export interface TrainView {
  owner: number;
  tiles: readonly DominoId[];
  end: number;
  marked: boolean;
}

export interface DominoView {
  seat: number;
  ruleset: string;
  players: number;
  phase: 'play' | 'ended';
  /** Round number within the game (1-based), rounds in the game, and the ruleset's round index. */
  roundNo: number;
  roundsInGame: number;
  round: number;
  engine: DominoId;
  starter: number;
  firstDraw: readonly DominoId[];
  turn: number;
  /** Public: whether the player to move has drawn this step, must cover her double, or is on a double's extra turn. */
  step: { drew: boolean; cover: number; free: boolean };
  /** This seat's own tiles, and the tile it just drew (when it is its turn and it drew). */
  hand: readonly DominoId[];
  drawn: DominoId;
  handCounts: number[];
  boneyard: number;
  trains: readonly TrainView[];
  openDoubles: readonly number[];
  /** Pips each hand is known to lack (bit masks), from the draws and passes everyone saw. */
  lacks: readonly number[];
  totals: readonly number[];
  rounds: readonly RoundResult[];
  result: DominoResult | null;
  /** When the game has ended: the seed and every hand, for review. */
  reveal?: { seed: number; hands: DominoId[][] };
}

/**
 * What a seat may see (see `view`), without copies: the game's own arrays, read-only by type
 * and valid until the next apply. The fast path for self-play, whose bots only read their
 * views; a view given to anyone else is `view`'s.
 */
export function sharedView(state: DominoState, seat: number): DominoView {
  const v: DominoView = {
    seat,
    ruleset: state.rules.name,
    players: state.players,
    phase: state.phase,
    roundNo: state.roundPos + 1,
    roundsInGame: state.schedule.length,
    round: state.schedule[state.roundPos],
    engine: state.engine,
    starter: state.starter,
    firstDraw: state.firstDraw,
    turn: state.turn,
    step: { drew: state.step.drawn >= 0, cover: state.step.cover, free: state.step.free },
    hand: state.hands[seat],
    drawn: seat === state.turn ? state.step.drawn : -1,
    handCounts: state.hands.map((h) => h.length),
    boneyard: state.boneyard.length,
    trains: state.trains,
    openDoubles: state.openDoubles,
    lacks: state.lacks,
    totals: state.totals,
    rounds: state.rounds,
    result: state.result,
  };
  if (state.phase === 'ended') v.reveal = { seed: state.seed, hands: state.hands.map((h) => [...h]) };
  return v;
}

/**
 * What a seat may see: its own tiles, every train, counts of the other hands and of the
 * boneyard; never another hand, the boneyard's order, the generator or the seed of a live
 * game. Its lists and objects are its own copies, so nothing written into a view reaches the
 * game; it shows the game as it was when asked. (sharedView is the same view without the copies.)
 */
export function view(state: DominoState, seat: number): DominoView {
  const v = sharedView(state, seat);
  v.firstDraw = v.firstDraw.slice();
  v.hand = v.hand.slice();
  v.trains = v.trains.map((t) => ({ owner: t.owner, tiles: t.tiles.slice(), end: t.end, marked: t.marked }));
  v.openDoubles = v.openDoubles.slice();
  v.lacks = v.lacks.slice();
  v.totals = v.totals.slice();
  v.rounds = v.rounds.map((r) => ({ round: r.round, engine: r.engine, outBy: r.outBy, pipsLeft: r.pipsLeft.slice() }));
  if (v.result !== null) v.result = { totals: v.result.totals.slice(), winners: v.result.winners.slice() };
  return v;
}

// ------------------------------------------------------------------ copying and checking

export function cloneDominoState(s: DominoState): DominoState {
  return {
    ...s,
    rng: [...s.rng] as RngState,
    schedule: [...s.schedule],
    hands: s.hands.map((h) => [...h]),
    boneyard: [...s.boneyard],
    trains: s.trains.map((t) => ({ ...t, tiles: [...t.tiles] })),
    openDoubles: [...s.openDoubles],
    lacks: [...s.lacks],
    step: { ...s.step },
    totals: [...s.totals],
    rounds: s.rounds.map((r) => ({ ...r, pipsLeft: [...r.pipsLeft] })),
  };
}

/**
 * Every invariant, for tests: all 91 tiles accounted for exactly once (engine, hands,
 * boneyard, trains), trains connected from the engine, open doubles really open, scores
 * the sum of the rounds. Throws "rule violation: ...".
 */
export function validateDomino(state: DominoState): void {
  const bad = (what: string): never => {
    ruleViolation(`${what}`);
  };
  const seen = new Uint8Array(SET_SIZE);
  const count = (t: DominoId, where: string) => {
    if (!Number.isInteger(t) || t < 0 || t >= SET_SIZE) bad(`${String(t)} in ${where} is not a domino`);
    if (seen[t]++) bad(`${dominoName(t)} appears twice (again in ${where})`);
  };
  count(state.engine, 'the station');
  state.hands.forEach((h, s) => h.forEach((t) => count(t, `seat ${s}'s hand`)));
  state.boneyard.forEach((t) => count(t, 'the boneyard'));
  const pip = HI[state.engine];
  if (!isDouble(state.engine)) bad('the engine is not a double');
  if (state.trains.length !== state.players + 1) bad(`${state.trains.length} trains for ${state.players} players`);
  state.trains.forEach((t, i) => {
    let end = pip;
    for (const tile of t.tiles) {
      count(tile, trainName(state, i));
      if (!hasEnd(tile, end)) bad(`${dominoName(tile)} on ${trainName(state, i)} does not match ${end}`);
      end = otherEnd(tile, end);
    }
    if (end !== t.end) bad(`${trainName(state, i)} ends in ${end} but records ${t.end}`);
    if (i === state.players && !t.marked) bad('the Mexican train is always public');
  });
  for (let t = 0; t < SET_SIZE; t++) if (!seen[t]) bad(`${dominoName(t)} is missing`);
  for (const o of state.openDoubles) {
    const tiles = state.trains[o]?.tiles;
    if (!tiles || tiles.length === 0 || !isDouble(tiles[tiles.length - 1])) bad(`open double listed on ${o}, whose last tile is no double`);
  }
  state.hands.forEach((h, seat) => {
    if (state.phase === 'play' && seat === state.turn && state.step.drawn >= 0) return; // the drawn tile may still fit: not yet resolved
    for (const t of h) if ((state.lacks[seat] >> HI[t]) & 1 || (state.lacks[seat] >> LO[t]) & 1) bad(`seat ${seat} holds ${dominoName(t)} but is known to lack its end`);
  });
  if (new Set(state.openDoubles).size !== state.openDoubles.length) bad('a train listed twice among open doubles');
  const totals = new Array<number>(state.players).fill(0);
  for (const r of state.rounds)
    r.pipsLeft.forEach((p, s) => {
      totals[s] += p;
    });
  if (totals.some((x, s) => x !== state.totals[s])) bad('totals are not the sum of the rounds');
  if (state.phase === 'play') {
    if (state.turn < 0 || state.turn >= state.players) bad(`turn ${state.turn}`);
    const st = state.step;
    if (st.drawn >= 0 && !state.hands[state.turn].includes(st.drawn)) bad('the drawn tile is not in the hand of the player to move');
    if (st.cover >= 0 && !state.openDoubles.includes(st.cover)) bad('the double to cover is not open');
    if (state.hands.some((h) => h.length === 0)) bad('a round goes on after a player went out');
    if (legalActions(state, state.turn).length === 0) bad('the player to move has nothing to do');
  } else if (!state.result) bad('an ended game without a result');
}
