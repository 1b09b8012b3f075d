import { analysisInput, Analyzer, parseExposures, setHolds, tilesAwayAll, unseenOf, type AnalysisInput, type LineResult } from '../../engine/mah-jongg/analyzer.js';
import type { CompiledCard } from '../../engine/mah-jongg/compile.js';
import { determinize } from '../../engine/mah-jongg/determinize.js';
import { ruleViolation, TilemateError } from '../../engine/errors.js';
import { copiesOf, legalActions, type Action, type Exposure, type GameState, type SeatView } from '../../engine/mah-jongg/game.js';
import { closestAway } from '../../engine/mah-jongg/hand-check.js';
import { nextU32, seedOfText, seedRng, shuffle, type RngState } from '../../engine/rng.js';
import { loadRuleset, type Ruleset } from '../../engine/mah-jongg/rulesets.js';
import { handAfterCall, seenCounts, unseenCounts } from '../../engine/mah-jongg/seat.js';
import { formatTiles, JOKER, KINDS, parseTile, tileName, tilesFromCounts, type TileId, groupName } from '../../engine/mah-jongg/tiles.js';
import type { Agent, Turn } from '../agent.js';
import { HeuristicAgent, LOOKAHEAD_HABITS, MEDIUM_HABITS, STRONG_HABITS } from './heuristic.js';
import { OVERRULE, paired, playCandidates } from './montecarlo.js';
import { decides, dominated, MISTAKE_POINTS, verdictOf } from './judge.js';
import { andList, passWhy, searchCourtesy, searchVote, tileWords } from './charleston.js';
import { calibrated, chanceHand, chanceInputs, lineForms, sampleDraws, soloChance } from './chance.js';
import { defaultChanceCalibration, defaultModel } from './default-model.js';
import { LearnedAgent } from './learned.js';
import type { Group } from '../../engine/mah-jongg/tiles.js';

/**
 * Advice for a person at a real table, from the same code the bots play with: which lines
 * to chase and how likely each is, what to pass in the Charleston, what to discard, whether
 * to call. Each function takes what a player types (tiles in the usual notation) and
 * returns a plain JSON-able object with tile names, so the CLI and the HTTP API print the
 * same thing. Everything random comes from a seed: the same question gets the same answer.
 *
 * The person always sits at seat 0; the others are named by where they sit: right (seat 1,
 * who plays after her), across, left (who plays before her).
 */

export type Direction = 'right' | 'across' | 'left';
export const DIRECTIONS: readonly Direction[] = ['right', 'across', 'left'];

/** Mid-game tiles a person reports, in the notation players type. */
export interface SituationInput {
  /** Concealed tiles. */
  hand: string;
  /** Groups exposed on the person's rack, separated by `;`. */
  exposed?: string;
  /** Tiles seen on the table (discards); placed as the other players' discards. */
  seen?: string;
  /** Exposures on the other players' racks, by where they sit. */
  others?: Partial<Record<Direction, string>>;
  /** Tiles left in the wall (default: the most there can be, 99 less the seen tiles at a 4-player table). */
  wall?: number;
  /** A single-rack ruleset (default nmjl-4p); it sets the players and the scoring of the playouts. */
  ruleset?: string;
}

/** How much searching a decision gets, and from which seed. */
export interface SearchOptions {
  /** Sampled deals; every alternative is played out in each (default ADVICE_WORLDS). */
  worlds?: number;
  /** Default: decisionSeed, drawn from the decision itself, so every way of asking gets one answer. */
  seed?: number;
  /** Discard advice: the discards weighed, the heuristic's cheapest few (default 4). */
  candidates?: number;
  /**
   * Asked once the choices to weigh are known, before any is played out: the worlds to play
   * (at most `worlds`), or a refusal (it throws) when `choices` x `worlds` playouts are more
   * work than the caller allows (the server's budget).
   */
  afford?: (choices: number, worlds: number) => number;
}

/**
 * One budget for every decision's advice: the hint in a game, Which hand?, `tilemate advise`
 * and the review all play this many deals from the seed decisionSeed draws from the
 * decision, so they give one answer, word for word, for one moment. A constant: a caller that
 * wants fewer (a test replaying many decisions) says so in its options.
 */
export const ADVICE_WORLDS = 24;
export const DEFAULT_CANDIDATES = 4;
export const DEFAULT_DEALS = 200;

// ------------------------------------------------------------------ the situation

/** A person's situation, parsed and checked. */
export interface Situation {
  rules: Ruleset;
  /** Copies of each kind in the ruleset's set. */
  copies: readonly number[];
  concealed: number[];
  /** Exposures per seat; the person's at 0. */
  exposures: Group[][];
  /** Seen tiles (discards), as counts. */
  seen: number[];
  claim?: { tile: TileId; discarder: number };
  wallLeft: number;
  /**
   * Unseen tiles that are neither in a rack nor in the wall: discards the person did not
   * list (she gave a wall shorter than it could be). Each sampled world draws them afresh.
   */
  unlisted: number;
}

/** The seat at `direction` from the person (seat 0), or a TM_BAD_INPUT error when the table has none there. */
export function seatAt(direction: string, players: number): number {
  const seat = direction === 'right' ? 1 : direction === 'left' ? players - 1 : direction === 'across' && players === 4 ? 2 : -1;
  if (seat < 1) throw new TilemateError('TM_BAD_INPUT', `no player sits "${direction}" at a table of ${players} (expected ${players === 4 ? 'right, across or left' : 'right or left'})`);
  return seat;
}

/** Where seat s sits from the person. */
function whereSits(seat: number, players: number): 'you' | Direction {
  if (seat === 0) return 'you';
  return seat === 1 ? 'right' : seat === players - 1 ? 'left' : 'across';
}

const sum = (xs: ArrayLike<number>): number => {
  let n = 0;
  for (let i = 0; i < xs.length; i++) n += xs[i];
  return n;
};
const groupTiles = (list: readonly Group[]): number => list.reduce((n, x) => n + x.size, 0);

