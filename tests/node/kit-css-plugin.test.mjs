// The build's minifier for the UI kit's CSS in template literals (scripts/lib/kit-css-plugin.mjs):
// what it keeps matters more than what it saves.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { kitCssPlugin, minifyTemplateCss } from '../../scripts/lib/kit-css-plugin.mjs';
import { kitStyles } from '../../web/ui/kit-styles.js';

test('comments and spaces go; the ${…} interpolations come back as they were, in values and custom properties', () => {
  const body = '/* a note */\n.a .b {\n  --k: ${STRENGTH};\n  width: calc(${SCALE} * 2px);\n}\n';
  const min = minifyTemplateCss(body);
  assert.ok(!min.includes('note') && !min.includes('\n'), min);
  assert.ok(min.includes('--k:${STRENGTH}') && min.includes('calc(${SCALE}'), min);
  assert.ok(min.startsWith('.a .b{'), `the descendant selector keeps its space: ${min}`);
});

test('a literal that is not a stylesheet is left alone', () => {
  assert.equal(minifyTemplateCss('Zoom in: ${title}'), null);
  assert.equal(minifyTemplateCss('a { b'), null, 'unbalanced: not minified, not broken');
});

test('the kit\'s modules come out smaller, with every selector of the kit still there', () => {
  const plugin = kitCssPlugin();
  const source = "export const S = `\n/* rule */\n.ui-x { color: var(--ui-ink); }\n`;\nconst label = `not css`;\n";
  const { code } = plugin.transform(source, '/repo/web/ui/styles-x.js');
  assert.equal(code, 'export const S = `.ui-x{color:var(--ui-ink)}`;\nconst label = `not css`;\n');
  assert.equal(plugin.transform(source, '/repo/web/widgets/blend/index.js'), null, 'only web/ui/styles*.js');
  const selectors = new Set(kitStyles.match(/\.ui-[a-z-]+/g));
  const min = minifyTemplateCss(kitStyles.replace(/`/g, ''));
  for (const selector of selectors) assert.ok(min.includes(selector), `${selector} survives`);
});
