/**
 * Multiple Heads: the typed JavaScript API of the multi-head attention core (C++ compiled
 * to WebAssembly). Every number the lesson shows is computed through this API.
 *
 * Lifetimes: an {@link AttentionModel} owns memory inside the wasm module. Call
 * {@link AttentionModel.delete} when you are done with it; JavaScript's garbage collector
 * does not free it. Results ({@link Matrix}, typed arrays) are plain copies and need no care,
 * except those of `forward(x, { views: true })`: see {@link ForwardOptions.views}.
 *
 * Errors: every invalid argument throws an {@link AttentionError} whose message names the
 * argument (e.g. `X: entry (1, 1) is NaN; every value must be a finite number`). A failed
 * call leaves the model exactly as it was.
 *
 * Arguments are read and checked in JavaScript before the core is entered, so that nothing
 * a caller passes can throw inside the wasm module (which would leak its stack):
 * - arrays (`ArrayLike<number>`) are copied: a typed array by its real length (an own
 *   `length` property is ignored), any other array-like by a `length` read once, which must
 *   be a whole number from 0 to {@link Engine.maxArrayLength}; entries that are not numbers
 *   become NaN (and are then refused by the core); a getter that throws is an AttentionError;
 * - whole numbers (sizes, head indices) must be integers within the C++ `int` range (and
 *   seeds within 0 .. 2^32 - 1): 2^32 + 3, 1.7, "1" and null are refused, never wrapped or
 *   rounded; the core then checks the range;
 * - flags (`causal`, forward options) must be `true`, `false` or absent;
 * - names (`'query'`, `'output'`, ...) are matched exactly: `'toString'` is not a projection.
 *
 * Work budget: a call whose planned work exceeds {@link CoreLimits.maxForwardMultiplyAdds}
 * (forward) or {@link CoreLimits.maxSpectrumMultiplyAdds} (similaritySingularValues) is
 * refused before any work, with an AttentionError naming the limit, so that no call can
 * hold the page's main thread for minutes.
 */

/** Thrown for every invalid argument; the message is the core's own. */
export declare class AttentionError extends Error {
  constructor(message: string);
  readonly name: 'AttentionError';
}

/** True when this JavaScript engine validates WebAssembly SIMD128 code. */
export declare function supportsSimd(): boolean;

/** A row-major matrix copied out of the core. */
export declare class Matrix {
  readonly rows: number;
  readonly cols: number;
  /** rows * cols values, row after row. */
  readonly data: Float32Array;
  /** Entry (row, col), both counted from 0. */
  get(row: number, col: number): number;
  /** A copy of one row. */
  row(row: number): Float32Array;
}

/** Shape of a model: L tokens of width d_model, split into h heads of width d_model / h. */
export interface AttentionConfigInput {
  /** L, the number of tokens: a whole number from 1 to {@link CoreLimits.maxSeqLen} (4096). */
  seqLen: number;
  /** d_model, the model width: a whole number from 1 to {@link CoreLimits.maxModelWidth} (4096). */
  dModel: number;
  /** h, the number of heads; must divide dModel. */
  numHeads: number;
  /**
   * When true, token t attends only to tokens 0..t. Default false (bidirectional). Only
   * true, false or undefined: 'false' or 0 are refused.
   */
  causal?: boolean;
}

export interface AttentionConfig extends Required<AttentionConfigInput> {
  /** d_k = d_v = dModel / numHeads, the width of each head. */
  readonly dK: number;
}

/**
 * Multiply-add counts of one forward pass, added up by the core as it did the work.
 * `attention` = `scores` + `weightedSum` = 2 L^2 d_model, whatever the number of heads.
 */
export interface OperationCounts {
  /** X W_Q, X W_K, X W_V: 3 L d_model^2. */
  projections: number;
  /** Q_i K_i^T over all heads: h L^2 d_k = L^2 d_model. */
  scores: number;
  /** weights_i V_i over all heads: h L^2 d_k = L^2 d_model. */
  weightedSum: number;
  /** Concat W_O: L d_model^2. */
  output: number;
  /** exp() evaluations in the softmax: h L^2 (0 for heads with supplied weights). */
  exponentials: number;
  /** scores + weightedSum. */
  attention: number;
}

/** What one head computed. */
export interface HeadResult {
  /** L x L: Q_i K_i^T / sqrt(d_k). Masked entries (causal) are -Infinity. (null if keepAttention is false) */
  scores: Matrix;
  /** L x L attention weights; each row is non-negative and sums to 1. (null if keepAttention is false) */
  weights: Matrix;
  /** L x d_k: weights V_i, one weighted average of value vectors per token. */
  output: Matrix;
  /** L x d_model: head_i W_O^i, this head's share of the output; null if not requested. */
  contribution: Matrix | null;
  /** True when the weights were supplied with setAttentionOverride, not computed by softmax. */
  weightsOverridden: boolean;
}

