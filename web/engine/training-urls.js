// A module of its own so that the training widget knows where the training module's files
// are without loading the training API (training.js): the page trains itself only where no
// worker can be made, and loads that API then (issue 23: about 3 kB gzipped off the widget).

/**
 * The training module's two wasm files, as the calling page resolves them: with
 * `new URL('<literal>', import.meta.url)`, which a bundler (Vite) rewrites to the hashed
 * asset it emits. A worker gets these from the page in a message instead of resolving them
 * itself (a worker bundled a second time would ask for a name that no longer exists).
 */
export function trainingWasmUrls() {
  return {
    simd: new URL('../generated/multiple_heads_train_simd.wasm', import.meta.url).href,
    scalar: new URL('../generated/multiple_heads_train_scalar.wasm', import.meta.url).href,
  };
}
