import { describe, expect, it, vi } from 'vitest';
import type { ValueModel } from '../../agents/mah-jongg/model.js';
import { TilemateError } from '../../engine/errors.js';
import { loadRuleset } from '../../engine/mah-jongg/rulesets.js';
import { cc } from '../engine/game-helpers.js';

/** The shipped model, or none (as on an install without models/value-model.json). */
const installed: { model: ValueModel | null } = { model: null };
vi.mock('../../agents/mah-jongg/default-model.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../agents/mah-jongg/default-model.js')>();
  installed.model = real.defaultModel();
  return { ...real, defaultModel: vi.fn(() => installed.model) };
});

const { AGENT_NAMES, makeAgent } = await import('../../agents/mah-jongg/levels.js');
const { ExpertAgent } = await import('../../agents/mah-jongg/expert.js');
const { LearnedAgent } = await import('../../agents/mah-jongg/learned.js');
const rules = loadRuleset('nmjl-4p');

describe('bot levels', () => {
  it("expert is the trained model's policy checked by the coach's judge when the model is installed", () => {
    expect(installed.model).not.toBeNull();
    const bot = makeAgent('expert', cc, rules);
    expect(bot).toBeInstanceOf(ExpertAgent);
    expect(bot.name).toBe('expert');
  });

  it("hard is the trained model's policy alone (the learned player), inside the ladder rather than beside it", () => {
    const bot = makeAgent('hard', cc, rules);
    expect(bot).toBeInstanceOf(LearnedAgent);
    expect(bot.name).toBe('hard');
  });

  it.each(['hard', 'expert'])('%s without the trained model is refused (TM_BAD_INPUT, naming the model and the level to choose), never played by another bot under its name', (level) => {
    const model = installed.model;
    installed.model = null;
    try {
      let error: unknown;
      try {
        makeAgent(level, cc, rules);
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(TilemateError);
      expect((error as TilemateError).code).toBe('TM_BAD_INPUT');
      expect((error as TilemateError).message).toMatch(new RegExp(`${level} bot needs the trained model \\(models[/\\\\]value-model\\.json\\).*choose medium`));
      // every level without the model's is still there
      for (const name of AGENT_NAMES.filter((n) => n !== 'expert' && n !== 'hard')) expect(makeAgent(name, cc, rules).name).toBe(name);
    } finally {
      installed.model = model;
    }
  });
});
