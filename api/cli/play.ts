import { createInterface } from 'node:readline/promises';
import type { Readable, Writable } from 'node:stream';
import type { Agent } from '../../agents/agent.js';
import { Analyzer, reason } from '../../engine/analyzer.js';
import type { CompiledCard } from '../../engine/compile.js';
import { TilemateError } from '../../engine/errors.js';
import { apply, legalActions, newGame, view, type Action, type GameState, type SeatView } from '../../engine/game.js';
import { formatTiles, parseTiles, tileName, tilesFromCounts, type TileId } from '../../engine/tiles.js';
import { loadCard, readCardText } from '../../training/cards.js';
import { botRng, parseBots, RecordWriter, rulesetByName } from '../shared/records.js';
import { runBots } from '../shared/turns.js';
import { printable } from '../../training/text-files.js';
import { hintFor } from '../http/seat-advice.js';
import { seenBy } from '../http/wire.js';

/**
 * One game in the terminal: a person in one seat, bots in the others. The person sees only
 * their seat's view, chooses from the legal actions by number (or types tiles for the
 * Charleston), and a refused choice is asked again with the engine's reason. Reads answers
 * line by line, so a pipe works as well as a keyboard.
 */

export interface PlayOptions {
  ruleset: string;
  seed: number;
  /** One bot name for every other seat, or one per other seat in seat order. */
  bots: string;
  /** The person's seat. */
  seat: number;
  /** A card file (default: the practice card). */
  card?: string;
}

export interface PlayIo {
  input: Readable;
  output: Writable;
}

const GROUP: Record<number, string> = { 3: 'pung', 4: 'kong', 5: 'quint', 6: 'sextet' };

/** Reads answers one line at a time; lines that arrive early (a pipe) wait in the iterator's queue. */
class Terminal {
  private readonly lines: AsyncIterator<string>;

  constructor(private readonly rl: ReturnType<typeof createInterface>, private readonly output: Writable) {
    this.lines = rl[Symbol.asyncIterator]();
    // Ctrl-C at a terminal: readline would only pause, leaving the game waiting forever
    rl.on('SIGINT', () => rl.close());
  }

  say(text: string): void {
    this.output.write(printable(text) + '\n');
  }

  async ask(prompt: string): Promise<string> {
    this.output.write(`${prompt}\n> `);
    const next = await this.lines.next();
    if (next.done) {
      this.output.write('\n');
      throw new TilemateError('TM_BAD_INPUT', 'the input ended before the game did');
    }
    return next.value.trim();
  }

  close(): void {
    this.rl.close();
  }
}

/** Plays one game to its end; returns the final state and its record. */
export async function play(opts: PlayOptions, io: PlayIo): Promise<{ state: GameState; record: string }> {
  const rules = rulesetByName(opts.ruleset);
  const cc = loadCard(opts.card);
  const me = opts.seat;
  if (!Number.isInteger(me) || me < 0 || me >= rules.players) throw new TilemateError('TM_BAD_INPUT', `--seat ${me}: expected a seat from 0 to ${rules.players - 1}`);
  const others = parseBots(opts.bots, rules.players - 1, cc, rules);
  const agents: (Agent | null)[] = [...others.agents];
  const names = [...others.names];
  agents.splice(me, 0, null);
  names.splice(me, 0, 'human');

  const state = newGame(rules, cc, opts.seed);
  const writer = new RecordWriter(rules, cc, readCardText(opts.card), opts.seed, names);
  const rng = botRng(opts.seed);
  const input = io.input as Readable & { isTTY?: boolean };
  const rl = createInterface({ input, output: input.isTTY ? io.output : undefined, terminal: input.isTTY === true, crlfDelay: Infinity });
  const term = new Terminal(rl, io.output);
  try {
    term.say(`${rules.name}: ${rules.description}. Seed ${opts.seed}, card ${cc.card.name}.`);
    term.say(`You are seat ${me}${me === 0 ? ' (East)' : ''}; ${names.map((n, s) => `seat ${s} ${n}`).filter((_, s) => s !== me).join(', ')}.`);
    term.say('At any question, type "hint" for advice or "card" for the lines closest to your rack.');
    while (state.phase.kind !== 'ended') {
      runBots(state, agents, rng, me, (action, drew) => {
        writer.action(action);
        const said = action.seat === me ? (drew === null ? null : `You draw ${tileName(drew)}.`) : narrate(action);
        if (said) term.say(said);
      });
      if (gameOver(state)) break; // a function call: TypeScript cannot see runBots change the phase
      writer.action(await humanTurn(state, me, term, opts.seed));
    }
    showResult(state, me, names, term);
  } finally {
    term.close();
  }
  return { state, record: writer.text(state) };
}

// ------------------------------------------------------------------ the person's turn

const gameOver = (state: GameState): boolean => state.phase.kind === 'ended';

