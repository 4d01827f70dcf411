// The hand-written types follow the registry: every widget web/widgets/registry.js lists
// (and <mha-practice>) is in web/multiple-heads.d.ts's element and attribute maps (from
// which WidgetName, WidgetTag, HTMLElementTagNameMap and React's JSX types derive) and in
// Preact's JSX types, and every attribute the registry accepts is typed. A widget added to
// the registry without types fails here.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { WIDGETS, WIDGET_TAGS } from '../../web/widgets/registry.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file) => readFileSync(path.join(ROOT, file), 'utf8');
const TYPES = read('web/multiple-heads.d.ts');
const TAGS = [...WIDGET_TAGS, 'mha-practice'];

const union = (name) => {
  const body = new RegExp(`export type ${name} =([^;]+);`).exec(TYPES)?.[1] ?? '';
  return [...body.matchAll(/'([^']+)'/g)].map((m) => m[1]).sort();
};
const interfaceKeys = (name) => {
  const body = new RegExp(`interface ${name}[^{]*\\{([\\s\\S]*?)\\n\\s*\\}`).exec(TYPES)?.[1] ?? '';
  return [...body.matchAll(/^\s*'?([\w-]+)'?\??:/gm)].map((m) => m[1]);
};

test('WidgetTag, WidgetName and the global tag map derive from the element map, whose tags are the registry’s', () => {
  assert.deepEqual(interfaceKeys('MultipleHeadsElementsByTag').sort(), [...TAGS].sort());
  assert.match(TYPES, /export type WidgetTag = Exclude<keyof MultipleHeadsElementsByTag, 'mha-practice'>;/);
  assert.match(TYPES, /export type WidgetName = WidgetTag extends `mha-\$\{infer Name\}` \? Name : never;/);
  assert.match(TYPES, /interface HTMLElementTagNameMap extends MultipleHeadsElementsByTag \{\}/);
  for (const tag of WIDGET_TAGS) assert.ok(tag.startsWith('mha-') && WIDGETS[tag.slice(4)]?.tag === tag, `${tag}: its name is the tag without mha-`);
});

test('every element has attributes; React’s JSX derives from the maps, Preact’s lists each tag', () => {
  assert.deepEqual(interfaceKeys('MultipleHeadsAttributesByTag').sort(), [...TAGS].sort());
  assert.match(read('web/jsx-react.d.ts'), /interface IntrinsicElements extends MultipleHeadsIntrinsicElements \{\}/);
  // Preact's props are those of a <div> as its IntrinsicElements declares them, which a
  // mapped type cannot extend (it would refer to itself): one line per tag.
  const preact = read('web/jsx-preact.d.ts');
  const listed = [...preact.matchAll(/^\s*'(mha-[\w-]+)': MultipleHeadsPreactProps<'\1'>;/gm)].map((m) => m[1]);
  assert.deepEqual(listed.sort(), [...TAGS].sort(), 'web/jsx-preact.d.ts: one IntrinsicElements line per tag');
});

test('every attribute the registry accepts is typed for its widget', () => {
  const common = interfaceKeys('WidgetAttributes');
  for (const [name, widget] of Object.entries(WIDGETS)) {
    const own = (() => {
      const entry = new RegExp(`'${widget.tag}': (\\w+);`).exec(TYPES.slice(TYPES.indexOf('interface MultipleHeadsAttributesByTag')))?.[1];
      return entry ? interfaceKeys(entry) : [];
    })();
    const missing = widget.attributes.filter((attribute) => !common.includes(attribute) && !own.includes(attribute));
    assert.deepEqual(missing, [], `${name}: attributes without a type`);
  }
});
