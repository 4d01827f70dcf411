// A course's locale catalog reaches the page as text, never as markup (issue 26): a catalog
// whose every string carries `<img src=x onerror=…>` is registered, and every widget's static
// figure (what shows before the widget loads, without JavaScript, and in print) is drawn in
// it. Not one element may come from the catalog: its `<` must arrive escaped.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import lessonEn from '../../lessons/multiple-heads/locales/en.json' with { type: 'json' };
import kitEn from '../../web/ui/locales/en.json' with { type: 'json' };
import { registerLocale } from '../../web/widgets/shared/i18n.js';

// The whole English UI: the lesson's groups and the kit's (the ui group).
const en = { ...lessonEn, ...kitEn };
import { THE_WORLD } from '../../web/widgets/shared/world.js';
import { loadTestEngine, loadTestTrainingEngine } from './load-engine.mjs';

const ATTACK = '<img src=x onerror="globalThis.hacked=1">';

test('training-static.js in a hostile catalog: no element from the catalog', async () => {
  // The figure of one trained run (2 heads), as the lesson's build trains it for three.
  const { renderStaticFigure, trainComparison, COMPARISON } = await import('../../web/widgets/training/training-static.js');
  const trainingComparison = trainComparison(await loadTestTrainingEngine('simd'), { ...COMPARISON, heads: [2] });
  const html = renderStaticFigure({ lang: 'xx' }, { trainingComparison, world: THE_WORLD });
  assert.ok(html.includes('&lt;img'), 'the catalog’s text is in the figure');
  assert.equal(html.match(/<img/g), null, `markup from the catalog in ${html.slice(html.indexOf('<img') - 80, html.indexOf('<img') + 60)}`);
});

// Every string of the English catalog with the attack before it (placeholders kept, so the
// figures still fill them in).
const hostile = (entry) => (typeof entry === 'string' ? `${ATTACK}${entry}`
  : Object.fromEntries(Object.entries(entry).map(([key, value]) => [key, hostile(value)])));

let engine;
before(async () => {
  engine = await loadTestEngine('simd');
  registerLocale('xx', hostile(en));
});

for (const name of ['blend', 'layer', 'head-splitting', 'wo-mixing', 'heads-questions', 'practice']) {
  test(`${name}-static.js in a hostile catalog: no element from the catalog`, async () => {
    const { renderStaticFigure } = await import(`../../web/widgets/${name}/${name}-static.js`);
    const figures = name === 'practice'
      ? [renderStaticFigure({ lang: 'xx' }, { engine }), ...['construction', 'limits', 'not-copies', 'one-average', 'rank-price', 'same-arithmetic', 'wo'].map((idea) => renderStaticFigure({ lang: 'xx', idea }, { engine }))]
      : [renderStaticFigure({ lang: 'xx' }, { engine, world: THE_WORLD })];
    for (const html of figures) {
      assert.ok(html.includes('&lt;img'), 'the catalog’s text is in the figure');
      assert.equal(html.match(/<img/g), null, `markup from the catalog in ${html.slice(html.indexOf('<img') - 80, html.indexOf('<img') + 60)}`);
    }
  });
}
