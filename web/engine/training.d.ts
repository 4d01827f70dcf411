// Types of web/engine/training.js: the training module, loaded separately from the page's
// core (engine.js) when a trainer is first wanted.
import type { Matrix } from './engine.js';

/**
 * The synthetic tasks the core generates from a seed:
 * - `previous-token`: predict the token one place back (one clean job).
 * - `back-and-first`: predict two tokens at once, the token `offset` places back and the
 *   first token of the sequence, each through its own linear read-out (two relationships).
 */
export type TrainingTask = 'previous-token' | 'back-and-first';

/** Settings of a Trainer; every field is optional in createTrainer (defaults per task). */
export interface TrainingConfigInput {
  /** Default 'back-and-first'. */
  task?: TrainingTask;
  /** Number of token ids (2..64; 2..16 for back-and-first). Default 16. */
  vocabSize?: number;
  /** L, tokens per sequence (2..64). Default 10. */
  seqLen?: number;
  /** k of back-and-first: the token k places back (1..seqLen - 2). Default 2. */
  offset?: number;
  /** d_model (1..256). Default 16. */
  dModel?: number;
  /** h, heads per layer; must divide dModel. Default 2 (back-and-first), 4 (previous-token). */
  numHeads?: number;
  /** Attention layers (1..4). Default 1. */
  numLayers?: number;
  /** Causal mask (token t sees tokens 0..t). Default true. */
  causal?: boolean;
  /** Sequences per Adam step (1..1024). Default 32. */
  batchSize?: number;
  /** Adam's learning rate, in (0, 1]. Default 0.003. */
  learningRate?: number;
  /** Sequences in the fixed evaluation set (1..4096). Default 256. */
  evalSize?: number;
  /** The demo's suggested number of steps (1500 for back-and-first, 400 for previous-token). */
  steps?: number;
}

export type TrainingConfig = Required<TrainingConfigInput>;

/** Mean training loss and accuracy over the steps just taken. */
export interface StepResult {
  /** Steps done since creation. */
  steps: number;
  /** Mean cross-entropy (summed over the outputs) over those batches. */
  loss: number;
  /** Share of scored positions with every output right, averaged over those batches. */
  accuracy: number;
}

export interface Evaluation {
  loss: number;
  /** Share of scored positions with every output right. */
  accuracy: number;
  /** Per output (back-and-first: [token k back, first token]): share right. */
  outputAccuracy: number[];
}

export interface HeadImportance {
  layer: number;
  head: number;
  /** Evaluation loss and accuracy with this head (also) switched off. */
  lossWithout: number;
  accuracyWithout: number;
  /** lossWithout minus the loss with the current mask. */
  lossChange: number;
  /** Michel et al. (2019): mean over evaluation sequences of |d loss / d gate|, gate at 1. */
  gradientScore: number;
}

export interface AttentionExample {
  /** The evaluation sequence's tokens, labels (-1 = not scored) and the model's predictions. */
  tokens: Int32Array;
  /** For back-and-first a label is the pair index (token k back) * vocabSize + first token. */
  labels: Int32Array;
  predictions: Int32Array;
  /** layers[l][i]: head i of layer l, seqLen x seqLen attention weights (rows sum to 1). */
  layers: Matrix[][];
}

/** A tiny transformer training in the wasm core. Call delete() when done. */
export declare class Trainer {
  /** Every setting, defaults filled in. */
  readonly config: Readonly<TrainingConfig>;
  readonly seed: number;
  readonly deleted: boolean;
  /** Adam steps taken so far. */
  readonly stepsDone: number;
  /** Heads switched off, layer-major (numLayers * numHeads entries). */
  readonly headMask: boolean[];
  /** Frees the C++ object. Safe to call twice. */
  delete(): void;
  /** Takes n Adam steps (1..100000) on fresh batches; switched-off heads stay off. */
  step(n?: number): StepResult;
  /** Loss and accuracy on the fixed evaluation set, with the current head mask. */
  evaluate(): Evaluation;
  /** Switches heads off (true) or on (false): flat layer-major, or one array per layer. */
  ablate(mask: boolean[] | boolean[][]): void;
  /** For every head that is on: what switching it off costs, and its gradient score. */
  importance(): HeadImportance[];
  /** Every head's attention pattern on evaluation sequence `example` (default 0). */
  attention(example?: number): AttentionExample;
}

/** A loaded training module. Trainers made by one share its wasm memory. */
export declare class TrainingEngine {
  /** Which kernels run: "wasmsimd" (SIMD128 build) or "scalar" (fallback build). */
  readonly target: 'wasmsimd' | 'scalar';
  /** How many trainers are created and not yet deleted. */
  readonly liveTrainers: number;
  /** The default settings of a task (the lesson's demo sizes). */
  defaultTrainingConfig(task?: TrainingTask): TrainingConfig;
  /**
   * Creates a trainer whose weights, batches and evaluation set all follow from `seed`
   * (uint32, default 1). Throws AttentionError naming a bad or unknown setting.
   */
  createTrainer(config?: TrainingConfigInput, seed?: number): Trainer;
  /** Bytes currently allocated in this module's wasm heap (for leak checks). */
  heapBytesInUse(): number;
  /** This module's wasm shadow stack pointer, read inside a call (for leak checks). */
  wasmStackPointer(): number;
}

/** The training module's wasm files as the calling page resolves them (bundler-safe). */
export interface TrainingWasmUrls {
  simd: string;
  scalar: string;
}

export interface TrainingLoadOptions {
  /** 'auto' (default) uses SIMD128 when the engine supports it. */
  simd?: boolean | 'auto';
  /** Where the .wasm files are: pass trainingWasmUrls() from the page when loading in a worker. */
  wasm?: TrainingWasmUrls;
  /** The .wasm bytes, for Node. */
  wasmBinary?: ArrayBuffer | Uint8Array;
}

export declare function trainingWasmUrls(): TrainingWasmUrls;
/** Loads a fresh instance of the training module. */
export declare function loadTrainingEngine(options?: TrainingLoadOptions): Promise<TrainingEngine>;
/** One training engine per page or worker, loaded on first call. */
export declare function sharedTrainingEngine(options?: TrainingLoadOptions): Promise<TrainingEngine>;