/** Every intermediate of one forward pass (what forward() returns without `include`). */
export interface ForwardResult {
  /** L x d_model: X W_Q. Head i's queries are columns i*d_k .. (i+1)*d_k - 1. */
  queries: Matrix;
  /** L x d_model: X W_K. */
  keys: Matrix;
  /** L x d_model: X W_V. */
  values: Matrix;
  heads: HeadResult[];
  /** L x d_model: [head_1 | ... | head_h]; head i owns its slice of columns. */
  concat: Matrix;
  /** L x d_model: Concat W_O = sum of the heads' contributions. */
  output: Matrix;
  /** Always present. */
  counts: OperationCounts;
}

/**
 * What forward() returns with `include: [...names]`: the named results as in
 * {@link ForwardResult}, every other one null (the counts always come).
 */
export type PartialForwardResult<Name extends ForwardResultName> = {
  [K in ForwardResultName]: K extends Name ? ForwardResult[K] : null;
} & { counts: OperationCounts };

/** The results {@link ForwardOptions.include} can name. */
export type ForwardResultName = 'queries' | 'keys' | 'values' | 'heads' | 'concat' | 'output';

/** Options of {@link AttentionModel.forward}: true, false or absent (the default) each. */
export interface ForwardOptions {
  /** Also compute each head's contribution head_i W_O^i. Default true. */
  perHeadContributions?: boolean;
  /**
   * Keep each head's L x L scores and weights. Default true. With false (the lean path,
   * for timing) they are null and no L x L matrix is stored; head outputs, concat, output
   * and counts are the same.
   */
  keepAttention?: boolean;
  /**
   * Which results to return; the others are null and cost nothing to copy (and leaving out
   * 'heads' also skips copying each head's output out of Concat). Default: all of them.
   * Names are matched exactly; anything else is an AttentionError. The counts always come.
   * E.g. `{ include: ['output'] }` for a caller that needs only the layer's output.
   */
  include?: readonly ForwardResultName[];
  /**
   * Default false: every returned Matrix owns a copy of its numbers. With true, each
   * Matrix's `data` is a view into the model's buffers in the wasm memory instead, which
   * saves the copy (what a caller running the layer many times a second wants). Lifetime of
   * a view:
   * - its numbers are overwritten by the next forward() of the same model (also by one
   *   that fails with an AttentionError), and freed by its delete();
   * - any later call into the engine (of this or any other model, or of the Engine) may
   *   grow the wasm memory, which detaches every view: its `length` becomes 0 and reads
   *   give undefined, silently.
   * So read a view, or copy it (`matrix.data.slice()`), before the next call into the
   * engine. Writing into a view is not supported (the next forward() overwrites it).
   */
  views?: boolean;
}

/** Which projection: W_Q, W_K or W_V. */
export type ProjectionKind = 'query' | 'key' | 'value';

