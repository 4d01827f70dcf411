// The package's JavaScript API without any widget: the registry, the learner's saved states,
// the message catalogs and the engine. multiple-heads.js exports it with every widget; the
// one-widget entries' build (vite.widgets.config.js) makes it dist/api.js
// (`import … from 'multiple-heads/api'`), which shares its modules with the entries, so
// registerLocale there reaches the widgets loaded through them. See docs/EMBEDDING.md.
export { WIDGETS, WIDGET_TAGS } from './widgets/registry.js';
export { readLessonState } from './widgets/shared/lesson-state.js';
export { availableLocales, registerLocale } from './widgets/shared/i18n.js';
export {
  AttentionError, AttentionModel, EngineLoadError, Matrix, loadEngine, provideWasm, sharedEngine, supportsSimd, wasmSources, wasmUrls,
} from './engine/engine.js';
