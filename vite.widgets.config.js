// The one-widget entries, a second build into the same dist/ (npm run build runs it after
// vite.config.js's): dist/widgets/<name>.js for every name of WIDGET_ENTRIES in
// web/widgets/registry.js, so that `import 'multiple-heads/blend'` (or
// <script type="module" src=".../widgets/blend.js">) downloads the blend's code and what
// it shares, not all seven widgets'; and dist/api.js, the JavaScript API over the same
// modules (`import { registerLocale } from 'multiple-heads/api'`). Code two entries use
// (the engine and its wasm loader, the widget base, the UI kit, the messages) is in shared
// chunks under assets/, so two widgets on one page share it. The wasm modules are the same
// files as the full bundle's (same content, same hashed name in assets/).
//
// A build of its own rather than more entries of the page's build: in one build the
// lesson's bundle would be split along the same lines (every widget a chunk of its own),
// which costs the lesson page 18 more requests and about 14 kB more (gzipped) than its
// bundle today. The price: a page should load either multiple-heads.js or the one-widget
// entries, not both (each brings its own copy of the engine; see docs/EMBEDDING.md).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import page from './vite.config.js';
import { LOCALES_DIR, entryCatalogs, sharedCatalog } from './scripts/lib/entry-messages.mjs';
import { WIDGET_ENTRIES } from './web/widgets/registry.js';

const WEB = fileURLToPath(new URL('./web/', import.meta.url));
const SHARED_I18N = path.join(WEB, 'widgets/shared/i18n.js');

/**
 * A one-widget entry (`mha-widget-entry:blend`): a module that imports the widget's messages
 * (`mha-widget-messages:blend`, registered first: module imports run in order) and the
 * widget, which defines its element; the built file exports nothing. The lesson's locale
 * files, which web/widgets/shared/i18n.js imports whole, hold only the groups all widgets
 * share here (`mha-shared-catalog:en`); each entry brings the widget groups its widget's
 * code uses (scripts/lib/entry-messages.mjs), and two entries on a page merge theirs
 * (registerLocale merges by group).
 */
const ENTRY = 'mha-widget-entry:';
const API = 'multiple-heads-api';
const MESSAGES = 'mha-widget-messages:';
const SHARED_CATALOG = '\0mha-shared-catalog:';
function nameOf(id, prefix) {
  const name = id.slice(prefix.length + 1);
  if (!WIDGET_ENTRIES.includes(name)) throw new Error(`“${name}” is not in WIDGET_ENTRIES (web/widgets/registry.js)`);
  return name;
}
const widgetEntries = () => ({
  name: 'multiple-heads-widget-entries',
  enforce: 'pre',
  resolveId(id, importer) {
    if (id.startsWith(ENTRY) || id.startsWith(MESSAGES)) return `\0${id}`;
    const file = importer && path.resolve(path.dirname(importer), id);
    if (importer === SHARED_I18N && path.dirname(file) === LOCALES_DIR) return `${SHARED_CATALOG}${path.basename(file, '.json')}`;
    return null;
  },
  load(id) {
    if (id.startsWith(SHARED_CATALOG)) {
      const locale = id.slice(SHARED_CATALOG.length);
      this.addWatchFile(path.join(LOCALES_DIR, `${locale}.json`));
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(sharedCatalog(locale, WIDGET_ENTRIES)))});\n`;
    }
    if (id.startsWith(`\0${ENTRY}`)) {
      const name = nameOf(id, ENTRY);
      return `import ${JSON.stringify(`${MESSAGES}${name}`)};\nimport ${JSON.stringify(`/widgets/${name}/index.js`)};\n`;
    }
    if (id.startsWith(`\0${MESSAGES}`)) {
      const name = nameOf(id, MESSAGES);
      const catalogs = entryCatalogs(path.join(WEB, 'widgets', name, 'index.js'), WIDGET_ENTRIES);
      for (const file of Object.keys(catalogs)) this.addWatchFile(path.join(LOCALES_DIR, `${file}.json`));
      return [`import { registerLocale } from ${JSON.stringify(SHARED_I18N)};`,
        ...Object.entries(catalogs).map(([locale, messages]) => `registerLocale(${JSON.stringify(locale)}, JSON.parse(${JSON.stringify(JSON.stringify(messages))}));`)].join('\n');
    }
    return null;
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
      input: {
        ...Object.fromEntries(WIDGET_ENTRIES.map((name) => [name, `${ENTRY}${name}`])),
        // The JavaScript API (registerLocale, loadEngine…) over the same modules as the entries.
        [API]: 'web/multiple-heads-api.js',
      },
      output: {
        entryFileNames: (chunk) => (chunk.name === API ? 'api.js' : 'widgets/[name].js'),
        chunkFileNames: 'assets/[name]-[hash].js',
        assetFileNames: 'assets/[name]-[hash][extname]',
      },
      preserveEntrySignatures: 'exports-only',
    },
  },
});
