// Themes: every colour the widgets, the UI kit and the pages paint comes from a documented
// CSS custom property. Statically: each colour literal in their styles is only the fallback
// of a var(--mha-...) (the property an author sets), and each such property is named in
// docs/EMBEDDING.md's table. The browser side (a dark course theme set only through these
// properties passes axe) is tests/browser/theme.test.mjs.
// Type: two weights, regular (400) and bold (700), and sizes from one scale (TYPE_SCALE).
// Each size and weight of a family the page shows is a font the browser sets up before
// its first layout (on Linux a render style asked of the browser process for each size, a
// typeface for each weight), about 2.5 ms of a slowed (4x) main thread each: the lesson with every widget built showed
// 110 combinations of family, size, weight and style, from about 30 sizes and four weights
// (bench/README.md, "One type scale, two weights").
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { paletteCss } from '../../web/ui/colour-scale.js';
import { headColourStyles } from '../../web/widgets/shared/world.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file) => readFileSync(path.join(ROOT, file), 'utf8');

// The CSS keywords that name a colour (the ones a stylesheet might plausibly use).
const NAMED = ['white', 'black', 'red', 'green', 'blue', 'gray', 'grey', 'silver', 'orange', 'yellow', 'purple', 'navy', 'maroon'];
const LITERAL = new RegExp(String.raw`#[0-9a-fA-F]{3,8}\b|\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch)\(|\b(?:${NAMED.join('|')})\b(?![-\w])`, 'g');
// A literal is allowed only as the fallback of an author-facing property: var(--mha-x, <literal>).
const FALLBACK = /var\(--mha-[a-z0-9-]+,\s*$/;

/** Style sources: every .css under web/, the kit's stylesheet, and the generated palettes. */
function styleSources() {
  const css = [];
  const walk = (dir) => {
    for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) { if (entry.name !== 'generated') walk(file); } else if (file.endsWith('.css')) css.push(file);
    }
  };
  walk('web');
  // Not themed, by design: the example pages (they show an author's own colours) and the
  // print stylesheet (black on white paper whatever the screen's theme).
  const sources = css.filter((file) => !file.startsWith(path.join('web', 'examples')) && file !== path.join('web', 'print.css'))
    .map((file) => [file, read(file)]);
  // The kit's rules are template literals: the shared ones in styles.js, each larger
  // component's in styles-<component>.js.
  sources.push(['web/ui/styles.js (components)', /const components = `([\s\S]*?)`;/.exec(read('web/ui/styles.js'))[1]]);
  for (const name of ['matrix', 'budget', 'stacked']) {
    const file = `web/ui/styles-${name}.js`;
    sources.push([file, /_STYLES = `([\s\S]*?)`;/.exec(read(file))[1]]);
  }
  sources.push(['web/ui/colour-scale.js paletteCss()', paletteCss()]);
  sources.push(['web/widgets/shared/world.js headColourStyles()', headColourStyles()]);
  return sources;
}

const withoutComments = (text) => text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '));

test('every colour literal in the styles is the fallback of a --mha-* property', () => {
  const offenders = [];
  for (const [file, text] of styleSources()) {
    const clean = withoutComments(text);
    for (const match of clean.matchAll(LITERAL)) {
      const before = clean.slice(Math.max(0, match.index - 80), match.index);
      if (FALLBACK.test(before)) continue;
      const line = clean.slice(0, match.index).split('\n').length;
      offenders.push(`${file}:${line}: ${clean.split('\n')[line - 1].trim()}`);
    }
  }
  assert.deepEqual(offenders, []);
});

test('the check finds a hard-coded colour (it can fail)', () => {
  const sample = '.a { color: var(--mha-ink, #123456); }\n.b { background: color-mix(in oklab, #b26b00 14%, white); }';
  const found = withoutComments(sample).match(LITERAL);
  assert.equal(found.length, 3);
  assert.ok(FALLBACK.test(sample.slice(0, sample.indexOf('#123456'))));
  assert.ok(!FALLBACK.test(sample.slice(0, sample.indexOf('#b26b00'))));
});

