// One world (issue 9): every widget shows the world's sentence and heads, and a head has the
// same name and the same colour in every widget and in the prose. The footer speaks to a
// learner, not to an engineer.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { THE_WORLD as w } from '../../web/widgets/shared/world.js';
import { WIDGET_TAGS } from '../../web/widgets/registry.js';
import { buildAllWidgets, newWatchedPage, useSiteAndBrowser } from './browser.mjs';

const session = useSiteAndBrowser();
// Names from the toy worlds the widgets had before the one world.
const FOREIGN = ['the cat sat', 'Head A', 'head A', 'Reference', 'valueWidth'];

for (const scheme of ['light', 'dark']) {
  test(`every widget and the prose use the world's heads with the world's colours (${scheme})`, async () => {
    const { page, problems } = await newWatchedPage(session.browser, { width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(session.server.url);
    await buildAllWidgets(page);
    for (const tag of WIDGET_TAGS) await page.locator(`${tag}[ready]`).first().waitFor();
    const expected = Object.fromEntries(w.heads.map((h) => [h.id, (scheme === 'dark' ? h.colourDark : h.colour).toLowerCase()]));
    const seen = await page.evaluate(({ tags, ids }) => {
      const toHex = (colour) => {
        const probe = document.createElement('span');
        probe.style.setProperty('color', colour);
        document.body.append(probe);
        const rgb = getComputedStyle(probe).color.match(/\d+/g).slice(0, 3).map(Number);
        probe.remove();
        return `#${rgb.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
      };
      const out = [];
      const scopes = [['prose', document], ...tags.map((tag) => [tag, document.querySelector(tag).shadowRoot])];
      for (const [where, root] of scopes) {
        for (const id of ids) {
          for (const el of root.querySelectorAll(`.head-${id}`)) {
            out.push({ where, id, colour: toHex(getComputedStyle(el).getPropertyValue('--head').trim()) });
          }
        }
      }
      return out;
    }, { tags: WIDGET_TAGS, ids: w.heads.map((h) => h.id) });
    const wrong = seen.filter((s) => s.colour !== expected[s.id]).map((s) => `${s.where} .head-${s.id}: ${s.colour}`);
    assert.deepEqual([...new Set(wrong)], []);
    const places = new Set(seen.map((s) => s.where));
    for (const where of ['prose', 'mha-layer', 'mha-blend', 'mha-wo-mixing', 'mha-heads-questions']) {
      assert.ok(places.has(where), `${where} shows no head in a head colour`);
    }
    assert.deepEqual(problems, []);
  });
}

test('every widget shows the world’s sentence and its heads’ names, and nothing of the old toy worlds', async () => {
  const { page, problems } = await newWatchedPage(session.browser, { width: 1280, height: 800 });
  await page.goto(session.server.url);
  await buildAllWidgets(page);
  for (const tag of WIDGET_TAGS) await page.locator(`${tag}[ready]`).first().waitFor();
  for (const tag of WIDGET_TAGS) {
    const text = await page.locator(tag).evaluateAll((els) => els.map((el) => el.shadowRoot.textContent).join(' '));
    for (const word of FOREIGN) assert.ok(!text.includes(word), `${tag} still shows “${word}”`);
    if (tag === 'mha-head-splitting') continue; // its counts use the large shapes; its rank panel names heads
    if (tag === 'mha-training') continue; // it trains on the core's synthetic token sequences, not on a sentence
    assert.ok(text.includes('said'), `${tag} does not show the world's query word`);
  }
  for (const tag of ['mha-layer', 'mha-wo-mixing', 'mha-heads-questions', 'mha-head-splitting']) {
    const text = await page.locator(tag).evaluateAll((els) => els.map((el) => el.shadowRoot.textContent).join(' '));
    for (const head of w.heads) assert.ok(text.includes(head.name), `${tag} does not name “${head.name}”`);
  }
  const footer = await page.locator('#engine-status').textContent();
  assert.doesNotMatch(footer, /wasmsimd|scalar kernels|kernels\)/);
  assert.match(footer, /computed live, in your browser/);
  assert.deepEqual(problems, []);
});
