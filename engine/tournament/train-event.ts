import { loadDominoRuleset } from '../domino/rulesets.js';
import { championshipStandings, tableAdvancers, type Standing as ChampionshipStanding } from '../domino/tournament.js';
import { TilemateError } from '../errors.js';
import { seedRng, shuffle } from '../rng.js';
import { checkAdjustment, consentPlayer, registerPlayer, withdrawPlayer, type EventPlayer } from './event.js';

/**
 * A Mexican Train club event (issue 47), as its list of changes, as a Mah Jongg event is
 * (event.ts). The senior games' day (senior-games-mexican-train-and-mah-jongg.txt, "For the
 * tournament"): "We will play 6 rounds. The player at each table who has the lowest score will
 * move to the Championship Round. We will play another 6 Rounds. Scores from the two Rounds
 * will be added together and the 2 players with the lowest scores will win 1st and 2nd place."
 * Here each of those "rounds" is a hand, and the six of them a game: the qualifying game at
 * every table, then the championship game among the tables' lowest. Under a ruleset with no
 * tournament format (the district rules) every game is seated at random and the lowest total
 * over the games wins.
 *
 * A player's card holds, for each hand, every seat's points at her table (the pips left in
 * hand; the player who went out scores 0), as a table's paper sheet does; the player in the
 * next seat checks it against her own.
 */

export interface TrainGame {
  n: number;
  championship: boolean;
  /** Each table's players in seat order. */
  tables: string[][];
  hands: number;
  /** Each player's card: for each hand, every seat's points at her table (null: not entered yet). */
  cards: Map<string, (number[] | null)[]>;
  verified: Map<string, string>;
  accepted: boolean;
  startedAt: number;
}

export interface TrainEventState {
  name: string;
  ruleset: string;
  /** Players a table seats at most (the director's choice, within the ruleset's). */
  tableSize: number;
  players: Map<string, EventPlayer>;
  games: TrainGame[];
  adjustments: { player: string; points: number; reason: string }[];
  over: boolean;
}

export type TrainChange =
  | { type: 'create'; game: 'mexican-train'; name: string; ruleset: string; tableSize: number }
  | { type: 'register'; id: string; name: string; code: string; account?: string }
  | { type: 'withdraw'; player: string }
  | { type: 'consent'; player: string; account: string; accept: boolean }
  | { type: 'seat'; seed: number; at: number }
  | { type: 'enter'; player: string; hand: number; points: number[] }
  | { type: 'verify'; player: string; by: string }
  /** She reopens her checked card to change it (the game not yet accepted): its check, and the check she made against it, are undone. */
  | { type: 'reopen'; player: string }
  | { type: 'accept' }
  | { type: 'adjust'; player: string; points: number; reason: string }
  | { type: 'finish' };

/** The most points a seat may lose in a hand (every tile of a double-12 set in one hand is 312). */
const MAX_HAND_POINTS = 400;

const refuse = (message: string): never => {
  throw new TilemateError('TM_BAD_INPUT', message);
};

export function emptyTrainEvent(): TrainEventState {
  return { name: '', ruleset: '', tableSize: 4, players: new Map(), games: [], adjustments: [], over: false };
}

/** Players at tables of at most `size`, as even as can be (17 at tables of 4: five tables, of 4, 4, 3, 3, 3), drawn from `seed`. */
export function trainTables(players: readonly string[], size: number, seed: number): string[][] {
  const count = Math.ceil(players.length / size);
  const drawn = shuffle(seedRng(seed), [...players]);
  const tables: string[][] = Array.from({ length: count }, () => []);
  drawn.forEach((p, i) => tables[i % count].push(p));
  return tables;
}

/** Each player's total in a game: the sum of her seat's points over its hands (from her own card, checked). */
export function gameTotals(g: TrainGame): Map<string, number> {
  const out = new Map<string, number>();
  for (const table of g.tables) {
    const card = g.cards.get(table[0]) ?? [];
    table.forEach((id, seat) =>
      out.set(
        id,
        card.reduce((sum, hand) => sum + (hand?.[seat] ?? 0), 0),
      ),
    );
  }
  return out;
}