function rulesFor(name = 'nmjl-4p'): Ruleset {
  const rules = loadRuleset(name);
  // determinize samples single-rack games only; a Siamese rack pool is another question
  if (rules.racks > 1) throw new TilemateError('TM_BAD_INPUT', `advice is for single-rack games; ${rules.name} has ${rules.racks} racks per player`);
  return rules;
}

/**
 * Parses and checks what the person typed: the hand as `analysisInput` checks it, then
 * its size for the question (14 to discard, 13 to answer a discard), copies over
 * everything listed, and the wall against the tiles that can still be in it. Other racks
 * hold 13 tiles, less what they have exposed; the wall holds at most what is left.
 */
export function parseSituation(input: SituationInput, question: 'discard' | 'call', claim?: { tile: string; from?: string | number }): Situation {
  const rules = rulesFor(input.ruleset);
  const copies = copiesOf(rules);
  const n = rules.players;
  const base = analysisInput(copies, input.hand, input.exposed ?? '', input.seen ?? '');
  const size = sum(base.concealed) + groupTiles(base.exposures);
  const want = question === 'discard' ? 14 : 13;
  if (size !== want) {
    const why = question === 'discard' ? 'discard advice is for your turn: the 14 tiles after your draw' : 'call advice is for a discard by another player: your 13 tiles before it';
    throw new TilemateError('TM_HAND_SIZE', `the hand has ${size} tiles; ${why}`);
  }
  if (question === 'discard' && sum(base.concealed) === 0) throw new TilemateError('TM_HAND_SIZE', 'the hand has no concealed tile: discard advice needs a tile on your rack to discard');
  const exposures: Group[][] = Array.from({ length: n }, (_, s) => (s === 0 ? base.exposures : []));
  for (const [direction, text] of Object.entries(input.others ?? {})) {
    if (text === undefined || text.trim() === '') continue;
    const seat = seatAt(direction, n);
    exposures[seat] = parseExposures(text);
    const held = groupTiles(exposures[seat]);
    if (held > 13) throw new TilemateError('TM_BAD_EXPOSURE', `the ${direction} player's exposures hold ${held} tiles; a rack holds 13`);
  }
  let parsedClaim: Situation['claim'];
  if (claim !== undefined) {
    const tile = parseTile(claim.tile.trim());
    // teaching guide 4.9: a discarded joker can never be picked up
    if (tile === JOKER) throw new TilemateError('TM_BAD_INPUT', 'a discarded joker can never be called');
    const from = claim.from ?? 'left';
    const discarder = typeof from === 'number' || /^\d+$/.test(from) ? Number(from) : seatAt(from, n);
    if (!Number.isInteger(discarder) || discarder < 1 || discarder >= n)
      throw new TilemateError('TM_BAD_INPUT', `--from ${from}: the discarder is another player, 1 to ${n - 1} seats to your right (or right, across, left)`);
    parsedClaim = { tile, discarder };
  }
  // every tile listed, wherever it is, against the set
  const known = base.concealed.map((c, t) => c + base.seen[t]);
  for (const list of exposures)
    for (const x of list) {
      known[x.tile] += x.size - x.jokers;
      known[JOKER] += x.jokers;
    }
  if (parsedClaim) known[parsedClaim.tile]++;
  for (let t = 0; t < KINDS; t++) {
    if (known[t] > copies[t])
      throw new TilemateError('TM_TOO_MANY_COPIES', `${known[t]} copies of ${tileName(t)} listed (hand, exposures, seen${parsedClaim ? ', the discard' : ''}); ${setHolds(copies, t)}`);
  }
  const unseen = copies.reduce((a, c, t) => a + c - known[t], 0);
  let otherRacks = 0;
  for (let s = 1; s < n; s++) otherRacks += 13 - groupTiles(exposures[s]);
  const most = unseen - otherRacks;
  if (most < 0) throw new TilemateError('TM_BAD_INPUT', `too many tiles listed: the other racks need ${otherRacks} unseen tiles and only ${unseen} remain`);
  const wallLeft = input.wall ?? most;
  if (!Number.isInteger(wallLeft) || wallLeft < 0 || wallLeft > most) {
    throw new TilemateError('TM_BAD_INPUT', `--wall ${input.wall}: at most ${most} tiles can be left in the wall with these tiles seen`);
  }
  return { rules, copies, concealed: base.concealed, exposures, seen: base.seen, claim: parsedClaim, wallLeft, unlisted: most - wallLeft };
}

/**
 * A seat view of the person's situation that the bots and `determinize` accept: her tiles
 * and exposures at seat 0, the seen tiles (and `unlisted` ones, when given) spread over the
 * other players' discards, the others holding 13 tiles less their exposures, the wall as
 * given. On her turn she is taken to have drawn from the wall; in a claim window the
 * discard is the discarder's last.
 */
export function situationView(sit: Situation, phase: 'discard' | 'claims', unlisted: readonly TileId[] = []): SeatView {
  const n = sit.rules.players;
  const discards: TileId[][] = Array.from({ length: n }, () => []);
  let next = 1;
  const spread = (t: TileId) => {
    discards[next].push(t);
    next = next === n - 1 ? 1 : next + 1;
  };
  for (const t of tilesFromCounts(sit.seen)) spread(t);
  for (const t of unlisted) spread(t);
  if (phase === 'claims') discards[sit.claim!.discarder].push(sit.claim!.tile);
  const exposures: Exposure[][] = sit.exposures.map((list) => list.map((x) => ({ ...x, rack: 0, exchangeable: true })));
  const concealedCounts = sit.exposures.map((list, s) => (s === 0 ? sum(sit.concealed) : 13 - groupTiles(list)));
  const discarder = sit.claim?.discarder ?? 0;
  const v: SeatView = {
    seat: 0,
    ruleset: sit.rules.name,
    players: n,
    phase,
    waitingOn: phase === 'discard' ? [0] : Array.from({ length: n }, (_, s) => s).filter((s) => s !== discarder),
    turn: phase === 'discard' ? 0 : discarder,
    wallLeft: sit.wallLeft,
    dice: new Array<number>(sit.rules.dice).fill(1),
    concealed: sit.concealed,
    copies: sit.copies,
    concealedCounts,
    exposures,
    discards,
    dead: Array.from({ length: n }, () => new Array<boolean>(sit.rules.racks).fill(false)),
    mahJonggs: [],
    turnFrom: { from: 'wall' },
    exchangedFromOther: false,
    result: null,
  };
  if (phase === 'claims') v.claim = { tile: sit.claim!.tile, discarder, answered: false };
  return v;
}