async function humanTurn(state: GameState, me: number, term: Terminal, seed: number): Promise<Action> {
  const legal = legalActions(state, me);
  const v = view(state, me);
  term.say(showView(v));
  const prompt = promptFor(v, legal);
  for (;;) {
    const answer = await term.ask(prompt);
    // asking changes nothing: the question is asked again
    if (/^hint$/i.test(answer)) { term.say(`hint: ${hintFor(state.cc, v, legal, { worlds: HINT_WORLDS, seed }).text}`); continue; }
    if (/^card$/i.test(answer)) { term.say(cardLines(state.cc, v)); continue; }
    try {
      const action = readAnswer(answer, v, legal);
      apply(state, action);
      return action;
    } catch (err) {
      if (!(err instanceof TilemateError)) throw err;
      term.say(`refused: ${err.message}`);
    }
  }
}

/** Sampled deals for a hint: the practice server's own default (api/http/app.ts), so both give the same advice. */
const HINT_WORLDS = 24;
/** Lines the card command lists: the closest, as the web page's card panel. */
const CARD_TOP = 6;

/** The card for the seat's rack now (the web page's Card panel in words): closest lines first, with what each still needs. */
function cardLines(cc: CompiledCard, v: SeatView): string {
  const input = { concealed: [...v.concealed], exposures: v.exposures[v.seat].map((x) => ({ tile: x.tile, size: x.size, jokers: x.jokers })), seen: seenBy(v) };
  const results = new Analyzer(cc).analyze(input, { top: CARD_TOP });
  const width = Math.max(...results.map((r) => r.id.length));
  return [`card: the ${results.length} lines closest to your rack`, ...results.map((r) => {
    const need = r.possible && r.need.length ? `; still needed ${formatTiles(r.need)}` : '';
    return `  ${r.id.padEnd(width)}  ${reason(r)}${need}`;
  })].join('\n');
}

function promptFor(v: SeatView, legal: Action[]): string {
  if (v.phase === 'charleston') {
    const dir = v.passOffset === 1 ? 'to the right' : v.passOffset === v.players - 1 ? 'to the left' : 'across';
    const blind = v.blindAllowed ? '; add "blind 1" (to 3) to pass on that many received tiles unseen' : '';
    const mj = legal.some((a) => a.type === 'declare') ? '; or "mahjongg" to declare' : '';
    return `Charleston pass ${v.pass! + 1}, ${dir}: type 3 tiles to pass, e.g. 3B 5C N (never a joker)${blind}${mj}.`;
  }
  if (v.phase === 'courtesy') return 'Courtesy pass across: type 0 to 3 tiles to offer (Enter for none).';
  const items = legal.map((a, i) => `${String(i + 1).padStart(2)}) ${describe(a, v)}`);
  const shortcut = v.phase === 'discard' ? ' (or type a tile to discard it)' : '';
  return `Choose${shortcut}:\n${columns(items)}`;
}

function readAnswer(answer: string, v: SeatView, legal: Action[]): Action {
  const seat = v.seat;
  if (v.phase === 'charleston') {
    if (/^(mj|mahjongg|mah jongg|declare)$/i.test(answer)) {
      const declare = legal.find((a) => a.type === 'declare');
      if (declare) return declare;
    }
    const m = /\bblind\s+(\d+)\b/i.exec(answer);
    const tiles = parseTiles(m ? answer.replace(m[0], ' ') : answer);
    return { type: 'pass', seat, tiles, blind: m ? Number(m[1]) : 0 };
  }
  if (v.phase === 'courtesy') return { type: 'courtesy', seat, tiles: parseTiles(answer) };
  if (/^\d+$/.test(answer)) {
    const n = Number(answer);
    if (n >= 1 && n <= legal.length) return legal[n - 1];
  } else if (v.phase === 'discard' && answer !== '') {
    const [tile] = parseTiles(answer);
    return { type: 'discard', seat, tile };
  }
  throw new TilemateError('TM_BAD_INPUT', `choose a number from 1 to ${legal.length}`);
}

// ------------------------------------------------------------------ what is shown

const seatName = (s: number, me: number): string => (s === me ? 'you' : `seat ${s}`);

function exposureText(tile: TileId, size: number, jokers: number): string {
  return [...new Array<string>(size - jokers).fill(tileName(tile)), ...new Array<string>(jokers).fill('J')].join(' ');
}

