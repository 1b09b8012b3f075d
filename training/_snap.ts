import { writeFileSync, readFileSync, existsSync } from 'node:fs';
import { loadCard } from '../api/cards.js';
import { Encoder, FEATURES } from '../agents/features.js';
import { HeuristicAgent, MEDIUM_HABITS, myExposures } from '../agents/heuristic.js';
import { LearnedAgent } from '../agents/learned.js';
import { modelFromJson } from '../agents/model.js';
import { playOut } from '../agents/table.js';
import { newGame, view } from '../engine/game.js';
import { seedRng } from '../engine/rng.js';
import { loadRuleset } from '../engine/rulesets.js';
const cc = loadCard();
const enc = new Encoder(cc);
const rows: number[] = [];
const medium = [0, 1, 2, 3].map(() => new HeuristicAgent(cc, MEDIUM_HABITS));
for (let g = 0; g < 40; g++) {
  const s = newGame(loadRuleset('nmjl-4p'), cc, 500 + g);
  playOut(s, medium, seedRng(g), (_a, st) => {
    if (st.phase.kind !== 'discard' && st.phase.kind !== 'claims' && st.phase.kind !== 'charleston') return;
    for (const seat of [0, 1, 2, 3]) {
      const v = view(st, seat);
      enc.begin(v);
      const out = new Float32Array(FEATURES);
      const h = [...v.concealed];
      const t = h.findIndex((c, i) => c > 0 && i < 35);
      if (t >= 0 && st.phase.kind === 'discard' && seat === st.turn) h[t]--;
      enc.encode({ concealed: h, exposures: myExposures(v), unknown: 0, charlestonLeft: 0, kind: 'discard', discard: t < 0 ? undefined : t, worth: 1, rank: 1 }, out, 0);
      rows.push(...out);
    }
  });
}
// and whole games of the learned player: its actions
const model = modelFromJson(readFileSync('/work/runs/r1/candidate.json', 'utf8'));
const acts: string[] = [];
for (let g = 0; g < 10; g++) { const s = newGame(loadRuleset('nmjl-4p'), cc, g); const l = new LearnedAgent(cc, model); playOut(s, [l, medium[1], l, medium[3]], seedRng(g), (a) => acts.push(JSON.stringify(a))); }
const doc = JSON.stringify({ rows, acts });
const file = '/work/runs/snap.json';
if (process.argv[2] === 'save' || !existsSync(file)) { writeFileSync(file, doc); console.log('saved', rows.length / FEATURES, 'rows', acts.length, 'actions'); }
else { const old = JSON.parse(readFileSync(file, 'utf8')); let diff = 0; old.rows.forEach((x: number, i: number) => { if (Math.abs(x - rows[i]) > 0) diff++; }); console.log('rows', rows.length / FEATURES, 'differing values', diff, 'actions same', JSON.stringify(old.acts) === JSON.stringify(acts)); }
