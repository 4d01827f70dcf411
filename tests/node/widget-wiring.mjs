// What wires a widget into the package, checked from the registry: for every widget that
// web/widgets/registry.js lists, each place docs/ADDING-A-WIDGET.md says to edit. Returns
// one line per missing piece, naming the file to edit, so the list is empty for a widget
// added whole (tests/node/adding-a-widget.test.mjs adds one to a copy of the project).
// Every other tag list (embed.html's whitelist, the page-wide tests, the JSX types of React,
// the tag unions of the .d.ts, the package's READMEs) derives from the registry or the
// .d.ts maps and needs no edit.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const camel = (name) => name.replace(/-(\w)/g, (_, c) => c.toUpperCase());

/** Keys of `interface <name> { … }` in a .d.ts text. */
export function interfaceKeys(types, name) {
  const body = new RegExp(`interface ${name}[^{]*\\{([\\s\\S]*?)\\n\\s*\\}`).exec(types)?.[1] ?? '';
  return [...body.matchAll(/^\s*'?([\w-]+)'?\??:/gm)].map((m) => m[1]);
}

/** The registry of the project at `root`, imported afresh (it may have changed since). */
let imports = 0;
export async function registryAt(root) {
  return import(`${pathToFileURL(path.join(root, 'web/widgets/registry.js')).href}?import=${imports++}`);
}

/** Every missing piece of wiring of the registry's widgets in the project at `root`. */
export async function wiringProblems(root) {
  const { WIDGETS, WIDGET_ENTRIES } = await registryAt(root);
  const read = (file) => readFileSync(path.join(root, file), 'utf8');
  const all = read('web/widgets/all.js');
  const contracts = read('web/widgets/practice/widget-states.js');
  const lesson = read('lessons/multiple-heads/lesson.md');
  const types = read('web/multiple-heads.d.ts');
  const preact = read('web/jsx-preact.d.ts');
  const embedding = read('docs/EMBEDDING.md');
  const darkSelector = /```css\n((?:mha-[\w-]+,?\s*)+)\{/.exec(embedding)?.[1] ?? '';
  const locales = ['en', 'de'].map((locale) => [locale, JSON.parse(read(`lessons/multiple-heads/locales/${locale}.json`))]);
  const problems = [];
  for (const [name, { tag }] of Object.entries(WIDGETS)) {
    const folder = `web/widgets/${name}`;
    for (const file of ['index.js', `${name}-model.js`, `${name}.css`, 'README.md']) {
      if (!existsSync(path.join(root, folder, file))) problems.push(`${folder}/${file}: missing`);
    }
    if (existsSync(path.join(root, folder, 'index.js')) && !read(`${folder}/index.js`).includes(`static tag = '${tag}';`)) {
      problems.push(`${folder}/index.js: no static tag = '${tag}'`);
    }
    if (!all.includes(`import './${name}/index.js';`)) problems.push(`web/widgets/all.js: no import of ./${name}/index.js`);
    if (!contracts.includes(`from '../${name}/${name}-model.js';`) || !new RegExp(`[{,\\s]'?${name}'?[,:\\s}]`).test(contracts.slice(contracts.indexOf('STATE_CONTRACTS = {')))) {
      problems.push(`web/widgets/practice/widget-states.js: no state contract of ${name}`);
    }
    if (!lesson.includes(`<${tag}`)) problems.push(`lessons/multiple-heads/lesson.md: no <${tag}>`);
    for (const map of ['MultipleHeadsElementsByTag', 'MultipleHeadsAttributesByTag']) {
      if (!interfaceKeys(types, map).includes(tag)) problems.push(`web/multiple-heads.d.ts: ${tag} not in ${map}`);
    }
    if (!preact.includes(`'${tag}': MultipleHeadsPreactProps<'${tag}'>;`)) problems.push(`web/jsx-preact.d.ts: no ${tag} line`);
    if (!embedding.includes(`| \`${name}\` | \`<${tag}>\` |`)) problems.push(`docs/EMBEDDING.md: no row for ${name} in the widget table`);
    if (!darkSelector.split(/[\s,]+/).includes(tag)) problems.push(`docs/EMBEDDING.md: ${tag} not in the dark theme's selector`);
    for (const [locale, messages] of locales) {
      if (typeof messages[camel(name)] !== 'object') problems.push(`lessons/multiple-heads/locales/${locale}.json: no ${camel(name)} group`);
      if (typeof messages.widgets?.[name]?.title !== 'string') problems.push(`lessons/multiple-heads/locales/${locale}.json: no widgets.${name}.title`);
    }
  }
  problems.push(...entryProblems(JSON.parse(read('package.json')), WIDGET_ENTRIES));
  return problems;
}

/**
 * The one-widget entries in package.json: vite.widgets.config.js builds
 * dist/widgets/<name>.js for each name of the registry's WIDGET_ENTRIES; each must be the
 * subpath `multiple-heads/<name>` with the entries' types, and no subpath may name an entry
 * that is gone.
 */
export function entryProblems(manifest, entries) {
  const problems = [];
  const exported = manifest.exports ?? {};
  for (const name of entries) {
    const file = `./dist/widgets/${name}.js`;
    const wanted = { types: './web/widget-entry.d.ts', import: file, default: file };
    if (JSON.stringify(exported[`./${name}`]) !== JSON.stringify(wanted)) {
      problems.push(`package.json: exports["./${name}"] is not ${JSON.stringify(wanted)}`);
    }
  }
  for (const [subpath, target] of Object.entries(exported)) {
    if (String(target?.import ?? '').startsWith('./dist/widgets/') && !entries.includes(subpath.slice(2))) {
      problems.push(`package.json: exports["${subpath}"] is no entry of WIDGET_ENTRIES (web/widgets/registry.js)`);
    }
  }
  return problems;
}
