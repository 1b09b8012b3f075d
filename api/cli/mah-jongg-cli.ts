import { Analyzer, reason } from '../../engine/mah-jongg/analyzer.js';
import { TilemateError } from '../../engine/errors.js';
import type { Action, SeatView } from '../../engine/mah-jongg/game.js';
import { MAH_JONGG, mahJonggGame, type MahJonggGame, type MahJonggSpec } from '../../engine/mah-jongg/mah-jongg.js';
import { loadRuleset, RULESETS } from '../../engine/mah-jongg/rulesets.js';
import { seatAnalysisInput } from '../../engine/mah-jongg/seat.js';
import { loadCard } from '../../io/cards.js';
import { formatTiles, tileName, tilesFromCounts, type TileId, groupName } from '../../engine/mah-jongg/tiles.js';
import { hintFor } from '../../agents/coach/hint.js';
import { where } from '../../agents/mah-jongg/defence.js';
import type { GameCli } from './game-commands.js';
import { columns, type TerminalWords } from './play.js';
import { readTiles } from './tile-words.js';

/** Mah Jongg at the command line: its words at the terminal, and what its summaries print. */

/** Lines the card command lists: the closest, as the web page's card panel. */
const CARD_TOP = 6;
const LAST_DISCARDS = 8;

/**
 * Another seat as the person at `v.seat` names it: where she sits from her (the Charleston's
 * own words: right, across, left), never a seat number.
 */
function seatName(s: number, v: { seat: number; players: number }): string {
  if (s === v.seat) return 'you';
  // two players sit across from each other
  return v.players === 2 ? 'Across' : where(v.seat, s, v.players);
}

const WINDS = ['East', 'South', 'West', 'North'];

/** Who sits where: "You sit South; Right (West) medium, Across (North) medium, Left (East) medium." */
function seatingLine(names: readonly string[], me: number): string {
  const others = names.flatMap((n, s) => (s === me ? [] : [`${seatName(s, { seat: me, players: names.length })} (${WINDS[s]}) ${n}`]));
  return `You sit ${WINDS[me]}; ${others.join(', ')}.`;
}

function exposureText(tile: TileId, size: number, jokers: number): string {
  return [...new Array<string>(size - jokers).fill(tileName(tile)), ...new Array<string>(jokers).fill('J')].join(' ');
}

function describe(a: Action, v: SeatView): string {
  const rack = (r: number | undefined) => (v.dead.length > 0 && v.dead[0].length > 1 && r !== undefined ? ` on rack ${r}` : '');
  const claimed = v.claim ? tileName(v.claim.tile) : '';
  switch (a.type) {
    case 'draw':
      return 'draw from the wall';
    case 'discard':
      return `discard ${tileName(a.tile)}`;
    case 'declare':
      return `declare Mah Jongg${rack(a.rack)}`;
    case 'exchange': {
      const x = v.exposures[a.owner][a.exposure];
      return `exchange a ${tileName(x.tile)} for the joker in ${a.owner === v.seat ? 'your' : `${seatName(a.owner, v)}'s`} ${exposureText(x.tile, x.size, x.jokers)}`;
    }
    case 'callDead':
      return `call ${seatName(a.target, v)}'s hand dead${rack(a.rack)}`;
    case 'decline':
      return `let the ${claimed} go`;
    case 'call':
      return `call the ${claimed} for a ${groupName(a.size)}${a.jokers ? ` with ${a.jokers} joker${a.jokers > 1 ? 's' : ''}` : ''}${rack(a.rack)}`;
    case 'callMahJongg':
      return `call the ${claimed} for Mah Jongg${rack(a.rack)}`;
    case 'vote':
      return a.yes ? 'yes: play the second Charleston' : 'no: stop the Charleston';
    case 'pass':
      return `pass ${formatTiles(a.tiles)}${a.blind ? ` and ${a.blind} blind` : ''}`;
    case 'courtesy':
      return a.tiles.length ? `offer ${formatTiles(a.tiles)}` : 'offer nothing';
    case 'timeUp':
      return 'time is called';
  }
}

