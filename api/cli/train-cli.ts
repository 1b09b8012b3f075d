import { InvalidArgumentError, type Command } from 'commander';
import type { SingleBar } from 'cli-progress';
import { AGREEMENT_GAMES, defaultWorkers, train, TRAIN_DEFAULTS, type LogRow, type TrainOptions } from '../../training/train.js';
import { HIDDEN } from '../../training/net.js';
import { FEATURE_VERSION, featureVersionWords, knownFeatureVersion } from '../../agents/mah-jongg/features.js';
import { readCardText } from '../../io/cards.js';
import { MAX_FILE_BYTES, readTextFile } from '../../io/files.js';
import { loadRuleset } from '../../engine/mah-jongg/rulesets.js';
import { count, fraction } from './options.js';
import { TilemateError } from '../../engine/errors.js';

interface TrainFlags {
  out: string;
  generations: number;
  games: number;
  workers?: number;
  seed: number;
  resume?: boolean;
  card?: string[];
  lr: number;
  from?: string;
  ruleset: string;
  evalDeals: number;
  agreementGames: number;
  window: number;
  epochs: number;
  explore: number;
  lambda: number;
  json?: boolean;
  redis?: string;
  queuePrefix: string;
  hidden?: number[];
  features?: number;
}

/** `--hidden 128,64`: one to four hidden layers, each 4 to 512 wide. */
function widths(text: string): number[] {
  const w = text.split(',').map((x) => Number(x.trim()));
  if (w.length < 1 || w.length > 4 || w.some((x) => !Number.isInteger(x) || x < 4 || x > 512)) {
    throw new InvalidArgumentError('give one to four widths between 4 and 512, separated by commas, e.g. 128,64');
  }
  return w;
}

