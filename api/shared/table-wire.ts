import { type Static, Type } from 'typebox';

/**
 * The table's WebSocket, typed once (docs/tables.md, "WebSocket"; issue 64): every message the
 * server sends (`ServerMessage`) and every message it accepts (`ClientMessage`), as TypeBox
 * schemas with their `Static` types, each a union on `type`. The server sends only these
 * (api/http/tables.ts `Connection.send`), checks each message that comes in against
 * `ClientMessage` (api/http/routes/tables.ts), and the pages read them from here
 * (`@import { ServerMessage } from '../shared/table-wire.js'`). It imports typebox alone, so
 * the pages' type check (tsconfig.web.json) reads nothing of the server.
 *
 * A game message's `view`, `legal` and `events` are each game's own JSON (api/shared/wire.ts,
 * api/shared/domino-wire.ts): declared here only by what every game's view shares.
 */

const Seat = Type.Integer({ minimum: 0 });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

// ------------------------------------------------------------------ the table

/** A seat of a table: a person (away when a bot plays for her), a bot at a level, or empty. */
export const SeatInfo = Type.Object({
  seat: Seat,
  kind: Type.Union([Type.Literal('person'), Type.Literal('bot'), Type.Literal('empty')]),
  name: Nullable(Type.String()),
  level: Type.Optional(Type.String()),
  away: Type.Optional(Type.Boolean()),
});
export type SeatInfo = Static<typeof SeatInfo>;

export const TableStatus = Type.Union([Type.Literal('open'), Type.Literal('playing'), Type.Literal('paused'), Type.Literal('over')]);
export type TableStatus = Static<typeof TableStatus>;

export const Clock = Type.Union([Type.Literal('off'), Type.Literal('relaxed'), Type.Literal('tournament')]);
export type Clock = Static<typeof Clock>;

/** A table as the server tells it (docs/tables.md, TableInfo): `host` is the host's (or the coach's) name. */
export const TableInfo = Type.Object({
  code: Type.String(),
  /** The game's name in the registry: mah-jongg, mexican-train. */
  game: Type.String(),
  ruleset: Type.String(),
  players: Type.Integer(),
  teaching: Type.Boolean(),
  clock: Clock,
  /** Seconds a person may be gone before a bot plays for her. */
  awayAfter: Type.Number(),
  level: Type.String(),
  status: TableStatus,
  host: Type.String(),
  seats: Type.Array(SeatInfo),
  /** Mah Jongg: the card the table plays on, by its own name. */
  card: Type.Optional(Type.String()),
  /** At the end: each person's record, by seat. */
  recordIds: Type.Optional(Type.Record(Type.Integer(), Type.String())),
});
export type TableInfo = Static<typeof TableInfo>;

export const Role = Type.Union([Type.Literal('player'), Type.Literal('spectator'), Type.Literal('coach')]);
export type Role = Static<typeof Role>;

/** Who the person is at the table: a player in a seat, someone watching, or the coach. */
export const TableYou = Type.Object({
  seat: Nullable(Seat),
  role: Role,
  name: Type.String(),
  host: Type.Boolean(),
});
export type TableYou = Static<typeof TableYou>;

// ------------------------------------------------------------------ what the server sends

/** The table and who she is at it: sent on hello and whenever either changes. */
export const TableMessage = Type.Object({ type: Type.Literal('table'), table: TableInfo, you: TableYou });
export type TableMessage = Static<typeof TableMessage>;

/**
 * What every game's seat view holds that the table's page reads (whose turn, who is waited on,
 * the phase, and the secret part the coach sees: a Mah Jongg rack, a Mexican Train hand); the
 * rest is the game's own (api/shared/wire.ts `ViewJson`, api/shared/domino-wire.ts `viewJson`).
 */
export const SeatViewJson = Type.Object({
  seat: Nullable(Seat),
  phase: Type.String(),
  turn: Type.Integer(),
  waitingOn: Type.Optional(Type.Array(Seat)),
  rack: Type.Optional(Type.Array(Type.String())),
  hand: Type.Optional(Type.Array(Type.String())),
});
export type SeatViewJson = Static<typeof SeatViewJson>;

/** An action as a game's codec writes it (tiles and dominoes by name): its type, and the rest the game's own. */
export const ActionJson = Type.Object({ type: Type.String() }, { additionalProperties: true });
export type ActionJson = Static<typeof ActionJson>;

/** An action applied since she was last told, numbered as the record numbers it (`n` from 1); `drew` names her own draw's tile (Mah Jongg). */
export const EventJson = Type.Object({
  n: Type.Integer({ minimum: 1 }),
  action: Type.Object({ type: Type.String(), seat: Seat }, { additionalProperties: true }),
  drew: Type.Optional(Type.String()),
});
export type EventJson = Static<typeof EventJson>;

/** The clock: the people waited on, and when their time is up (ms since 1970). */
export const TurnClock = Type.Object({ seats: Type.Array(Seat), endsAt: Type.Number() });
export type TurnClock = Static<typeof TurnClock>;

/** The game for her seat: her view, her legal actions, the events she has not been told yet, `at` (actions so far). */
export const GameMessage = Type.Object({
  type: Type.Literal('game'),
  at: Type.Integer({ minimum: 0 }),
  /** Her seat; null for someone watching or the coach. */
  seat: Nullable(Seat),
  seats: Type.Array(Type.String()),
  view: SeatViewJson,
  legal: Type.Array(ActionJson),
  events: Type.Array(EventJson),
  /** Her record once the game is over. */
  recordId: Nullable(Type.String()),
  paused: Type.Boolean(),
  clock: Type.Optional(TurnClock),
  /** The coach only: every seat's view, by seat. */
  racks: Type.Optional(Type.Record(Type.Integer(), SeatViewJson)),
});
export type GameMessage = Static<typeof GameMessage>;

/** A hint for her decision, sent by her coach (Mah Jongg: api/shared/wire.ts `HintJson`). */
export const HintMessage = Type.Object({ type: Type.Literal('hint'), hint: Type.Unknown() });
export type HintMessage = Static<typeof HintMessage>;

/** A refusal or a failure, in one plain sentence, with its stable code (engine/errors.ts). */
export const ErrorMessage = Type.Object({ type: Type.Literal('error'), code: Type.String(), message: Type.String() });
export type ErrorMessage = Static<typeof ErrorMessage>;

/** Every message the server sends on a table's WebSocket. */
export const ServerMessage = Type.Union([TableMessage, GameMessage, HintMessage, ErrorMessage]);
export type ServerMessage = Static<typeof ServerMessage>;

// ------------------------------------------------------------------ what the server accepts

/** The first message: her table token (one hello a connection). */
export const HelloMessage = Type.Object({ type: Type.Literal('hello'), token: Type.String({ maxLength: 100 }) }, { additionalProperties: false });
export type HelloMessage = Static<typeof HelloMessage>;

/** An action for her seat (the game's own JSON, checked by the game's body schema), made from the answer numbered `after`. */
export const ActMessage = Type.Object(
  {
    type: Type.Literal('act'),
    action: ActionJson,
    after: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  { additionalProperties: false },
);
export type ActMessage = Static<typeof ActMessage>;

/** Every message the server accepts on a table's WebSocket. */
export const ClientMessage = Type.Union([HelloMessage, ActMessage]);
export type ClientMessage = Static<typeof ClientMessage>;
