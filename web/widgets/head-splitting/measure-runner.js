// MeasureRunner: the page's side of the timing. Normally a module worker runs the forward
// passes off the main thread, so the page stays responsive; it keeps its loaded core
// between runs, and cancel() terminates it (a forward pass in progress cannot be stopped
// any other way). Where no worker can be made (a sandboxed frame has an opaque origin, and
// may not start a worker from the lesson's URL), the same timing loop runs on the page,
// one sample per task, so the page still answers between samples; the result says so.
import { wasmSources } from '../../engine/engine.js';
import { measureSteps } from './head-splitting-model.js';

export class MeasureRunner {
  #worker = null;
  #runId = 0;
  #handlers = null;
  #timer = 0;
  #steps = null;

  /** `engine`: the page's engine, for the fallback without a worker. */
  constructor(engine) {
    this.engine = engine;
  }

  get running() {
    return this.#handlers !== null;
  }

  /**
   * Starts timing `config.configurations` at sequence length `seqLen` (config: the
   * widget's configuration, which also holds the seeds and the timing budget).
   * handlers: onProgress(fraction), onResult(index, result), onDone({ target, inWorker }),
   * onError(message).
   */
  start(config, seqLen, handlers) {
    if (this.running) return;
    this.#handlers = handlers;
    const runId = ++this.#runId;
    if (!this.#worker) {
      try {
        this.#worker = new Worker(new URL('./measure-worker.js', import.meta.url), { type: 'module' });
      } catch {
        this.#runHere(config, seqLen, runId);
        return;
      }
      this.#worker.addEventListener('message', (event) => this.#receive(event.data));
      this.#worker.addEventListener('error', (event) => {
        event.preventDefault();
        this.#fail(`the measuring worker could not run (${event.message || 'it failed to load'})`);
      });
    }
    // The wasm's address comes from the page (see loadEngine in engine.js).
    this.#worker.postMessage({ type: 'measure', runId, seqLen, config, wasm: wasmSources() });
  }

  cancel() {
    this.#worker?.terminate();
    this.#worker = null;
    clearTimeout(this.#timer);
    this.#steps?.return(); // frees the model of a run on the page
    this.#steps = null;
    this.#handlers = null;
  }

  dispose() {
    this.cancel();
  }

  #receive(message) {
    const handlers = this.#handlers;
    if (!handlers || message?.runId !== this.#runId) return; // a cancelled run's late message
    if (message.type === 'progress') handlers.onProgress(message.fraction);
    else if (message.type === 'result') handlers.onResult(message.index, message);
    else if (message.type === 'done') {
      this.#handlers = null;
      handlers.onDone({ target: message.target, inWorker: true });
    } else if (message.type === 'error') this.#fail(message.message);
  }

  #runHere(config, seqLen, runId) {
    const { configurations } = config;
    let index = 0;
    const tick = () => {
      const handlers = this.#handlers;
      if (!handlers || runId !== this.#runId) return;
      try {
        this.#steps ??= measureSteps(this.engine, config, { ...configurations[index], seqLen });
        const { value, done } = this.#steps.next();
        if (!done) {
          handlers.onProgress((index + value) / configurations.length);
        } else {
          this.#steps = null;
          handlers.onResult(index, value);
          if (++index === configurations.length) {
            this.#handlers = null;
            handlers.onDone({ target: this.engine.target, inWorker: false });
            return;
          }
        }
        this.#timer = setTimeout(tick, 0);
      } catch (error) {
        this.#fail(error.message);
      }
    };
    this.#timer = setTimeout(tick, 0);
  }

  #fail(text) {
    const handlers = this.#handlers;
    this.cancel();
    handlers?.onError(text);
  }
}
