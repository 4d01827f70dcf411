// The hand-written types follow the registry: every widget web/widgets/registry.js lists
// (and <mha-practice>) is named in web/multiple-heads.d.ts (WidgetName, WidgetTag,
// HTMLElementTagNameMap, the attributes by tag), in the React and Preact JSX types, and
// every attribute the registry accepts is typed. A widget added to the registry without
// types fails here.
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

test('WidgetName and WidgetTag are the registry’s names and tags', () => {
  assert.deepEqual(union('WidgetName'), Object.keys(WIDGETS).sort());
  assert.deepEqual(union('WidgetTag'), [...WIDGET_TAGS].sort());
});

test('every element is in HTMLElementTagNameMap, the element and attribute maps, and both JSX files', () => {
  for (const map of ['HTMLElementTagNameMap', 'MultipleHeadsElementsByTag', 'MultipleHeadsAttributesByTag']) {
    assert.deepEqual(interfaceKeys(map).sort(), [...TAGS].sort(), map);
  }
  for (const file of ['web/jsx-react.d.ts', 'web/jsx-preact.d.ts']) {
    const text = read(file);
    for (const tag of TAGS) assert.ok(text.includes(`'${tag}':`), `${file} declares ${tag}`);
  }
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
