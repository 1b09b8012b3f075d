import { Type, type TObjectOptions, type TProperties } from 'typebox';

/** JSON schemas shared by the routes (TypeBox): request bodies are checked against them, answers described. */

export const ErrorBody = Type.Object({ code: Type.String(), message: Type.String() }, { description: 'Every error: a stable code (engine/errors.ts) and a message naming what was wrong' });

/** The 4xx answers every route may give. */
export const ERRORS = { '4xx': ErrorBody, '5xx': ErrorBody };

/** A request body: a field the schema does not name is refused (a typo such as "rigth" is never dropped quietly). */
export const Strict = <T extends TProperties>(properties: T, options: TObjectOptions = {}) => Type.Object(properties, { ...options, additionalProperties: false });

export const Tiles = (description: string) => Type.String({ maxLength: 2000, description });

/**
 * A saved card as a game, a table or GET /api/cards/:name names it: one of the player's own by
 * its name (lower-case letters, digits and hyphens), or a card shared with her by its code,
 * `shared:CODE` (routes/card-sharing.ts; a code that opens nothing is answered in words).
 */
export const CARD_CHOICE = '^(?:[a-z0-9][a-z0-9-]{0,39}|shared:[A-Za-z0-9]{1,20})$';

export const CardText = Type.Optional(Type.String({ maxLength: 20_000, description: 'a whole card text, up to 20,000 characters (default: the server\'s card)' }));

const FormTile = Type.Object({
  tile: Type.String(),
  status: Type.Union([Type.Literal('have'), Type.Literal('exposed'), Type.Literal('joker'), Type.Literal('need')]),
  joker: Type.Optional(Type.Boolean()),
});

export const LineResult = Type.Object({
  id: Type.String(),
  section: Type.String(),
  value: Type.Integer(),
  concealed: Type.Boolean(),
  tilesAway: Type.Integer(),
  need: Type.Array(Type.String()),
  possible: Type.Boolean(),
  form: Type.String(),
  jokerSlots: Type.Integer(),
  outs: Type.Integer(),
  reason: Type.String(),
  groups: Type.Array(Type.Array(FormTile)),
  chance: Type.Optional(Type.Number({ description: 'with simulate: the chance of completing the line, calibrated to full-table games' })),
  solo: Type.Optional(Type.Number({ description: 'with simulate: the solo model\'s own chance (own draws only), before calibration' })),
  expectedScore: Type.Optional(Type.Number()),
});

/** An action as posted: `type` and the fields of that type; extra fields are ignored. */
export const ActionBody = Type.Object({
  type: Type.String({ description: 'pass, vote, courtesy, draw, discard, exchange, declare, decline, call, callMahJongg, callDead' }),
  seat: Type.Optional(Type.Integer()),
  tile: Type.Optional(Type.String()),
  tiles: Type.Optional(Type.Array(Type.String(), { maxItems: 14 })),
  blind: Type.Optional(Type.Integer({ minimum: 0, maximum: 3 })),
  yes: Type.Optional(Type.Boolean()),
  owner: Type.Optional(Type.Integer()),
  exposure: Type.Optional(Type.Integer()),
  rack: Type.Optional(Type.Integer()),
  both: Type.Optional(Type.Boolean()),
  size: Type.Optional(Type.Integer()),
  jokers: Type.Optional(Type.Integer()),
  target: Type.Optional(Type.Integer()),
  after: Type.Optional(Type.Integer({ minimum: 0, description: 'the number of the last action the client has seen: refused with TM_STALE_ACTION when the game has moved on (a retry of an action already applied)' })),
}, { additionalProperties: true, examples: [{ type: 'pass', tiles: ['9C', 'N', 'E'] }, { type: 'discard', tile: '5B' }, { type: 'call', size: 3, jokers: 0 }] });

const open = { additionalProperties: true } as const;

const ExposureJson = Type.Object({
  tile: Type.String(), size: Type.Integer(), jokers: Type.Integer(),
  tiles: Type.Array(Type.String(), { description: 'as they lie: naturals, then jokers' }), rack: Type.Integer(), exchangeable: Type.Boolean(),
});

const ResultJson = Type.Object({
  winners: Type.Array(Type.Integer()),
  wallGame: Type.Boolean(),
  scores: Type.Array(Type.Number()),
  lines: Type.Array(Type.Object({ seat: Type.Integer(), points: Type.Number(), why: Type.String() })),
  hands: Type.Array(Type.Array(Type.String()), { description: 'every seat\'s concealed tiles, once the game has ended' }),
  seed: Type.Integer({ description: 'shown once the game has ended' }),
});

/** A seat's view (api/http/wire.ts viewJson): only what a player in that seat may see. */
export const ViewSchema = Type.Object({
  seat: Type.Integer(),
  ruleset: Type.String(),
  players: Type.Integer(),
  phase: Type.String({ description: 'charleston, vote, courtesy, draw, discard, claims, ended' }),
  prompt: Type.Object({ kind: Type.String({ description: 'charleston, vote, courtesy, draw, discard, claims, wait, ended' }) }, { ...open, description: 'what the game asks of this seat now (docs/api.md)' }),
  yourTurn: Type.Boolean(),
  waitingOn: Type.Array(Type.Integer()),
  turn: Type.Integer(),
  claim: Type.Union([Type.Object({ tile: Type.String(), discarder: Type.Integer(), answered: Type.Boolean() }), Type.Null()]),
  wallLeft: Type.Integer(),
  dice: Type.Array(Type.Integer()),
  rack: Type.Array(Type.String(), { description: 'this seat\'s concealed tiles' }),
  seats: Type.Array(Type.Object({
    seat: Type.Integer(),
    concealedCount: Type.Integer(),
    exposures: Type.Array(ExposureJson),
    discards: Type.Array(Type.String()),
    dead: Type.Array(Type.Boolean()),
  })),
  mahJonggs: Type.Array(Type.Object({ seat: Type.Integer(), rack: Type.Integer(), line: Type.String(), value: Type.Integer(), tiles: Type.Array(Type.String()) })),
  turnFrom: Type.Object({ from: Type.String(), discarder: Type.Optional(Type.Integer()) }),
  exchangedFromOther: Type.Boolean(),
  result: Type.Union([ResultJson, Type.Null()]),
}, open);

/** The game answer (docs/api.md, "Every game answer"); its parts are built in api/http/wire.ts. */
export const GameAnswer = Type.Object({
  id: Type.String(),
  token: Type.Optional(Type.String({ description: 'only when the game is created' })),
  seat: Type.Integer(),
  seats: Type.Array(Type.String(), { description: 'who sits where: human or the bot\'s level' }),
  view: ViewSchema,
  legal: Type.Array(Type.Object({ type: Type.String(), seat: Type.Integer() }, { ...open, description: 'a legal action: post it back unchanged (passes say how many tiles to choose)' })),
  events: Type.Array(Type.Object({
    n: Type.Integer(),
    action: Type.Object({ type: Type.String(), seat: Type.Integer() }, open),
    drew: Type.Optional(Type.String()),
  })),
  at: Type.Integer({ description: 'actions applied so far: send it as "after" with the next action to make a retry safe' }),
  recordId: Type.Union([Type.String(), Type.Null()]),
});

export const Bearer = [{ token: [] as string[] }];
