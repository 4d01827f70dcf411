// Loads the built web modules in Node the way the notes prescribe for Emscripten 3.1.6:
// the same ENVIRONMENT=web artifact the page uses, given its wasm bytes directly.
import { readFileSync } from 'node:fs';
import { loadEngine } from '../../web/engine/engine.js';
import { loadTrainingEngine } from '../../web/engine/training.js';

export const BUILDS = ['simd', 'scalar'];

export function wasmPath(build) {
  return new URL(`../../web/generated/multiple_heads_${build}.wasm`, import.meta.url);
}

export function loadTestEngine(build = 'simd') {
  return loadEngine({ simd: build === 'simd', wasmBinary: readFileSync(wasmPath(build)) });
}

/** The training module (web/engine/training.js) of one build, given its wasm bytes. */
export function loadTestTrainingEngine(build = 'simd') {
  const path = new URL(`../../web/generated/multiple_heads_train_${build}.wasm`, import.meta.url);
  return loadTrainingEngine({ simd: build === 'simd', wasmBinary: readFileSync(path) });
}

/** Deterministic pseudo-random floats in [-1, 1) (xorshift32). */
export function randomArray(length, seed) {
  let state = seed >>> 0 || 0x9e3779b9;
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) {
    state ^= state << 13; state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5; state >>>= 0;
    out[i] = (state >>> 8) / 16777216 * 2 - 1;
  }
  return out;
}