/** Applies one change in place; refused (TM_BAD_INPUT, naming why) with nothing changed when it cannot be made. */
export function applyTrain(e: TrainEventState, c: TrainChange): void {
  if (e.over && c.type !== 'adjust' && c.type !== 'consent') refuse('the event is over');
  if (c.type !== 'create' && e.name === '') refuse('the event has not been created');
  const game = e.games.at(-1);
  const name = (id: string) => e.players.get(id)?.name ?? id;
  switch (c.type) {
    case 'create': {
      if (e.name !== '') refuse('the event exists already');
      const rules = loadDominoRuleset(c.ruleset);
      if (!Number.isInteger(c.tableSize) || c.tableSize < Math.max(2, rules.minPlayers) || c.tableSize > rules.maxPlayers)
        refuse(`a table of ${rules.name} seats ${rules.minPlayers} to ${rules.maxPlayers} players`);
      Object.assign(e, { name: c.name, ruleset: c.ruleset, tableSize: c.tableSize });
      return;
    }
    case 'register':
      registerPlayer(e.players, c, (game?.n ?? 0) + 1);
      return;
    case 'withdraw':
      withdrawPlayer(e.players, c.player, (game?.n ?? 0) + 1);
      return;
    case 'consent':
      consentPlayer(e.players, c);
      return;
    case 'seat': {
      if (game !== undefined && !game.accepted) refuse(`game ${game.n} is not accepted yet: its cards come first`);
      const rules = loadDominoRuleset(e.ruleset);
      const format = rules.tournament;
      const active = [...e.players.values()].filter((p) => p.withdrawn === null).map((p) => p.id);
      let players = active;
      let championship = false;
      if (format && game !== undefined) {
        if (game.championship) refuse('the championship has been played: the event is over once the director ends it');
        // the senior games: the lowest at each table goes on (a tie for it sends every tied player on)
        const totals = gameTotals(game);
        players = game.tables.flatMap((t) => tableAdvancers(rules, { players: t, totals: t.map((id) => totals.get(id)!) })).filter((id) => active.includes(id));
        championship = true;
      }
      if (players.length < Math.max(2, rules.minPlayers)) refuse(`${players.length} player${players.length === 1 ? '' : 's'} cannot make a table`);
      // the championship is one game at as few tables as the rules seat (up to eight a table)
      const tables = trainTables(players, championship ? rules.maxPlayers : e.tableSize, c.seed);
      const hands = format ? (championship ? format.championshipRounds : format.tableRounds) : rules.engines.length;
      e.games.push({ n: e.games.length + 1, championship, tables, hands, cards: new Map(), verified: new Map(), accepted: false, startedAt: c.at });
      return;
    }
    case 'enter': {
      if (game === undefined || game.accepted) refuse('no game is being scored');
      const g = game!;
      const table = g.tables.find((t) => t.includes(c.player)) ?? refuse(`${name(c.player)} has no seat in game ${g.n}`);
      if (!Number.isInteger(c.hand) || c.hand < 1 || c.hand > g.hands) refuse(`a game here has hands 1 to ${g.hands}`);
      if (g.verified.has(c.player)) refuse('your card has been checked already: reopen it to change a hand, and it will be checked again');
      if (c.points.length !== table!.length || c.points.some((p) => !Number.isInteger(p) || p < 0 || p > MAX_HAND_POINTS)) {
        refuse(`a hand's points: one whole number from 0 to ${MAX_HAND_POINTS} for each of the ${table!.length} players at the table`);
      }
      const card = g.cards.get(c.player) ?? new Array<number[] | null>(g.hands).fill(null);
      card[c.hand - 1] = [...c.points];
      g.cards.set(c.player, card);
      return;
    }
    case 'verify': {
      if (game === undefined || game.accepted) refuse('no game is being scored');
      const g = game!;
      const table = g.tables.find((t) => t.includes(c.player)) ?? refuse(`${name(c.player)} has no seat in game ${g.n}`);
      // the next player round the table checks her card
      const checker = table![(table!.indexOf(c.player) + 1) % table!.length];
      if (c.by !== checker) refuse(`${name(c.player)}'s card is checked by ${name(checker)}, who sits next to her`);
      const card = g.cards.get(c.player);
      const mine = g.cards.get(c.by);
      if (card === undefined || card.some((h) => h === null)) refuse(`${name(c.player)} has not entered all ${g.hands} hands yet`);
      if (mine === undefined || mine.some((h) => h === null)) refuse(`enter your own ${g.hands} hands first: the cards are checked against each other`);
      const differs = card!.findIndex((h, i) => JSON.stringify(h) !== JSON.stringify(mine![i]));
      if (differs >= 0) refuse(`hand ${differs + 1} differs between ${name(c.player)}'s card and yours: one of you must correct it before it is checked`);
      g.verified.set(c.player, c.by);
      return;
    }
    case 'reopen': {
      // a checked card that is wrong would hold its table forever (the next player checks hers against it, issue 63)
      if (game === undefined || game.accepted) refuse('no game is being scored');
      const g = game!;
      if (!g.tables.some((t) => t.includes(c.player))) refuse(`${name(c.player)} has no seat in game ${g.n}`);
      if (!g.verified.has(c.player)) refuse('your card is not checked: change its hands as they are');
      g.verified.delete(c.player);
      for (const [checked, by] of [...g.verified]) if (by === c.player) g.verified.delete(checked);
      return;
    }
    case 'accept': {
      if (game === undefined || game.accepted) refuse('no game is waiting to be accepted');
      const g = game!;
      const unchecked = g.tables.flat().filter((id) => !g.verified.has(id));
      if (unchecked.length > 0) refuse(`game ${g.n} waits for ${unchecked.length} card${unchecked.length === 1 ? '' : 's'} to be checked (${unchecked.map(name).join(', ')})`);
      g.tables.forEach((t, i) => {
        const first = JSON.stringify(g.cards.get(t[0]));
        if (t.some((id) => JSON.stringify(g.cards.get(id)) !== first)) refuse(`table ${i + 1}'s cards differ: its players must agree before the game is accepted`);
      });
      g.accepted = true;
      return;
    }
    case 'adjust':
      e.adjustments.push(checkAdjustment(e.players, c));
      return;
    case 'finish':
      if (game !== undefined && !game.accepted) refuse(`game ${game.n} is not accepted yet`);
      e.over = true;
      return;
    default:
      refuse(`${(c as { type: string }).type} is no change this event takes`);
  }
}

