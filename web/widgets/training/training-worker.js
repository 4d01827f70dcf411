// Trains off the page's thread, so the page stays responsive while the core works. It loads
// its own training module (a worker cannot share the page's), from the wasm URLs the page
// resolved (trainingWasmUrls() on the page: a bundler renames the files, and only the page's
// own code is rewritten to the new names).
//
// In:  { type: 'start', runId, settings: { task, heads, seed }, wasm: { simd, scalar } }
//      { type: 'pause' | 'resume' | 'stop', runId }
//      { type: 'off', runId, off, requestId }     (after training: heads switched off)
// Out: { type: 'loaded', runId, target }, then TrainingLoop's messages (see training-loop.js),
//      each with its runId.
import { loadTrainingEngine } from '../../engine/training.js';
import { TrainingSession } from './training-model.js';
import { TrainingLoop } from './training-loop.js';

let enginePromise = null;
let loop = null;
let currentRun = 0;

self.addEventListener('message', async (event) => {
  const { type, runId, settings, wasm, off, requestId } = event.data ?? {};
  if (type === 'start') {
    loop?.stop();
    loop = null;
    currentRun = runId;
    try {
      enginePromise ??= loadTrainingEngine({ wasm });
      const engine = await enginePromise;
      if (runId !== currentRun) return; // a newer start arrived while the module loaded
      self.postMessage({ type: 'loaded', runId, target: engine.target });
      loop = new TrainingLoop(new TrainingSession(engine, settings), (message) => self.postMessage({ ...message, runId }));
      loop.start();
    } catch (error) {
      enginePromise = null;
      self.postMessage({ type: 'error', runId, message: error?.message ?? String(error) });
    }
    return;
  }
  if (runId !== currentRun) return;
  if (type === 'stop') {
    // Also while the module is still loading: the run is over, so the load must not start it
    // (a Reset during the load once left the worker training for the rest of the visit).
    currentRun = 0;
    loop?.stop();
    loop = null;
    return;
  }
  if (!loop) return;
  if (type === 'pause') loop.pause();
  else if (type === 'resume') loop.resume();
  else if (type === 'off') loop.setOff(off, requestId);
});
