import type { SchemaErrorFormatter } from 'fastify/types/schema.js';
import { Type, type TObject, type TObjectOptions, type TProperties } from 'typebox';
import { TilemateError } from '../../../engine/errors.js';

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

export const CardText = Type.Optional(Type.String({ maxLength: 20_000, description: "a whole card text, up to 20,000 characters (default: the server's card)" }));

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
  solo: Type.Optional(Type.Number({ description: "with simulate: the solo model's own chance (own draws only), before calibration" })),
  expectedScore: Type.Optional(Type.Number()),
});

/**
 * A Mah Jongg action as posted: `type` and the fields of that type, or a `legal` entry posted
 * back unchanged (its describing fields, `choose`, `blindUpTo`, `claimTile`, `inError`, are
 * ignored). Any other field is refused (docs/api.md), never applied.
 */
export const ActionBody = Strict(
  {
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
    after: Type.Optional(
      Type.Integer({ minimum: 0, description: 'the number of the last action the client has seen: refused with TM_STALE_ACTION when the game has moved on (a retry of an action already applied)' }),
    ),
    choose: Type.Optional(Type.Object({ min: Type.Integer(), max: Type.Integer() }, { description: "a legal pass's, ignored" })),
    blindUpTo: Type.Optional(Type.Integer({ description: "a legal pass's, ignored" })),
    claimTile: Type.Optional(Type.String({ maxLength: 4, description: "a legal call's, ignored" })),
    inError: Type.Optional(Type.Boolean({ description: "a legal Mah Jongg in error's, ignored" })),
  },
  {
    examples: [
      { type: 'pass', tiles: ['9C', 'N', 'E'] },
      { type: 'discard', tile: '5B' },
      { type: 'call', size: 3, jokers: 0 },
    ],
  },
);

/** A Mexican Train action as posted (a `legal` entry posted back unchanged); any other field is refused. */
export const DominoActionBody = Strict(
  {
    type: Type.Union([Type.Literal('play'), Type.Literal('draw'), Type.Literal('pass')]),
    seat: Type.Optional(Type.Integer()),
    tile: Type.Optional(Type.String({ maxLength: 8, description: 'a domino, e.g. "12-5"' })),
    train: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 8 }), Type.Literal('mexican')])),
    after: Type.Optional(Type.Integer({ minimum: 0, description: 'the "at" of the answer this action was chosen from: refused with TM_STALE_ACTION when the game has moved on' })),
  },
  { examples: [{ type: 'play', tile: '12-5', train: 0 }, { type: 'draw' }, { type: 'pass' }] },
);

/** A table's action, of either game: every field either game knows (each table then refuses the other game's, refuseUnknownFields). */
export const TableActionBody = Strict(
  { ...ActionBody.properties, ...DominoActionBody.properties, type: Type.String({ maxLength: 20 }) },
  {
    description: 'the action as for a game against bots (docs/api.md): Mah Jongg or Mexican Train',
    examples: [
      { type: 'discard', tile: '5B', after: 57 },
      { type: 'play', tile: '12-5', train: 0, after: 12 },
    ],
  },
);

/** Each game's action fields, by the game's name. */
export const ACTION_BODIES: Readonly<Record<string, { schema: TObject; what: string }>> = {
  'mah-jongg': { schema: ActionBody, what: 'a Mah Jongg action' },
  'mexican-train': { schema: DominoActionBody, what: 'a Mexican Train action' },
};

/** A field the schema does not name is refused in words that name it (a body checked outside fastify: a WebSocket's action, a table's game). */
export function refuseUnknownFields(schema: TObject, body: Record<string, unknown>, what: string): void {
  for (const key of Object.keys(body)) {
    if (!Object.hasOwn(schema.properties, key)) throw new TilemateError('TM_BAD_INPUT', `${JSON.stringify(key.slice(0, 40))} is not a field of ${what}, so the action was refused`);
  }
}

/**
 * A route's validation errors as fastify words them, but an unknown field named: `"hack" is
 * not a field of this request` rather than `must NOT have additional properties`.
 */
