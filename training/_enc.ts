import { loadCard } from '../api/cards.js';
import { Encoder, FEATURES } from '../agents/features.js';
import { HeuristicAgent, MEDIUM_HABITS, myExposures } from '../agents/heuristic.js';
import { playOut } from '../agents/table.js';
import { cloneState, newGame, view, type GameState } from '../engine/game.js';
import { seedRng } from '../engine/rng.js';
import { loadRuleset } from '../engine/rulesets.js';
const cc = loadCard();
const medium = [0, 1, 2, 3].map(() => new HeuristicAgent(cc, MEDIUM_HABITS));
const positions: GameState[] = [];
for (let g = 0; positions.length < 64; g++) {
  const s = newGame(loadRuleset('nmjl-4p'), cc, 1000 + g);
  playOut(s, medium, seedRng(g), (_a, st) => { if (st.phase.kind === 'discard' && st.discardCount % 9 === 0 && positions.length < 64) positions.push(cloneState(st)); });
}
const enc = new Encoder(cc);
const out = new Float32Array(FEATURES);
const views = positions.map((s) => view(s, s.turn));
for (const rep of [0, 1]) {
  let t = process.hrtime.bigint(); let n = 0;
  for (let r = 0; r < 50; r++) for (const v of views) { enc.begin(v); n++; }
  const tb = Number(process.hrtime.bigint() - t) / n / 1000;
  t = process.hrtime.bigint(); n = 0;
  for (let r = 0; r < 50; r++) for (const v of views) {
    enc.begin(v);
    const mine = myExposures(v);
    for (let k = 0; k < 5; k++) { const h = [...v.concealed]; const tile = h.findIndex((c, i) => c > 0 && i < 35); h[tile]--; enc.encode({ concealed: h, exposures: mine, unknown: 0, charlestonLeft: 0, kind: 'discard', discard: tile, worth: 0, rank: k }, out, 0); n++; }
  }
  const te = Number(process.hrtime.bigint() - t) / n / 1000;
  console.log(`begin ${tb.toFixed(1)} µs; begin/5 + encode ${te.toFixed(1)} µs`);
}
