import { readFileSync } from 'node:fs';
import { loadCard } from '../api/cards.js';
import { evalDeal, subjectAgent } from './train.worker.js';
const cc = loadCard();
const m = readFileSync(process.argv[2], 'utf8');
const deals = Number(process.argv[3] ?? 10);
const subjects = [{ name: 'learned', model: m }, { name: 'expert', model: m, level: 'expert' }];
const w = [0, 0]; const t = [0, 0];
for (let d = 0; d < deals; d++) {
  for (let i = 0; i < 2; i++) {
    const t0 = Date.now();
    const r = evalDeal({ ruleset: 'nmjl-4p', cardText: '', subjects: [subjects[i]], opponents: 'medium', seed: 77 }, cc, d, (s) => subjectAgent(cc, 'nmjl-4p', s));
    w[i] += r.wins[0]; t[i] += Date.now() - t0;
  }
}
console.log('wins', w, 'of', deals * 4, 'ms per game', t.map((x) => x / deals / 4));
