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

// A widget's tag is written once, in MultipleHeadsElementsByTag and
// MultipleHeadsAttributesByTag below; the names, the tag union, the global tag map and the
// JSX types (jsx-react.d.ts, jsx-preact.d.ts) derive from those two.

/** The custom elements' tags (every element but <mha-practice>, which is not a widget of the registry). */
export type WidgetTag = Exclude<keyof MultipleHeadsElementsByTag, 'mha-practice'>;

/** Names of the widgets, as used by embed.html?widget=<name>: the tag without `mha-`. */
export type WidgetName = WidgetTag extends `mha-${infer Name}` ? Name : never;

export interface WidgetInfo {
  /** The custom element's tag, e.g. "mha-blend". */
  tag: string;
  /** A short human title, used for iframe titles. */
  title: string;
  /** Attributes the element understands (embed.html copies only these from its URL). */
  attributes: string[];
  /** Height in CSS px reserved while the core loads, in a wide and a narrow container. */
  loadingHeight?: { wide: number; narrow: number };
  /** The stage of <mha-layer>'s map this widget looks at closely (the map links to it there). */
  zoomsInto?: 'project' | 'attend' | 'mix';
}

/** Every widget's tag, in lesson order. */
export declare const WIDGET_TAGS: readonly WidgetTag[];

// ---- attributes ------------------------------------------------------------------------

/**
 * The 11 tokens of the lesson's one sentence, "The researcher who wrote the paper said it
 * was wrong.", positions 0 to 10: each word, and the full stop as a token of its own. A
 * `token` or `query` attribute names one exactly as written, case included ("the" is
 * position 4, "The" position 0).
 */
export type SentenceToken = 'The' | 'researcher' | 'who' | 'wrote' | 'the' | 'paper' | 'said' | 'it' | 'was' | 'wrong' | '.';
/** A token of the widget's world: the lesson's offered by name, any other world's as text. */
export type WorldToken = SentenceToken | (string & {});

/** The four named heads of the lesson's world. */
export type HeadId = 'subject' | 'complement' | 'previous' | 'gist';

/** An outline level for `heading-level`. */
export type HeadingLevel = 1 | 2 | 3 | 4 | 5 | 6;

/**
 * A `panels` value: one to four of a widget's panel names, separated by single spaces
 * (`"plane values"`). Names are lower case and matched exactly; the browser shows a notice
 * for any other name, and TypeScript refuses it here.
 */
export type PanelList<Panel extends string> =
  | Panel | `${Panel} ${Panel}` | `${Panel} ${Panel} ${Panel}` | `${Panel} ${Panel} ${Panel} ${Panel}`;

export type LayerPanel = 'controls' | 'project' | 'attend' | 'mix' | 'numbers';
export type BlendPanel = 'one-head' | 'plane' | 'two-heads' | 'values';
export type HeadSplittingPanel = 'controls' | 'counts' | 'configurations' | 'spectrum';
export type WoMixingPanel = 'heads' | 'wo' | 'output' | 'reader';
export type HeadsQuestionsPanel = 'tie' | 'heatmaps' | 'edit' | 'features';
export type TrainingPanel = 'controls' | 'curves' | 'heads' | 'pruning' | 'comparison';

/**
 * The attributes every widget understands, as written in HTML or passed in JSX (values are
 * attribute text; numbers are accepted where the text is a number).
 */
export interface WidgetAttributes<Panel extends string = string> {
  /** Starting state as JSON text (the widget's State); a state in the page's address wins. */
  state?: string;
  /**
   * Shows the state; the learner can edit nothing (the page's script still can). `false`,
   * and the text "false" (what React 18 writes for `readonly={false}`), mean editable.
   */
  readonly?: boolean | '' | 'readonly' | 'false';
  /** Only these panels. */
  panels?: PanelList<Panel>;
  /** The key of this widget's state in the address: up to 32 letters, digits, `_`, `-`. */
  'state-key'?: string;
  /** "off": the widget neither reads nor writes the page's address. */
  'url-state'?: 'off';
  /** JSON text overriding the widget's lesson data (only mha-head-splitting takes one). */
  config?: string;
  /** Outline level of the widget's headings (default 3, for a widget under an h2). */
  'heading-level'?: HeadingLevel | `${HeadingLevel}`;
  /** Language of the widget's UI text, e.g. "de" (default: the closest lang on the page). */
  lang?: string;
  /** "eager": built as soon as the core loads; "lazy" (default): when it comes near the view. */
  loading?: 'lazy' | 'eager';
  /**
   * The example the widget shows (docs/WORLDS.md): the URL of a world file (`worlds/german.json`,
   * resolved against the page) or the world's JSON itself (text starting with `{`). Default:
   * the lesson's world. Setting it again draws the new world from its starting state.
   */
  world?: string;
}