/** What the table hears of an action (Charleston passes are face down: nothing). */
function narrate(a: Action, v: SeatView): string | null {
  const who = seatName(a.seat, v);
  switch (a.type) {
    case 'discard':
      return `${who} discards ${tileName(a.tile)}`;
    case 'call':
      return `${who} calls it for a ${groupName(a.size)}`;
    case 'callMahJongg':
      return `${who} calls it for Mah Jongg`;
    case 'declare':
      return `${who} declares Mah Jongg`;
    case 'exchange':
      return `${who} exchanges a tile for a joker from ${a.owner === v.seat ? 'your' : `${seatName(a.owner, v)}'s`} exposure`;
    case 'callDead':
      return `${who} calls ${a.target === v.seat ? 'your' : `${seatName(a.target, v)}'s`} hand dead`;
    case 'vote':
      return `${who} votes ${a.yes ? 'yes' : 'no'} to a second Charleston`;
    case 'courtesy':
      return `${who} offers ${a.tiles.length} tile${a.tiles.length === 1 ? '' : 's'} across`;
    default:
      return null;
  }
}

function table(v: SeatView): string {
  const title =
    v.phase === 'claims'
      ? `${seatName(v.claim!.discarder, v)} discarded ${tileName(v.claim!.tile)}`
      : v.phase === 'charleston'
        ? 'the Charleston'
        : v.phase === 'vote'
          ? 'a second Charleston?'
          : v.phase === 'courtesy'
            ? 'the courtesy pass'
            : 'your turn';
  const rack = tilesFromCounts(v.concealed);
  const exposed = v.exposures.flatMap((xs, s) => xs.map((x) => `${seatName(s, v)}: ${exposureText(x.tile, x.size, x.jokers)}`));
  const discards = v.discards.map((d, s) => `${seatName(s, v)}: ${d.length > LAST_DISCARDS ? '... ' : ''}${d.slice(-LAST_DISCARDS).map(tileName).join(' ') || '-'}`);
  const dead = v.dead.flatMap((racks, s) => (racks.some((x) => x) ? [seatName(s, v)] : []));
  return [
    '',
    `--- ${title} · wall ${v.wallLeft} left ---`,
    `your rack  ${formatTiles(rack)}  (${rack.length})`,
    `exposed    ${exposed.join(' | ') || '-'}`,
    `discards   ${discards.join(' | ')}`,
    ...(v.mahJonggs.length ? [`Mah Jongg  ${v.mahJonggs.map((m) => `${seatName(m.seat, v)}: ${m.line}`).join(' | ')}`] : []),
    ...(dead.length ? [`dead       ${dead.join(', ')}`] : []),
  ].join('\n');
}

/**
 * A blind pass in one sentence, where it is offered (teaching guide 2.3, senior games 3: on
 * the first left and the last right, a player may pass on tiles she is being passed without
 * looking at them).
 */
const BLIND_WORDS = 'On this pass you may pass blind: pass on 1 to 3 of the tiles coming to you without looking at them, and type only the rest from your rack, e.g. "3B 5C blind 1".';

function prompt(v: SeatView, legal: readonly Action[]): string {
  if (v.phase === 'charleston') {
    const dir = v.passOffset === 1 ? 'to the right' : v.passOffset === v.players - 1 ? 'to the left' : 'across';
    const mj = legal.some((a) => a.type === 'declare') ? '; or "mahjongg" to declare' : '';
    const line = `Charleston pass ${v.pass! + 1}, ${dir}: type 3 tiles to pass, e.g. 3B 5C N or 3 bam, 5 crak, north (never a joker)${mj}.`;
    return v.blindAllowed ? `${line}\n${BLIND_WORDS}` : line;
  }
  if (v.phase === 'courtesy') return 'Courtesy pass across: type 0 to 3 tiles to offer (Enter for none).';
  const items = legal.map((a, i) => `${String(i + 1).padStart(2)}) ${describe(a, v)}`);
  const shortcut = v.phase === 'discard' ? ' (or type a tile to discard it)' : '';
  return `Choose${shortcut}:\n${columns(items)}`;
}

/** What can be typed at this question (the loop adds quit and help). */
function help(v: SeatView, legal: readonly Action[]): string[] {
  const asks = ['hint: advice for this moment', 'card: the card lines closest to your rack'];
  if (v.phase === 'charleston') {
    return [
      '3 tiles to pass, e.g. 3B 5C N, or in words: 3 bam, 5 crak, north (never a joker)',
      ...(v.blindAllowed ? ['fewer tiles and "blind 1" to "blind 3": pass on that many of the tiles coming to you, unseen'] : []),
      ...(legal.some((a) => a.type === 'declare') ? ['mahjongg: declare Mah Jongg with this rack'] : []),
      ...asks,
    ];
  }
  if (v.phase === 'courtesy') return ['0 to 3 tiles to offer across, e.g. 2D or 2 dot (Enter or "none" offers nothing)', ...asks];
  return [
    `a number from 1 to ${legal.length}: that choice from the list`,
    ...(v.phase === 'discard' ? ['a tile to discard it, e.g. 7D or 7 dot, N or north, WD or soap'] : []),
    ...(v.phase === 'vote' ? ['yes or no: play the second Charleston, or stop'] : []),
    ...(v.phase === 'claims' ? ['no: let the discard go'] : []),
    ...asks,
  ];
}