export function replayTrain(changes: readonly TrainChange[]): TrainEventState {
  const e = emptyTrainEvent();
  for (const c of changes) applyTrain(e, c);
  return e;
}

export interface TrainStanding {
  player: string;
  /** Her total in each accepted game (null: she did not play it). */
  games: (number | null)[];
  adjusted: number;
  total: number;
  /** Her place, lowest total first; in a championship, the championship players first, by their two games added. */
  place: number;
}

/**
 * The standings: every player's games and total (the Director's adjustments added), the lowest
 * first. Once the championship game is accepted its players come first, ranked by their two
 * games added (engine/domino/tournament.ts, the senior games' places), and the first
 * `winners` of them win.
 */
export function trainStandings(e: TrainEventState): { rows: TrainStanding[]; winners: string[] } {
  const accepted = e.games.filter((g) => g.accepted);
  const totals = accepted.map(gameTotals);
  const rows: TrainStanding[] = [...e.players.keys()].map((id) => {
    const games = totals.map((t) => t.get(id) ?? null);
    const adjusted = e.adjustments.filter((a) => a.player === id).reduce((s, a) => s + a.points, 0);
    return { player: id, games, adjusted, total: games.reduce<number>((s, x) => s + (x ?? 0), 0) + adjusted, place: 0 };
  });
  const champ = accepted.find((g) => g.championship);
  let winners: string[] = [];
  let order: string[] = [];
  if (champ !== undefined) {
    const rules = loadDominoRuleset(e.ruleset);
    const qualifying = accepted.find((g) => !g.championship)!;
    const q = gameTotals(qualifying);
    const c = gameTotals(champ);
    const byTable = (g: TrainGame, t: Map<string, number>) => g.tables.map((players) => ({ players, totals: players.map((id) => t.get(id)!) }));
    const { standings, places }: { standings: ChampionshipStanding[]; places: ChampionshipStanding[] } = championshipStandings(rules, byTable(qualifying, q), byTable(champ, c));
    order = standings.map((s) => s.player);
    winners = places.map((s) => s.player);
  }
  rows.sort((a, b) => {
    const ia = order.indexOf(a.player);
    const ib = order.indexOf(b.player);
    if (ia >= 0 || ib >= 0) return (ia < 0 ? Infinity : ia) - (ib < 0 ? Infinity : ib);
    return a.total - b.total || a.player.localeCompare(b.player);
  });
  rows.forEach((r, i) => {
    const prev = rows[i - 1];
    const inChamp = order.includes(r.player);
    r.place = i > 0 && !inChamp && !order.includes(prev.player) && prev.total === r.total ? prev.place : i + 1;
  });
  return { rows, winners };
}
