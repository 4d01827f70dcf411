// The one-widget entries, a second build into the same dist/ (npm run build runs it after
// vite.config.js's): dist/widgets/<name>.js for every name of WIDGET_ENTRIES in
// web/widgets/registry.js, so that `import 'multiple-heads/blend'` (or
// <script type="module" src=".../widgets/blend.js">) downloads the blend's code and what
// it shares, not all seven widgets'. Code two entries use (the engine and its wasm loader,
// the widget base, the UI kit, the messages) is in shared chunks under assets/, so two
// widgets on one page share it. The wasm modules are the same files as the full bundle's
// (same content, same hashed name in assets/).
//
// A build of its own rather than more entries of the page's build: in one build the
// lesson's bundle would be split along the same lines (every widget a chunk of its own),
// which costs the lesson page 18 more requests and about 14 kB more (gzipped) than its
// bundle today. The price: a page should load either multiple-heads.js or the one-widget
// entries, not both (each brings its own copy of the engine; see docs/EMBEDDING.md).
import { defineConfig } from 'vite';
import page from './vite.config.js';
import { WIDGET_ENTRIES } from './web/widgets/registry.js';

/** A one-widget entry: a module that only imports the widget (which defines its element), so the built file exports nothing. */
const ENTRY = 'mha-widget-entry:';
const widgetEntries = () => ({
  name: 'multiple-heads-widget-entries',
  resolveId: (id) => (id.startsWith(ENTRY) ? `\0${id}` : null),
  load(id) {
    if (!id.startsWith(`\0${ENTRY}`)) return null;
    const name = id.slice(ENTRY.length + 1);
    if (!WIDGET_ENTRIES.includes(name)) throw new Error(`“${name}” is not in WIDGET_ENTRIES (web/widgets/registry.js)`);
    return `import ${JSON.stringify(`/widgets/${name}/index.js`)};\n`;
  },
});

export default defineConfig({
  root: page.root,
  base: page.base,
  publicDir: false,
  plugins: [widgetEntries()],
  build: {
    ...page.build,
    // The page's build ran first into the same folder.
    emptyOutDir: false,
    rollupOptions: {
      input: Object.fromEntries(WIDGET_ENTRIES.map((name) => [name, `${ENTRY}${name}`])),
      output: {
        entryFileNames: 'widgets/[name].js',
        chunkFileNames: 'assets/[name]-[hash].js',
        assetFileNames: 'assets/[name]-[hash][extname]',
      },
      preserveEntrySignatures: 'exports-only',
    },
  },
});