const YES = /^(y|yes)$/i;
const NO = /^(n|no)$/i;
const LET_GO = /^(n|no|pass|let it go|let go|go|decline)$/i;

/** "discard 3 crak", "pass 3B 5C N": the verb is the question's own, so it may be left in. */
const VERB = /^(discard|throw|pass|offer)\s+/i;

function read(answer: string, v: SeatView, legal: readonly Action[]): Action {
  const seat = v.seat;
  answer = answer.replace(VERB, '');
  if (v.phase === 'charleston') {
    if (/^(mj|mahjongg|mah jongg|declare)$/i.test(answer)) {
      const declare = legal.find((a) => a.type === 'declare');
      if (declare) return declare;
    }
    const m = /\bblind\s+(\d+|one|two|three)\b/i.exec(answer);
    const tiles = readTiles(m ? answer.replace(m[0], ' ') : answer);
    const blind = m ? (({ one: 1, two: 2, three: 3 } as Record<string, number>)[m[1].toLowerCase()] ?? Number(m[1])) : 0;
    return { type: 'pass', seat, tiles, blind };
  }
  if (v.phase === 'courtesy') return { type: 'courtesy', seat, tiles: /^(none|nothing|no)$/i.test(answer) ? [] : readTiles(answer) };
  // the vote on a second Charleston answered in words: any player may say no (teaching guide 2.3)
  const vote = v.phase === 'vote' ? (YES.test(answer) ? true : NO.test(answer) ? false : null) : null;
  const voted = vote === null ? undefined : legal.find((a) => a.type === 'vote' && a.yes === vote);
  if (voted) return voted;
  // a discard she does not want, let go in words
  const decline = v.phase === 'claims' && LET_GO.test(answer) ? legal.find((a) => a.type === 'decline') : undefined;
  if (decline) return decline;
  if (/^\d+$/.test(answer)) {
    const n = Number(answer);
    if (n >= 1 && n <= legal.length) return legal[n - 1];
  } else if (v.phase === 'discard' && answer !== '') {
    const tiles = readTiles(answer);
    if (tiles.length !== 1) throw new TilemateError('TM_BAD_INPUT', `type one tile to discard (that names ${tiles.length}), or a number from 1 to ${legal.length}`);
    return { type: 'discard', seat, tile: tiles[0] };
  }
  throw new TilemateError('TM_BAD_INPUT', `choose a number from 1 to ${legal.length} (type "help" to see what can be typed here)`);
}

/** The card for the seat's rack now (the web page's Card panel in words): closest lines first, with what each still needs. */
function cardLines(analyzer: Analyzer, v: SeatView): string {
  const results = analyzer.analyze(seatAnalysisInput(v), { top: CARD_TOP });
  const width = Math.max(...results.map((r) => r.id.length));
  return [
    `card: the ${results.length} lines closest to your rack`,
    ...results.map((r) => {
      const need = r.possible && r.need.length ? `; still needed ${formatTiles(r.need)}` : '';
      return `  ${r.id.padEnd(width)}  ${reason(r)}${need}`;
    }),
  ].join('\n');
}

export function mahJonggWords(game: MahJonggGame, seed: number, names: readonly string[]): TerminalWords<MahJonggSpec> {
  const analyzer = new Analyzer(game.cc);
  return {
    intro: () => [
      `${game.rules.name}: ${game.rules.description}. Seed ${seed}, card ${game.cc.card.name}.`,
      seatingLine(names, names.indexOf('human')),
      'At any question, type "hint" for advice or "card" for the lines closest to your rack; "help" lists what you can type, "quit" leaves the game.',
    ],
    seat: (s) => seatName(s, { seat: names.indexOf('human'), players: names.length }),
    narrate: (a, after, drawn) => (a.seat === after.seat ? (drawn === null ? null : `You draw ${drawn}.`) : narrate(a, after)),
    table: (v) => table(v),
    prompt,
    read,
    help,
    ask: (answer, v, legal) => {
      if (/^hint$/i.test(answer)) return `hint: ${hintFor(game.cc, v, [...legal], {}).text}`;
      if (/^card$/i.test(answer)) return cardLines(analyzer, v);
      return null;
    },
    result: (end) => {
      const r = end.result!;
      const me = end.seat;
      const who = (s: number) => `${seatName(s, end)}${s === me ? '' : ` (${names[s]})`}`;
      return [
        '',
        ...(r.winners.length > 0
          ? end.mahJonggs.map((m) => `Mah Jongg: ${who(m.seat)} with ${m.line} (${m.value})`)
          : [r.wallGame ? 'A wall game: nobody made Mah Jongg.' : 'The game ended without a Mah Jongg.']),
        `Game over with ${end.wallLeft} tile${end.wallLeft === 1 ? '' : 's'} left in the wall.`,
        `scores     ${r.scores.map((x, s) => `${who(s)} ${x}`).join(' | ')}`,
        `hands      ${end.reveal!.concealed.map((c, s) => `${seatName(s, end)}: ${formatTiles(tilesFromCounts(c)) || '-'}`).join(' | ')}`,
      ];
    },
  };
}