/** `--features 2`: a feature version this Tilemate encodes. */
function featureVersion(text: string): number {
  const v = Number(text);
  if (!knownFeatureVersion(v)) throw new InvalidArgumentError(`give a feature version this Tilemate encodes: ${featureVersionWords('or')}`);
  return v;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const pts = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(2)}`;

function line(r: LogRow): string {
  const mean = r.cards === undefined ? '' : `the mean of ${r.cards.length} cards: `;
  return (
    `generation ${r.generation}: ${r.examples.toLocaleString('en-US')} examples, loss ${r.valLoss}; ${mean}the search's discard chosen ${r.searchAgreement === undefined ? 'n/a' : pct(r.searchAgreement)}, the habits' ${pct(r.habitsAgreement)}; ` +
    `win share ${pct(r.winShare)} against three medium bots, ${pts(r.vsHabits)} points vs the strong habits [${pts(r.vsHabitsLow)}, ${pts(r.vsHabitsHigh)}], ` +
    `${pts(r.vsBest)} vs the best [${pts(r.vsBestLow)}, ${pts(r.vsBestHigh)}]${r.promoted ? ': the new best' : ''} (${r.seconds} s)` +
    (r.cards ?? [])
      .map(
        (c) =>
          `\n  on ${c.card}: ${c.games} self-play games, ${c.selfPlayExamples.toLocaleString('en-US')} examples; the search's discard chosen ${c.searchAgreement === undefined ? 'n/a' : pct(c.searchAgreement)}, the habits' ${pct(c.habitsAgreement)}; ` +
          `win share ${pct(c.winShare)}, ${pts(c.vsHabits)} points vs the strong habits [${pts(c.vsHabitsLow)}, ${pts(c.vsHabitsHigh)}], ${pts(c.vsBest)} vs the best [${pts(c.vsBestLow)}, ${pts(c.vsBestHigh)}]`,
      )
      .join('')
  );
}

const collect = (value: string, list: string[] = []): string[] => [...list, value];

/** `tilemate train`: self-play generations that fit the value model behind the learned and expert bots. */
export function registerTrain(cmd: Command, exit: (code: number) => void): void {
  cmd
    .command('train')
    .description('train the value model behind the learned and expert bots: self-play in worker threads, TF.js, arena checks each generation')
    .requiredOption('--out <dir>', "the run's folder: checkpoint, examples, model.json, log.csv, log.svg")
    .option('--generations <n>', 'train until this generation', count(1, 1000), TRAIN_DEFAULTS.generations)
    .option('--games <n>', 'self-play games a generation', count(10, 1_000_000), TRAIN_DEFAULTS.games)
    .option('--workers <k>', 'worker threads (default: one per core)', count(1, 64))
    .option('--seed <n>', 'seed of the games and the network', count(0, 2 ** 31), TRAIN_DEFAULTS.seed)
    .option('--resume', 'go on with the run in --out after its last finished generation (the same --card files in the same order, --ruleset and --seed)')
    .option(
      '--card <file>',
      "a card to train on; repeat it to train on several (--card A --card B): the self-play games go to the cards in turn, and each generation's arena check and agreement measures run on every card, the log giving their mean and each card's figures; the same card twice is refused (default: the built-in practice card)",
      collect,
    )
    .option('--ruleset <name>', 'nmjl-4p, nmjl-4p-tournament, nmjl-3p or siamese-2p', TRAIN_DEFAULTS.ruleset)
    .option('--eval-deals <n>', "duplicate deals on each card in each generation's arena check", count(10, 100_000), TRAIN_DEFAULTS.evalDeals)
    .option('--agreement-games <n>', "games a generation whose discards the Monte Carlo search also decides, for the log's agreement (0: none)", count(0, 1000), AGREEMENT_GAMES)
    .option('--window <n>', 'generations of examples to train on', count(1, 50), TRAIN_DEFAULTS.window)
    .option('--epochs <n>', 'passes over the examples a generation', count(1, 50), TRAIN_DEFAULTS.epochs)
    .option('--explore <p>', 'chance of a random one of the three best choices in self-play', fraction, TRAIN_DEFAULTS.play.explore)
    .option('--lambda <l>', "TD(λ): how much each example learns from the game's outcome rather than the model's next rating (1: the outcome only)", fraction, TRAIN_DEFAULTS.play.lambda)
    .option('--lr <rate>', "Adam's step size", fraction, TRAIN_DEFAULTS.learningRate)
    .option('--hidden <widths>', `the network's hidden layers, e.g. 128,64 (default: the --from model's, else ${HIDDEN.join(',')}); a resumed run keeps its own`, widths)
    .option(
      '--features <version>',
      `the feature version the network reads (default: the --from model's, else ${FEATURE_VERSION}; this Tilemate encodes ${featureVersionWords()}); a resumed run keeps its own`,
      featureVersion,
    )
    .option('--from <model>', 'start a new run from this model file (e.g. models/value-model.json): it plays the first generation and is the best to beat')
    .option('--redis <url>', 'hand self-play and the arena checks to actor processes (`tilemate actor`) through this Redis, e.g. redis://127.0.0.1:6379', process.env.TILEMATE_REDIS_URL)
    .option('--queue-prefix <name>', 'the Redis key prefix the learner and its actors share', 'tilemate')
    .option('--json', 'print one JSON summary at the end')
    .action(async (f: TrainFlags) => {
      loadRuleset(f.ruleset); // an unknown name is refused before anything starts
      const opts: TrainOptions = {
        out: f.out,
        generations: f.generations,
        games: f.games,
        workers: f.workers ?? defaultWorkers(),
        seed: f.seed,
        resume: f.resume === true,
        cards: f.card === undefined ? [{ name: 'the built-in practice card', text: readCardText() }] : f.card.map((file) => ({ name: file, text: readCardText(file) })),
        ruleset: f.ruleset,
        evalDeals: f.evalDeals,
        agreementGames: f.agreementGames,
        window: f.window,
        epochs: f.epochs,
        learningRate: f.lr,
        ...(f.from === undefined ? {} : { from: readTextFile(f.from, MAX_FILE_BYTES.model, 'model file'), fromName: `model file ${f.from}` }),
        ...(f.redis === undefined ? {} : { queue: { url: f.redis, prefix: f.queuePrefix } }),
        ...(f.hidden === undefined ? {} : { hidden: f.hidden }),
        ...(f.features === undefined ? {} : { featureVersion: f.features }),
        play: { ...TRAIN_DEFAULTS.play, explore: f.explore, lambda: f.lambda },
        command: `tilemate train ${process.argv.slice(3).join(' ')}`.trim(),
      };
      const say = (text: string) => {
        if (!f.json) process.stderr.write(`${text}\n`);
      };
      const { MultiBar, Presets } = await import('cli-progress');
      const bars =
        process.stderr.isTTY && !f.json ? new MultiBar({ format: '{what} {bar} {value}/{total} | {eta_formatted} left', hideCursor: true, clearOnComplete: true }, Presets.shades_classic) : null;
      let bar: SingleBar | null = null;
      const { log, backend } = await train(opts, {
        backend: (name) => say(`TensorFlow.js backend: ${name}`),
        phase: (what, g, total) => {
          bar?.stop();
          if (bars) {
            bars.remove(bar!);
            bar = bars.create(total, 0, { what: `generation ${g} ${what === 'selfplay' ? 'self-play games' : what === 'train' ? 'training steps' : 'arena deals'}` });
          }
        },
        tick: (done) => bar?.update(done),
        queue: (q) => {
          if (q.actors === 0) say(`${q.waiting} jobs wait for an actor: start one on any machine with: tilemate actor --redis ${f.redis} --queue-prefix ${f.queuePrefix}`);
        },
        generation: (row) => {
          bar?.stop();
          bars?.log(`${line(row)}\n`);
          if (!bars) say(line(row));
        },
      });
      bars?.stop();
      const best = [...log].reverse().find((r) => r.promoted);
      if (f.json) process.stdout.write(`${JSON.stringify({ out: f.out, backend, generations: log.length, bestGeneration: best?.generation ?? null, log })}\n`);
      else say(best ? `best model: generation ${best.generation}, ${f.out}/model.json` : 'no generation beat the strong habits yet: no model written');
      exit(0);
    });
}