export const namingFields =
  (what: string): SchemaErrorFormatter =>
  (errors, dataVar) => {
    const unknown = errors.find((e) => e.keyword === 'additionalProperties');
    const field = unknown?.params.additionalProperty;
    if (typeof field === 'string') {
      const where = unknown!.instancePath === '' ? what : `${dataVar}${unknown!.instancePath}`;
      return new TilemateError('TM_BAD_INPUT', `${JSON.stringify(field.slice(0, 40))} is not a field of ${where}, so the action was refused`);
    }
    return new Error(errors.map((e) => `${dataVar}${e.instancePath} ${e.message ?? ''}`).join(', '));
  };

const open = { additionalProperties: true } as const;

const ExposureJson = Type.Object({
  tile: Type.String(),
  size: Type.Integer(),
  jokers: Type.Integer(),
  tiles: Type.Array(Type.String(), { description: 'as they lie: naturals, then jokers' }),
  rack: Type.Integer(),
  exchangeable: Type.Boolean(),
});

const ResultJson = Type.Object({
  winners: Type.Array(Type.Integer()),
  wallGame: Type.Boolean(),
  scores: Type.Array(Type.Number()),
  lines: Type.Array(Type.Object({ seat: Type.Integer(), points: Type.Number(), why: Type.String() })),
  hands: Type.Array(Type.Array(Type.String()), { description: "every seat's concealed tiles, once the game has ended" }),
  seed: Type.Integer({ description: 'shown once the game has ended' }),
});

/** A seat's view (api/http/wire.ts viewJson): only what a player in that seat may see. */
export const ViewSchema = Type.Object(
  {
    seat: Type.Integer(),
    ruleset: Type.String(),
    players: Type.Integer(),
    phase: Type.String({ description: 'charleston, vote, courtesy, draw, discard, claims, ended' }),
    prompt: Type.Object(
      { kind: Type.String({ description: 'charleston, vote, courtesy, draw, discard, claims, wait, ended' }) },
      { ...open, description: 'what the game asks of this seat now (docs/api.md)' },
    ),
    yourTurn: Type.Boolean(),
    waitingOn: Type.Array(Type.Integer()),
    turn: Type.Integer(),
    claim: Type.Union([Type.Object({ tile: Type.String(), discarder: Type.Integer(), answered: Type.Boolean() }), Type.Null()]),
    wallLeft: Type.Integer(),
    dice: Type.Array(Type.Integer()),
    rack: Type.Array(Type.String(), { description: "this seat's concealed tiles" }),
    seats: Type.Array(
      Type.Object({
        seat: Type.Integer(),
        concealedCount: Type.Integer(),
        exposures: Type.Array(ExposureJson),
        discards: Type.Array(Type.String()),
        dead: Type.Array(Type.Boolean()),
      }),
    ),
    mahJonggs: Type.Array(
      Type.Object({
        seat: Type.Integer(),
        rack: Type.Integer(),
        line: Type.String({ description: 'the card line\'s id, e.g. "2468 #2"' }),
        name: Type.Optional(Type.String({ description: 'the line as players name it, e.g. "the second 2468 line"' })),
        value: Type.Integer(),
        tiles: Type.Array(Type.String()),
      }),
    ),
    turnFrom: Type.Object({ from: Type.String(), discarder: Type.Optional(Type.Integer()) }),
    exchangedFromOther: Type.Boolean(),
    result: Type.Union([ResultJson, Type.Null()]),
  },
  open,
);

/** The game answer (docs/api.md, "Every game answer"); its parts are built in api/http/wire.ts. */
export const GameAnswer = Type.Object({
  id: Type.String(),
  token: Type.Optional(Type.String({ description: 'only when the game is created' })),
  seat: Type.Integer(),
  seats: Type.Array(Type.String(), { description: "who sits where: human or the bot's level" }),
  view: ViewSchema,
  legal: Type.Array(Type.Object({ type: Type.String(), seat: Type.Integer() }, { ...open, description: 'a legal action: post it back unchanged (passes say how many tiles to choose)' })),
  events: Type.Array(
    Type.Object({
      n: Type.Integer(),
      action: Type.Object({ type: Type.String(), seat: Type.Integer() }, open),
      drew: Type.Optional(Type.String()),
    }),
  ),
  at: Type.Integer({ description: 'actions applied so far: send it as "after" with the next action to make a retry safe' }),
  recordId: Type.Union([Type.String(), Type.Null()]),
});

export const Bearer = [{ token: [] as string[] }];
