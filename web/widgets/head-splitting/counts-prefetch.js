// CountsPrefetch: the counts a learner stepping L needs next (L - 1 and L + 1), computed
// ahead in a worker (measure-worker.js, an instance of its own) while the learner looks at
// the current ones. A new L then needs no forward pass on the page's main thread: at
// d_model 512 each new L took three passes there (the shape, one wide head, the
// configurations' table), 40-50 ms unthrottled and several long tasks on a slow phone
// (issue 25). The worker's counts are the same core's counts of the same passes; the page
// keeps them only where it has none (SplitModels.keepCounts), and computes on the main
// thread, as before, whatever has not arrived when it is needed. Where no worker can be
// made, or it fails, nothing is prefetched and everything works as before.
import { wasmSources } from '../../engine/engine.js';

export class CountsPrefetch {
  #worker = null;
  #busy = false;
  #wanted = null;
  #failed = false;

  /** `models`: the widget's SplitModels; `config`: its configuration (posted to the worker). */
  constructor(models, config) {
    this.models = models;
    this.config = config;
  }

  /** Asks for the counts the learner may need after `state` (the latest ask wins). */
  want(state) {
    if (this.#failed) return;
    this.#wanted = state;
    if (!this.#busy) this.#next();
  }

  dispose() {
    this.#worker?.terminate();
    this.#worker = null;
    this.#failed = true;
  }

  #next() {
    const state = this.#wanted;
    this.#wanted = null;
    const shapes = state ? this.models.neighbourShapes(state) : [];
    if (shapes.length === 0) return;
    if (!this.#worker && !this.#start()) return;
    this.#busy = true;
    this.#worker.postMessage({ type: 'counts', shapes, config: this.config, wasm: wasmSources() });
  }

  #start() {
    try {
      this.#worker = new Worker(new URL('./measure-worker.js', import.meta.url), { type: 'module' });
    } catch {
      this.#failed = true; // a sandboxed frame (opaque origin) may not start one
      return false;
    }
    this.#worker.addEventListener('message', (event) => this.#receive(event.data));
    this.#worker.addEventListener('error', (event) => {
      event.preventDefault();
      this.dispose();
    });
    return true;
  }

  #receive(message) {
    if (message?.type === 'counts') this.models.keepCounts(message.shape, message.value);
    else if (message?.type === 'counts-done') {
      this.#busy = false;
      this.#next();
    } else if (message?.type === 'counts-error') this.dispose();
  }
}
