/**
 * Multiple Heads for course authors: importing `multiple-heads` registers the widgets as
 * custom elements and exposes the engine API (the wasm attention core).
 *
 * ```html
 * <script type="module" src=".../multiple-heads.js"></script>
 * <mha-blend></mha-blend>
 * ```
 * See docs/EMBEDDING.md for every attribute and event.
 */
export * from './engine/engine.js';

/** Names of the widgets, as used by embed.html?widget=<name>. */
export type WidgetName = 'layer' | 'blend' | 'head-splitting' | 'wo-mixing' | 'heads-questions';

export interface WidgetInfo {
  /** The custom element's tag, e.g. "mha-blend". */
  tag: string;
  /** A short human title, used for iframe titles. */
  title: string;
  /** Attributes the element understands (embed.html copies only these from its URL). */
  attributes: string[];
}

/**
 * Parses a lesson URL hash (`#blend=<JSON>&split=<JSON>`) as the widgets do: never throws;
 * `entries` holds each key's parsed JSON (still to be checked by the widget), `errors` a
 * message per key that could not be read (`'*'` for the whole hash). Both are objects
 * without a prototype, so a key such as `constructor` or `__proto__` is an ordinary key.
 * Keys are up to 32 letters, digits, `_` and `-`, not starting with a digit or `-`; others
 * are skipped.
 */
export declare function readLessonState(hash?: string): {
  entries: Record<string, unknown>;
  errors: Record<string, string>;
};

/**
 * Adds (or replaces) a language for the widgets' UI text at run time: `messages` has the
 * shape of lessons/multiple-heads/locales/en.json (nested groups of "{placeholder}" strings
 * and { one, other } plural forms); a key it lacks falls back to English. A widget uses the
 * language of its closest `lang` attribute (or the page's). Call it before the widgets
 * connect. Throws Error for a tag that is not a language tag or messages that are not an object.
 */
export declare function registerLocale(tag: string, messages: Record<string, unknown>): void;

/** The languages the widgets have messages for, e.g. ["en", "de"]. */
export declare function availableLocales(): string[];

/** Every widget, by name. */
export declare const WIDGETS: Readonly<Record<WidgetName, WidgetInfo>>;

/** Detail of a widget's `change` event. */
export interface WidgetChangeDetail<State> {
  /** The new state (a copy). */
  state: State;
}

/**
 * What every widget element offers, besides being an HTMLElement. Events: `ready` (the core
 * is loaded and the widget drawn) and `change` (after every accepted edit, undo or reset,
 * with `event.detail.state`).
 */
export interface MultipleHeadsWidget<State = Record<string, unknown>> extends HTMLElement {
  /** A copy of the current state (JSON-serialisable). */
  readonly state: State;
  /** Replaces the state; throws Error (and keeps the current state) if it is invalid. */
  setState(state: State): void;
  /** Back to the starting state (an undoable edit). */
  reset(): void;
  /** Takes back the last edit. */
  undo(): void;
  readonly canUndo: boolean;
  /** True while the element shows a state without offering edits (attribute `readonly`). */
  readonly readOnly: boolean;
}

/** <mha-layer>: the whole layer at a glance; which path is lit (see its README). */
export interface LayerState {
  /** 1, 2 or 4 heads of width d_model / h (the world's d_model = 12). */
  h: 1 | 2 | 4;
  /** Position (0 to 10) of the picked word. */
  token: number;
  /** The picked head, 0 to h - 1. */
  head: number;
}

/** <mha-layer>'s element: a widget that can also show one part of its map. */
export interface LayerWidget extends MultipleHeadsWidget<LayerState> {
  /**
   * Scrolls to a stage ('project', 'attend', 'mix') or matrix ('x', 'queries', 'keys',
   * 'values', 'weights', 'concat', 'wo', 'output') of the map, marks it for a moment and
   * moves focus to its stage's heading; false for an unknown part.
   */
  showPart(part: string): boolean;
}

/** <mha-blend>: one head of width 6 for two jobs versus two heads of width 3 (same weights). */
export interface BlendState {
  /**
   * The one head's attention weights of "said", one per token of the lesson's sentence
   * (11): finite, non-negative, summing to 1 within 1e-4; null for the head's own softmax
   * weights.
   */
  budget: number[] | null;
}

/** <mha-wo-mixing>: W_O writes the world's heads into any direction (see its README). */
export interface WoMixingState {
  /** 1, 2 or 4 heads of width d_model / h (the world's d_model = 12). */
  heads: 1 | 2 | 4;
  /** Position (0 to 10) of the token whose vectors are shown. */
  token: number;
  /** W_O, 144 numbers row by row, each from -10 to 10; rows of head i's slice are its block W_O^i. */
  wo: number[];
  /** The direction a later layer reads: 12 numbers from -10 to 10, not all 0. */
  u: number[];
}

/** <mha-heads-questions>: the world's four heads as four maps; one head's W_Q edited (see its README). */
export interface HeadsQuestionsState {
  /** True when every head uses the selected head's W_Q, W_K and W_V (the maps are copies). */
  tied: boolean;
  /** Position (0 to 10) of the query word, outlined in every map. */
  query: number;
  /** The selected head, 0 to 3 (subject, complement, previous, gist): edited, and copied when tied. */
  head: number;
  /** Each head's W_Q^i: 4 arrays of 36 numbers (12 features x 3 columns, row by row), each from -10 to 10. */
  wq: number[][];
}

/** <mha-training>: a tiny transformer trained on the device; heads switched off and pruned (see its README). */
export interface TrainingState {
  /** 'back-and-first' (two jobs: the token 2 back and the first token) or 'previous-token' (one job). */
  task: 'back-and-first' | 'previous-token';
  /** h heads of width 16 / h. */
  heads: 1 | 2 | 4;
  /** 1 to 9999: the weights, batches and evaluation set follow from it. */
  seed: number;
  /** Heads switched off once trained (0-based, ascending, each below `heads`). */
  off: number[];
}

declare global {
  interface HTMLElementTagNameMap {
    'mha-layer': LayerWidget;
    'mha-blend': MultipleHeadsWidget<BlendState>;
    'mha-head-splitting': MultipleHeadsWidget;
    'mha-wo-mixing': MultipleHeadsWidget<WoMixingState>;
    'mha-heads-questions': MultipleHeadsWidget<HeadsQuestionsState>;
    'mha-training': MultipleHeadsWidget<TrainingState>;
  }
}
