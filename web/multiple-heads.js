// The package's entry for course authors: importing this module registers every widget as
// a custom element (<mha-blend>, <mha-head-splitting>, <mha-wo-mixing>,
// <mha-heads-questions>) and exposes the engine API. All widgets on a page share one wasm
// module instance, loaded on first use. The API is multiple-heads-api.js's (also built
// alone, for pages that load single widgets). See docs/EMBEDDING.md.
import './widgets/all.js';

export * from './multiple-heads-api.js';