/**
 * The seed of a decision's playouts, drawn from the decision itself (FNV-1a over what the
 * person knows: the ruleset, her tiles and exposures, the others' exposures, the tiles seen,
 * the discard in question, the wall): the same moment gets the same deals whether it is
 * asked in a game, typed on Which hand? or at the command line, or reviewed afterwards.
 */
export function decisionSeed(sit: Situation, phase: 'discard' | 'claims'): number {
  const key = JSON.stringify([
    sit.rules.name,
    phase,
    sit.concealed,
    sit.exposures.map((list) => list.map((x) => [x.tile, x.size, x.jokers])),
    sit.seen,
    sit.claim ? [sit.claim.tile, sit.claim.discarder] : null,
    sit.wallLeft,
    sit.unlisted,
  ]);
  return seedOfKey(key);
}

/** A seed from a text (FNV-1a): the same moment, written the same way, gives the same seed. */
export const seedOfKey = seedOfText;

/** Unseen tiles of the situation (in other racks, the wall, or unlisted discards), one entry per tile. */
function unseenPool(sit: Situation, phase: 'discard' | 'claims'): TileId[] {
  return tilesFromCounts(unseenCounts(situationView(sit, phase)));
}

// ------------------------------------------------------------------ playouts

/**
 * The Monte Carlo machinery of agents/mah-jongg/montecarlo.ts, as a function: `worlds` deals sampled
 * from the view, every candidate played out to the end in each by heuristic players (the
 * person with the hard bot's habits, the others as medium bots), with the same world and
 * the same playout randomness for every candidate (common random numbers), so differences
 * between candidates are paired deal by deal.
 * Returns each world's scores for seat 0 and whether it won, per candidate.
 *
 * The other racks are dealt at random from the unseen tiles, with no Charleston or turns of
 * play behind them, so they are weaker than real opponents mid-game: the values and Mah
 * Jongg shares are optimistic, and serve to compare the alternatives with each other.
 */
export function playoutScores(sit: Situation, cc: CompiledCard, phase: 'discard' | 'claims', candidates: readonly Action[], worlds: number, rng: RngState): { scores: number[][]; won: boolean[][] } {
  const base = nextU32(rng);
  // the person plays on as the searching players do; the others as the medium player
  const policies: Agent[] = Array.from({ length: sit.rules.players }, (_, s) => new HeuristicAgent(cc, s === 0 ? STRONG_HABITS : MEDIUM_HABITS, 'playout'));
  const fixed = sit.unlisted === 0 ? situationView(sit, phase) : null;
  const pool = fixed === null ? unseenPool(sit, phase) : [];
  const scores: number[][] = [],
    won: boolean[][] = [];
  for (let w = 0; w < worlds; w++) {
    const worldRng = seedRng((base + Math.imul(w, 0x9e3779b9)) >>> 0);
    // discards the person did not list are unseen tiles too: each world draws its own
    const view = fixed ?? situationView(sit, phase, shuffle(worldRng, pool).slice(0, sit.unlisted));
    const world = determinize(view, sit.rules, cc, worldRng);
    const row = playCandidates(world, candidates, policies, (base ^ Math.imul(w + 1, 0x85ebca6b)) >>> 0, 0);
    scores.push(row.scores);
    won.push(row.won);
  }
  return { scores, won };
}

/** One state of the situation, for the legal actions: they depend only on the person's tiles and the table, the same in every world. */
function someWorld(sit: Situation, cc: CompiledCard, phase: 'discard' | 'claims'): GameState {
  const rng = seedRng(0);
  const unlisted = sit.unlisted === 0 ? [] : unseenPool(sit, phase).slice(0, sit.unlisted);
  return determinize(situationView(sit, phase, unlisted), sit.rules, cc, rng);
}

// ------------------------------------------------------------------ describing actions

/** An action as JSON with tile names (the engine's own action holds ids and seats). */
export interface MoveJson {
  type: Action['type'];
  tile?: string;
  size?: number;
  jokers?: number;
  /** For an exchange: whose exposure (you, right, across, left) and which of theirs (0-based). */
  owner?: string;
  exposure?: number;
}

function describe(a: Action, sit: Situation): { text: string; move: MoveJson } {
  const n = sit.rules.players;
  switch (a.type) {
    case 'discard':
      return { text: `discard ${tileName(a.tile)}`, move: { type: a.type, tile: tileName(a.tile) } };
    case 'declare':
      return { text: 'declare Mah Jongg', move: { type: a.type } };
    case 'exchange': {
      const x = sit.exposures[a.owner][a.exposure];
      const owner = whereSits(a.owner, n);
      const whose = owner === 'you' ? 'your' : `the ${owner} player's`;
      return {
        text: `exchange ${tileName(x.tile)} for the joker in ${whose} ${groupName(x.size)} of ${tileName(x.tile)}`,
        move: { type: a.type, tile: tileName(x.tile), owner, exposure: a.exposure },
      };
    }
    case 'decline':
      return { text: `let ${tileName(sit.claim!.tile)} go`, move: { type: a.type } };
    case 'call': {
      const tile = tileName(sit.claim!.tile);
      const jokers = a.jokers === 0 ? '' : ` with ${a.jokers} joker${a.jokers === 1 ? '' : 's'}`;
      return { text: `call ${tile} for a ${groupName(a.size)}${jokers}`, move: { type: a.type, tile, size: a.size, jokers: a.jokers } };
    }
    case 'callMahJongg':
      return { text: `call ${tileName(sit.claim!.tile)} for Mah Jongg`, move: { type: a.type, tile: tileName(sit.claim!.tile) } };
    default:
      return { text: a.type, move: { type: a.type } };
  }
}

