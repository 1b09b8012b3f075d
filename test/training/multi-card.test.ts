import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCardText } from '../../io/cards.js';
import { readCheckpoint, train, type TrainCard, type TrainOptions } from '../../training/train.js';

/**
 * `tilemate train --card A --card B` (issue 30): self-play spread over the cards by game
 * number, the arena and the agreement measures on every card, the run's cards kept in its
 * checkpoint and model.
 */
const practice: TrainCard = { name: 'cards/practice-2026.card', text: readCardText('cards/practice-2026.card') };
const garden: TrainCard = { name: 'cards/garden-2026.card', text: readCardText('cards/garden-2026.card') };
const orchard: TrainCard = { name: 'cards/orchard-2026.card', text: readCardText('cards/orchard-2026.card') };

const base = (out: string, cards: TrainCard[] = [practice, garden]): TrainOptions => ({
  out,
  generations: 1,
  games: 12,
  workers: 1,
  seed: 3,
  resume: false,
  cards,
  ruleset: 'nmjl-4p',
  evalDeals: 2,
  window: 2,
  epochs: 1,
  learningRate: 1e-3,
  play: { explore: 0.1, scoreWeight: 0, allLearned: 0.5, lambda: 0.9 },
  agreementGames: 1,
  command: 'test',
});

