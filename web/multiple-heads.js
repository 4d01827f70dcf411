// The package's entry for course authors: importing this module registers every widget as
// a custom element (<mha-blend>, <mha-head-splitting>, <mha-wo-mixing>,
// <mha-heads-questions>) and exposes the engine API. All widgets on a page share one wasm
// module instance, loaded on first use. See docs/EMBEDDING.md.
import './widgets/all.js';

export { WIDGETS, WIDGET_TAGS } from './widgets/registry.js';
export { readLessonState } from './widgets/shared/lesson-state.js';
export { availableLocales, registerLocale } from './widgets/shared/i18n.js';
export {
  AttentionError, AttentionModel, EngineLoadError, Matrix, loadEngine, provideWasm, sharedEngine, supportsSimd, wasmSources, wasmUrls,
} from './engine/engine.js';
