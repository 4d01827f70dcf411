// The web layer's import structure (issue 24): the UI kit (web/ui/) and the text helpers
// (web/text/: i18n, number formats, number parsing) sit below the widgets and know nothing of
// them or of the lesson; and no module of web/ imports itself back through others (a cycle
// makes evaluation order, and so what a module sees of the other at load, an accident).
// Imports are read from the sources: static `import … from`, `import '…'`, `export … from`
// and dynamic `import('…')` with a literal path; packages (bare names) are outside web/.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WEB = path.join(ROOT, 'web');

function sources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (name === 'generated') return []; // Emscripten's output, not ours
    return statSync(full).isDirectory() ? sources(full) : /\.m?js$/.test(name) ? [full] : [];
  });
}

const IMPORT = /(?:^|[\s;])(?:import|export)\s*(?:[\w*{}\s,$]+?\s*from\s*)?(['"])([^'"]+)\1|import\(\s*(['"])([^'"]+)\3\s*\)/gm;

/** The relative imports of a file, resolved to paths from the repository root. */
export function importsOf(file, text = readFileSync(file, 'utf8')) {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  return [...code.matchAll(IMPORT)]
    .map((match) => match[2] ?? match[4])
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => path.relative(ROOT, path.resolve(path.dirname(file), spec.split('?')[0])));
}

const graph = new Map(sources(WEB).map((file) => [path.relative(ROOT, file), importsOf(file)]));

test('the import reader finds static, side-effect, re-export and dynamic imports, not comments', () => {
  const file = path.join(WEB, 'widgets/x/y.js');
  assert.deepEqual(importsOf(file, [
    "import { a } from '../shared/a.js';", "import '../../ui/b.js';", "export * from './c.js';",
    "const d = await import('./d.js');", "// import { e } from './e.js';", "import css from './f.css?inline';",
    "import { g,\n  h } from 'katex';",
  ].join('\n')), ['web/widgets/shared/a.js', 'web/ui/b.js', 'web/widgets/x/c.js', 'web/widgets/x/d.js', 'web/widgets/x/f.css']);
});

test('web/ui/ and web/text/ import nothing from the widgets or the lesson; web/text/ nothing from web/ui/', () => {
  assert.ok(graph.size > 50, `${graph.size} modules read`);
  const wrong = [];
  for (const [file, imports] of graph) {
    const below = file.startsWith('web/ui/') || file.startsWith('web/text/');
    if (!below) continue;
    for (const target of imports) {
      if (target.startsWith('web/widgets/') || target.startsWith('lessons/')) wrong.push(`${file} → ${target}`);
      if (file.startsWith('web/text/') && target.startsWith('web/ui/')) wrong.push(`${file} → ${target}`);
    }
  }
  assert.deepEqual(wrong, []);
});

/**
 * The import cycles of a graph (Map: module → modules it imports): Tarjan's strongly
 * connected components; any of more than one module, or a module importing itself, is one.
 */
export function cyclesIn(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  let counter = 0;
  const visit = (node) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node), index.get(next)));
    }
    if (low.get(node) === index.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(component.sort().join(' ↔ '));
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

test('the cycle finder finds a cycle through three modules and a module importing itself, and none in a tree', () => {
  const g = (entries) => new Map(entries);
  assert.deepEqual(cyclesIn(g([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]])), ['a ↔ b ↔ c']);
  assert.deepEqual(cyclesIn(g([['a', ['a']]])), ['a']);
  assert.deepEqual(cyclesIn(g([['a', ['b', 'c']], ['b', ['c']], ['c', []]])), []);
});

test('no import cycles in web/', () => {
  // Before issue 24: i18n.js ↔ parse-number.js (and, folder by folder, web/ui/ and
  // web/widgets/shared/ imported each other, which the test above rules out).
  assert.deepEqual(cyclesIn(graph), []);
});
