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
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import page from './vite.config.js';
import { kitCssPlugin } from './scripts/lib/kit-css-plugin.mjs';
import { LOCALES_DIR, catalogOf, localesWithFiles, ownGroups, sharedGroups } from './scripts/lib/entry-messages.mjs';
import { WIDGET_ENTRIES } from './web/widgets/registry.js';

const WEB = fileURLToPath(new URL('./web/', import.meta.url));
const SHARED_I18N = path.join(WEB, 'widgets/shared/i18n.js');
const TEXT_I18N = path.join(WEB, 'text/i18n.js');
// The UI kit's own catalogs (its `ui` group), which web/ui/messages.js imports.
const UI_MESSAGES = path.join(WEB, 'ui/messages.js');
const UI_LOCALES_DIR = path.join(WEB, 'ui/locales');
// The language every entry carries; the others are fetched when a widget speaks them.
const EAGER_LOCALE = 'en';
// Groups only lazily loaded code words (static-figure.js and the figures' renderers): their
// English comes with that code, through this module, not with every entry's shared English.
const STATIC_FIGURE_MESSAGES = path.join(WEB, 'widgets/shared/static-figure-messages.js');
const LAZY_GROUPS = ['staticFigure'];

/**
 * A one-widget entry (`mha-widget-entry:blend`): a module that imports the widget's messages
 * (`mha-widget-messages:blend`, registered first: module imports run in order) and the
 * widget, which defines its element; the built file exports nothing.
 *
 * The messages: the lesson's locale files, which web/widgets/shared/i18n.js imports whole,
 * hold only the groups every entry uses here (`mha-shared-catalog:<locale>`); each entry
 * adds the other groups its widget's code uses (scripts/lib/entry-messages.mjs), and two
 * entries on a page merge theirs (registerLocale merges by group). English is in the
 * entry; every other language is a chunk of its own (`mha-catalog-data:<part>:<locale>`),
 * fetched through registerLocaleLoader when a widget in that language loads (loadLocale,
 * web/text/i18n.js).
 */
const ENTRY = 'mha-widget-entry:';
const API = 'multiple-heads-api';
const MESSAGES = 'mha-widget-messages:';
const SHARED_CATALOG = 'mha-shared-catalog:';
const UI_CATALOG = 'mha-ui-catalog:';
const DATA = 'mha-catalog-data:';
function entryName(name) {
  if (!WIDGET_ENTRIES.includes(name)) throw new Error(`“${name}” is not in WIDGET_ENTRIES (web/widgets/registry.js)`);
  return name;
}
const json = (value) => `JSON.parse(${JSON.stringify(JSON.stringify(value))})`;
const lazily = (locale, part) => `registerLocaleLoader(${JSON.stringify(locale)}, () => import(${JSON.stringify(`${DATA}${part}:${locale}`)}).then((data) => data.default));`;
/** A part's messages in a locale: `shared` (every entry's groups), `ui` (the kit's), or an entry's own groups. */
function partCatalog(part, locale) {
  if (part === 'ui') return JSON.parse(readFileSync(path.join(UI_LOCALES_DIR, `${locale}.json`), 'utf8'));
  if (part === 'lazy') return catalogOf(locale, LAZY_GROUPS);
  if (part !== 'shared') return catalogOf(locale, ownGroups(part, WIDGET_ENTRIES));
  // Another language's shared part is fetched whole when a widget speaks it.
  return catalogOf(locale, sharedGroups(WIDGET_ENTRIES).filter((group) => locale !== EAGER_LOCALE || !LAZY_GROUPS.includes(group)));
}
/** What a locale file import becomes: the eager language's messages, or a loader for another's. */
const catalogModule = (part, locale) => (locale === EAGER_LOCALE ? `export default ${json(partCatalog(part, locale))};\n`
  : `import { registerLocaleLoader } from ${JSON.stringify(TEXT_I18N)};\n${lazily(locale, part)}\nexport default {};\n`);

/** Each virtual module's code, by the prefix of its id. */
const MODULES = {
  [ENTRY]: (name) => `import ${JSON.stringify(`${MESSAGES}${entryName(name)}`)};\nimport ${JSON.stringify(`/widgets/${name}/index.js`)};\n`,
  [MESSAGES]: (name) => [`import { registerLocale, registerLocaleLoader } from ${JSON.stringify(TEXT_I18N)};`,
    ...localesWithFiles().map((locale) => (locale === EAGER_LOCALE
      ? `registerLocale(${JSON.stringify(locale)}, ${json(partCatalog(entryName(name), locale))});`
      : lazily(locale, name)))].join('\n'),
  // What shared/i18n.js and ui/messages.js register for a locale: English's shared groups
  // (the kit's); for another language nothing yet (they come with its first widget).
  [SHARED_CATALOG]: (locale) => catalogModule('shared', locale),
  [UI_CATALOG]: (locale) => catalogModule('ui', locale),
  [DATA]: (partAndLocale) => {
    const [part, locale] = partAndLocale.split(':');
    return `export default ${json(partCatalog(part, locale))};\n`;
  },
};

const widgetEntries = () => ({
  name: 'multiple-heads-widget-entries',
  enforce: 'pre',
  resolveId(id, importer) {
    if (Object.keys(MODULES).some((prefix) => id.startsWith(prefix))) return `\0${id}`;
    const file = importer && path.resolve(path.dirname(importer), id);
    if (importer === SHARED_I18N && path.dirname(file) === LOCALES_DIR) return `\0${SHARED_CATALOG}${path.basename(file, '.json')}`;
    if (importer === UI_MESSAGES && path.dirname(file) === UI_LOCALES_DIR) return `\0${UI_CATALOG}${path.basename(file, '.json')}`;
    return null;
  },
  load(id) {
    // Registered unless a course gave its own English for these groups first (registerLocale).
    if (id === STATIC_FIGURE_MESSAGES) {
      const eager = JSON.stringify(EAGER_LOCALE);
      return `import { messagesFor, registerLocale } from ${JSON.stringify(TEXT_I18N)};
const lazy = ${json(partCatalog('lazy', EAGER_LOCALE))};
const own = messagesFor(${eager}).catalog;
registerLocale(${eager}, Object.fromEntries(Object.entries(lazy).filter(([group]) => !(group in own))));\n`;
    }
    const prefix = Object.keys(MODULES).find((p) => id.startsWith(`\0${p}`));
    if (!prefix) return null;
    for (const dir of [LOCALES_DIR, UI_LOCALES_DIR]) for (const file of readdirSync(dir)) this.addWatchFile(path.join(dir, file));
    return MODULES[prefix](id.slice(prefix.length + 1));
  },
});

export default defineConfig({
  root: page.root,
  base: page.base,
  publicDir: false,
  plugins: [widgetEntries(), kitCssPlugin()],
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
        // Virtual modules' chunks would start with "_", which some hosts do not serve (Jekyll).
        chunkFileNames: (chunk) => `assets/${chunk.name.replace(/^_+/, '')}-[hash].js`,
        assetFileNames: 'assets/[name]-[hash][extname]',
      },
      preserveEntrySignatures: 'exports-only',
    },
  },
});
