import { TilemateError } from '../errors.js';
import type { DominoRuleset } from './rulesets.js';

/**
 * The senior games tournament format: "Multiple tables of players will play a complete game
 * of six rounds. The player with the lowest score at each table will go on to play a second
 * game in the Championship Round ... Scores from the two Rounds will be added together and
 * the 2 players with the lowest scores will win 1st and 2nd place." Pure bookkeeping over
 * finished games' totals (each game a `newMatch`).
 */
export interface TableTotals {
  /** Player names, in seat order. */
  players: string[];
  totals: number[];
}

export interface Standing {
  player: string;
  qualifying: number;
  championship: number;
  total: number;
}

function format(rules: DominoRuleset) {
  if (!rules.tournament) throw new TilemateError('TM_BAD_INPUT', `${rules.name} has no tournament format`);
  return rules.tournament;
}

/**
 * Who goes on from a qualifying table: the lowest total (the format's advancePerTable of them).
 * A tie for the last place through sends every tied player on (a reading: the document has no
 * tie-break).
 */
export function tableAdvancers(rules: DominoRuleset, table: TableTotals): string[] {
  const { advancePerTable } = format(rules);
  if (table.players.length !== table.totals.length) throw new TilemateError('TM_BAD_INPUT', 'one total per player');
  const sorted = [...table.totals].sort((a, b) => a - b);
  const cut = sorted[Math.min(advancePerTable, sorted.length) - 1];
  return table.players.filter((_, i) => table.totals[i] <= cut);
}

/** The championship standings: qualifying and championship totals added, lowest first; the first `places` win. */
export function championshipStandings(rules: DominoRuleset, qualifying: TableTotals[], championship: TableTotals[]): { standings: Standing[]; places: Standing[] } {
  const { places } = format(rules);
  const q = new Map<string, number>();
  for (const t of qualifying) t.players.forEach((p, i) => q.set(p, t.totals[i]));
  const standings: Standing[] = [];
  for (const t of championship) {
    t.players.forEach((player, i) => {
      const qual = q.get(player);
      if (qual === undefined) throw new TilemateError('TM_BAD_INPUT', `${player} played the championship without a qualifying game`);
      standings.push({ player, qualifying: qual, championship: t.totals[i], total: qual + t.totals[i] });
    });
  }
  standings.sort((a, b) => a.total - b.total || a.championship - b.championship);
  return { standings, places: standings.slice(0, places) };
}
