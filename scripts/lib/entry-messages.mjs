// The messages a one-widget entry carries (vite.widgets.config.js). The lesson's locale
// files (lessons/multiple-heads/locales/<locale>.json) hold every widget's texts, a group
// per widget (`blend`, `headSplitting`…) beside the groups all widgets share (`base`,
// `staticFigure`, `world`…): about 30 kB gzipped for English and German together, the
// largest part of a widget's code. The shared groups are registered with the shared code
// (some of it words things as it loads); an entry adds the widget groups its own code
// names, in every locale; the others stay out of its download.
//
// "Names": a string literal that starts with the group and a dot ('blend.tryCaption',
// `layer.link.see`) anywhere in the modules the widget's index.js reaches by static imports
// and by import('…') of a literal path. A literal that only looks like a key keeps a group
// it did not need (a few kB); a key built at run time from a widget's group name would be
// missed, and the code has none (tests/browser/widget-bytes.test.mjs fails on the console
// warning a missing message gives).
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const LOCALES_DIR = path.join(ROOT, 'lessons/multiple-heads/locales');
const camel = (name) => name.replace(/-(\w)/g, (_, c) => c.toUpperCase());
const IMPORT = /(?:^|[\s;])(?:import|export)\s*(?:[\w*{}\s,$]+?\s*from\s*)?(['"])([^'"]+)\1|import\(\s*(['"])([^'"]+)\3\s*\)/gm;

/** A file's code without its comments (an example key in a comment names nothing). */
const codeOf = (file) => readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

/** The JavaScript files a module reaches through relative imports (itself included). */
function reachable(file, seen = new Set()) {
  if (seen.has(file) || !/\.m?js$/.test(file)) return seen;
  seen.add(file);
  const code = codeOf(file);
  for (const match of code.matchAll(IMPORT)) {
    const spec = match[2] ?? match[4];
    if (spec.startsWith('.')) reachable(path.resolve(path.dirname(file), spec.split('?')[0]), seen);
  }
  return seen;
}

/** The widget groups (one per entry name, camelCase) that a widget's code names. */
export function groupsNamedBy(indexFile, entries) {
  const groups = entries.map(camel);
  const named = new Set();
  const literal = new RegExp(`['"\`](${groups.join('|')})\\.[A-Za-z]`, 'g');
  for (const file of reachable(indexFile)) {
    for (const match of codeOf(file).matchAll(literal)) named.add(match[1]);
  }
  return groups.filter((group) => named.has(group));
}

const readLocale = (locale) => JSON.parse(readFileSync(path.join(LOCALES_DIR, `${locale}.json`), 'utf8'));
/** The locales that have a file, e.g. ['de', 'en']. */
export const localesWithFiles = () => readdirSync(LOCALES_DIR).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -'.json'.length)).sort();

/** A locale file without any widget's group: what every entry needs (web/widgets/shared/i18n.js registers it). */
export function sharedCatalog(locale, entries) {
  const widgetGroups = new Set(entries.map(camel));
  return Object.fromEntries(Object.entries(readLocale(locale)).filter(([group]) => !widgetGroups.has(group)));
}

/** { locale: catalog } for an entry: in every locale, the widget groups its code names. */
export function entryCatalogs(indexFile, entries) {
  const keep = groupsNamedBy(indexFile, entries);
  return Object.fromEntries(localesWithFiles().map((locale) => {
    const messages = readLocale(locale);
    return [locale, Object.fromEntries(keep.filter((group) => group in messages).map((group) => [group, messages[group]]))];
  }));
}