/** A multi-head attention layer living in the wasm module. All weights start at 0. */
export declare class AttentionModel {
  readonly config: AttentionConfig;
  /** True once delete() has been called; every other method then throws. */
  readonly deleted: boolean;
  /** Frees the C++ object. Safe to call twice. */
  delete(): void;
  /** Fills all weights uniformly from +/- sqrt(3 / d_model), reproducibly from `seed` (uint32). */
  randomize(seed: number): void;
  /** Sets head `head`'s W_Q^i, W_K^i or W_V^i: d_model x d_k values, row-major. */
  setHeadProjection(kind: ProjectionKind, head: number, values: ArrayLike<number>): void;
  /** Sets the whole packed W_Q, W_K or W_V: d_model x d_model, head i in column block i. */
  setProjection(kind: ProjectionKind, values: ArrayLike<number>): void;
  /** Sets W_O: d_model x d_model values, row-major. Row block i is W_O^i. */
  setOutputProjection(values: ArrayLike<number>): void;
  /** A copy of W_Q, W_K, W_V (packed) or W_O. */
  getWeights(kind: ProjectionKind | 'output'): Matrix;
  /**
   * Supplies head `head`'s attention weights (L x L, row-major) in place of softmax(scores),
   * or removes them with `null`. Rows must be non-negative and sum to 1 (within 1e-4);
   * with a causal mask, entries above the diagonal must be 0.
   */
  setAttentionOverride(head: number, weights: ArrayLike<number> | null): void;
  /** Returns L x L weights with each row divided by its sum (rows must be >= 0, sum > 0). */
  renormalizeRows(weights: ArrayLike<number>): Float32Array;
  /**
   * Runs the layer on X (L x d_model values, row-major) and returns every intermediate
   * (or those named in `options.include`, as copies or, with `options.views`, as views).
   * `options` undefined or null means the defaults. The model keeps its buffers between
   * calls: repeated calls with the same options allocate nothing in the wasm memory. Refused, before any work, when the pass
   * needs more than {@link CoreLimits.maxForwardMultiplyAdds} multiply-adds:
   * 4 L d_model^2 + 2 L^2 d_model, plus L d_model^2 with perHeadContributions.
   */
  forward(x: ArrayLike<number>, options?: (ForwardOptions & { include?: undefined }) | null): ForwardResult;
  forward<Name extends ForwardResultName>(
    x: ArrayLike<number>, options: ForwardOptions & { include: readonly Name[] },
  ): PartialForwardResult<Name>;
  /**
   * The d_model singular values of W_Q^i (W_K^i)^T, largest first (double precision).
   * At most d_k of them are non-zero. Refused, before any work, when the estimated work,
   * d_model^2 d_k + 20 d_model^3 multiply-adds, exceeds
   * {@link CoreLimits.maxSpectrumMultiplyAdds} (so d_model up to about 360).
   */
  similaritySingularValues(head: number): Float64Array;
  /**
   * How many singular values of W_Q^i (W_K^i)^T exceed relativeTolerance (0 <= t < 1,
   * default 1e-6) times the largest: its numerical rank, counted by the core. At most d_k;
   * fewer when the head's weights use fewer directions. Throws AttentionError for a bad
   * head or tolerance.
   */
  similarityRank(head: number, relativeTolerance?: number): number;
}

/** The core's named limits (core/include/mha/limits.hpp). */
export interface CoreLimits {
  /** Largest L (4096). */
  readonly maxSeqLen: number;
  /** Largest d_model (4096). */
  readonly maxModelWidth: number;
  /** Largest `rows` of {@link Engine.seededMatrix} (4096). */
  readonly maxSeededRows: number;
  /** Work budget of one forward pass, in multiply-adds (4e9, about 2 s in Chromium). */
  readonly maxForwardMultiplyAdds: number;
  /** Work budget of one similaritySingularValues call, in estimated multiply-adds (1e9). */
  readonly maxSpectrumMultiplyAdds: number;
}

/** A loaded core. Models made by one engine share its wasm memory. */
export interface Engine {
  /** Which kernels run: "wasmsimd" (SIMD128 build) or "scalar" (fallback build). */
  readonly target: 'wasmsimd' | 'scalar';
  /** Eigen's own vectorisation in this build ("None" in wasm: the hot loops are ours). */
  readonly eigenSimdInstructionSets: string;
  /** How many models are created and not yet deleted. */
  readonly liveModels: number;
  /** The core's size limits and work budgets. */
  readonly limits: CoreLimits;
  /**
   * The most values an array argument may hold: the larger of maxSeqLen and maxModelWidth,
   * squared (2^24), the size of the largest matrix any call takes. Longer arrays are
   * refused without being read.
   */
  readonly maxArrayLength: number;
  /** Creates a model; throws AttentionError for a bad shape (e.g. h not dividing d_model). */
  createModel(config: AttentionConfigInput): AttentionModel;
  /** Bytes currently allocated in the wasm heap (for leak checks). */
  heapBytesInUse(): number;
  /**
   * The wasm shadow stack pointer, read inside a call (for leak checks): the same on every
   * call unless an exception unwound wasm frames without restoring it.
   */
  wasmStackPointer(): number;
  /** cos(a, b) = a.b / (|a| |b|), computed in double; 0 if either vector is all zeros. */
  cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number;
  /** Softmax of one row of scores (-Infinity = masked token, weight 0). */
  softmax(scores: ArrayLike<number>): Float32Array;
  /**
   * For each row r of `matrix`: (row_r . u) / |u|, its length along direction u. With the
   * rows of each head's contribution, this is what a later layer reading u hears from it.
   */
  componentAlong(matrix: MatrixLike, direction: ArrayLike<number>): Float32Array;
  /**
   * Given value vectors (one per row) and attention weights over them, finds the weights
   * with the same output that differ most from them (the most weight moved). The core visits
   * every corner of the set of such weightings when there are few enough (the lesson's blend:
   * 330 bases), and then says so (`exhaustive`): `found` false then proves that no other
   * weighting gives that output. `found` is also false when the core could not verify the
   * one it found (each output component the same within 1e-5 of the magnitude it is made
   * of, weights non-negative summing to 1). No field is ever NaN.
   */
  findAlternativeWeights(values: MatrixLike, weights: ArrayLike<number>): AlternativeWeights;
  /**
   * A reader: for each row of `readings`, the cosine with every row of `candidates`
   * (computed in double), the index of the most similar candidate, and whether it ties. A zero reading
   * resembles nothing: its choice is -1. Candidates must not be zero vectors.
   */
  nearestByCosine(readings: MatrixLike, candidates: MatrixLike): NearestCandidates;
  /**
   * The best 2-D view of `points` (one per row): the plane through their centroid spanned
   * by their two principal directions. Returns each point's and each `extra` point's
   * coordinates in that plane, and the share of the points' spread the plane shows.
   */
  principalPlane(points: MatrixLike, extra?: MatrixLike): PrincipalPlane;
  /**
   * rows x cols values uniform in [-scale, scale), reproducible from `seed` (uint32); rows
   * up to {@link CoreLimits.maxSeededRows}, cols up to {@link CoreLimits.maxModelWidth}.
   */
  seededMatrix(rows: number, cols: number, seed: number, scale?: number): Matrix;
}