/** The person's tiles after an action, for the analyzer: concealed counts and her exposures. */
function after(sit: Situation, a: Action): { concealed: number[]; exposures: Group[] } {
  const concealed = [...sit.concealed];
  const exposures = sit.exposures[0].map((x) => ({ ...x }));
  switch (a.type) {
    case 'discard':
      concealed[a.tile]--;
      break;
    case 'exchange': {
      const x = sit.exposures[a.owner][a.exposure];
      concealed[x.tile]--;
      concealed[JOKER]++;
      if (a.owner === 0) exposures[a.exposure].jokers--;
      break;
    }
    case 'call':
      return handAfterCall(sit.concealed, sit.exposures[0], sit.claim!.tile, a);
    case 'callMahJongg':
      concealed[sit.claim!.tile]++;
      break;
    default:
      break;
  }
  return { concealed, exposures };
}

// ------------------------------------------------------------------ discard and call advice

export interface Alternative {
  /** The action in a player's words, e.g. "discard 5B", "call 5B for a pung". */
  action: string;
  move: MoveJson;
  /**
   * The figure the choice is made by, the only score shown: the mean score over the sampled
   * deals (under the ruleset's scoring), less OVERRULE standard errors of its difference from
   * the advisor's own choice (which needs none). A choice replaces the advisor's only when it is
   * ahead after that, so the suggestion is always the top of these.
   */
  value: number;
  /** The plain mean score over the sampled deals (kept for the API; the texts show `value`). */
  mean: number;
  /**
   * Share of the sampled deals the person won, in the playouts' optimistic table (other racks
   * dealt at random): for comparing choices only, never shown to a player as a chance (the
   * chance of each line is lineChances's, the one figure shown for it).
   */
  mahJongg: number;
  /** Its mean score less the suggestion's, deal by deal, and the standard error of that difference. */
  behind: number;
  behindSe: number;
  /** About as good as the suggestion by the one judge's line (agents/mah-jongg/judge.ts): no rule's mistake, less than MISTAKE_POINTS behind (the suggestion itself: false). */
  aboutEqual: boolean;
  /** Tiles away of the hand after the action, toward its closest line. */
  tilesAway: number;
  toward: string;
}

export interface DecisionAdvice {
  question: 'discard' | 'call';
  hand: string;
  suggestion: string;
  /** Every alternative weighed, best first by `value` (the suggestion is the top of what is shown); the first is the suggestion. */
  alternatives: Alternative[];
  /** One sentence a beginner understands, in the game's own terms: the advice. */
  plain: string;
  /** The reason in one plain sentence (no figures). */
  why: string;
  /** The figures behind it, for a "details" toggle. */
  details: string;
  worlds: number;
  seed: number;
  wall: number;
  ruleset: string;
}

const round2 = (x: number): number => Math.round(x * 100) / 100;

/**
 * Plays the candidates out and chooses as the Monte Carlo player does: Mah Jongg whenever it
 * can be had; otherwise the advisor's own choice (candidates[0]) unless another beats it deal
 * by deal by more than OVERRULE standard errors (with a few dozen deals the means are noisy,
 * and noise should not overrule a sound default: taking the best mean instead won 7.8 points
 * less of the games, 95% interval 2.6 to 13.1, on 51 duplicate deals, lab/overrule-study.ts).
 * What is shown is what the choice is made by: each choice's mean less OVERRULE standard
 * errors of its difference from the advisor's (`value`), best first, so the suggestion is the
 * top of the figures. Whether another choice is about as good is the one judge's line
 * (agents/mah-jongg/judge.ts verdictOf, dominated): no rule makes it a mistake and it is less than
 * MISTAKE_POINTS behind, over the hint's few worlds.
 */
function decide(sit: Situation, cc: CompiledCard, phase: 'discard' | 'claims', candidates: Action[], legal: readonly Action[], opts: SearchOptions): DecisionAdvice {
  const asked = opts.worlds ?? ADVICE_WORLDS;
  const seed = opts.seed ?? decisionSeed(sit, phase);
  if (!Number.isInteger(asked) || asked < 1) throw new TilemateError('TM_BAD_INPUT', `worlds ${asked}: expected a whole number of 1 or more`);
  const worlds = Math.max(1, Math.min(asked, opts.afford?.(candidates.length, asked) ?? asked));
  const { scores, won } = playoutScores(sit, cc, phase, candidates, worlds, seedRng(seed));
  const means = candidates.map((_, i) => scores.reduce((a, row) => a + row[i], 0) / worlds);
  /** Mean and standard error of candidate i's score less candidate j's, deal by deal. */
  const versus = (i: number, j: number): { diff: number; se: number } => {
    const { mean, se } = paired(scores.map((row) => row[i] - row[j]));
    return { diff: mean, se };
  };
  const sure = candidates.findIndex((a) => a.type === 'declare' || a.type === 'callMahJongg');
  // the figure each choice is ranked by: the advisor's mean, or a challenger's less OVERRULE standard errors against it
  const standing = candidates.map((_, i) => round2(i === 0 ? means[0] : means[i] - OVERRULE * versus(i, 0).se));
  // Mah Jongg first; then by standing, a tie keeping the advisor's order (its own choice first)
  const order = candidates.map((_, i) => i).sort((a, b) => Number(b === sure) - Number(a === sure) || standing[b] - standing[a] || a - b);
  const best = order[0];
  const analyzer = new Analyzer(cc);
  // what the person sees besides her rack, the discard in question left out
  const seen = seenCounts(situationView(sit, 'discard'));
  const view = situationView(sit, phase);
  const alternatives = order.map((i): Alternative => {
    const { diff, se } = versus(i, best);
    const hand = after(sit, candidates[i]);
    const closest = analyzer.analyze({ concealed: hand.concealed, exposures: hand.exposures, seen, copies: sit.copies }, { top: 1 })[0];
    const { text, move } = describe(candidates[i], sit);
    const behind = round2(diff),
      behindSe = round2(se);
    return {
      action: text,
      move,
      value: i === sure ? round2(means[i]) : standing[i],
      mean: round2(means[i]),
      mahJongg: round2(won.reduce((a, row) => a + Number(row[i]), 0) / worlds),
      behind,
      behindSe,
      // the one judge's line (agents/mah-jongg/judge.ts): no mistake by its rules, and less than MISTAKE_POINTS behind
      aboutEqual: i !== best && sure < 0 && verdictOf(-behind, false, decides(dominated(cc, analyzer, view, legal, candidates[i]), legal)) !== 'mistake',
      tilesAway: candidates[i].type === 'declare' || candidates[i].type === 'callMahJongg' ? 0 : closest.tilesAway,
      toward: closest.id,
    };
  });
  const { plain, why } = decisionWords(cc, alternatives, sure >= 0);
  return {
    question: phase === 'discard' ? 'discard' : 'call',
    hand: formatTiles(tilesFromCounts(sit.concealed)),
    suggestion: alternatives[0].action,
    alternatives,
    plain,
    why,
    details: decisionDetails(alternatives, worlds, describe(candidates[0], sit).text, sure >= 0),
    worlds,
    seed,
    wall: sit.wallLeft,
    ruleset: sit.rules.name,
  };
}

