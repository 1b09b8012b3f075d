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