/** <mha-layer>'s own attributes. */
export interface LayerAttributes extends WidgetAttributes<LayerPanel> {
  /** The world's heads merged into 4 (default), 2 or 1. */
  heads?: 1 | 2 | 4 | '1' | '2' | '4';
  /** The starting word (default "said"). */
  token?: WorldToken;
  /** The starting head: a named head (the merged head that holds it, at h < 4) or its number from 1. */
  head?: HeadId | 1 | 2 | 3 | 4 | '1' | '2' | '3' | '4';
}
/** <mha-blend>'s attributes (only the common ones). */
export interface BlendAttributes extends WidgetAttributes<BlendPanel> {}
/** <mha-head-splitting>'s attributes; `config` is JSON of {@link HeadSplittingConfig}. */
export interface HeadSplittingAttributes extends WidgetAttributes<HeadSplittingPanel> {}
/** <mha-wo-mixing>'s own attributes. */
export interface WoMixingAttributes extends WidgetAttributes<WoMixingPanel> {
  /** 4 (the world's heads, d_k = 3, default), 2 or 1 (merged heads). */
  heads?: 1 | 2 | 4 | '1' | '2' | '4';
  /** The word whose vectors are shown (default "said"). */
  token?: WorldToken;
}
/** <mha-heads-questions>'s own attributes. */
export interface HeadsQuestionsAttributes extends WidgetAttributes<HeadsQuestionsPanel> {
  /** The starting query word. */
  query?: WorldToken;
}
/** <mha-training>'s attributes (only the common ones). */
export interface TrainingAttributes extends WidgetAttributes<TrainingPanel> {}

/** The ideas of the lesson that have practice problems. */
export type PracticeIdea = 'one-average' | 'construction' | 'same-arithmetic' | 'rank-price' | 'wo' | 'not-copies' | 'limits';

/** <mha-practice>'s attributes. */
export interface PracticeAttributes {
  /** That idea's problems; without it, the element is the panel of the learner's copy (progress, export, import). */
  idea?: PracticeIdea;
  /** Outline level of its headings. */
  'heading-level'?: HeadingLevel | `${HeadingLevel}`;
  lang?: string;
  /**
   * Scores back to the course platform (off without it): `scorm` (the platform's SCORM 1.2 or
   * 2004 API, found in the page's parent frames or opener) or `xapi` (statements to
   * `report-endpoint`). One place per page; every block of the page is reported.
   */
  report?: PracticeReport;
  /** With report="xapi": the record store's xAPI endpoint (statements go to `<endpoint>/statements`), absolute or relative. */
  'report-endpoint'?: string;
  /**
   * With report="xapi": the Authorization header's value (`Basic …`). Anything in the page's
   * HTML is readable by the learner: prefer the `reportAuth` property with a short-lived,
   * per-learner token, or a proxy of your own that adds the credentials.
   */
  'report-auth'?: string;
  /** With report="xapi": the learner as an xAPI Agent, JSON (`{"name":"…","mbox":"mailto:…"}`); default an anonymous account kept on the device. */
  'report-actor'?: string;
  /** With report="xapi": the base IRI of the practice's activities (ideas at `<base>/ideas/<idea>`, problems at `<base>/problems/<id>`); default the page's address. */
  'report-activity'?: string;
}

/** Where <mha-practice report="…"> sends scores ('off' or none: nowhere). */
export type PracticeReport = 'scorm' | 'xapi' | 'off';

/** An xAPI Agent: a name and exactly one identifier. */
export type XapiAgent = { name?: string; objectType?: 'Agent' } & (
  | { mbox: `mailto:${string}` }
  | { mbox_sha1sum: string }
  | { openid: string }
  | { account: { homePage: string; name: string } });

/** Each element's attributes, by tag (for JSX and for code that builds elements). */
export interface MultipleHeadsAttributesByTag {
  'mha-layer': LayerAttributes;
  'mha-blend': BlendAttributes;
  'mha-head-splitting': HeadSplittingAttributes;
  'mha-wo-mixing': WoMixingAttributes;
  'mha-heads-questions': HeadsQuestionsAttributes;
  'mha-training': TrainingAttributes;
  'mha-practice': PracticeAttributes;
}

/**
 * Reads the widgets' state from an address as the widgets do: a whole URL, or just its
 * "?query" (`?mha.blend=<JSON>&mha.split=<JSON>`) or "#hash" (the old `#blend=<JSON>` form is
 * read too); the default is the page's own address. Never throws. `entries` holds each
 * key's parsed JSON (still to be checked by the widget), `errors` an English message per key
 * that could not be read (`'*'` for the whole address) and `problems` the same problems as
 * message keys of the locales' `linkState` group with their parameters (for saying them in
 * another language); all three are objects without a prototype, so a key such as
 * `constructor` or `__proto__` is an ordinary key. Keys are up to 32 letters,
 * digits, `_` and `-`, not starting with a digit or `-`; others are skipped. `anchor` is the
 * section the fragment names ('' if none); `legacy` whether the state came from the old
 * hash format.
 */
export declare function readLessonState(address?: string | URL): {
  entries: Record<string, unknown>;
  errors: Record<string, string>;
  problems: Record<string, { message: string; params: Record<string, string | number> }>;
  anchor: string;
  legacy: boolean;
};

