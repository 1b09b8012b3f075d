// The names a player reads for a game and its rules: one home for every page (no "nmjl-4p").

/** @type {Record<string, string>} */
export const GAME_WORDS = { 'mah-jongg': 'American Mah Jongg', 'mexican-train': 'Mexican Train' };

/**
 * Each ruleset (engine/mah-jongg/rulesets.ts, engine/domino/rulesets.ts) in a few plain words.
 * @type {Record<string, string>}
 */
export const RULESET_WORDS = {
  'nmjl-4p': '4 players',
  'nmjl-4p-guide': '4 players, scored as the teaching guide writes it',
  'nmjl-4p-tournament': '4 players, tournament rules',
  'nmjl-3p': '3 players',
  'nmjl-3p-courtesy': '3 players with a courtesy pass',
  'siamese-2p': 'Siamese, 2 players',
  'royale-siamese-4p': 'Royale Siamese, 4 players',
  'sun-lakes': 'Sun Lakes senior games rules',
  district: 'district rules',
};

/**
 * A game's name in words ("American Mah Jongg").
 * @param {string} game
 */
export const gameWords = (game) => GAME_WORDS[game] ?? game;

/**
 * A ruleset's name in words ("4 players"); a name this page does not know, as it is.
 * @param {string} ruleset
 */
export const rulesetWords = (ruleset) => RULESET_WORDS[ruleset] ?? ruleset;

/**
 * Where another seat sits, seen from the person: play passes to the right (seat s + 1).
 * @param {number} seat
 * @param {number} me
 * @param {number} players
 * @returns {'you' | 'right' | 'across' | 'left'}
 */
export function placeOf(seat, me, players) {
  const off = (seat - me + players) % players;
  if (off === 0) return 'you';
  if (players === 2) return 'across';
  if (players === 3) return off === 1 ? 'right' : 'left';
  return off === 1 ? 'right' : off === 2 ? 'across' : 'left';
}

/**
 * Another seat as the table names it to the person: "Right", "Across", "Left" ("You" for her own).
 * Every page that tells of a game she played says it so, never by the seat's wind.
 * @param {number} seat
 * @param {number} me
 * @param {number} players
 */
export function placeWords(seat, me, players) {
  const place = placeOf(seat, me, players);
  return place === 'you' ? 'You' : place.charAt(0).toUpperCase() + place.slice(1);
}