interface ActorFlags {
  redis: string;
  queuePrefix: string;
  threads?: number;
  lockSeconds: number;
}

/** `tilemate actor`: plays a learner's self-play and arena jobs from Redis until stopped. */
export function registerActor(cmd: Command, exit: (code: number) => void): void {
  cmd
    .command('actor')
    .description('play the self-play and arena jobs of a `tilemate train --redis` run, in worker threads, until stopped (Ctrl-C); any number may join and leave')
    .option('--redis <url>', "the learner's Redis, e.g. redis://127.0.0.1:6379", process.env.TILEMATE_REDIS_URL)
    .option('--queue-prefix <name>', 'the Redis key prefix the learner and its actors share', 'tilemate')
    .option('--threads <k>', 'worker threads (default: one per core)', count(1, 64))
    .option('--lock-seconds <s>', "how long a job stays this actor's without word from it: a killed actor's jobs go to another after about this", count(2, 600), 30)
    .action(async (f: ActorFlags) => {
      if (f.redis === undefined) throw new TilemateError('TM_BAD_INPUT', "an actor needs the learner's Redis: --redis redis://host:6379 (or TILEMATE_REDIS_URL)");
      const threads = f.threads ?? defaultWorkers();
      let jobs = 0,
        games = 0;
      // BullMQ and its Redis client are loaded only here (they take most of the command line's start-up)
      const { startActor } = await import('../../training/queue.js');
      const actor = await startActor({
        url: f.redis,
        prefix: f.queuePrefix,
        threads,
        lockMs: f.lockSeconds * 1000,
        onJob: (kind, seconds, n) => {
          jobs++;
          games += n;
          process.stderr.write(`job ${jobs}: ${n} ${kind === 'eval' ? 'arena deals' : 'games'} in ${seconds.toFixed(1)} s (${games} in all)\n`);
        },
      });
      process.stderr.write(`actor ready: ${threads} worker thread${threads === 1 ? '' : 's'}, taking jobs from ${f.redis} (prefix ${f.queuePrefix})\n`);
      const stop = () => {
        actor.close().then(
          () => exit(0),
          () => exit(1),
        );
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
}