const upperFirst = (s: string): string => s.replace(/^./, (c) => c.toUpperCase());

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth', 'eleventh', 'twelfth'];

/**
 * A card line as a player names it: "the second Stairs line" (the line's place under its
 * section's heading), or "the Stairs line" when the section has one line.
 */
export function lineName(cc: CompiledCard, id: string): string {
  const line = cc.card.lines.find((l) => l.id === id);
  if (line === undefined) return 'a hand on the card';
  const inSection = cc.card.lines.filter((l) => l.section === line.section);
  if (inSection.length === 1) return `the ${line.section} line`;
  const place = inSection.indexOf(line);
  return place < ORDINALS.length ? `the ${ORDINALS[place]} ${line.section} line` : `line ${place + 1} under ${line.section}`;
}

/** How far a hand is from Mah Jongg with a line, in a player's words. */
export function fromMahJongg(cc: CompiledCard, tilesAway: number, id: string): string {
  if (tilesAway === 0) return `it completes ${lineName(cc, id)}`;
  return `${tilesAway} tile${tilesAway === 1 ? '' : 's'} from Mah Jongg with ${lineName(cc, id)}`;
}

/**
 * The advice in one plain sentence and its reason in another, in the game's terms (lines,
 * tiles from Mah Jongg, concealed hands), no figures: when the judge calls the next best about
 * as good, the two are said to be about as good, never ranked.
 */
export function decisionWords(cc: CompiledCard, alts: Alternative[], mahJongg: boolean): { plain: string; why: string } {
  const [best, next] = alts;
  const Best = upperFirst(best.action);
  if (mahJongg) return { plain: `${Best}: your hand is complete.`, why: 'Your hand is complete, and Mah Jongg ends the game with you the winner.' };
  const leaves = (a: Alternative): string => (a.tilesAway === 0 ? fromMahJongg(cc, 0, a.toward) : `it leaves you ${fromMahJongg(cc, a.tilesAway, a.toward)}`);
  const why = `${upperFirst(leaves(best))}.`;
  if (next === undefined) return { plain: `${Best}: it is your only choice, and ${leaves(best)}.`, why };
  const concealed = cc.card.lines.find((l) => l.id === best.toward)?.concealed === true;
  // NMJL: a concealed hand may take no call except for Mah Jongg
  if (best.move.type === 'decline' && next.move.type === 'call' && concealed) {
    return { plain: `${Best}: ${lineName(cc, best.toward)} is concealed, and calling would rule it out.`, why };
  }
  if (next.behind === 0 && next.behindSe === 0) return { plain: `${Best}: ${leaves(best)}, and ${next.action} would come to the same.`, why };
  if (next.aboutEqual) return { plain: `${Best} (${next.action} is about as good): ${leaves(best)}.`, why };
  return { plain: `${Best}: ${leaves(best)}, and it did better than ${next.action} in games played on from here.`, why };
}

/**
 * The figures behind the advice, for the "details" toggle: the score each choice is ranked by
 * (never a figure that ranks them otherwise), and how it was found, in words a player reads
 * (the method's own terms are in docs/analyzer.md).
 */
function decisionDetails(alts: Alternative[], worlds: number, first: string, mahJongg: boolean): string {
  const each = alts.map((a, i) => {
    const line = mahJongg && i === 0 ? 'Mah Jongg' : `${a.tilesAway} from ${a.toward}`;
    const note =
      i === 0
        ? 'the suggestion'
        : a.aboutEqual
          ? `about as good: less than ${MISTAKE_POINTS} points a game behind the suggestion`
          : `behind: about ${round2(Math.max(0, -a.behind))} points a game below the suggestion`;
    return `${upperFirst(a.action)}: ${a.value} (${note}; ${line})`;
  });
  const how = `in ${worlds} practice games from here, the other players' hidden tiles made up at random (so the scores serve only to compare the choices)`;
  return mahJongg
    ? `Mah Jongg is always taken. The average score of each choice ${how}: ${each.join('; ')}.`
    : `How the coach chose: each choice was played on ${how}, and scored by its average, less a margin for luck. ${upperFirst(first)}, ${defaultModel() === null ? "the hard bot's" : "the trained player's"} own choice, needs no margin: another replaces it only when clearly ahead. ${each.join('; ')}.`;
}

/**
 * The player whose choice the advice, the hint and the review start from: the best shipped
 * model's policy (agents/mah-jongg/learned.ts), or the strong habits when there is no model.
 */
export function advisor(cc: CompiledCard): LearnedAgent {
  return new LearnedAgent(cc, defaultModel(), {}, 'advice');
}

/** The person's turn with 14 tiles: the advisor's own choice, the model's or the habits' next best discards, every joker exchange, and Mah Jongg when it is there, each played out. */
export function discardAdvice(cc: CompiledCard, input: SituationInput, opts: SearchOptions = {}): DecisionAdvice {
  const sit = parseSituation(input, 'discard');
  const world = someWorld(sit, cc, 'discard');
  const options = legalActions(world, 0);
  const heuristic = new HeuristicAgent(cc, STRONG_HABITS, 'advice');
  const policy = advisor(cc);
  const seed = opts.seed ?? decisionSeed(sit, 'discard');
  const turn: Turn = { seat: 0, phase: 'discard', view: () => situationView(sit, 'discard'), legal: () => options, rng: seedRng(seed) };
  const k = opts.candidates ?? DEFAULT_CANDIDATES;
  // the advisor's own choice first: the default the playouts must overrule (it declares Mah Jongg when it can)
  const candidates = unique([
    policy.act(turn),
    ...policy
      .choices(turn)
      .slice(0, k)
      .map((c) => c.action),
    ...heuristic
      .rank(turn)
      .slice(0, k)
      .map(({ tile }): Action => ({ type: 'discard', seat: 0, tile })),
    ...options.filter((a) => a.type === 'exchange'),
  ]);
  return decide(sit, cc, 'discard', candidates, options, { ...opts, seed });
}

