import { describe, expect, it } from 'vitest';
import { DOMINO_RULESETS } from '../../engine/domino/rulesets.js';
import { RULESETS } from '../../engine/mah-jongg/rulesets.js';
// the pages' own module (plain ES, no DOM)
import { RULESET_WORDS, rulesetWords } from '../../api/web/names.js';

describe('the names a player reads for rules', () => {
  it('every ruleset the engine plays has plain words on the pages, never its code name', () => {
    const names = [...Object.keys(RULESETS), ...Object.keys(DOMINO_RULESETS)];
    expect(Object.keys(RULESET_WORDS).sort()).toEqual(names.sort());
    for (const name of names) expect(rulesetWords(name)).not.toMatch(/^[a-z0-9]+(-[a-z0-9]+)+$/);
  });
});
