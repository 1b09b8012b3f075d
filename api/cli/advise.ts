import type { Command } from 'commander';
import {
  ADVICE_WORLDS,
  callAdvice,
  charlestonAdvice,
  courtesyAdvice,
  DEFAULT_CANDIDATES,
  DEFAULT_DEALS,
  DIRECTIONS,
  discardAdvice,
  fromMahJongg,
  voteAdvice,
  type ChanceReport,
  type CharlestonAdvice,
  type DecisionAdvice,
  type Direction,
  type SituationInput,
} from '../../agents/mah-jongg/advice.js';
import { TilemateError } from '../../engine/errors.js';
import { COPIES } from '../../engine/mah-jongg/tiles.js';
import { loadCard } from '../../io/cards.js';
import type { CompiledCard } from '../../engine/mah-jongg/compile.js';

/**
 * `tilemate advise charleston|discard|call`: the advice functions of agents/mah-jongg/advice.ts on
 * the command line, readable by default and one JSON object with --json (the HTTP API will
 * serve the same objects). Also the `--simulate` columns of `tilemate analyze`.
 */

/** A whole-number option, refused as bad input (exit 2) with the option's name. */
export function wholeOption(name: string, min: number, max = Number.MAX_SAFE_INTEGER): (text: string) => number {
  return (text) => {
    const n = Number(text);
    if (!Number.isSafeInteger(n) || n < min || n > max) {
      throw new TilemateError('TM_BAD_INPUT', `${name} "${text}": expected a whole number of ${min} or more${max < Number.MAX_SAFE_INTEGER ? `, at most ${max.toLocaleString('en-US')}` : ''}`);
    }
    return n;
  };
}

/** The most sampled deals the command line plays out: enough for any question, bounded in the time it can take. */
export const CLI_MAX_DEALS = 100_000;
export const CLI_MAX_WORLDS = 1_000;

// ------------------------------------------------------------------ analyze --simulate

/** The table columns `--simulate` adds. */
export function simulationColumns(report: ChanceReport): { head: string[]; rows: string[][] } {
  return {
    head: ['chance', 'E[score]'],
    rows: report.lines.map((l) => [`${(100 * l.chance).toFixed(1)}%`, l.expectedScore.toFixed(2)]),
  };
}

export const SIMULATE_HELP = `estimate each line's chance of being completed before the wall runs out, and chance x value, over N simulated deals (default ${DEFAULT_DEALS}); a solo model: you draw one tile in every four and never call, nobody races you`;

// ------------------------------------------------------------------ advise

interface SituationFlags {
  hand?: string;
  candidates?: number;
  exposed?: string;
  seen?: string;
  right?: string;
  across?: string;
  left?: string;
  wall?: number;
  seed?: number;
  worlds?: number;
  ruleset: string;
  card?: string;
  json?: boolean;
}

function situation(f: SituationFlags, question: string): SituationInput {
  if (f.hand === undefined) throw new TilemateError('TM_BAD_INPUT', `advise ${question} needs --hand "<tiles>"`);
  return {
    hand: f.hand,
    exposed: f.exposed,
    seen: f.seen,
    others: { right: f.right, across: f.across, left: f.left },
    wall: f.wall,
    ruleset: f.ruleset,
  };
}

function write(text: string): void {
  process.stdout.write(text + '\n');
}

function columns(rows: string[][], right: ReadonlySet<number>): string[] {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
  return rows.map((row) =>
    row
      .map((cell, c) => (c === row.length - 1 ? cell : right.has(c) ? cell.padStart(widths[c]) : cell.padEnd(widths[c])))
      .join('  ')
      .trimEnd(),
  );
}

/**
 * A decision's advice as text: the advice and its reason in plain words first, then the
 * figures under "Details" (the same `plain` the hint in a game and Which hand? show).
 */
