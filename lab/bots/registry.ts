import { readFileSync } from 'node:fs';
import { defaultModel } from '../../agents/mah-jongg/default-model.js';
import { GUARDED_HABITS, HeuristicAgent, MEDIUM_HABITS } from '../../agents/mah-jongg/heuristic.js';
import { LearnedAgent } from '../../agents/mah-jongg/learned.js';
import { registerAgents, type AgentMaker } from '../../agents/mah-jongg/levels.js';
import { EXPERT_LOOKAHEAD, LookaheadAgent } from '../../agents/mah-jongg/lookahead.js';
import { PolicyAgent, PolicySearchAgent } from './policy.js';
import { readPolicyModel } from './policy-model.js';

/**
 * The bots only studies play, registered beside the product's (agents/mah-jongg/levels.ts
 * registerAgents) when a lab script imports this module: `makeAgent`, `makeBot` and the arena
 * (its worker threads too, training/run-arena.ts) then know them by name. `tilemate` never
 * imports lab/, so its commands and the server offer only the product's bots.
 */

const policyFiles = new Map<string, { path: string; model: ReturnType<typeof readPolicyModel> }>();
/** The model file named by the variable `name` (TILEMATE_POLICY_MODEL unless told; read once a path); the shipped model without it. */
function policyFileModel(name = 'TILEMATE_POLICY_MODEL') {
  const path = process.env[name];
  if (path === undefined || path === '') return defaultModel();
  let kept = policyFiles.get(name);
  if (kept?.path !== path) policyFiles.set(name, (kept = { path, model: readPolicyModel(readFileSync(path, 'utf8'), path) }));
  return kept.model;
}

export const LAB_BOTS: Readonly<Record<string, AgentMaker>> = {
  // medium with the defence rule (agents/mah-jongg/defence.ts): it gives away fewer points by discards
  // but wins less than medium, so no level plays it (heuristic.ts GUARDED_HABITS)
  guarded: (cc) => new HeuristicAgent(cc, GUARDED_HABITS, 'guarded'),
  // issue 48: medium whose late-game danger of a tile is each exposed opponent's need of it as
  // the reading gives it (engine/mah-jongg/reading.ts), not the share of the forms her exposures fit
  'medium-read': (cc) => new HeuristicAgent(cc, { ...MEDIUM_HABITS, readDanger: 1 }, 'medium-read'),
  // the same with the defence rule (guarded's swap of a dangerous discard)
  'guarded-read': (cc) => new HeuristicAgent(cc, { ...GUARDED_HABITS, readDanger: 1 }, 'guarded-read'),
  // issue 30: the shipped model over every legal choice, not the habits' shortlist
  'learned-all': (cc) => new PolicyAgent(cc, defaultModel(), {}, 'learned-all'),
  // the same in play, its Charleston among the habits' five cheapest tiles as the learned player's
  'learned-all-play': (cc) => new PolicyAgent(cc, defaultModel(), { passPool: 5 }, 'learned-all-play'),
  // the model file named by TILEMATE_POLICY_MODEL (one with a policy head from lab/exit.ts, or
  // any value model) over every legal choice in play, its Charleston as learned-all-play's; the
  // shipped model without the variable
  'policy-file': (cc) => new PolicyAgent(cc, policyFileModel(), { passPool: 5 }, 'policy-file'),
  // expert iteration's expert (lab/exit.ts self-play's search, 8 worlds x 3 of every legal
  // choice) with the model of policy-file, to see whether it beats its apprentice
  'exit-search': (cc, rules) => new PolicySearchAgent(cc, rules, policyFileModel(), { worlds: 8, candidates: 3, passPool: 5 }, 'exit-search'),
  // issue 30: the expert's search with every candidate played to the end of the game (16
  // worlds x 3, rated by wins), the policy in its own seat, as a stronger teacher
  'expert-deep': (cc, rules) => new LookaheadAgent(cc, rules, defaultModel(), { worlds: 16, candidates: 3, ms: 60_000, toEnd: true }, 'expert-deep'),
  // the learned player and the expert with the model file named by TILEMATE_POLICY_MODEL (a
  // value model from tilemate train), to set a new model beside the shipped one
  'learned-file': (cc) => new LearnedAgent(cc, policyFileModel(), {}, 'learned-file'),
  // a second model file beside it (TILEMATE_POLICY_MODEL_B), to set two new models against each other
  'learned-file-b': (cc) => new LearnedAgent(cc, policyFileModel('TILEMATE_POLICY_MODEL_B'), {}, 'learned-file-b'),
  'expert-file': (cc, rules) => new LookaheadAgent(cc, rules, policyFileModel(), EXPERT_LOOKAHEAD, 'expert-file'),
  // issue 30: the learned player with a search at its Charleston steps only (agents/mah-jongg/lookahead.ts
  // charlestonWorlds: 16 worlds x the model's best 3), its play the policy's
  'learned-cs': (cc, rules) => new LookaheadAgent(cc, rules, defaultModel(), { worlds: 0, candidates: 3, ms: 60_000, charlestonWorlds: 16 }, 'learned-cs'),
  // issue 30, ninth round: the expert's search with eight times its worlds (96), about 1.5 s of
  // CPU a game for its seat, to see whether the search's noise holds the expert back
  'expert-wide': (cc, rules) => new LookaheadAgent(cc, rules, defaultModel(), { ...EXPERT_LOOKAHEAD, worlds: 96, ms: 60_000 }, 'expert-wide'),
  // issue 48: the expert whose worlds agree with the table: half of each opponent's hidden tiles dealt from the hand the reading says she is making
  'expert-read': (cc, rules) => new LookaheadAgent(cc, rules, defaultModel(), { ...EXPERT_LOOKAHEAD, lean: 0.5 }, 'expert-read'),
  // the same with a quarter of her hidden tiles from the reading, and with only the opponents who have exposed something read
  'expert-read-light': (cc, rules) => new LookaheadAgent(cc, rules, defaultModel(), { ...EXPERT_LOOKAHEAD, lean: 0.25 }, 'expert-read-light'),
  'expert-read-shown': (cc, rules) => new LookaheadAgent(cc, rules, defaultModel(), { ...EXPERT_LOOKAHEAD, lean: 0.5, leanShown: true }, 'expert-read-shown'),
  // issue 61: the expert until issue 61 (the policy with its short search to its own next turn,
  // agents/mah-jongg/lookahead.ts, 12 worlds x the model's best 3), to set beside the expert the
  // judge now checks (agents/mah-jongg/expert.ts)
  'expert-lookahead': (cc, rules) => new LookaheadAgent(cc, rules, defaultModel(), EXPERT_LOOKAHEAD, 'expert-lookahead'),
};

registerAgents(import.meta.url, LAB_BOTS);

/** The lab's bot names (the product's are agents/mah-jongg/levels.ts AGENT_NAMES). */
export const LAB_BOT_NAMES: readonly string[] = Object.keys(LAB_BOTS);
