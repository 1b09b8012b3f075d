import { join } from 'node:path';
import { createInterface } from 'node:readline/promises';
import type { Readable, Writable } from 'node:stream';
import { Presets, SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { adviseDomino } from '../../agents/domino/advise.js';
import type { DominoAgent } from '../../agents/domino/agent.js';
import { DOMINO_AGENT_NAMES, makeDominoAgent } from '../../agents/domino/levels.js';
import { playDominoOut } from '../../agents/domino/table.js';
import { TilemateError } from '../../engine/errors.js';
import { apply, legalActions, newMatch, newRound, view, type DominoAction, type DominoState, type DominoView } from '../../engine/domino/game.js';
import { dominoActionLine, dominoEndLine, dominoRecordHeader, replayDominoRecord } from '../../engine/domino/record.js';
import { DOMINO_RULESETS, loadDominoRuleset, checkPlayers } from '../../engine/domino/rulesets.js';
import { parseTableInput, viewFromTable } from '../../engine/domino/table-state.js';
import { dominoName, formatDominoes, parseDominoes, PIPS } from '../../engine/domino/tiles.js';
import { seedRng, type RngState } from '../../engine/rng.js';
import { playTournament } from '../../training/domino-tournament.js';
import { runDominoArena } from '../../training/run-domino-arena.js';
import { actionFromNames, actionJson, describeAction } from '../shared/domino-names.js';
import { CLI_MAX_WORLDS, wholeOption } from './advise.js';
import { readRecordFile, writeFileAtomic } from '../shared/records.js';
import { MAX_FILE_BYTES, printable, readTextFile } from '../../training/text-files.js';
import { positiveInt, wholeNumber } from './options.js';

/**
 * `tilemate domino ...`: Mexican Train at the command line (advise, play, selfplay, arena,
 * replay), shaped like the Mah Jongg commands, with the same `--json` summaries. The views
 * and actions as names are api/shared/domino-names.ts, shared with the HTTP routes.
 */

/** The table as text for a person at `me`. */
export function tableText(v: DominoView): string {
  const me = v.seat;
  const lines = [`--- round ${v.roundNo}/${v.roundsInGame}, engine ${dominoName(v.engine)} · boneyard ${v.boneyard} · seat ${v.turn} to play ---`];
  v.trains.forEach((t, i) => {
    const who = i === v.players ? 'mexican ' : i === me ? 'yours   ' : `seat ${i}  `;
    const open = v.openDoubles.includes(i) ? '  (double to cover)' : '';
    const marker = i < v.players && t.marked ? ' [marked]' : '';
    const hand = i < v.players && i !== me ? `  (${v.handCounts[i]} tiles)` : '';
    lines.push(`${who}${marker.padEnd(10)} ${t.tiles.length ? formatDominoes(t.tiles) : '-'}  → ${t.end}${open}${hand}`);
  });
  lines.push(`your hand ${formatDominoes(v.hand)}  (${v.hand.reduce((a, t) => a + PIPS[t], 0)} pips)`);
  return lines.join('\n');
}

const botRng = (seed: number): RngState => seedRng((seed ^ 0x5bd1e995) >>> 0);

function parseSeats(spec: string, players: number, option: string, ruleset: string): { names: string[]; agents: DominoAgent[] } {
  const given = spec.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (given.length === 0 || given.length > players) throw new TilemateError('TM_BAD_INPUT', `${option} lists ${given.length} bots for ${players} seats`);
  // one name for every seat, or a list repeated round the table ("greedy,random" at 4: g r g r)
  const names = Array.from({ length: players }, (_, s) => given[s % given.length]);
  return { names, agents: names.map((n) => makeDominoAgent(n, ruleset)) };
}


const round3 = (x: number): number => Math.round(x * 1000) / 1000;

// ------------------------------------------------------------------ advise

interface AdviseFlags { hand: string; state: string; worlds?: number; seed: number; json?: boolean }

function readState(arg: string): string {
  if (arg.trim().startsWith('{')) return arg;
  return readTextFile(arg, MAX_FILE_BYTES.state, 'state file');
}

function adviseCommand(f: AdviseFlags): number {
  const hand = parseDominoes(f.hand);
  const v = viewFromTable(parseTableInput(readState(f.state)), hand);
  const advice = adviseDomino(v, { worlds: f.worlds, seed: f.seed });
  const own = v.trains[v.seat];
  if (f.json) {
    process.stdout.write(JSON.stringify({
      suggest: actionJson(advice.action, v.players),
      path: advice.path.map(dominoName),
      ownEnd: own.end,
      ...(advice.candidates ? { candidates: advice.candidates.map((c) => ({ action: actionJson(c.action, v.players), value: c.value })) } : {}),
    }) + '\n');
    return 0;
  }
  const lines = [
    `Hand     ${formatDominoes(hand)}`,
    `Suggest  ${advice.action.type === 'play' ? `play ${describeAction(advice.action, v.players, v.seat)}` : advice.action.type === 'draw' ? 'draw: nothing in hand plays' : 'pass: nothing plays and the boneyard is empty (your train is marked)'}`,
    `Plan     ${advice.path.length ? formatDominoes(advice.path) : '(nothing)'}  on your train, from its end ${own.end} (${advice.path.length} tile${advice.path.length === 1 ? '' : 's'})`,
  ];
  if (advice.candidates) {
    lines.push('', `#  play                           value (playouts in ${f.worlds} sampled worlds: win share + pips edge)`);
    advice.candidates.forEach((c, i) => lines.push(`${String(i + 1).padEnd(2)} ${describeAction(c.action, v.players, v.seat).padEnd(30)} ${c.value.toFixed(3)}`));
  }
  process.stdout.write(lines.join('\n') + '\n');
  return 0;
}

// ------------------------------------------------------------------ selfplay

interface SelfplayFlags { ruleset: string; players: number; games: number; seed: number; bots: string; out?: string; json?: boolean }

/** Plays a recorded game of bots: a whole game (every round of the ruleset). */
export function playRecordedDomino(ruleset: string, players: number, seed: number, bots: { names: string[]; agents: DominoAgent[] }): { state: DominoState; record: string } {
  const state = newMatch(loadDominoRuleset(ruleset), players, seed);
  const lines = [dominoRecordHeader({ ruleset, players, seed, game: 'match', seats: bots.names })];
  let n = 0;
  playDominoOut(state, bots.agents, botRng(seed), (a) => lines.push(dominoActionLine(++n, a, players)));
  lines.push(dominoEndLine(state));
  return { state, record: lines.join('\n') + '\n' };
}

function selfplayCommand(f: SelfplayFlags): number {
  const rules = loadDominoRuleset(f.ruleset);
  checkPlayers(rules, f.players);
  const { names } = parseSeats(f.bots, f.players, '--bots', rules.name);
  const wins = new Array<number>(f.players).fill(0);
  const pips = new Array<number>(f.players).fill(0);
  let rounds = 0, outs = 0;
  for (let i = 0; i < f.games; i++) {
    const seed = f.seed + i;
    const { state, record } = playRecordedDomino(rules.name, f.players, seed, parseSeats(f.bots, f.players, '--bots', rules.name));
    // a game is won by the lowest total; a tie counts for each tied seat
    for (const w of state.result!.winners) wins[w]++;
    for (const r of state.rounds) {
      rounds++;
      if (r.outBy >= 0) outs++;
      r.pipsLeft.forEach((p, s) => { pips[s] += p; });
    }
    if (f.out !== undefined) writeFileAtomic(join(f.out, `domino-${seed}.jsonl`), record);
  }
  const summary = { games: f.games, rounds, wins, meanPipsLeft: pips.map((p) => round3(p / rounds)), ruleset: rules.name, players: f.players, roundsGoneOut: outs };
  if (f.json) {
    process.stdout.write(JSON.stringify(summary) + '\n');
    return 0;
  }
  const lines = [
    `${rules.name}: ${f.games} game${f.games === 1 ? '' : 's'} of ${rules.engines.length} rounds, ${f.players} players (seeds ${f.seed}-${f.seed + f.games - 1})`,
    'seat  bot         wins  mean pips left a round',
    ...names.map((name, s) => `${String(s).padStart(4)}  ${name.padEnd(10)}  ${String(wins[s]).padStart(4)}  ${String(summary.meanPipsLeft[s]).padStart(10)}`),
    `${rounds} rounds: ${outs} won by going out, ${rounds - outs} blocked`,
    ...(f.out !== undefined ? [`records in ${f.out}/domino-<seed>.jsonl`] : []),
  ];
  process.stdout.write(lines.join('\n') + '\n');
  return 0;
}

// ------------------------------------------------------------------ arena

interface ArenaFlags { ruleset: string; players: number; seats: string; games: number; seed: number; threads?: number; json?: boolean }

async function arenaCommand(f: ArenaFlags): Promise<number> {
  const rules = loadDominoRuleset(f.ruleset);
  checkPlayers(rules, f.players);
  const { names } = parseSeats(f.seats, f.players, '--seats', rules.name);
  const bar = process.stderr.isTTY ? new SingleBar({ format: 'arena {bar} {value}/{total} deals | {eta_formatted} left', hideCursor: true }, Presets.shades_classic) : null;
  bar?.start(f.games, 0);
  const { summary } = await runDominoArena({ ruleset: rules.name, seats: names, seed: f.seed, deals: f.games, threads: f.threads, onProgress: (d) => bar?.update(d) });
  bar?.stop();
  if (f.json) {
    process.stdout.write(JSON.stringify({ ...summary, ruleset: rules.name, players: f.players, seats: names }) + '\n');
    return 0;
  }
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  const lines = [
    `${rules.name}, ${f.players} players: ${summary.deals} duplicate deals (one round each), ${summary.games} rounds (seats rotated), seed ${f.seed}`,
    `parity win share ${pct(summary.parity)}`,
    'agent        win share  95% interval      pips left  95% interval',
    ...summary.results.map((r) => `${r.agent.padEnd(11)}  ${pct(r.winShare).padStart(9)}  ${`${pct(r.ci95[0])}-${pct(r.ci95[1])}`.padEnd(16)}  ${r.meanPipsLeft.toFixed(2).padStart(9)}  ${r.pipsCi95[0].toFixed(2)} to ${r.pipsCi95[1].toFixed(2)}`),
  ];
  process.stdout.write(lines.join('\n') + '\n');
  return 0;
}

// ------------------------------------------------------------------ play in the terminal

interface PlayFlags { ruleset: string; players: number; seed?: number; bots: string; seat: number; round?: number; record?: string }

/** One game in the terminal against bots; answers by number or as `12-5 mexican`, `12-5 2`, `draw`, `pass`. */
export async function playDomino(f: PlayFlags & { seed: number }, io: { input: Readable; output: Writable }): Promise<{ state: DominoState; record: string }> {
  const rules = loadDominoRuleset(f.ruleset);
  checkPlayers(rules, f.players);
  const me = f.seat;
  if (!Number.isInteger(me) || me < 0 || me >= f.players) throw new TilemateError('TM_BAD_INPUT', `--seat ${me}: expected a seat from 0 to ${f.players - 1}`);
  const bots = parseSeats(f.bots, f.players - 1, '--bots', rules.name);
  const agents: (DominoAgent | null)[] = [...bots.agents];
  const names = [...bots.names];
  agents.splice(me, 0, null);
  names.splice(me, 0, 'human');
  const state = f.round === undefined ? newMatch(rules, f.players, f.seed) : newRound(rules, f.players, f.seed, f.round);
  const lines = [dominoRecordHeader({ ruleset: rules.name, players: f.players, seed: f.seed, game: f.round === undefined ? 'match' : { round: f.round }, seats: names })];
  const rng = botRng(f.seed);
  const say = (t: string) => io.output.write(t + '\n');
  const input = io.input as Readable & { isTTY?: boolean };
  const rl = createInterface({ input, output: input.isTTY ? io.output : undefined, terminal: input.isTTY === true, crlfDelay: Infinity });
  const answers = rl[Symbol.asyncIterator]();
  rl.on('SIGINT', () => rl.close());
  const record = (a: DominoAction) => lines.push(dominoActionLine(lines.length, a, f.players));
  try {
    say(`${rules.name}: ${rules.description}. Seed ${f.seed}, ${f.players} players.`);
    say(`You are seat ${me}; ${names.map((n, s) => `seat ${s} ${n}`).filter((_, s) => s !== me).join(', ')}.`);
    let roundsSeen = 0;
    while (state.phase === 'play') {
      const seat = state.turn;
      if (seat !== me) {
        const a = agents[seat]!.act({ seat, view: () => view(state, seat), legal: () => legalActions(state, seat), rng });
        apply(state, a);
        record(a);
        say(`seat ${seat}: ${describeAction(a, f.players)}`);
      } else {
        const legal = legalActions(state, me);
        if (legal.length === 1 && legal[0].type !== 'play') {
          const drawn = state.boneyard[state.boneyard.length - 1];
          apply(state, legal[0]);
          record(legal[0]);
          say(legal[0].type === 'draw' ? `You draw ${dominoName(drawn)}.` : 'You pass: your train is marked.');
        } else {
          const v = view(state, me);
          say(tableText(v));
          legal.forEach((a, i) => say(`  ${i + 1}. ${describeAction(a, f.players, me)}`));
          for (;;) {
            io.output.write('> ');
            const next = await answers.next();
            if (next.done) throw new TilemateError('TM_BAD_INPUT', 'the input ended before the game did');
            const text = next.value.trim();
            try {
              let a: DominoAction;
              if (/^\d+$/.test(text) && Number(text) >= 1 && Number(text) <= legal.length) a = legal[Number(text) - 1];
              else {
                const [tile, train] = text.split(/\s+/);
                a = /^(draw|pass)$/.test(tile) ? actionFromNames({ type: tile }, me, f.players) : actionFromNames({ type: 'play', tile, train: train ?? String(me) }, me, f.players);
              }
              apply(state, a);
              record(a);
              break;
            } catch (err) {
              if (!(err instanceof TilemateError)) throw err;
              say(`refused: ${err.message}`);
            }
          }
        }
      }
      if (state.rounds.length > roundsSeen) {
        const r = state.rounds[roundsSeen++];
        say(`round over (engine ${r.engine}-${r.engine}): ${r.outBy >= 0 ? `seat ${r.outBy} went out` : 'blocked'}; pips left ${r.pipsLeft.join(', ')}`);
      }
    }
    say(`game over: totals ${state.result!.totals.map((t, s) => `seat ${s} ${t}`).join(', ')}; lowest ${state.result!.winners.map((s) => (s === me ? 'you' : `seat ${s}`)).join(' and ')}`);
  } finally {
    rl.close();
  }
  lines.push(dominoEndLine(state));
  return { state, record: lines.join('\n') + '\n' };
}

// ------------------------------------------------------------------ replay

function replayCommand(file: string, f: { json?: boolean }): number {
  const { header, state, actions } = replayDominoRecord(readRecordFile(file));
  if (f.json) {
    process.stdout.write(JSON.stringify({ ok: true, actions, totals: state.result!.totals, winners: state.result!.winners }) + '\n');
    return 0;
  }
  process.stdout.write(printable([
    `${file}: ${actions} actions replayed and checked (${header.ruleset}, ${header.players} players, seed ${header.seed})`,
    ...state.rounds.map((r, i) => `round ${i + 1} (engine ${r.engine}-${r.engine}): ${r.outBy >= 0 ? `seat ${r.outBy} (${header.seats[r.outBy]}) went out` : 'blocked'}; pips left ${r.pipsLeft.join(', ')}`),
    `totals ${state.result!.totals.map((t, s) => `seat ${s} (${header.seats[s]}) ${t}`).join(', ')}`,
  ].join('\n')) + '\n');
  return 0;
}

// ------------------------------------------------------------------ tournament

interface TournamentFlags { ruleset: string; players: number; tables: number; bots: string; seed: number; json?: boolean }

function tournamentCommand(f: TournamentFlags): number {
  const rules = loadDominoRuleset(f.ruleset);
  checkPlayers(rules, f.players);
  const { names } = parseSeats(f.bots, f.players, '--bots', rules.name);
  const r = playTournament({ ruleset: rules.name, tables: f.tables, players: f.players, bots: names, seed: f.seed });
  if (f.json) {
    process.stdout.write(JSON.stringify(r) + '\n');
    return 0;
  }
  const lines = [
    `${rules.name} tournament: ${f.tables} tables of ${f.players}, ${rules.tournament!.tableRounds} rounds each, then a ${rules.tournament!.championshipRounds}-round championship (seed ${f.seed})`,
    ...r.qualifying.map((t, i) => `table ${i + 1}: ${t.players.map((p, s) => `${p} ${t.totals[s]}`).join(', ')}`),
    `championship: ${r.advancers.join(', ')}`,
    'place  player              qualifying  championship  total',
    ...r.standings.map((s, i) => `${String(i + 1).padStart(5)}  ${s.player.padEnd(18)}  ${String(s.qualifying).padStart(10)}  ${String(s.championship).padStart(12)}  ${String(s.total).padStart(5)}${i < r.places.length ? '  *' : ''}`),
  ];
  process.stdout.write(lines.join('\n') + '\n');
  return 0;
}

// ------------------------------------------------------------------ the commands

const RULESET_HELP = `${Object.keys(DOMINO_RULESETS).join(' or ')} (docs/mexican-train.md)`;

export function registerDomino(cmd: Command, exit: (code: number) => void): void {
  const domino = cmd.command('domino').description('Mexican Train dominoes: advice, play, self-play, arena, replay');
  domino
    .command('advise')
    .description('the suggested play and the planned path for your own train')
    .requiredOption('--hand <tiles>', 'your dominoes, e.g. "12-5 5-3 3-3 9-1"')
    .requiredOption('--state <json|file>', 'the table as JSON (or a file of it): {"players":4,"trains":{"0":"12-5","mexican":"12-1"},"marked":[2]}; see docs/mexican-train.md')
    .option('--worlds <n>', `also value every legal play by greedy playouts in N sampled worlds (the Monte Carlo player; at most ${CLI_MAX_WORLDS.toLocaleString('en-US')})`, wholeOption('--worlds', 1, CLI_MAX_WORLDS))
    .option('--seed <n>', 'with --worlds: seed of the sampled worlds', wholeNumber, 1)
    .option('--json', 'print one JSON object')
    .action((flags: AdviseFlags) => exit(adviseCommand(flags)));
  domino
    .command('play')
    .description('play a game in the terminal against bots')
    .option('--ruleset <name>', RULESET_HELP, 'sun-lakes')
    .option('--players <n>', 'players at the table, 2 to 8', positiveInt, 4)
    .option('--seed <n>', 'the deal (default: a new one)', wholeNumber)
    .option('--bots <names>', `a bot for every other seat (${DOMINO_AGENT_NAMES.join(', ')}), or a list`, 'greedy')
    .option('--seat <n>', 'your seat', wholeNumber, 0)
    .option('--round <n>', 'play one round (0 = the first engine) instead of the whole game', wholeNumber)
    .option('--record <file>', 'write the game as a record when it ends')
    .action(async (flags: PlayFlags) => {
      // no seed given: a fresh one (printed at the start, so the game can be played again)
      const seed = flags.seed ?? Math.floor(Math.random() * 2 ** 31);
      const { record } = await playDomino({ ...flags, seed }, { input: process.stdin, output: process.stdout });
      if (flags.record !== undefined) writeFileAtomic(flags.record, record);
      exit(0);
    });
  domino
    .command('selfplay')
    .description('bots play whole games; prints a summary and can write each game as a record')
    .option('--ruleset <name>', RULESET_HELP, 'sun-lakes')
    .option('--players <n>', 'players at the table, 2 to 8', positiveInt, 4)
    .option('--games <n>', 'how many games (each every round of the ruleset)', positiveInt, 1)
    .option('--seed <n>', 'seed of the first game; game i uses seed + i', wholeNumber, 1)
    .option('--bots <names>', `bots (${DOMINO_AGENT_NAMES.join(', ')}): one for every seat, or a list repeated round the table`, 'random')
    .option('--out <dir>', 'write each game to DIR/domino-<seed>.jsonl')
    .option('--json', 'print one JSON object')
    .action((flags: SelfplayFlags) => exit(selfplayCommand(flags)));
  domino
    .command('arena')
    .description('measure bots against each other on duplicate deals (one round each, seats rotated), with 95% intervals')
    .option('--ruleset <name>', RULESET_HELP, 'sun-lakes')
    .option('--players <n>', 'players at the table, 2 to 8', positiveInt, 4)
    .requiredOption('--seats <names>', `bots (${DOMINO_AGENT_NAMES.join(', ')}), one per seat or a list repeated round the table`)
    .option('--games <n>', 'how many deals (each played once per seat rotation)', positiveInt, 100)
    .option('--seed <n>', 'seed of the deals', wholeNumber, 1)
    .option('--threads <n>', 'worker threads (default: one per core)', positiveInt)
    .option('--json', 'print one JSON object')
    .action(async (flags: ArenaFlags) => exit(await arenaCommand(flags)));
  domino
    .command('tournament')
    .description('the senior games tournament played by bots: six rounds a table, the lowest of each to a six-round championship, totals added')
    .option('--ruleset <name>', 'a ruleset with a tournament format (sun-lakes)', 'sun-lakes')
    .option('--players <n>', 'players at each qualifying table, 2 to 8', positiveInt, 4)
    .option('--tables <n>', 'qualifying tables (2 or more)', positiveInt, 4)
    .option('--bots <names>', `bots (${DOMINO_AGENT_NAMES.join(', ')}), repeated round each table`, 'greedy,random')
    .option('--seed <n>', 'seed of the games', wholeNumber, 1)
    .option('--json', 'print one JSON object')
    .action((flags: TournamentFlags) => exit(tournamentCommand(flags)));
  domino
    .command('replay')
    .description('replay a Mexican Train record, checking every action and the result')
    .argument('<file>', 'a record (.jsonl) written by domino selfplay or play (a name starting with "-" goes after "--")')
    .option('--json', 'print one JSON object')
    .action((file: string, flags: { json?: boolean }) => exit(replayCommand(file, flags)));
}
