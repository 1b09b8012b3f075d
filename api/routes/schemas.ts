import { Type } from 'typebox';

/** JSON schemas shared by the routes (TypeBox): request bodies are checked against them, answers described. */

export const ErrorBody = Type.Object({ code: Type.String(), message: Type.String() }, { description: 'Every error: a stable code (engine/errors.ts) and a message naming what was wrong' });

/** The 4xx answers every route may give. */
export const ERRORS = { '4xx': ErrorBody };

export const Tiles = (description: string) => Type.String({ maxLength: 2000, description });

export const CardText = Type.Optional(Type.String({ maxLength: 100_000, description: 'a whole card text (default: the server\'s card)' }));

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
  chance: Type.Optional(Type.Number()),
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
}, { additionalProperties: true });

/** The game answer (docs/api.md, "Every game answer"); its parts are built in api/wire.ts. */
export const GameAnswer = Type.Object({
  id: Type.String(),
  token: Type.Optional(Type.String({ description: 'only when the game is created' })),
  seat: Type.Integer(),
  seats: Type.Array(Type.String()),
  view: Type.Object({}, { additionalProperties: true, description: 'the seat\'s view: prompt, yourTurn, rack, seats, result...' }),
  legal: Type.Array(Type.Object({ type: Type.String() }, { additionalProperties: true })),
  events: Type.Array(Type.Object({ n: Type.Integer() }, { additionalProperties: true })),
  recordId: Type.Union([Type.String(), Type.Null()]),
});

export const Bearer = [{ token: [] as string[] }];
