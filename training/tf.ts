import { createRequire } from 'node:module';
import { dirname } from 'node:path';

/**
 * TensorFlow.js for training: the native binding (@tensorflow/tfjs-node, an optional
 * dependency whose install downloads libtensorflow) when it loads, and otherwise the WASM
 * backend, which needs nothing but the npm packages. `backend` says which one runs.
 */
export type TF = typeof import('@tensorflow/tfjs');

let loaded: { tf: TF; backend: string; why: string } | null = null;

export async function loadTf(): Promise<{ tf: TF; backend: string; why: string }> {
  if (loaded) return loaded;
  let why = '';
  try {
    const tf = (await import('@tensorflow/tfjs-node' as string)) as TF;
    loaded = { tf, backend: tf.getBackend(), why: 'native binding (@tensorflow/tfjs-node)' };
    return loaded;
  } catch (err) {
    why = (err as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' ? '@tensorflow/tfjs-node is not installed' : '@tensorflow/tfjs-node did not load';
  }
  const tf = await import('@tensorflow/tfjs');
  const wasm = await import('@tensorflow/tfjs-backend-wasm');
  // the .wasm files ship in the package's dist folder
  const require = createRequire(import.meta.url);
  wasm.setWasmPaths(`${dirname(require.resolve('@tensorflow/tfjs-backend-wasm'))}/`);
  await tf.setBackend('wasm');
  await tf.ready();
  loaded = { tf, backend: tf.getBackend(), why: `WASM (${why})` };
  return loaded;
}