test('widget and kit scripts set no colour literals of their own', () => {
  const offenders = [];
  for (const dir of ['web/ui', ...readdirSync(path.join(ROOT, 'web/widgets')).map((d) => `web/widgets/${d}`)]) {
    let entries;
    try { entries = readdirSync(path.join(ROOT, dir)); } catch { continue; }
    for (const name of entries.filter((n) => n.endsWith('.js'))) {
      if (dir === 'web/ui' && name === 'colour-scale.js') continue; // the palette, checked above as CSS
      const text = read(`${dir}/${name}`).replace(/^\s*\/\/.*$/gm, '');
      const body = dir === 'web/ui' && name === 'styles.js' ? '' : text;
      for (const match of body.matchAll(/['"`](#[0-9a-fA-F]{6}|#[0-9a-fA-F]{3}|rgba?\([^)]*\)|white|black)['"`]/g)) {
        offenders.push(`${dir}/${name}: ${match[0]}`);
      }
    }
  }
  assert.deepEqual(offenders, []);
});

test('every --mha-* property the styles read is documented in docs/EMBEDDING.md', () => {
  const guide = read('docs/EMBEDDING.md');
  const used = new Set();
  for (const [, text] of styleSources()) {
    for (const match of text.matchAll(/var\((--mha-[a-z0-9-]+)/g)) used.add(match[1]);
  }
  const documented = (name) => {
    if (guide.includes(`\`${name}\``)) return true;
    // Dark variants: --mha-dark-<name> (or --mha-head-<id>-dark) of a documented property.
    const dark = /^--mha-dark-(.+)$/.exec(name) ?? /^--mha-(head-.+)-dark$/.exec(name);
    if (dark) return guide.includes('`--mha-dark-<name>`') && documented(`--mha-${dark[1]}`);
    const head = /^--mha-head-([a-z]+)$/.exec(name);
    return Boolean(head && guide.includes('`--mha-head-<id>`') && guide.includes(`\`${head[1]}\``));
  };
  assert.ok(used.size > 20, `found ${used.size} properties`);
  assert.deepEqual([...used].filter((name) => !documented(name)).sort(), []);
});

test('every property the guide’s dark theme sets is one the styles read', () => {
  const section = read('docs/EMBEDDING.md').split(/^## /m).find((part) => part.startsWith('4. A dark course theme'));
  const css = /```css\n([\s\S]*?)```/.exec(section)[1];
  const used = new Set();
  for (const [, text] of styleSources()) {
    for (const match of text.matchAll(/var\((--mha-[a-z0-9-]+)/g)) used.add(match[1]);
  }
  const set = [...css.matchAll(/(--mha-[a-z0-9-]+)\s*:/g)].map((m) => m[1]);
  assert.ok(set.length > 20);
  assert.deepEqual(set.filter((name) => !used.has(name)), []);
});


// Weights a style may set: the two the page uses, by number or keyword.
const WEIGHTS = /font-weight:\s*(400|700|normal|bold|inherit)\s*[;}!]/;

test('every font-weight in the styles is regular (400) or bold (700)', () => {
  const offenders = [];
  for (const [file, text] of [...styleSources(), ['web/print.css', read('web/print.css')]]) {
    const clean = withoutComments(text);
    for (const match of clean.matchAll(/font-weight:[^;}]*[;}]/g)) {
      if (!WEIGHTS.test(match[0])) offenders.push(`${file}: ${match[0]}`);
    }
  }
  assert.deepEqual(offenders, []);
  // The check can fail:
  assert.ok(!WEIGHTS.test('font-weight: 600;') && !WEIGHTS.test('font-weight: bolder;') && WEIGHTS.test('font-weight: 700; '));
});

// The type scale, in rem: phone maps' labels, grid labels, small labels, secondary text,
// body, lede, headings on phones, headings (1.0625 is the lesson page's root size).
export const TYPE_SCALE = [0.55, 0.65, 0.75, 0.85, 1, 1.0625, 1.15, 1.3, 1.5];
// A size may also be relative to its text (em: sub- and superscripts, formulas), in px in
// an SVG's own units (a chart's labels scale with its drawing), or 0.
function sizeAllowed(declaration) {
  const value = /font-size:\s*([^;}!]*)/.exec(declaration)[1].trim();
  const rem = /^([0-9.]+)rem$/.exec(value);
  if (rem) return TYPE_SCALE.includes(Number(rem[1]));
  return /^[0-9.]+em$/.test(value) || value === '0' || value.startsWith('clamp(');
}

test('every font-size in the styles is a step of the type scale, relative (em) or an SVG text size', () => {
  const offenders = [];
  for (const [file, text] of styleSources()) {
    const clean = withoutComments(text);
    for (const match of clean.matchAll(/([^{};]*)\{([^}]*)\}/g)) {
      const [, selector, body] = match;
      for (const declaration of body.match(/font-size:[^;}]*/g) ?? []) {
        const svgText = /\btext\b/.test(selector) && /^font-size:\s*[0-9.]+px\s*$/.test(declaration);
        if (!svgText && !sizeAllowed(declaration)) offenders.push(`${file}: ${selector.trim()} { ${declaration} }`);
      }
    }
  }
  assert.deepEqual(offenders, []);
  // The check can fail:
  assert.ok(!sizeAllowed('font-size: 0.8rem') && !sizeAllowed('font-size: 13px') && sizeAllowed('font-size: 0.85rem'));
});
