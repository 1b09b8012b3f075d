import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENT_NAMES, knownAgentNames, makeAgent, registerAgents, registeredAgentModules } from '../../agents/mah-jongg/levels.js';
import { loadRuleset } from '../../engine/mah-jongg/rulesets.js';
import { loadCard } from '../../io/cards.js';
import { LAB_BOT_NAMES } from '../../lab/bots/registry.js';

describe("the lab's bots", () => {
  const cc = loadCard(),
    rules = loadRuleset('nmjl-4p');

  it("are registered beside the product's, never among them (the command line and the server list AGENT_NAMES)", () => {
    expect(LAB_BOT_NAMES).toEqual([
      'guarded',
      'medium-read',
      'guarded-read',
      'learned-all',
      'learned-all-play',
      'policy-file',
      'exit-search',
      'expert-deep',
      'learned-file',
      'learned-file-b',
      'expert-file',
      'learned-cs',
      'expert-wide',
      'expert-read',
      'expert-read-light',
      'expert-read-shown',
      'expert-lookahead',
    ]);
    expect(AGENT_NAMES).toEqual(['random', 'greedy', 'heuristic', 'easy', 'medium', 'strong', 'learned', 'montecarlo', 'hard', 'expert']);
    for (const name of LAB_BOT_NAMES) {
      expect(knownAgentNames()).toContain(name);
      expect(makeAgent(name, cc, rules).name).toBe(name);
    }
    expect(registeredAgentModules().some((m) => /lab[/\\]bots[/\\]registry\.[jt]s$/.test(m))).toBe(true);
  });

  it("a product bot's name cannot be taken", () => {
    expect(() => registerAgents('test', { medium: () => makeAgent('easy', cc, rules) })).toThrow('bot "medium" is one of the product\'s');
  });
});

describe('lab/ stays out of the product', () => {
  it('nothing in engine/, io/, agents/, api/ or training/ imports lab/', () => {
    const root = join(import.meta.dirname, '..', '..');
    const offenders: string[] = [];
    for (const dir of ['engine', 'io', 'agents', 'api', 'training']) {
      for (const f of readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })) {
        if (!/\.(ts|js)$/.test(f)) continue;
        const text = readFileSync(join(root, dir, f), 'utf8');
        if (/(from\s+|import\s*\(\s*|import\s+)['"][./]*\/lab\//.test(text)) offenders.push(join(dir, f));
      }
    }
    expect(offenders).toEqual([]);
  });
});