/**
 * Adds a language for the widgets' UI text at run time, or replaces some of its groups:
 * `messages` has the shape of lessons/multiple-heads/locales/en.json (nested groups of
 * "{placeholder}" strings and { one, other } plural forms), plus the UI kit's `ui` group
 * (web/ui/locales/en.json); each top-level group given replaces that group, the others stay,
 * and a key it lacks falls back to English. A widget uses the
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

/** A widget's `change` event: after every accepted edit, undo or reset. */
export type WidgetChangeEvent<State> = CustomEvent<WidgetChangeDetail<State>>;

/** A widget's `ready` event: the core is loaded and the widget drawn (no detail). */
export type WidgetReadyEvent = CustomEvent<null>;

/**
 * The events of a widget element: the HTML element's own, with `change` and `ready` typed.
 * (They are typed here, on the widget elements, and not added to the global
 * HTMLElementEventMap, where lib.dom already declares `change` as a plain Event for every
 * element, inputs included.)
 */
export interface MultipleHeadsWidgetEventMap<State> extends HTMLElementEventMap {
  change: WidgetChangeEvent<State>;
  ready: WidgetReadyEvent;
}

/**
 * What every widget element offers, besides being an HTMLElement. Events: `ready` (the core
 * is loaded and the widget drawn) and `change` (after every accepted edit, undo or reset,
 * with `event.detail.state`).
 */
export interface MultipleHeadsWidget<State = Record<string, unknown>> extends HTMLElement {
  addEventListener<K extends keyof MultipleHeadsWidgetEventMap<State>>(type: K,
    listener: (this: this, event: MultipleHeadsWidgetEventMap<State>[K]) => unknown, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof MultipleHeadsWidgetEventMap<State>>(type: K,
    listener: (this: this, event: MultipleHeadsWidgetEventMap<State>[K]) => unknown, options?: boolean | EventListenerOptions): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
  /** A copy of the current state (JSON-serialisable). */
  get state(): State;
  /**
   * Text: the starting state, as the `state` attribute (what React 19 and Preact pass when
   * they set the property). An object: setState() once the widget is drawn (throws Error
   * for an invalid state), the starting state before.
   */
  set state(value: State | string);
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

/** <mha-head-splitting>: the cost of h heads against one wide head, and each head's rank (see its README). */
export interface HeadSplittingState {
  /** d_model: one of 8, 16, 32, 64, 96, 128, 256, 384, 512. */
  dModel: 8 | 16 | 32 | 64 | 96 | 128 | 256 | 384 | 512;
  /** h: a divisor of dModel, at most 64. */
  heads: number;
  /** L, the sequence length: a whole number from 1 to 256. */
  seqLen: number;
  /** h of the world's layer whose ranks are shown: 1, 2 or 4. */
  spectrumHeads: 1 | 2 | 4;
  /** The head whose spectrum is shown, 0 to spectrumHeads - 1. */
  spectrumHead: number;
}

/** The `config` attribute of <mha-head-splitting> (JSON text of this); unknown fields are refused. */
export interface HeadSplittingConfig {
  /** The starting d_model, h and L. */
  start?: { dModel: number; heads: number; seqLen: number };
  /** The starting rank panel: h of the world (1, 2 or 4) and a head from 0. */
  spectrumStart?: { heads: 1 | 2 | 4; head: number };
  /** 1 to 4 rows compared and timed, e.g. { label: "8 × 64", dModel: 512, heads: 8 }. */
  configurations?: { label: string; dModel: number; heads: number }[];
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

/**
 * <mha-practice>: practice problems under one idea of the lesson (attribute `idea`), or the
 * panel of the learner's copy. No state in the address; `ready` once built.
 */
export interface PracticeElement extends HTMLElement {
  /** report="xapi": the Authorization header's value, kept out of the HTML (read at each send). */
  reportAuth: string | null;
  /** report="xapi": the learner as an xAPI Agent (an object or its JSON); set before the element is connected. */
  reportActor: XapiAgent | string | null;
  addEventListener<K extends keyof PracticeEventMap>(type: K,
    listener: (this: this, event: PracticeEventMap[K]) => unknown, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof PracticeEventMap>(type: K,
    listener: (this: this, event: PracticeEventMap[K]) => unknown, options?: boolean | EventListenerOptions): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
}

/** <mha-practice>'s events. */
export interface PracticeEventMap extends HTMLElementEventMap {
  ready: WidgetReadyEvent;
}

/** Each element's type, by tag (the same as the global HTMLElementTagNameMap entries). */
export interface MultipleHeadsElementsByTag {
  'mha-layer': LayerWidget;
  'mha-blend': MultipleHeadsWidget<BlendState>;
  'mha-head-splitting': MultipleHeadsWidget<HeadSplittingState>;
  'mha-wo-mixing': MultipleHeadsWidget<WoMixingState>;
  'mha-heads-questions': MultipleHeadsWidget<HeadsQuestionsState>;
  'mha-training': MultipleHeadsWidget<TrainingState>;
  'mha-practice': PracticeElement;
}

declare global {
  interface HTMLElementTagNameMap extends MultipleHeadsElementsByTag {}
}