// ------------------------------------------------------------------ the commands' Mah Jongg part

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

export const MAH_JONGG_CLI: GameCli<MahJonggSpec> = {
  type: MAH_JONGG,
  options: (c) => c.option('--ruleset <name>', Object.keys(RULESETS).join(', '), 'nmjl-4p').option('--card <file>', 'your card file (default: the built-in practice card)'),
  game: (f) => mahJonggGame(loadRuleset(String(f.ruleset)), loadCard(f.card as string | undefined)),
  defaultBots: { play: 'medium', selfplay: 'random' },
  recordPrefix: 'game',
  words: (game, seed, names) => mahJonggWords(game as MahJonggGame, seed, names),
  selfplaySummary: (game, states, names, first) => {
    const { rules, cc } = game as MahJonggGame;
    const wins = new Array<number>(rules.players).fill(0);
    const scoreSum = new Array<number>(rules.players).fill(0);
    let wallGames = 0,
      deadHandGames = 0,
      discards = 0;
    // Mah Jonggs per card line: a balanced card has every line made sometimes, none too often
    const byLine = new Array<number>(cc.lineCount).fill(0);
    for (const state of states) {
      const r = state.result!;
      // a game is won by the first to declare (Siamese games can hold more Mah Jonggs)
      if (r.winners.length > 0) wins[r.winners[0]]++;
      else if (r.wallGame) wallGames++;
      else deadHandGames++; // Siamese 12-13: a player dead on both racks ends the game
      r.scores.forEach((x, s) => {
        scoreSum[s] += x;
      });
      for (const p of state.players) for (const m of p.mahJonggs) byLine[m.line]++;
      discards += state.discardCount;
    }
    const games = states.length;
    const summary = {
      games,
      wins,
      wallGames,
      deadHandGames,
      meanTurns: round3(discards / games),
      meanScore: scoreSum.map((x) => round3(x / games)),
      ruleset: rules.name,
      // the lines made, with how often (a line not listed was never made)
      mahJonggsByLine: Object.fromEntries(cc.card.lines.flatMap((l, i) => (byLine[i] > 0 ? [[l.id, byLine[i]]] : []))),
    };
    return {
      json: summary,
      lines: [
        `${rules.name}: ${games} game${games === 1 ? '' : 's'} (seeds ${first}-${first + games - 1}), card ${cc.card.name}`,
        'seat  bot      wins  mean score',
        ...names.map((name, s) => `${String(s).padStart(4)}  ${name.padEnd(7)}  ${String(wins[s]).padStart(4)}  ${String(summary.meanScore[s]).padStart(10)}`),
        `wall games ${wallGames}${deadHandGames ? `, ended by dead hands ${deadHandGames}` : ''}; ${summary.meanTurns} discards a game`,
        `card lines made: ${byLine.filter((n) => n > 0).length} of ${cc.lineCount}`,
      ],
    };
  },
  replayed: ({ header, game, state, actions }, file) => {
    const r = state.result!;
    const seat = (s: number) => `seat ${s} (${header.seats[s]})`;
    const { cc } = game as MahJonggGame;
    const mahJonggs = state.players.flatMap((p, s) => p.mahJonggs.map((m) => `Mah Jongg by ${seat(s)}: ${cc.card.lines[m.line].id} (${m.event.value})`));
    return {
      json: { ok: true, game: MAH_JONGG.name, actions, winners: game.outcome(state)!.winners, scores: r.scores },
      lines: [
        `${file}: ${actions} actions replayed and checked (${header.ruleset}, seed ${header.seed}, card ${cc.card.name})`,
        ...(mahJonggs.length ? mahJonggs : [r.wallGame ? 'a wall game' : 'ended without a Mah Jongg']),
        `scores ${r.scores.map((x, s) => `${seat(s)} ${x}`).join(', ')}`,
      ],
    };
  },
  noWinnerWords: 'wall games',
};