/** Another player's discard: declining and every legal call (and Mah Jongg when the tile completes the hand), each played out. */
export function callAdvice(cc: CompiledCard, input: SituationInput & { tile: string; from?: string | number }, opts: SearchOptions = {}): DecisionAdvice {
  const sit = parseSituation(input, 'call', { tile: input.tile, from: input.from });
  const world = someWorld(sit, cc, 'claims');
  const options = legalActions(world, 0);
  const seed = opts.seed ?? decisionSeed(sit, 'claims');
  const turn: Turn = { seat: 0, phase: 'claims', view: () => situationView(sit, 'claims'), legal: () => options, rng: seedRng(seed) };
  const candidates = unique([advisor(cc).act(turn), ...options.filter((a) => a.type === 'decline' || a.type === 'call' || a.type === 'callMahJongg')]);
  return decide(sit, cc, 'claims', candidates, options, { ...opts, seed });
}

function unique(actions: Action[]): Action[] {
  const seen = new Set<string>();
  return actions.filter((a) => {
    const key = JSON.stringify(a);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

// ------------------------------------------------------------------ the Charleston

export interface CharlestonInput {
  /** The person's 13 or 14 tiles (East holds 14). */
  hand: string;
  direction?: Direction;
  /** Whether a blind pass is allowed on this pass (the first left, the last right). */
  blind?: boolean;
}

export interface CharlestonAdvice {
  hand: string;
  direction: Direction;
  /** Tiles to pass from the hand: 3, less the blind ones. */
  pass: string[];
  /** Received tiles to pass on unseen (0 when no blind pass is advised or allowed). */
  blind: number;
  /** The closest lines the kept tiles serve: tiles away of the kept tiles (before receiving any) and of the whole hand now. */
  keeps: { id: string; form: string; tilesAway: number; before: number }[];
  /** The family (the card's section) the pass keeps her on, and why, in one sentence true of the lines in `keeps`. */
  plan: CharlestonPlan;
  why: string;
}

export interface CharlestonPlan {
  /** The section of the first line kept. */
  family: string;
  /** Another family whose closest line is as near (keep both open), if any. */
  alsoOpen?: string;
  /** Passed tiles a kept line's form still uses: what the pass gives up, with the line. */
  givesUp: { tile: string; id: string }[];
  text: string;
}

const PASS_OFFSET: Record<Direction, number> = { right: 1, across: 2, left: 3 };

/**
 * The Charleston pass, explained in one sentence a beginner understands (agents/mah-jongg/charleston.ts
 * passWhy): the tiles to give, any received tiles to forward unseen where a blind pass is
 * allowed, and why. `keeps` are the analyzer's best lines for the tiles kept. `copies` is the
 * set in play (copiesOf the table's ruleset, or the standard set for a hand typed with no game).
 */
export function charlestonAdvice(cc: CompiledCard, copies: readonly number[], input: CharlestonInput): CharlestonAdvice {
  const direction = input.direction ?? 'right';
  if (!DIRECTIONS.includes(direction)) throw new TilemateError('TM_BAD_INPUT', `unknown direction "${String(direction)}" (expected right, across or left)`);
  // senior games rules 3: a blind pass only on the first left and the last right
  if (input.blind && direction === 'across') throw new TilemateError('TM_BAD_INPUT', 'a blind pass is allowed only on the first left and the last right, never across');
  const parsed = analysisInput(copies, input.hand);
  const view: SeatView = {
    ...charlestonView(parsed, 'charleston'),
    // the first Charleston's pass in that direction, or the last right when a blind pass is allowed there
    pass: direction === 'right' ? (input.blind ? 5 : 0) : direction === 'across' ? 1 : 2,
    passOffset: PASS_OFFSET[direction],
    blindAllowed: input.blind === true,
  };
  const choice = advicePass(cc, view);
  const kept = [...parsed.concealed];
  for (const t of choice.tiles) kept[t]--;
  const keeps = planOrder(cc, new Analyzer(cc).analyze({ concealed: kept, exposures: [], seen: parsed.seen, copies }, { top: 8 })).slice(0, 3);
  const awayNow = new Uint8Array(cc.lineCount),
    best = new Uint32Array(cc.lineCount);
  tilesAwayAll(cc, parsed.concealed, awayNow, best);
  return {
    hand: formatTiles(tilesFromCounts(parsed.concealed)),
    direction,
    pass: choice.tiles.map(tileName),
    blind: choice.blind,
    keeps: keeps.map((r) => ({ id: r.id, form: r.form, tilesAway: r.tilesAway, before: awayNow[r.line] })),
    plan: charlestonPlan(cc, keeps, choice.tiles),
    // standardized rules 4.4: East's dealt Mah Jongg is declared instead of passing (said so by passWhy)
    why: passWhy(cc, parsed.concealed, choice.tiles, choice.blind),
  };
}

/**
 * The lines a pass keeps, nearest first; among lines as near, one jokers can help before one
 * they cannot (a concealed Singles and Pairs line takes no joker and no call, teaching guide
 * 4.6 and 5.2: every tile it lacks must be drawn or passed in), then the analyzer's order.
 */
function planOrder(cc: CompiledCard, ranked: readonly LineResult[]): LineResult[] {
  const hard = (r: LineResult) => (cc.lineJokers[r.line] === 1 ? 0 : 1);
  return [...ranked].sort((a, b) => Number(b.possible) - Number(a.possible) || a.tilesAway - b.tilesAway || hard(a) - hard(b));
}

/** The kinds in a line result's form (its closest concrete form, found by its text within its line). */
function formKinds(cc: CompiledCard, r: LineResult): Set<TileId> {
  const out = new Set<TileId>();
  for (let f = cc.lineStart[r.line]; f < cc.lineStart[r.line + 1]; f++) {
    if (cc.formText[f] !== r.form) continue;
    for (let e = cc.entryStart[f]; e < cc.entryStart[f + 1]; e++) if (cc.entryKind[e] !== JOKER) out.add(cc.entryKind[e]);
    break;
  }
  return out;
}

/**
 * The pass's plan in one sentence true of the lines kept: the family of the first, how far it
 * is and whether jokers can help it, another family as near (both stay open), and any passed
 * tile a kept line still uses, said rather than hidden.
 */
function charlestonPlan(cc: CompiledCard, keeps: readonly LineResult[], passed: readonly TileId[]): CharlestonPlan {
  const first = keeps[0];
  if (first === undefined || !first.possible) return { family: '', givesUp: [], text: 'No line on the card can be made from these tiles: pass what you hold least of.' };
  if (first.tilesAway === 0) return { family: first.section, givesUp: [], text: `Keep ${first.section}: ${fromMahJongg(cc, 0, first.id)}.` };
  const also = keeps.find((k) => k.possible && k.section !== first.section && k.tilesAway === first.tilesAway);
  const givesUp: { tile: string; id: string }[] = [];
  for (const t of new Set(passed)) {
    const user = keeps.find((k) => k.possible && formKinds(cc, k).has(t));
    if (user !== undefined) givesUp.push({ tile: tileName(t), id: user.id });
  }
  let text = `Aim for ${first.section}: the tiles you keep leave you ${fromMahJongg(cc, first.tilesAway, first.id)}`;
  text += cc.lineJokers[first.line] === 1 ? ', and jokers can help fill it' : ', which takes no jokers';
  if (also !== undefined) text += `, with ${also.section} just as close, so both stay open`;
  if (givesUp.length > 0) {
    const words = (g: { tile: string }) => tileWords(parseTile(g.tile));
    const one = givesUp.every((g) => g.id === givesUp[0].id);
    text += one
      ? `, but this pass gives up ${andList(givesUp.map(words))}, which ${lineName(cc, givesUp[0].id)} uses`
      : `, but this pass gives up ${andList(givesUp.map((g) => `${words(g)}, which ${lineName(cc, g.id)} uses`))}`;
  }
  return { family: first.section, ...(also !== undefined && { alsoOpen: also.section }), givesUp, text: `${text}.` };
}

/**
 * The advice's pass: the strong bot's own (it passes what serves none of its closest targets
 * and, where a blind pass is allowed, forwards received tiles unseen rather than break a
 * target up). It won most in the arena of pass methods (lab/charleston-arena.ts, 6,000
 * duplicate deals, seed 29, the advising seat otherwise playing the lookahead habits against
 * three medium bots): win share 28.18% (27.04 to 29.32) against 25.57% (24.46 to 26.67) for
 * the lookahead pass the advice gave before (paired difference +2.62%, 1.19 to 4.04) and
 * 24.98% (23.89 to 26.08) for the pass that keeps lines open (agents/mah-jongg/charleston.ts openPass).
 */
function advicePass(cc: CompiledCard, view: SeatView): { tiles: TileId[]; blind: number } {
  const strong = new HeuristicAgent(cc, STRONG_HABITS, 'advice');
  const choice = strong.act({ seat: 0, phase: 'charleston', view: () => view, legal: () => [], rng: seedRng(1) });
  if (choice.type !== 'pass') ruleViolation(`the strong bot answered a Charleston pass with ${choice.type}`);
  return { tiles: choice.tiles, blind: choice.blind ?? 0 };
}

/** A 4-player seat's view before play starts: only the hand is known. */
function charlestonView(parsed: AnalysisInput, phase: 'charleston' | 'vote' | 'courtesy'): SeatView {
  const sit: Situation = { rules: rulesFor('nmjl-4p'), copies: parsed.copies, concealed: parsed.concealed, exposures: [[], [], [], []], seen: parsed.seen, wallLeft: 99, unlisted: 0 };
  return { ...situationView(sit, 'discard'), phase, waitingOn: [0, 1, 2, 3] };
}

export interface VoteAdvice {
  hand: string;
  /** Vote to go on to the second Charleston. */
  secondCharleston: boolean;
  /** Tiles away of the closest line now. */
  tilesAwayNow: number;
  /** Mean tiles away of the closest line after three more passes, on sampled deals. */
  expectedAway: number;
  why: string;
}

/** Whether to vote for the second Charleston (teaching guide 2.3: any player may stop it), by looking ahead at what the passes may bring (agents/mah-jongg/charleston.ts). */
export function voteAdvice(cc: CompiledCard, copies: readonly number[], input: { hand: string }): VoteAdvice {
  const parsed = analysisInput(copies, input.hand);
  const v = searchVote(cc, charlestonView(parsed, 'vote'), seedRng(1));
  return {
    hand: formatTiles(tilesFromCounts(parsed.concealed)),
    secondCharleston: v.yes,
    tilesAwayNow: v.now,
    expectedAway: Math.round(v.after * 100) / 100,
    why: voteWhy(v.yes, v.now, v.after),
  };
}

const tilesWord = (n: number): string => `${n} tile${n === 1 ? '' : 's'}`;

/** The vote's reason in one plain sentence: where the hand is now and where three more passes would likely leave it. */
function voteWhy(yes: boolean, now: number, after: number): string {
  const later = Math.round(after);
  if (yes) {
    return later < now
      ? `Vote yes: your hand is ${tilesWord(now)} from Mah Jongg, and three more passes would likely bring it to about ${later}.`
      : `Vote yes: your hand is ${tilesWord(now)} from Mah Jongg, and three more passes would likely bring it a little closer.`;
  }
  return later < now
    ? `Vote no: your hand is ${tilesWord(now)} from Mah Jongg, and three more passes would gain it little for the tiles you would have to give up.`
    : `Vote no: your hand is ${tilesWord(now)} from Mah Jongg, and three more passes would likely leave it no closer while taking tiles it needs.`;
}

export interface CourtesyAdvice {
  hand: string;
  /** Tiles to offer across (0 to 3; the smaller offer of the two sets how many change hands). */
  offer: string[];
  tilesAwayNow: number;
  /** Mean tiles away of the closest line after the exchange, on sampled deals. */
  expectedAway: number;
  why: string;
}

/** The courtesy pass (teaching guide 2.4): how many tiles to offer across and which, by the same lookahead. */
export function courtesyAdvice(cc: CompiledCard, copies: readonly number[], input: { hand: string }): CourtesyAdvice {
  const parsed = analysisInput(copies, input.hand);
  const view = charlestonView(parsed, 'courtesy');
  const turn: Turn = { seat: 0, phase: 'courtesy', view: () => view, legal: () => [], rng: seedRng(1) };
  const ranked = new HeuristicAgent(cc, LOOKAHEAD_HABITS, 'advice').rank(turn).map((r) => r.tile);
  const c = searchCourtesy(cc, view, ranked, seedRng(1));
  const now = closestAway(cc, parsed.concealed, []);
  const offer = c.tiles.map(tileName);
  return {
    hand: formatTiles(tilesFromCounts(parsed.concealed)),
    offer,
    tilesAwayNow: now,
    expectedAway: Math.round(c.expectedAway * 100) / 100,
    why: courtesyWhy(offer, now, c.expectedAway),
  };
}

/** The courtesy offer's reason in one plain sentence; it says only what the figures support (a hand far from every line is not "close"). */
function courtesyWhy(offer: string[], now: number, expected: number): string {
  const later = Math.round(expected);
  if (offer.length === 0) return `Offer nothing: your hand is ${tilesWord(now)} from Mah Jongg, and giving tiles across would likely not bring it closer.`;
  const they = offer.length === 1 ? 'it helps' : 'they help';
  return later < now
    ? `Offer ${list(offer)}: ${they} your hand least, and the trade would likely bring it from ${tilesWord(now)} to about ${later} from Mah Jongg.`
    : `Offer ${list(offer)}: ${they} your hand least, and the player across may send a tile you need.`;
}

function list(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

// ------------------------------------------------------------------ the chance of each line

export interface LineChance {
  /** Share of the simulated deals in which the line was completed before the wall ran out. */
  chance: number;
  /** chance x the line's card value (self-pick, jokerless and payments ignored). */
  expectedScore: number;
  /** The solo model's own chance, when the chance shown is calibrated. */
  solo?: number;
}

export interface ChanceOptions {
  /** Simulated deals (default 200). */
  deals?: number;
  seed?: number;
  /** Tiles left in the wall (default: 99 less the seen tiles, as at a 4-player table). */
  wall?: number;
  players?: number;
  /** The solo model's own chance, uncalibrated (for fitting the calibration). */
  raw?: boolean;
}

export interface ChanceReport {
  deals: number;
  seed: number;
  wall: number;
  /** The person's draws in each deal: one in every `players` tiles of the wall. */
  draws: number;
  lines: LineChance[];
  /** Whether the chances are calibrated to full-table outcomes (the calibration file is there). */
  calibrated: boolean;
}

/**
 * The wall at the start of play (the set less 13 to each player and East's 14th: 99 of 152 at
 * four), less the tiles discarded since. Other players' exposures are seen but not gone from
 * the wall's count: they are part of those players' 13 tiles.
 */
export function defaultWall(input: AnalysisInput, players = 4): number {
  return Math.max(0, sum(input.copies) - 13 * players - 1 - (sum(input.seen) - (input.othersExposed ?? 0)));
}

/**
 * The chance of completing each line before the wall runs out, in the solo model
 * (agents/mah-jongg/chance.ts): the person draws one tile in every `players` from a wall sampled out
 * of the tiles she has not seen and never switches lines. Every line is run on the same
 * sampled draws, so lines compare deal by deal.
 */
export function lineChances(cc: CompiledCard, input: AnalysisInput, results: readonly LineResult[], opts: ChanceOptions = {}): ChanceReport {
  const deals = opts.deals ?? DEFAULT_DEALS;
  const seed = opts.seed ?? 1;
  const players = opts.players ?? 4;
  if (!Number.isInteger(deals) || deals < 1) throw new TilemateError('TM_BAD_INPUT', `deals ${deals}: expected a whole number of 1 or more`);
  const pool = Uint8Array.from(tilesFromCounts(unseenOf(input)));
  // the unseen tiles are in the wall and the other racks' concealed tiles (13 each, less their exposures)
  const most = Math.max(0, pool.length - 13 * (players - 1) + (input.othersExposed ?? 0));
  const wall = opts.wall ?? Math.min(most, defaultWall(input, players));
  if (!Number.isInteger(wall) || wall < 0 || wall > most) throw new TilemateError('TM_BAD_INPUT', `--wall ${opts.wall}: at most ${most} tiles can be left in the wall with these tiles seen`);
  const draws = Math.floor(wall / players);
  // the same draws for every line (common random numbers)
  const drawn = sampleDraws(pool, deals, draws, seed);
  const full = sum(input.concealed) + groupTiles(input.exposures) === 14;
  const calibration = opts.raw ? null : defaultChanceCalibration();
  // no shortcut for lines the analyzer calls out: the draws never hold the tiles they lack
  const solos = results.map((r) => Math.round(soloChance(lineForms(cc, r.line, input.exposures), input.concealed, full, drawn, deals, draws) * 1000) / 1000);
  const hand = chanceHand(results, solos, input.concealed[JOKER], input.exposures.length, input.othersExposed ?? 0);
  const lines = results.map((r, rank): LineChance => {
    const value = cc.card.lines[r.line].value;
    const solo = solos[rank];
    // calibrated where there is something to estimate: a line out, a complete hand or an empty wall keep their certain 0, 1, 0
    const estimate = calibration !== null && r.possible && r.tilesAway > 0 && draws > 0;
    const chance = estimate ? Math.round(calibrated(calibration, chanceInputs(solo, wall, rank, r, hand)) * 1000) / 1000 : solo;
    return { chance, expectedScore: round2(chance * value), ...(estimate && { solo }) };
  });
  return { deals, seed, wall, draws, lines, calibrated: calibration !== null };
}
