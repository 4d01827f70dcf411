// Type-checks the hand-written web/engine/engine.d.ts by using it as a course author would.
// `tsc -p tests/types` fails if the declarations are inconsistent or too loose: each line
// marked as an expected error below must really be a type error.
import {
  AttentionError, AttentionModel, Engine, EngineLoadError, ForwardResult, Matrix, loadEngine, provideWasm, sharedEngine,
  supportsSimd, wasmSources, wasmUrls,
} from '../../web/engine/engine.js';

export async function example(): Promise<number> {
  const engine: Engine = await loadEngine({ simd: supportsSimd() });
  const same: Promise<Engine> = sharedEngine();
  void same;
  const model: AttentionModel = engine.createModel({ seqLen: 4, dModel: 8, numHeads: 2 });
  try {
    model.randomize(7);
    model.setHeadProjection('query', 0, new Float32Array(16));
    model.setAttentionOverride(1, null);
    const result: ForwardResult = model.forward(new Float32Array(32), { perHeadContributions: true });
    const weights: Matrix = result.heads[0].weights;
    const contribution: Matrix | null = result.heads[1].contribution;
    const spectrum: Float64Array = model.similaritySingularValues(0);
    const rank: number = model.similarityRank(0, 1e-6);
    const defaults: ForwardResult = model.forward(new Float32Array(32), null);
    void defaults;
    // include: the named results are there, the others are typed null.
    const lean = model.forward(new Float32Array(32), { include: ['output'], views: true });
    const out: Matrix = lean.output;
    const noQueries: null = lean.queries;
    // @ts-expect-error a result left out of include is null, not a Matrix
    const notThere: Matrix = lean.concat;
    void out; void noQueries; void notThere;
    const budget: number = engine.limits.maxForwardMultiplyAdds + engine.limits.maxSpectrumMultiplyAdds;
    const stack: number = engine.wasmStackPointer() + engine.maxArrayLength + budget;
    void stack;
    // @ts-expect-error: causal is a boolean, not the string 'false'
    engine.createModel({ seqLen: 4, dModel: 8, numHeads: 2, causal: 'false' });
    // @ts-expect-error: the limits are read-only
    engine.limits.maxSeqLen = 1;
    const target: 'wasmsimd' | 'scalar' = engine.target;
    void target;
    // @ts-expect-error: only query, key and value are projections
    model.setHeadProjection('output', 0, []);
    // @ts-expect-error: the config needs numHeads
    engine.createModel({ seqLen: 4, dModel: 8 });
    // @ts-expect-error: counts are numbers
    const wrong: string = result.counts.attention;
    void wrong;
    return weights.get(0, 0) + (contribution?.rows ?? 0) + spectrum[0] + rank + model.config.dK;
  } catch (error) {
    if (error instanceof AttentionError) return -1;
    throw error;
  } finally {
    model.delete();
  }
}

// Loading in a worker: the page posts wasmSources(), the worker passes it on; a failure says why.
export async function loadInWorker(posted: ReturnType<typeof wasmSources>): Promise<string> {
  const urls: { simd: string; scalar: string } = wasmUrls();
  void urls;
  provideWasm({ simd: new Uint8Array(8), scalar: new ArrayBuffer(8) });
  try {
    await loadEngine({ wasm: posted });
    return 'loaded';
  } catch (error) {
    if (error instanceof EngineLoadError) {
      const reason: 'csp' | 'cors' | 'network' | 'not-found' | 'not-wasm' | 'unsupported' = error.reason;
      // @ts-expect-error: reasons are a closed list
      const other: typeof error.reason = 'timeout';
      void other;
      return reason;
    }
    throw error;
  }
}
