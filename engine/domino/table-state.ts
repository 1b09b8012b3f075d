import { TilemateError } from '../errors.js';
import type { DominoView } from './game.js';
import { checkPlayers, loadDominoRuleset } from './rulesets.js';
import { doubleOf, dominoName, hasEnd, HI, isDouble, MAX_PIP, otherEnd, parseDominoes, SET_SIZE, type DominoId } from './tiles.js';

/**
 * A table described by a person (for advice), read into the seat's view the bots use. The
 * description (JSON; docs/mexican-train.md, "Advice"):
 *
 *   {"ruleset": "sun-lakes", "players": 4, "seat": 0, "engine": 12,
 *    "trains": {"0": "12-5 5-3", "2": "12-7", "mexican": "12-1 1-1"},
 *    "marked": [2], "handCounts": [9, 8, 11, 10], "boneyard": 20}
 *
 * Only `players` is required. Trains list their tiles from the station out; a train ending
 * in a double has that double open (uncovered). `handCounts` defaults to 10 for the others;
 * `boneyard` to the tiles nobody can see less the other hands.
 */
export interface TableInput {
  ruleset?: string;
  players: number;
  seat?: number;
  engine?: number;
  trains?: Record<string, string>;
  marked?: (number | 'mexican')[];
  handCounts?: number[];
  boneyard?: number;
  /** Open doubles in the order played, when there are two ("0", "mexican"); default: train order. */
  openDoubles?: (number | 'mexican')[];
}

const bad = (message: string): never => {
  throw new TilemateError('TM_BAD_INPUT', message);
};

/** Parses the JSON text of a table description (see TableInput). */
export function parseTableInput(text: string): TableInput {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return bad('--state is not JSON: give an object such as {"players":4,"trains":{"0":"12-5"}}');
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return bad('the table state is a JSON object');
  return raw as TableInput;
}

function trainIndex(key: string | number, players: number): number {
  if (key === 'mexican') return players;
  const n = typeof key === 'number' ? key : /^\d+$/.test(key) ? Number(key) : NaN;
  if (!Number.isInteger(n) || n < 0 || n >= players) return bad(`no train "${String(key)}": a seat from 0 to ${players - 1} or "mexican"`);
  return n;
}

/** The seat's view of the described table, with `hand` as its tiles and it to move. */
export function viewFromTable(input: TableInput, hand: readonly DominoId[]): DominoView {
  const rules = loadDominoRuleset(input.ruleset ?? 'sun-lakes');
  const players = input.players;
  checkPlayers(rules, players);
  const seat = input.seat ?? 0;
  if (!Number.isInteger(seat) || seat < 0 || seat >= players) bad(`seat ${String(seat)}: expected 0 to ${players - 1}`);
  const pip = input.engine ?? rules.engines[0];
  if (!Number.isInteger(pip) || pip < 0 || pip > MAX_PIP) bad(`engine ${String(pip)}: the engine is a double from 0 to ${MAX_PIP}`);
  const engine = doubleOf(pip);
  const seen = new Set<number>([engine]);
  const see = (t: DominoId, where: string) => {
    if (seen.has(t)) throw new TilemateError('TM_DUPLICATE_TILE', `${dominoName(t)} is ${t === engine ? 'the engine' : 'given twice'} (again in ${where})`);
    seen.add(t);
  };
  if (hand.length === 0) bad('the hand is empty');
  hand.forEach((t) => see(t, 'your hand'));
  const trains = Array.from({ length: players + 1 }, (_, i) => ({ owner: i < players ? i : -1, tiles: [] as DominoId[], end: pip, marked: i === players }));
  for (const [key, text] of Object.entries(input.trains ?? {})) {
    const i = trainIndex(key, players);
    if (typeof text !== 'string') bad(`train "${key}": give its tiles as text, e.g. "12-5 5-3"`);
    for (const t of parseDominoes(text)) {
      see(t, `train ${key}`);
      const tr = trains[i];
      if (!hasEnd(t, tr.end)) bad(`train ${key}: ${dominoName(t)} does not match the ${tr.end} it is laid against`);
      tr.tiles.push(t);
      tr.end = otherEnd(t, tr.end);
    }
  }
  // a list names each train once: [2, 2] is a slip, not two markers
  for (const [list, what] of [
    [input.marked, 'marked'],
    [input.openDoubles, 'openDoubles'],
  ] as const) {
    const twice = (list ?? []).find((k, i) => list!.indexOf(k) !== i);
    if (twice !== undefined) bad(`${what} names train ${String(twice)} twice: name each train once`);
  }
  for (const m of input.marked ?? []) trains[trainIndex(m, players)].marked = true;
  const open = trains.flatMap((t, i) => (t.tiles.length > 0 && isDouble(t.tiles[t.tiles.length - 1]) ? [i] : []));
  const openDoubles = input.openDoubles ? input.openDoubles.map((k) => trainIndex(k, players)) : open;
  if (openDoubles.length !== open.length || openDoubles.some((i) => !open.includes(i))) bad('openDoubles must list exactly the trains that end in a double');
  const unseen = SET_SIZE - seen.size;
  const handCounts = input.handCounts ? [...input.handCounts] : Array.from({ length: players }, (_, s) => (s === seat ? hand.length : Math.min(10, Math.floor(unseen / players))));
  if (handCounts.length !== players || handCounts.some((n) => !Number.isInteger(n) || n < 0)) bad(`handCounts: one whole number per player (${players})`);
  handCounts[seat] = hand.length;
  const others = handCounts.reduce((a, b) => a + b, 0) - hand.length;
  const boneyard = input.boneyard ?? unseen - others;
  if (!Number.isInteger(boneyard) || boneyard < 0 || boneyard + others !== unseen)
    bad(`${unseen} tiles are out of sight, but the other hands (${others}) and the boneyard (${String(boneyard)}) add up to ${others + Number(boneyard)}`);
  return {
    seat,
    ruleset: rules.name,
    players,
    phase: 'play',
    roundNo: 1,
    roundsInGame: 1,
    round: Math.max(0, rules.engines.indexOf(HI[engine])),
    engine,
    starter: seat,
    firstDraw: [],
    turn: seat,
    step: { drew: false, cover: -1, free: false },
    hand: [...hand],
    drawn: -1,
    handCounts,
    boneyard,
    trains,
    openDoubles,
    lacks: new Array<number>(players).fill(0),
    totals: new Array<number>(players).fill(0),
    rounds: [],
    result: null,
  };
}
