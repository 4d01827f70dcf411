// TrainingRunner: the page's side of a training run. Normally a module worker trains
// (training-worker.js), so the page only draws what it reports. Where no worker can be made
// (a sandboxed frame has an opaque origin and may not start a worker from the lesson's URL),
// or the worker fails to load, the same TrainingLoop runs on the page in slices of ~12 ms,
// so the page still answers between slices; `inWorker` says which.
//
// handlers: onLoaded({ target, inWorker }), onLook(look, { paused }), onDone(look, analysis), onError(message);
// `paused`: the look where a pause stopped the run (looks sent before it may still arrive first).
import { trainingWasmUrls } from '../../engine/training-urls.js';
import { TrainingSession } from './training-model.js';

// A slice on the page: steps until this many ms have passed (one step takes 1 to 4 ms).
const PAGE_SLICE_MS = 12;

export class TrainingRunner {
  #worker = null;
  #workerFailed = false;
  #runId = 0;
  #handlers = null;
  #pageLoop = null;
  #requests = new Map();
  #requestId = 0;
  #settings = null;
  inWorker = false;

  get running() {
    return this.#handlers !== null;
  }

  /** Starts a fresh run of `settings` ({ task, heads, seed }); a run in progress is dropped. */
  start(settings, handlers) {
    this.stop();
    this.#handlers = handlers;
    this.#settings = settings;
    const runId = ++this.#runId;
    // The page resolves the wasm URLs (bundler-safe; see training-worker.js).
    const wasm = trainingWasmUrls();
    if (!this.#workerFailed && !this.#worker) {
      try {
        this.#worker = new Worker(new URL('./training-worker.js', import.meta.url), { type: 'module' });
        this.#worker.addEventListener('message', (event) => this.#receive(event.data));
        this.#worker.addEventListener('error', (event) => {
          event.preventDefault();
          this.#workerBroke();
        });
      } catch {
        this.#workerFailed = true;
        this.#worker = null;
      }
    }
    if (this.#worker) {
      this.inWorker = true;
      this.#worker.postMessage({ type: 'start', runId, settings, wasm });
    } else {
      this.#runHere(settings, runId, wasm);
    }
  }

  pause() {
    this.#send('pause');
    this.#pageLoop?.pause();
  }

  resume() {
    this.#send('resume');
    this.#pageLoop?.resume();
  }

  /** Ends the run and frees its model. */
  stop() {
    this.#send('stop');
    this.#pageLoop?.stop();
    this.#pageLoop = null;
    this.#handlers = null;
    for (const { reject } of this.#requests.values()) reject(new Error('the run was stopped'));
    this.#requests.clear();
  }

  /** After training: switches heads off (indices) and resolves to the new look. */
  setOff(off) {
    const requestId = ++this.#requestId;
    return new Promise((resolve, reject) => {
      this.#requests.set(requestId, { resolve, reject });
      if (this.#pageLoop) this.#pageLoop.setOff(off, requestId);
      else this.#send('off', { off, requestId });
    });
  }

  dispose() {
    this.stop();
    this.#worker?.terminate();
    this.#worker = null;
  }

  #send(type, extra = {}) {
    this.#worker?.postMessage({ type, runId: this.#runId, ...extra });
  }

  #receive(message) {
    if (message?.runId !== this.#runId) return; // a dropped run's late message
    this.#dispatch(message);
  }

  #dispatch(message) {
    const handlers = this.#handlers;
    if (message.type === 'off-look') {
      this.#requests.get(message.requestId)?.resolve(message.look);
      this.#requests.delete(message.requestId);
      return;
    }
    if (!handlers) return;
    if (message.type === 'loaded') handlers.onLoaded?.({ target: message.target, inWorker: this.inWorker });
    else if (message.type === 'look') handlers.onLook(message.look, { paused: message.paused === true });
    else if (message.type === 'done') handlers.onDone(message.look, message.analysis);
    else if (message.type === 'error') handlers.onError(message.message);
  }

  // The worker could not load (e.g. its script is refused): train on the page instead.
  #workerBroke() {
    this.#worker?.terminate();
    this.#worker = null;
    this.#workerFailed = true;
    if (this.#handlers && this.#settings) this.#runHere(this.#settings, this.#runId, trainingWasmUrls());
  }

  async #runHere(settings, runId, wasm) {
    this.inWorker = false;
    try {
      // Loaded only here: with a worker (the usual case) the page never runs the training API.
      const [{ sharedTrainingEngine }, { TrainingLoop }] = await Promise.all([import('../../engine/training.js'), import('./training-loop.js')]);
      const engine = await sharedTrainingEngine({ wasm });
      if (runId !== this.#runId || !this.#handlers) return;
      this.#dispatch({ type: 'loaded', target: engine.target });
      this.#pageLoop = new TrainingLoop(new TrainingSession(engine, settings), (message) => {
        if (runId === this.#runId) this.#dispatch(message);
      }, { sliceMs: PAGE_SLICE_MS });
      this.#pageLoop.start();
    } catch (error) {
      if (runId === this.#runId) this.#dispatch({ type: 'error', message: error?.message ?? String(error) });
    }
  }
}
