// The friendly JavaScript API over the raw Embind module (bindings/). See engine.d.ts for
// the documented types. This layer:
//  * picks the SIMD or the scalar wasm build at load time (feature detection);
//  * turns the raw layer's error strings into thrown AttentionError objects;
//  * copies every result out of the wasm heap at once (memory growth detaches views);
//  * owns object lifetimes: each AttentionModel wraps one C++ object, freed by delete().

/** Thrown for every invalid argument; `message` is the core's own message. */
export class AttentionError extends Error {
  constructor(message) {
    super(message);
    this.name = 'AttentionError';
  }
}

// A minimal module with one function returning v128: `i32.const 0; i8x16.splat;
// i8x16.popcnt`. Engines without SIMD128 fail to validate it.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253,
  15, 253, 98, 11,
]);

/** True when this JavaScript engine can run the SIMD128 build. */
export function supportsSimd() {
  try {
    return WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

const PROJECTION_INDEX = { query: 0, key: 1, value: 2 };
const WEIGHT_INDEX = { query: 0, key: 1, value: 2, output: 3 };

function check(errorMessage) {
  if (errorMessage) throw new AttentionError(errorMessage);
}

function unwrap(result) {
  if (result.error) throw new AttentionError(result.error);
  return result;
}

function checkMatrix(matrix, what) {
  if (matrix == null || !Number.isInteger(matrix.rows) || !Number.isInteger(matrix.cols)) {
    throw new AttentionError(`${what}: expected a Matrix ({ rows, cols, data })`);
  }
  return { rows: matrix.rows, cols: matrix.cols, data: toFloat32(matrix.data, what) };
}

function toFloat32(values, what) {
  if (values instanceof Float32Array) return values;
  if (values == null || typeof values !== 'object' || typeof values.length !== 'number') {
    throw new AttentionError(`${what}: expected an array of numbers`);
  }
  return Float32Array.from(values, (v) => (typeof v === 'number' ? v : NaN));
}

/** A row-major matrix copied out of the core. */
export class Matrix {
  constructor(rows, cols, data) {
    this.rows = rows;
    this.cols = cols;
    this.data = data;
  }
  get(row, col) {
    return this.data[row * this.cols + col];
  }
  row(row) {
    return this.data.slice(row * this.cols, (row + 1) * this.cols);
  }
}

class Engine {
  constructor(module, target) {
    this.module = module;
    this.target = target;
    this.live = new Set();
  }

  createModel(config) {
    const { seqLen, dModel, numHeads, causal = false } = config ?? {};
    for (const [name, value] of [['seqLen', seqLen], ['dModel', dModel], ['numHeads', numHeads]]) {
      if (!Number.isInteger(value)) {
        throw new AttentionError(`${name}: expected a whole number, got ${String(value)}`);
      }
    }
    const raw = new this.module.RawModel();
    const error = raw.configure(seqLen, dModel, numHeads, Boolean(causal));
    if (error) {
      raw.delete();
      throw new AttentionError(error);
    }
    const model = new AttentionModel(this, raw);
    this.live.add(model);
    return model;
  }

  get liveModels() {
    return this.live.size;
  }

  heapBytesInUse() {
    return this.module.heapBytesInUse();
  }

  get eigenSimdInstructionSets() {
    return this.module.eigenSimdInstructionSets();
  }

  cosineSimilarity(a, b) {
    return unwrap(this.module.cosineSimilarity(toFloat32(a, 'first vector'), toFloat32(b, 'second vector'))).value;
  }

  softmax(scores) {
    return unwrap(this.module.softmax(toFloat32(scores, 'scores'))).values;
  }

  componentAlong(matrix, direction) {
    const { rows, cols, data } = checkMatrix(matrix, 'matrix');
    return unwrap(this.module.componentAlong(data, rows, cols, toFloat32(direction, 'direction u'))).values;
  }

  findAlternativeWeights(values, weights) {
    const { rows, cols, data } = checkMatrix(values, 'values');
    const { error, ...result } = unwrap(this.module.findAlternativeWeights(data, rows, cols, toFloat32(weights, 'weights')));
    return result;
  }

  nearestByCosine(readings, candidates) {
    const r = checkMatrix(readings, 'readings');
    const c = checkMatrix(candidates, 'candidates');
    const { choice, cosines } = unwrap(this.module.nearestByCosine(r.data, r.rows, r.cols, c.data, c.rows));
    return { choice, cosines: new Matrix(r.rows, c.rows, cosines) };
  }

  principalPlane(points, extra = { rows: 0, cols: points?.cols ?? 0, data: [] }) {
    const p = checkMatrix(points, 'points');
    const e = checkMatrix(extra, 'extra points');
    const plane = unwrap(this.module.principalPlane(p.data, p.rows, p.cols, e.data, e.rows));
    return {
      centre: plane.centre,
      axes: new Matrix(2, p.cols, plane.axes),
      coordinates: new Matrix(p.rows, 2, plane.coordinates),
      extraCoordinates: new Matrix(e.rows, 2, plane.extraCoordinates),
      explained: plane.explained,
    };
  }

  seededMatrix(rows, cols, seed, scale = 1) {
    if (!Number.isInteger(rows) || !Number.isInteger(cols) || !Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
      throw new AttentionError('seededMatrix: rows, cols and seed must be whole numbers (seed from 0 to 4294967295)');
    }
    return new Matrix(rows, cols, unwrap(this.module.seededMatrix(rows, cols, seed, scale)).values);
  }
}

export class AttentionModel {
  constructor(engine, raw) {
    this.engine = engine;
    this.raw = raw;
    this.config = Object.freeze({
      seqLen: raw.seqLen(),
      dModel: raw.dModel(),
      numHeads: raw.numHeads(),
      causal: raw.causal(),
      dK: raw.dModel() / raw.numHeads(),
    });
  }

  get deleted() {
    return this.raw === null;
  }

  delete() {
    if (this.raw === null) return;
    this.raw.delete();
    this.raw = null;
    this.engine.live.delete(this);
  }

  #alive() {
    if (this.raw === null) throw new AttentionError('this AttentionModel has been deleted');
    return this.raw;
  }

  randomize(seed) {
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
      throw new AttentionError(`seed: expected a whole number from 0 to 4294967295, got ${seed}`);
    }
    check(this.#alive().randomize(seed));
  }

  setHeadProjection(kind, head, values) {
    const index = PROJECTION_INDEX[kind];
    if (index === undefined) throw new AttentionError(`projection: expected "query", "key" or "value", got ${kind}`);
    check(this.#alive().setHeadProjection(index, head, toFloat32(values, `W_${kind[0].toUpperCase()} of head ${head}`)));
  }

  setProjection(kind, values) {
    const index = PROJECTION_INDEX[kind];
    if (index === undefined) throw new AttentionError(`projection: expected "query", "key" or "value", got ${kind}`);
    check(this.#alive().setProjection(index, toFloat32(values, `W_${kind[0].toUpperCase()}`)));
  }

  setOutputProjection(values) {
    check(this.#alive().setOutputProjection(toFloat32(values, 'W_O')));
  }

  getWeights(kind) {
    const index = WEIGHT_INDEX[kind];
    if (index === undefined) throw new AttentionError(`weights: expected "query", "key", "value" or "output", got ${kind}`);
    const d = this.config.dModel;
    return new Matrix(d, d, new Float32Array(this.#alive().weights(index)));
  }

  setAttentionOverride(head, weights) {
    const raw = this.#alive();
    if (weights === null) check(raw.clearAttentionOverride(head));
    else check(raw.setAttentionOverride(head, toFloat32(weights, `attention weights of head ${head}`)));
  }

  renormalizeRows(weights) {
    const raw = this.#alive();
    check(raw.renormalizeRows(toFloat32(weights, 'weights to renormalize')));
    return new Float32Array(raw.renormalized());
  }

  forward(x, options = {}) {
    const raw = this.#alive();
    const { perHeadContributions = true, keepAttention = true } = options;
    check(raw.forward(toFloat32(x, 'X'), Boolean(perHeadContributions), Boolean(keepAttention)));
    const { seqLen: L, dModel: d, numHeads: h, dK } = this.config;
    // One copy of the packed trace (layout in bindings/multiple_heads_bindings.cpp), made
    // at once: a later call may grow the wasm memory and detach the view. The matrices
    // below are views into this JS-owned copy.
    const packed = new Float32Array(raw.packedTrace());
    let offset = 0;
    const take = (rows, cols) => {
      const m = new Matrix(rows, cols, packed.subarray(offset, offset + rows * cols));
      offset += rows * cols;
      return m;
    };
    const [queries, keys, values, concat, output] = [0, 1, 2, 3, 4].map(() => take(L, d));
    const heads = [];
    for (let i = 0; i < h; i++) {
      heads.push({
        scores: keepAttention ? take(L, L) : null,
        weights: keepAttention ? take(L, L) : null,
        output: take(L, dK),
        contribution: perHeadContributions ? take(L, d) : null,
        weightsOverridden: take(1, 1).data[0] === 1,
      });
    }
    const counts = raw.counts();
    return {
      queries, keys, values, heads, concat, output,
      counts: { ...counts, attention: counts.scores + counts.weightedSum },
    };
  }

  similaritySingularValues(head) {
    const raw = this.#alive();
    check(raw.computeSimilaritySpectrum(head));
    return new Float64Array(raw.spectrum());
  }

  /**
   * The numerical rank of head's W_Q^i (W_K^i)^T: how many of its singular values exceed
   * relativeTolerance times the largest, counted by the core (numerical_rank). The exact
   * zeros of a rank-deficient product come out of double-precision arithmetic near 1e-16
   * times the largest, hence a tolerance rather than a test for 0.
   */
  similarityRank(head, relativeTolerance = 1e-6) {
    if (typeof relativeTolerance !== 'number' || !(relativeTolerance >= 0 && relativeTolerance < 1)) {
      throw new AttentionError(`relativeTolerance: expected a number from 0 up to (not including) 1, got ${String(relativeTolerance).slice(0, 40)}`);
    }
    const raw = this.#alive();
    check(raw.computeSimilaritySpectrum(head));
    return raw.spectrumRank(relativeTolerance);
  }
}

/**
 * Loads the wasm core. In a browser call it with no options; in Node pass `wasmBinary`
 * (Emscripten 3.1.6's web build cannot fetch files in Node).
 */
export async function loadEngine(options = {}) {
  const { simd = 'auto', wasmBinary } = options;
  const useSimd = simd === 'auto' ? supportsSimd() : Boolean(simd);
  const factoryModule = useSimd
    ? await import('../generated/multiple_heads_simd.mjs')
    : await import('../generated/multiple_heads_scalar.mjs');
  const moduleOptions = wasmBinary ? { wasmBinary } : {};
  const module = await factoryModule.default(moduleOptions);
  return new Engine(module, module.kernelTarget());
}

let shared = null;
/** The one engine shared by every widget on a page, loaded on first use. */
export function sharedEngine() {
  shared ??= loadEngine().catch((error) => {
    shared = null;
    throw error;
  });
  return shared;
}