/** Anything shaped like a Matrix: rows, cols and rows * cols values row after row. */
export interface MatrixLike {
  rows: number;
  cols: number;
  data: ArrayLike<number>;
}

export interface NearestCandidates {
  /** One entry per reading: the index of the most similar candidate, or -1 for a zero reading. */
  choice: Int32Array;
  /** readings x candidates cosines. */
  cosines: Matrix;
  /**
   * One entry per reading: 1 when another candidate's cosine is within 1e-5 of the best (a
   * tie that float rounding of the reading, not the reading, decides), else 0.
   */
  tied: Uint8Array;
}

export interface PrincipalPlane {
  /** The points' centroid (d values). */
  centre: Float64Array;
  /** 2 x d: the two principal directions, orthonormal, each signed so its largest entry is positive. */
  axes: Matrix;
  /** points x 2: each point's coordinates in the plane. */
  coordinates: Matrix;
  /** extra x 2: each extra point's coordinates in the same plane. */
  extraCoordinates: Matrix;
  /** Share of the points' spread (variance) that the plane shows, 0..1. */
  explained: number;
}

export interface AlternativeWeights {
  found: boolean;
  /**
   * Every corner was visited: `weights` are the farthest weighting with the same output, and
   * `found` false means the given weights are the only ones with it. False when there were
   * too many corners to visit and a walk found some alternative instead.
   */
  exhaustive: boolean;
  /** The other weights (empty when !found); non-negative, summing to 1. */
  weights: Float32Array;
  /** The output of the given weights. */
  output: Float32Array;
  /** The output of the other weights (empty when !found); equal to `output` up to rounding. */
  alternativeOutput: Float32Array;
  /** Largest difference between the two outputs. */
  maxOutputDifference: number;
  /** Half the L1 distance between the weightings: the share of weight that moved, 0..1. */
  totalWeightMoved: number;
}

/** Where the two wasm builds are: URLs (strings; data: URLs too) or the bytes. */
export interface WasmSources {
  simd: string | ArrayBuffer | Uint8Array;
  scalar: string | ArrayBuffer | Uint8Array;
}

export interface LoadOptions {
  /** 'auto' (default) uses SIMD128 when the engine supports it. */
  simd?: boolean | 'auto';
  /** The .wasm bytes, for Node (3.1.6's web build cannot fetch files there). */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /**
   * Where the wasm is, for a worker: the page's wasmSources(), posted to it. Default: this
   * module's own wasmSources() (right in the page; a re-bundled worker must not guess).
   */
  wasm?: WasmSources;
}

/** Why the core could not load; `message` names the fix in an author's words. */
export declare class EngineLoadError extends Error {
  readonly name: 'EngineLoadError';
  readonly reason: 'csp' | 'cors' | 'network' | 'not-found' | 'not-wasm' | 'unsupported';
}

/** The wasm files' URLs as this page resolves them (rewritten by a bundler). */
export declare function wasmUrls(): { simd: string; scalar: string };
/** What to post to a worker that calls loadEngine({ wasm }): the provided bytes, else wasmUrls(). */
export declare function wasmSources(): WasmSources;
/** Makes every later load use these bytes instead of fetching (builds that inline the wasm). */
export declare function provideWasm(sources: WasmSources): void;

/** Loads a fresh instance of the core; rejects with EngineLoadError when it cannot. */
export declare function loadEngine(options?: LoadOptions): Promise<Engine>;
/** The one engine shared by all widgets on a page, loaded lazily on first call. */
export declare function sharedEngine(): Promise<Engine>;
