// Times real forward passes off the main thread, so the page stays responsive while the
// core works. It loads its own copy of the core (a worker cannot share the page's).
//
// In:  { type: 'measure', runId, seqLen, config, wasm } (config: the widget's lesson data;
//      wasm: the page's wasmSources(), the wasm URLs as the page's bundler resolved them,
//      or the bytes: this worker may have been re-bundled, and its own idea of the wasm
//      file's name is not to be trusted)
// Out: { type: 'progress', runId, fraction, index }
//      { type: 'result', runId, index, medianMs, samples, passesPerSample, config, counts }
//      { type: 'done', runId, target } or { type: 'error', runId, message }
// In:  { type: 'counts', shapes, config, wasm } (counts-prefetch.js: the counts of the
//      shapes a learner stepping L needs next, computed ahead off the page's main thread)
// Out: { type: 'counts', shape, value } for each shape (value: countsOfShape's), then
//      { type: 'counts-done' }, or { type: 'counts-error', message }
// Cancelling is done by the page terminating this worker.
import { loadEngine } from '../../engine/engine.js';
import { countsOfShape, measureConfiguration } from './head-splitting-model.js';

const PROGRESS_INTERVAL_MS = 100;
let enginePromise = null;

self.addEventListener('message', async (event) => {
  const { type, runId, seqLen, config, wasm, shapes } = event.data ?? {};
  if (type === 'counts') {
    try {
      enginePromise ??= loadEngine({ wasm });
      const engine = await enginePromise;
      for (const shape of shapes) self.postMessage({ type: 'counts', shape, value: countsOfShape(engine, config, shape) });
      self.postMessage({ type: 'counts-done' });
    } catch (error) {
      self.postMessage({ type: 'counts-error', message: error?.message ?? String(error) });
    }
    return;
  }
  if (type !== 'measure') return;
  try {
    enginePromise ??= loadEngine({ wasm });
    const engine = await enginePromise;
    const { configurations } = config;
    for (let index = 0; index < configurations.length; index++) {
      const { dModel, heads } = configurations[index];
      let lastPost = 0;
      const onProgress = (part) => {
        const now = performance.now();
        if (now - lastPost < PROGRESS_INTERVAL_MS) return;
        lastPost = now;
        self.postMessage({ type: 'progress', runId, index, fraction: (index + part) / configurations.length });
      };
      onProgress(0);
      const result = measureConfiguration(engine, config, { dModel, heads, seqLen }, { onProgress });
      self.postMessage({ type: 'result', runId, index, ...result });
      // Let the page's messages and the browser breathe between configurations.
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    self.postMessage({ type: 'done', runId, target: engine.target });
  } catch (error) {
    self.postMessage({ type: 'error', runId, message: error?.message ?? String(error) });
  }
});