function decisionText(a: DecisionAdvice, f: SituationFlags): string {
  const rows = [
    ['#', 'action', 'score', 'vs the suggestion', 'tiles from', 'line'],
    ...a.alternatives.map((x, i) => [
      String(i + 1),
      x.action,
      x.value.toFixed(2),
      i === 0 ? '' : x.aboutEqual ? 'about as good' : `${x.behind.toFixed(2)} ± ${x.behindSe.toFixed(2)}`,
      String(x.tilesAway),
      x.toward,
    ]),
  ];
  return [
    `Hand     ${a.hand}`,
    ...(f.exposed ? [`Exposed  ${f.exposed}`] : []),
    ...(f.seen ? [`Seen     ${f.seen}`] : []),
    ...DIRECTIONS.filter((d) => f[d]).map((d) => `${(d[0].toUpperCase() + d.slice(1)).padEnd(8)} ${f[d]}`),
    `Wall     ${a.wall} tile${a.wall === 1 ? '' : 's'} left`,
    '',
    `Advice   ${a.plain}`,
    `Why      ${a.why}`,
    '',
    `Details  ${a.worlds} sampled deals (seed ${a.seed}), ${a.ruleset} scoring`,
    ...columns(rows, new Set([0, 2, 4])).map((line) => `         ${line}`),
    `         ${a.details}`,
  ].join('\n');
}

function charlestonText(cc: CompiledCard, a: CharlestonAdvice): string {
  const to = a.direction === 'across' ? 'across' : `to the ${a.direction}`;
  const pass =
    a.blind > 0
      ? `${a.pass.length > 0 ? `${a.pass.join(' ')} ${to}, and ` : ''}${a.blind} of the tiles you receive ${a.pass.length > 0 ? '' : `${to} `}without looking at them (a blind pass)`
      : `${a.pass.join(' ')} ${to}`;
  return [
    `Hand     ${a.hand}`,
    '',
    `Pass     ${pass}`,
    ...(a.plan.family === '' ? [] : [`Plan     ${a.plan.text}`]),
    ...a.keeps.map((k, i) => `${i === 0 ? 'Keeps' : ''}`.padEnd(9) + `${fromMahJongg(cc, k.tilesAway, k.id).replace(/^./, (c) => c.toUpperCase())}`),
    '',
    `Details  ${a.why}`,
  ].join('\n');
}

function direction(text: string): Direction {
  if (!(DIRECTIONS as readonly string[]).includes(text)) throw new TilemateError('TM_BAD_INPUT', `--direction "${text}": expected right, across or left`);
  return text as Direction;
}

/** Options every mid-game question shares. */
function situationOptions(c: Command): Command {
  return c
    .option('--exposed <groups>', 'groups exposed on your rack, separated by ";", e.g. "2B 2B J; F F F"')
    .option('--seen <tiles>', 'tiles discarded on the table (they count as gone)')
    .option('--right <groups>', 'exposures on the rack of the player to your right')
    .option('--across <groups>', 'exposures on the rack of the player across')
    .option('--left <groups>', 'exposures on the rack of the player to your left')
    .option('--wall <n>', 'tiles left in the wall (default: the most there can be, 99 less the seen tiles at four)', wholeOption('--wall', 0))
    .option('--seed <n>', 'seed of the sampled deals (default: drawn from the situation, as the hint in a game and the review draw it)', wholeOption('--seed', 0))
    .option('--worlds <n>', `sampled deals; every alternative is played out in each (default ${ADVICE_WORLDS}, as the hint and the review)`, wholeOption('--worlds', 1, CLI_MAX_WORLDS))
    .option('--ruleset <name>', 'nmjl-4p, nmjl-4p-tournament or nmjl-3p: the table and the scoring of the playouts', 'nmjl-4p')
    .option('--card <file>', 'your card file (default: the built-in practice card)')
    .option('--json', 'print one JSON object');
}

/**
 * Adds `advise` and its subcommands to the program; `exit` receives each command's exit code.
 * The Charleston, vote and courtesy questions hold a hand typed with no game and no ruleset:
 * they are asked of the standard set (COPIES); discard and call advice use the set of
 * their --ruleset.
 */
