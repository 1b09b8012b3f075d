import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Tesseract from 'tesseract.js';
import { TilemateError } from '../engine/errors.js';

/**
 * The OCR: tesseract.js (Tesseract compiled to WebAssembly, in a worker thread of its own),
 * with the English model from the registry's @tesseract.js-data/eng, read from node_modules.
 * Nothing is fetched: the model's folder is given as a path (tesseract.js only downloads when
 * it is given no path, or a URL), the WebAssembly core is the tesseract.js-core package's,
 * and nothing is cached to disk. One worker for the process, started when the first photo
 * comes, reused, one photo at a time, ended by closeOcr().
 */

export interface OcrBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface OcrWord {
  text: string;
  /** Tesseract's confidence in the word, 0 to 100. */
  confidence: number;
  box: OcrBox;
  /** Each character's box, where the OCR gives them. */
  chars: { text: string; confidence: number; box: OcrBox }[];
}

/** The folder of the English model (the smaller, integer model, for the LSTM engine). */
function langPath(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
}

/** How a whole photo is read. */
const PAGE = {
  // sparse text: every word wherever it is; the page's layout (columns, rows, headings) is read from the words' boxes (card-photo-read.ts), as
  // tesseract's own layout analysis drops the narrow column of values between two panels
  tessedit_pageseg_mode: Tesseract.PSM.SPARSE_TEXT,
  tessedit_char_whitelist: '',
  user_defined_dpi: '300',
  preserve_interword_spaces: '1',
  // tesseract's own diagnostics (a histogram's statistics on a blank piece) go nowhere, not to standard output
  debug_file: '/dev/null',
};

let worker: Promise<Tesseract.Worker> | null = null;
/** Photos wait for the one worker in turn. */
let queue: Promise<unknown> = Promise.resolve();

async function start(): Promise<Tesseract.Worker> {
  const w = await Tesseract.createWorker('eng', Tesseract.OEM.LSTM_ONLY, {
    langPath: langPath(),
    gzip: true,
    // the model is read from node_modules each start; nothing is written beside the program
    cacheMethod: 'none',
    // tesseract.js throws a worker's failure from its message handler unless it is given one; the job's promise carries it
    errorHandler: () => {},
  });
  await w.setParameters(PAGE);
  return w;
}

function theWorker(): Promise<Tesseract.Worker> {
  if (worker === null) {
    worker = start();
    worker.catch(() => {
      worker = null;
    });
  }
  return worker;
}

/** Ends the OCR's worker (the next photo starts another). */
export async function closeOcr(): Promise<void> {
  const w = worker;
  worker = null;
  if (w !== null) await (await w.catch(() => null))?.terminate();
}

/**
 * The words of a picture (a PNG, ink dark on white), with their boxes and confidences. One
 * photo at a time; a photo the OCR has not read within `timeoutMs` is given up (TM_TOO_SLOW)
 * and its worker ended, so that one picture can never hold the reader for ever.
 */
export function ocrWords(png: Buffer, timeoutMs = 120_000): Promise<OcrWord[]> {
  return inTurn(timeoutMs, (w) => readWords(w, png));
}

/**
 * One short row of print (a value, "X 25") read again on its own, only the characters of
 * `whitelist` allowed: the OCR mistakes less in a small picture of one row whose alphabet it
 * is told.
 */
export function ocrRow(png: Buffer, whitelist: string, timeoutMs = 20_000): Promise<{ text: string; confidence: number }> {
  return inTurn(timeoutMs, async (w) => {
    await w.setParameters({ tessedit_pageseg_mode: Tesseract.PSM.SINGLE_LINE, tessedit_char_whitelist: whitelist });
    const r = await w.recognize(png, {}, { text: true });
    return { text: r.data.text.trim(), confidence: r.data.confidence };
  });
}

/**
 * Several short rows of print (values, "X 25"), stacked into one picture, read again in one
 * go as a block of rows, only the characters of `whitelist` allowed: each row of text the OCR
 * found, with its top and bottom (a caller maps them back to the pieces it stacked).
 */
export function ocrBlock(png: Buffer, whitelist: string, timeoutMs = 30_000): Promise<{ text: string; confidence: number; y0: number; y1: number }[]> {
  return inTurn(timeoutMs, async (w) => {
    await w.setParameters({ tessedit_pageseg_mode: Tesseract.PSM.SINGLE_BLOCK, tessedit_char_whitelist: whitelist });
    const r = await w.recognize(png, {}, { blocks: true, text: false });
    const rows: { text: string; confidence: number; y0: number; y1: number }[] = [];
    for (const block of r.data.blocks ?? [])
      for (const para of block.paragraphs)
        for (const line of para.lines) {
          const text = line.text.trim();
          if (text !== '') rows.push({ text, confidence: line.confidence, y0: line.bbox.y0, y1: line.bbox.y1 });
        }
    return rows;
  });
}

/** A job for the one worker, after those before it, given up after `timeoutMs` (the worker then ended). */
function inTurn<T>(timeoutMs: number, job: (w: Tesseract.Worker) => Promise<T>): Promise<T> {
  const run = queue.then(() => withWorker(timeoutMs, job));
  queue = run.catch(() => {});
  return run;
}

async function withWorker<T>(timeoutMs: number, job: (w: Tesseract.Worker) => Promise<T>): Promise<T> {
  const w = await theWorker().catch((err: unknown) => {
    throw new TilemateError('TM_INTERNAL', `the OCR could not start: ${err instanceof Error ? err.message : String(err)}`);
  });
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TilemateError('TM_TOO_SLOW', `the photo could not be read within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
  });
  try {
    return await Promise.race([job(w), late]);
  } catch (err) {
    // a worker that failed or ran late is ended: the next photo starts a fresh one
    await closeOcr();
    if (err instanceof TilemateError) throw err;
    throw new TilemateError('TM_BAD_INPUT', `the picture could not be read: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    clearTimeout(timer);
  }
}

async function readWords(w: Tesseract.Worker, png: Buffer): Promise<OcrWord[]> {
  await w.setParameters(PAGE);
  const result = await w.recognize(png, {}, { blocks: true, text: false });
  const words: OcrWord[] = [];
  for (const block of result.data.blocks ?? []) {
    for (const para of block.paragraphs) {
      for (const line of para.lines) {
        for (const word of line.words) {
          const text = word.text.trim();
          if (text === '') continue;
          words.push({
            text,
            confidence: word.confidence,
            box: { ...word.bbox },
            chars: (word.symbols ?? []).map((c) => ({ text: c.text, confidence: c.confidence, box: { ...c.bbox } })),
          });
        }
      }
    }
  }
  return words;
}
