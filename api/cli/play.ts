import { createInterface } from 'node:readline/promises';
import type { Readable, Writable } from 'node:stream';
import type { Agent } from '../../agents/agent.js';
import { botRng } from '../../agents/bots.js';
import { forcedAction } from '../../agents/table.js';
import { TilemateError } from '../../engine/errors.js';
import type { Game, GameSpec } from '../../engine/games.js';
import { RecordWriter } from '../../engine/record.js';
import { printable } from '../../io/files.js';

/**
 * One game in the terminal, for every game: a person in one seat, bots in the others. The
 * person sees only her seat's view, chooses from the legal actions by number (or types what
 * the game's words read), and a refused choice is asked again with the engine's reason. Her
 * draws, declines and passes that are no choice are made for her. Reads answers line by
 * line, so a pipe works as well as a keyboard. At every question "help" lists what can be
 * typed there and "quit" (or Ctrl-D, or Ctrl-C) leaves the game, whose record so far is kept.
 * What is said is each game's own (`TerminalWords`); the loop is this file.
 */

/** How a game speaks at the terminal, for one person's seat. */
export interface TerminalWords<G extends GameSpec> {
  /** Another seat as the person hears it named ("Right"; by default "seat 2"). */
  seat?(seat: number): string;
  /** The lines before the first move (the game, and who sits where). */
  intro(): string[];
  /** What the person hears of an action applied (a bot's, or her own forced one), or null; `drawn` names the tile her own draw took. */
  narrate(action: G['action'], after: G['view'], drawn: string | null): string | null;
  /** The table as she sees it, before she is asked. */
  table(v: G['view'], legal: readonly G['action'][]): string;
  /** The question. */
  prompt(v: G['view'], legal: readonly G['action'][]): string;
  /** Her answer as an action (a number from the list, or the game's own words); TilemateError when it reads as none. */
  read(answer: string, v: G['view'], legal: readonly G['action'][]): G['action'];
  /** An answer that asks something instead (a hint, the card): what to say, or null when it is not one. */
  ask?(answer: string, v: G['view'], legal: readonly G['action'][]): string | null;
  /** What can be typed at this question, one short line each ("quit" and "help" are added by the loop). */
  help(v: G['view'], legal: readonly G['action'][]): string[];
  /** The lines once the game has ended. */
  result(end: G['view']): string[];
}

export interface PlayIo {
  input: Readable;
  output: Writable;
  /**
   * Ctrl-C sent to the whole program (the command's own stdin and signals), not only typed
   * at a terminal, ends the game too. Off for the streams tests pass, so a test never
   * listens on the test runner's signals.
   */
  signals?: boolean;
  /** The clock that tells a long wait for the bots (milliseconds; default Date.now). */
  now?: () => number;
}

/** After this long without a word, the person is told the bots are still at it (so the wait is not a silent one). */
export const QUIET_MS = 2000;

/** How a game played in the terminal ended: played out, or left with "quit" (or Ctrl-D) or Ctrl-C. */
export type PlayEnd = 'over' | 'quit' | 'interrupted';

/** Answers the loop reads itself, at every question of every game. */
const QUIT = /^(quit|exit|q|leave|stop)$/i;
const HELP = /^(help|\?|h)$/i;
/** The longest answer read: a line of tiles in words is well under this. */
export const MAX_ANSWER = 200;

/** The person left the game (quit, Ctrl-D at a terminal, Ctrl-C). */
class Left extends Error {
  constructor(readonly how: 'quit' | 'interrupted') {
    super(how);
  }
}

/** Reads answers one line at a time; lines that arrive early (a pipe) wait in the iterator's queue. */
class Terminal {
  private readonly lines: AsyncIterator<string>;
  /** Set by Ctrl-C; the question being asked is answered at once. */
  interrupted = false;
  private wake: (() => void) | null = null;

  /** When the person last heard something or answered (the `now` clock). */
  lastHeard: number;

  constructor(
    private readonly rl: ReturnType<typeof createInterface>,
    private readonly output: Writable,
    private readonly tty: boolean,
    private readonly now: () => number,
  ) {
    this.lastHeard = now();
    this.lines = rl[Symbol.asyncIterator]();
    // Ctrl-C at a terminal: readline would only pause, leaving the game waiting forever
    rl.on('SIGINT', () => this.interrupt());
  }

  interrupt(): void {
    this.interrupted = true;
    this.wake?.();
  }

  say(text: string): void {
    this.output.write(printable(text) + '\n');
    this.lastHeard = this.now();
  }

  async ask(prompt: string): Promise<string> {
    this.output.write(`${printable(prompt)}\n> `);
    if (this.interrupted) {
      this.output.write('\n');
      throw new Left('interrupted');
    }
    const woken = new Promise<null>((resolve) => {
      this.wake = () => resolve(null);
    });
    const next = await Promise.race([this.lines.next(), woken]);
    this.wake = null;
    if (next === null || this.interrupted) {
      this.output.write('\n'); // past the "> " of the question left unanswered
      throw new Left('interrupted');
    }
    if (next.done) {
      this.output.write('\n');
      // Ctrl-D at a terminal is leaving; a pipe that runs dry before the game ends is a mistake
      if (this.tty) throw new Left('quit');
      throw new TilemateError('TM_BAD_INPUT', 'the input ended before the game did');
    }
    this.lastHeard = this.now();
    const answer = next.value.trim();
    if (answer.length > MAX_ANSWER) return answer.slice(0, MAX_ANSWER + 1);
    return answer;
  }

