// The messages each one-widget entry carries (vite.widgets.config.js). The lesson's locale
// files (lessons/multiple-heads/locales/<locale>.json) hold every text of every widget, in
// groups (`blend`, `headSplitting`… for each widget; `base`, `staticFigure`, `embed`,
// `learnerCopy`… for shared code): about 30 kB gzipped for English and German together,
// the largest part of a widget's code. A part (an entry, or the API, dist/api.js) gets
// the groups its code names. The groups every entry names go with the shared code, which
// registers them as it loads (some of it words things then); each part brings the rest of
// its own, and two parts on a page merge theirs (registerLocale merges by group).
//
// "Names": a string literal that starts with the group and a dot ('blend.tryCaption',
// `learnerCopy.${key}`) in the modules the part's file reaches through static imports,
// import('…') of a literal path and import.meta.glob('…') patterns. A literal that only
// looks like a key keeps a group it did not need (a few kB); a key whose group is built at
// run time would be missed, and the code has none (tests/browser/widget-bytes.test.mjs
// fails on the console warning a missing message gives).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WEB = path.join(ROOT, 'web');
export const LOCALES_DIR = path.join(ROOT, 'lessons/multiple-heads/locales');
const IMPORT = /(?:^|[\s;])(?:import|export)\s*(?:[\w*{}\s,$]+?\s*from\s*)?(['"])([^'"]+)\1|import\(\s*(['"])([^'"]+)\3\s*\)/gm;
const GLOB = /import\.meta\.glob\(\s*(['"])([^'"]+)\1/g;

/** The file a part's code starts from: a widget's index.js, or the API module. */
export const partFile = (part) => (part === 'api' ? path.join(WEB, 'multiple-heads-api.js') : path.join(WEB, 'widgets', part, 'index.js'));

/** A file's code without its comments (an example key in a comment names nothing). */
const codeOf = (file) => readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

/** The files an import.meta.glob pattern ('../*\/*-static.js') matches from a folder: `*` within one path segment. */
function globbed(dir, pattern) {
  const segments = path.resolve(dir, pattern).split(path.sep);
  let found = [segments[0] || path.sep];
  for (const segment of segments.slice(1)) {
    const match = new RegExp(`^${segment.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
    found = found.flatMap((base) => {
      try {
        return readdirSync(base).filter((name) => match.test(name)).map((name) => path.join(base, name));
      } catch { return []; }
    });
  }
  return found.filter((file) => statSync(file).isFile());
}

/**
 * The JavaScript files a module reaches through relative imports (itself included). Of a
 * glob's matches, those in another widget's folder are not followed: the one glob
 * (widget-static-figure.js: every widget's static renderer) is looked up by the widget's
 * own name, so a widget loads only its own renderer (`ownFolder`).
 */
function reachable(file, ownFolder, seen = new Set()) {
  if (seen.has(file) || !/\.m?js$/.test(file)) return seen;
  seen.add(file);
  const code = codeOf(file);
  for (const match of code.matchAll(IMPORT)) {
    const spec = match[2] ?? match[4];
    if (spec.startsWith('.')) reachable(path.resolve(path.dirname(file), spec.split('?')[0]), ownFolder, seen);
  }
  const widgets = path.join(WEB, 'widgets');
  const anotherWidgets = (found) => path.dirname(path.dirname(found)) === widgets && path.dirname(found) !== ownFolder;
  // Read from the raw text: a glob's "/*/" would look like a comment to codeOf.
  for (const match of readFileSync(file, 'utf8').matchAll(GLOB)) {
    for (const found of globbed(path.dirname(file), match[2])) if (!anotherWidgets(found)) reachable(found, ownFolder, seen);
  }
  return seen;
}

/** The JavaScript files a part's code reaches, from the repository root. */
export const filesOf = (part) => [...reachable(partFile(part), path.dirname(partFile(part)))].map((file) => path.relative(ROOT, file));

const readLocale = (locale) => JSON.parse(readFileSync(path.join(LOCALES_DIR, `${locale}.json`), 'utf8'));
/** The locales that have a file, e.g. ['de', 'en']. */
export const localesWithFiles = () => readdirSync(LOCALES_DIR).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -'.json'.length)).sort();
/** Every group of any locale file. */
const allGroups = () => [...new Set(localesWithFiles().flatMap((locale) => Object.keys(readLocale(locale))))];

/** The groups a part's code names. */
export function groupsNamedBy(part) {
  const groups = allGroups();
  const literal = new RegExp(`['"\`](${groups.map((g) => g.replace(/[$]/g, '\\$')).join('|')})\\.`, 'g');
  const named = new Set();
  for (const file of filesOf(part).map((relative) => path.join(ROOT, relative))) {
    for (const match of codeOf(file).matchAll(literal)) named.add(match[1]);
  }
  return groups.filter((group) => named.has(group));
}

/**
 * The groups every widget entry names: registered by the shared code
 * (web/widgets/shared/i18n.js), before any module words anything as it loads (static-figure.js
 * does: an entry's own messages are registered only after the shared chunks ran).
 */
export function sharedGroups(entries) {
  const named = entries.map(groupsNamedBy);
  return named[0].filter((group) => named.every((groups) => groups.includes(group)));
}

/** A locale's catalog cut to some groups (those it has). */
export function catalogOf(locale, groups) {
  const messages = readLocale(locale);
  return Object.fromEntries(groups.filter((group) => group in messages).map((group) => [group, messages[group]]));
}

/** The groups a part brings itself: those it names beyond the shared ones of the widget `entries`. */
export function ownGroups(part, entries) {
  const shared = sharedGroups(entries);
  return groupsNamedBy(part).filter((group) => !shared.includes(group));
}