export function registerAdvise(cmd: Command, exit: (code: number) => void): void {
  const advise = cmd.command('advise').description('advice for a decision at a real table: the Charleston, the vote on a second Charleston, the courtesy pass, a discard, a call');
  advise
    .command('charleston')
    .description('the three tiles to pass, whether to pass blind, and which lines the kept tiles serve')
    .option('--hand <tiles>', 'your 13 or 14 tiles (East holds 14)')
    .option('--direction <dir>', 'right, across or left', direction, 'right' as Direction)
    .option('--blind', 'a blind pass is allowed on this pass (the first left, the last right)')
    .option('--card <file>', 'your card file (default: the built-in practice card)')
    .option('--json', 'print one JSON object')
    .action((f: { hand?: string; direction: Direction; blind?: boolean; card?: string; json?: boolean }) => {
      if (f.hand === undefined) throw new TilemateError('TM_BAD_INPUT', 'advise charleston needs --hand "<tiles>"');
      const cc = loadCard(f.card);
      const advice = charlestonAdvice(cc, COPIES, { hand: f.hand, direction: f.direction, blind: f.blind === true });
      write(f.json ? JSON.stringify(advice) : charlestonText(cc, advice));
      exit(0);
    });
  advise
    .command('vote')
    .description('after the first Charleston: vote to go on to the second, or stop it')
    .option('--hand <tiles>', 'your 13 or 14 tiles (East holds 14)')
    .option('--card <file>', 'your card file (default: the built-in practice card)')
    .option('--json', 'print one JSON object')
    .action((f: { hand?: string; card?: string; json?: boolean }) => {
      if (f.hand === undefined) throw new TilemateError('TM_BAD_INPUT', 'advise vote needs --hand "<tiles>"');
      const a = voteAdvice(loadCard(f.card), COPIES, { hand: f.hand });
      write(
        f.json
          ? JSON.stringify(a)
          : [
              `Hand     ${a.hand}`,
              '',
              `Vote     ${a.secondCharleston ? 'yes: go on to the second Charleston' : 'no: stop the Charleston'}`,
              `Why      ${a.why}`,
              '',
              `Details  closest line ${a.tilesAwayNow} tiles away now, ${a.expectedAway} on average after three more passes`,
            ].join('\n'),
      );
      exit(0);
    });
  advise
    .command('courtesy')
    .description('the courtesy pass: how many tiles (0-3) to offer the player across, and which')
    .option('--hand <tiles>', 'your 13 or 14 tiles (East holds 14)')
    .option('--card <file>', 'your card file (default: the built-in practice card)')
    .option('--json', 'print one JSON object')
    .action((f: { hand?: string; card?: string; json?: boolean }) => {
      if (f.hand === undefined) throw new TilemateError('TM_BAD_INPUT', 'advise courtesy needs --hand "<tiles>"');
      const a = courtesyAdvice(loadCard(f.card), COPIES, { hand: f.hand });
      write(
        f.json
          ? JSON.stringify(a)
          : [
              `Hand     ${a.hand}`,
              '',
              `Offer    ${a.offer.join(' ') || 'nothing'}`,
              `Why      ${a.why}`,
              '',
              `Details  closest line ${a.tilesAwayNow} tiles away now, ${a.expectedAway} on average after the exchange`,
            ].join('\n'),
      );
      exit(0);
    });
  situationOptions(
    advise
      .command('discard')
      .description('on your turn (14 tiles): the best discard, joker exchange or Mah Jongg, with the next best and their values from playouts of sampled deals')
      .option('--hand <tiles>', 'your 14 concealed tiles after the draw (fewer with exposures)')
      .option('--candidates <n>', "discards weighed: the heuristic's cheapest few", wholeOption('--candidates', 1, 14), DEFAULT_CANDIDATES),
  ).action((f: SituationFlags) => {
    const advice = discardAdvice(loadCard(f.card), situation(f, 'discard'), { worlds: f.worlds, seed: f.seed, candidates: f.candidates });
    write(f.json ? JSON.stringify(advice) : decisionText(advice, f));
    exit(0);
  });
  situationOptions(
    advise
      .command('call')
      .description("another player's discard: decline or call it (and Mah Jongg when it completes your hand), with values from playouts of sampled deals")
      .option('--hand <tiles>', 'your 13 concealed tiles (fewer with exposures)')
      .option('--tile <tile>', 'the discard, e.g. 5B')
      .option('--from <who>', 'who discarded it: right, across or left (or 1-3 seats to your right)', 'left'),
  ).action((f: SituationFlags & { tile?: string; from: string }) => {
    if (f.tile === undefined) throw new TilemateError('TM_BAD_INPUT', 'advise call needs --tile <tile>: the discard to answer');
    const advice = callAdvice(loadCard(f.card), { ...situation(f, 'call'), tile: f.tile, from: f.from }, { worlds: f.worlds, seed: f.seed });
    write(f.json ? JSON.stringify(advice) : decisionText(advice, f));
    exit(0);
  });
}