  close(): void {
    this.rl.close();
  }
}

/**
 * Plays one game with a person at `me` until it ends or she leaves; returns the state (the
 * game so far when she left), its record and how it ended.
 */
export async function playInTerminal<G extends GameSpec>(
  game: Game<G>,
  seed: number,
  me: number,
  bots: { names: string[]; agents: Agent<G>[] },
  words: TerminalWords<G>,
  io: PlayIo,
): Promise<{ state: G['state']; record: string; end: PlayEnd }> {
  if (!Number.isInteger(me) || me < 0 || me >= game.players) throw new TilemateError('TM_BAD_INPUT', `--seat ${me}: expected a seat from 0 to ${game.players - 1}`);
  const agents: (Agent<G> | null)[] = [...bots.agents];
  const names = [...bots.names];
  agents.splice(me, 0, null);
  names.splice(me, 0, 'human');
  const state = game.newGame(seed);
  const writer = new RecordWriter(game, seed, names);
  const rng = botRng(seed);
  const input = io.input as Readable & { isTTY?: boolean };
  const tty = input.isTTY === true;
  const rl = createInterface({ input, output: tty ? io.output : undefined, terminal: tty, crlfDelay: Infinity });
  const term = new Terminal(rl, io.output, tty, io.now ?? Date.now);
  const onSignal = () => term.interrupt();
  if (io.signals) process.on('SIGINT', onSignal);
  const applied = (action: G['action']) => {
    writer.action(action);
    const said = words.narrate(action, game.view(state, me), action.seat === me ? game.drawnTile(state, action) : null);
    if (said !== null) term.say(said);
  };
  let end: PlayEnd = 'over';
  try {
    for (const line of words.intro()) term.say(line);
    for (;;) {
      const seat = game.nextToAct(state);
      if (seat < 0) break;
      const legal = game.legalActions(state, seat);
      const forced = seat === me ? forcedAction(legal) : null;
      if (seat === me && forced === null) {
        applied(await personsTurn(game, state, me, legal, words, term));
        continue;
      }
      // a bot's turn runs to its end without a word: after a quiet while, say the wait goes on
      if (forced === null && (io.now ?? Date.now)() - term.lastHeard >= QUIET_MS) term.say(`The other players are still taking their turns (${words.seat?.(seat) ?? `seat ${seat}`} is thinking)...`);
      const action = forced ?? agents[seat]!.act({ seat, phase: game.phase(state), view: () => game.view(state, seat), legal: () => legal, rng });
      game.apply(state, action);
      applied(action);
      // between the bots' turns, a Ctrl-C is heard (a bot's turn itself runs to its end)
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (term.interrupted) throw new Left('interrupted');
    }
    for (const line of words.result(game.view(state, me))) term.say(line);
  } catch (err) {
    if (!(err instanceof Left)) throw err;
    end = err.how;
  } finally {
    if (io.signals) process.off('SIGINT', onSignal);
    term.close();
  }
  return { state, record: writer.text(state), end };
}

/** Asks until the answer is an action the rules allow, and applies it (asking for help, a hint or the card changes nothing). */
async function personsTurn<G extends GameSpec>(game: Game<G>, state: G['state'], me: number, legal: G['action'][], words: TerminalWords<G>, term: Terminal): Promise<G['action']> {
  const v = game.view(state, me);
  term.say(words.table(v, legal));
  const prompt = words.prompt(v, legal);
  for (;;) {
    const answer = await term.ask(prompt);
    if (QUIT.test(answer)) throw new Left('quit');
    if (HELP.test(answer)) {
      term.say(['You can type:', ...[...words.help(v, legal), 'quit: leave the game', 'help: this list'].map((l) => `  ${l}`)].join('\n'));
      continue;
    }
    if (answer.length > MAX_ANSWER) {
      term.say(`refused: that answer is longer than ${MAX_ANSWER} characters; type "help" to see what can be typed here`);
      continue;
    }
    const asked = words.ask?.(answer, v, legal) ?? null;
    if (asked !== null) {
      term.say(asked);
      continue;
    }
    try {
      const action = words.read(answer, v, legal);
      const refused = game.tryApply(state, action); // a refused action leaves the game as it was
      if (refused === null) return action;
      term.say(`refused: ${refused.message}`);
    } catch (err) {
      if (!(err instanceof TilemateError)) throw err;
      term.say(`refused: ${err.message}`);
    }
  }
}

/** Who sits where, for the person at `me`. */
export const seating = (names: readonly string[], me: number, title = (_s: number) => ''): string =>
  `You are seat ${me}${title(me)}; ${names
    .map((n, s) => `seat ${s} ${n}`)
    .filter((_, s) => s !== me)
    .join(', ')}.`;

/** Items in columns that fit a terminal 78 characters wide. */
export function columns(items: readonly string[]): string {
  const width = Math.max(...items.map((s) => s.length)) + 2;
  const perRow = Math.max(1, Math.floor(78 / width));
  const rows: string[] = [];
  for (let i = 0; i < items.length; i += perRow)
    rows.push(
      items
        .slice(i, i + perRow)
        .map((s) => s.padEnd(width))
        .join('')
        .trimEnd(),
    );
  return rows.join('\n');
}