describe('training on several cards', () => {
  it("plays every card's share of the games, the same games from the same command, and logs each card", async () => {
    const one = mkdtempSync(join(tmpdir(), 'tm-cards-'));
    const two = mkdtempSync(join(tmpdir(), 'tm-cards-'));
    const [a, b] = [await train(base(one)), await train(base(two))];
    expect(readFileSync(join(one, 'examples-001.bin')).equals(readFileSync(join(two, 'examples-001.bin')))).toBe(true);
    const row = a.log[0];
    expect(row.cards?.map((c) => [c.card, c.games])).toEqual([
      ['cards/practice-2026.card', 6],
      ['cards/garden-2026.card', 6],
    ]);
    for (const c of row.cards!) {
      expect(c.selfPlayExamples).toBeGreaterThan(100);
      expect(c.habitsAgreement).toBeGreaterThan(0);
      expect(c.searchAgreement).toBeGreaterThanOrEqual(0);
    }
    expect(row.cards!.reduce((n, c) => n + c.selfPlayExamples, 0)).toBe(row.examples);
    // the generation's figures are the cards' mean (each card has as many deals)
    expect(row.winShare).toBeCloseTo((row.cards![0].winShare + row.cards![1].winShare) / 2, 3);
    expect(row.habitsAgreement).toBeCloseTo((row.cards![0].habitsAgreement + row.cards![1].habitsAgreement) / 2, 3);
    expect(b.log[0].cards?.map((c) => c.selfPlayExamples)).toEqual(row.cards!.map((c) => c.selfPlayExamples));
    // each card's columns in the CSV, after the generation's
    const [header, first] = readFileSync(join(one, 'log.csv'), 'utf8').split('\n');
    expect(header).toMatch(/,selfPlayPerSecond,card1Games,card1SelfPlayExamples,.*,card2Games,/);
    expect(first.split(',')[header.split(',').indexOf('card2Games')]).toBe('6');
    // the model lists the cards it was trained on, the checkpoint names them
    const info = JSON.parse(readFileSync(join(one, 'candidate.json'), 'utf8')).info;
    const ck = readCheckpoint(join(one, 'checkpoint.json'));
    expect(info.trainedOn).toEqual({ ruleset: 'nmjl-4p', cardHashes: ck.cards!.map((c) => c.hash) });
    expect(ck.cards!.map((c) => c.name)).toEqual(['cards/practice-2026.card', 'cards/garden-2026.card']);
    expect(new Set(ck.cards!.map((c) => c.hash)).size).toBe(2);
    // the games on the garden card are not the practice card's: a practice-only run's examples differ
    const alone = mkdtempSync(join(tmpdir(), 'tm-cards-'));
    const solo = await train({ ...base(alone, [practice]), agreementGames: 0 });
    expect(solo.log[0].cards).toBeUndefined();
    expect(readFileSync(join(alone, 'examples-001.bin')).equals(readFileSync(join(one, 'examples-001.bin')))).toBe(false);
  }, 120_000);

  it('trains the same model from the same command, generation after generation (no Math.random in the fit)', async () => {
    const runs = [mkdtempSync(join(tmpdir(), 'tm-repeat-')), mkdtempSync(join(tmpdir(), 'tm-repeat-'))];
    for (const out of runs) await train({ ...base(out, [practice]), generations: 2, epochs: 2, agreementGames: 0 });
    const read = (f: string) => runs.map((out) => readFileSync(join(out, f)));
    const [m1, m2] = read('candidate.json').map((b) => JSON.parse(b.toString()));
    expect(m1.layers).toEqual(m2.layers);
    // the second generation's games are played by the first's model
    const [e1, e2] = read('examples-002.bin');
    expect(e1.equals(e2)).toBe(true);
  }, 180_000);

  it('trains a network of the hidden widths asked for, keeps them on resume and refuses others', async () => {
    const out = mkdtempSync(join(tmpdir(), 'tm-hidden-'));
    await train({ ...base(out, [practice]), hidden: [16, 8], agreementGames: 0 });
    const model = JSON.parse(readFileSync(join(out, 'candidate.json'), 'utf8'));
    expect(model.layers.map((l: { outputs: number }) => l.outputs)).toEqual([16, 8, 2]);
    expect(readCheckpoint(join(out, 'checkpoint.json')).hidden).toEqual([16, 8]);
    await expect(train({ ...base(out, [practice]), generations: 2, resume: true, hidden: [32, 8], agreementGames: 0 })).rejects.toThrow(/hidden layers 16-8/);
    const log = await train({ ...base(out, [practice]), generations: 2, resume: true, agreementGames: 0 });
    expect(log.log.map((r) => r.generation)).toEqual([1, 2]);
    expect(JSON.parse(readFileSync(join(out, 'candidate.json'), 'utf8')).layers.map((l: { outputs: number }) => l.outputs)).toEqual([16, 8, 2]);
  }, 120_000);

  it('resumes only with the same cards in the same order, and says what differs', async () => {
    const out = mkdtempSync(join(tmpdir(), 'tm-cards-resume-'));
    await train({ ...base(out), agreementGames: 0 });
    const again = (cards: TrainCard[]) => train({ ...base(out, cards), generations: 2, resume: true, agreementGames: 0 });
    const hashes = readCheckpoint(join(out, 'checkpoint.json')).cards!.map((c) => c.hash);
    await expect(again([practice, orchard])).rejects.toThrow(
      `the run in ${out} was trained on cards/practice-2026.card (${hashes[0]}), cards/garden-2026.card (${hashes[1]}); ` + 'this command gives cards/practice-2026.card',
    );
    await expect(again([practice, orchard])).rejects.toThrow(
      /not given: cards\/garden-2026.card \([0-9a-f]{16}\); not in the run: cards\/orchard-2026.card \([0-9a-f]{16}\)\. Give the same --card files in the same order/,
    );
    await expect(again([practice])).rejects.toThrow(/not given: cards\/garden-2026.card/);
    await expect(again([garden, practice])).rejects.toThrow(/the same cards in another order/);
    // the same cards under other names are the same cards
    const second = await again([{ ...practice, name: 'my copy of practice' }, garden]);
    expect(second.log.map((r) => r.generation)).toEqual([1, 2]);
    expect(second.log[1].cards?.map((c) => c.games)).toEqual([6, 6]);
    // a checkpoint from before runs on several cards holds one card's hash and no names
    const ck = JSON.parse(readFileSync(join(out, 'checkpoint.json'), 'utf8'));
    writeFileSync(join(out, 'checkpoint.json'), JSON.stringify({ ...ck, cards: undefined, cardHash: hashes[0] }));
    await expect(again([practice, garden])).rejects.toThrow(`was trained on a card of hash ${hashes[0]}; this command gives cards/practice-2026.card`);
    // ...and resumes with that card (here nothing is left to play: generation 2 is done)
    expect((await train({ ...base(out, [practice]), generations: 2, resume: true })).log).toHaveLength(2);
  }, 120_000);

  it('refuses a card given twice, a card that does not parse, and more cards than games, naming them, before anything is written', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'tm-cards-bad-'));
    const out = join(parent, 'never');
    await expect(train(base(out, [practice, garden, practice]))).rejects.toThrow('cards/practice-2026.card is given twice: give each card once');
    await expect(train(base(out, [practice, { ...garden, name: 'copy.card', text: garden.text }, garden]))).rejects.toThrow(
      'copy.card and cards/garden-2026.card are the same card: give each card once',
    );
    await expect(train(base(out, [practice, { name: 'broken.card', text: 'garbage\n' }]))).rejects.toMatchObject({
      code: 'TM_CARD_SYNTAX',
      message: expect.stringMatching(/^broken\.card: card line 1: /),
    });
    await expect(train({ ...base(out), games: 1 })).rejects.toThrow('1 self-play games a generation cannot be spread over 2 cards');
    expect(existsSync(out)).toBe(false);
  });

  it('tilemate train names a card file it cannot read or parse', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tm-cards-cli-'));
    writeFileSync(join(dir, 'broken.card'), 'garbage\n');
    const run = (card: string) =>
      spawnSync(process.execPath, ['bin/tilemate.js', 'train', '--out', join(dir, 'out'), '--card', 'cards/practice-2026.card', '--card', card, '--games', '10'], { encoding: 'utf8' });
    const missing = run(join(dir, 'missing.card'));
    expect(missing.status).not.toBe(0);
    expect(missing.stderr).toContain(`cannot read card file ${join(dir, 'missing.card')}: no such file`);
    const broken = run(join(dir, 'broken.card'));
    expect(broken.status).not.toBe(0);
    expect(broken.stderr).toContain(`${join(dir, 'broken.card')}: card line 1: `);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });
});