function describe(a: Action, v: SeatView): string {
  const rack = (r: number | undefined) => (v.dead.length > 0 && v.dead[0].length > 1 && r !== undefined ? ` on rack ${r}` : '');
  const claimed = v.claim ? tileName(v.claim.tile) : '';
  switch (a.type) {
    case 'draw': return 'draw from the wall';
    case 'discard': return `discard ${tileName(a.tile)}`;
    case 'declare': return `declare Mah Jongg${rack(a.rack)}`;
    case 'exchange': {
      const x = v.exposures[a.owner][a.exposure];
      return `exchange a ${tileName(x.tile)} for the joker in ${a.owner === v.seat ? 'your' : `seat ${a.owner}'s`} ${exposureText(x.tile, x.size, x.jokers)}`;
    }
    case 'callDead': return `call seat ${a.target}'s hand dead${rack(a.rack)}`;
    case 'decline': return `let the ${claimed} go`;
    case 'call': return `call the ${claimed} for a ${GROUP[a.size]}${a.jokers ? ` with ${a.jokers} joker${a.jokers > 1 ? 's' : ''}` : ''}${rack(a.rack)}`;
    case 'callMahJongg': return `call the ${claimed} for Mah Jongg${rack(a.rack)}`;
    case 'vote': return a.yes ? 'yes: play the second Charleston' : 'no: stop the Charleston';
    case 'pass': return `pass ${formatTiles(a.tiles)}${a.blind ? ` and ${a.blind} blind` : ''}`;
    case 'courtesy': return a.tiles.length ? `offer ${formatTiles(a.tiles)}` : 'offer nothing';
    case 'timeUp': return 'time is called';
  }
}

/** What the table hears from a bot (Charleston passes are face down: nothing). */
function narrate(a: Action): string | null {
  const who = `seat ${a.seat}`;
  switch (a.type) {
    case 'discard': return `${who} discards ${tileName(a.tile)}`;
    case 'call': return `${who} calls it for a ${GROUP[a.size]}`;
    case 'callMahJongg': return `${who} calls it for Mah Jongg`;
    case 'declare': return `${who} declares Mah Jongg`;
    case 'exchange': return `${who} exchanges a tile for a joker from seat ${a.owner}'s exposure`;
    case 'callDead': return `${who} calls seat ${a.target}'s hand dead`;
    case 'vote': return `${who} votes ${a.yes ? 'yes' : 'no'} to a second Charleston`;
    case 'courtesy': return `${who} offers ${a.tiles.length} tile${a.tiles.length === 1 ? '' : 's'} across`;
    default: return null;
  }
}

const LAST_DISCARDS = 8;

function showView(v: SeatView): string {
  const me = v.seat;
  const title =
    v.phase === 'claims' ? `seat ${v.claim!.discarder} discarded ${tileName(v.claim!.tile)}` :
    v.phase === 'charleston' ? 'the Charleston' :
    v.phase === 'vote' ? 'a second Charleston?' :
    v.phase === 'courtesy' ? 'the courtesy pass' :
    'your turn';
  const rack = tilesFromCounts(v.concealed);
  const exposed = v.exposures.flatMap((xs, s) => xs.map((x) => `${seatName(s, me)}: ${exposureText(x.tile, x.size, x.jokers)}`));
  const discards = v.discards.map((d, s) => `${seatName(s, me)}: ${d.length > LAST_DISCARDS ? '... ' : ''}${d.slice(-LAST_DISCARDS).map(tileName).join(' ') || '-'}`);
  const dead = v.dead.flatMap((racks, s) => (racks.some((x) => x) ? [seatName(s, me)] : []));
  const lines = [
    '',
    `--- ${title} · wall ${v.wallLeft} left ---`,
    `your rack  ${formatTiles(rack)}  (${rack.length})`,
    `exposed    ${exposed.join(' | ') || '-'}`,
    `discards   ${discards.join(' | ')}`,
    ...(v.mahJonggs.length ? [`Mah Jongg  ${v.mahJonggs.map((m) => `${seatName(m.seat, me)}: ${m.line}`).join(' | ')}`] : []),
    ...(dead.length ? [`dead       ${dead.join(', ')}`] : []),
  ];
  return lines.join('\n');
}

function columns(items: string[]): string {
  const width = Math.max(...items.map((s) => s.length)) + 2;
  const perRow = Math.max(1, Math.floor(78 / width));
  const rows: string[] = [];
  for (let i = 0; i < items.length; i += perRow) rows.push(items.slice(i, i + perRow).map((s) => s.padEnd(width)).join('').trimEnd());
  return rows.join('\n');
}

function showResult(state: GameState, me: number, names: string[], term: Terminal): void {
  const r = state.result!;
  const who = (s: number) => `${seatName(s, me)}${s === me ? '' : ` (${names[s]})`}`;
  term.say('');
  if (r.winners.length > 0) {
    for (const [s, p] of state.players.entries()) {
      for (const m of p.mahJonggs) term.say(`Mah Jongg: ${who(s)} with ${state.cc.card.lines[m.line].id} (${m.event.value})`);
    }
  } else {
    term.say(r.wallGame ? 'A wall game: nobody made Mah Jongg.' : 'The game ended without a Mah Jongg.');
  }
  term.say(`Game over after ${state.discardCount} discards.`);
  term.say(`scores     ${r.scores.map((x, s) => `${who(s)} ${x}`).join(' | ')}`);
  const reveal = view(state, me).reveal!;
  term.say(`hands      ${reveal.concealed.map((c, s) => `${seatName(s, me)}: ${formatTiles(tilesFromCounts(c)) || '-'}`).join(' | ')}`);
}
