// The panels attribute as an author might get it wrong: a name in the wrong case, a typo,
// an empty value. Each gives a visible notice that names the widget's panels (and the
// lower-case name meant), never an empty widget; right names still choose the panels.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildAllWidgets, newWatchedPage, screenshot, useCourseSite } from './browser.mjs';
import { WIDGETS } from '../../web/widgets/registry.js';

// Widgets on the shared base (they say [ready] and take the common attributes).
const BASE_WIDGETS = Object.entries(WIDGETS).filter(([, w]) => w.attributes.includes('panels'));

const page = (body) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Panels</title><link rel="icon" href="data:,">
<script type="module" src="attention/multiple-heads.js"></script></head>
<body><main><h1>Panels</h1>${body}</main></body></html>`;
const course = useCourseSite({ mount: 'attention', prefix: 'mha-panels-', files: {
  'blend.html': page(`<h2>Wrong case</h2><mha-blend id="upper" state-key="b1" panels="Plane"></mha-blend>
<h2>One right, one typo</h2><mha-blend id="typo" state-key="b2" panels="plane valeus"></mha-blend>
<h2>Right</h2><mha-blend id="right" state-key="b3" panels="plane values"></mha-blend>
<h2>Empty</h2><mha-blend id="empty" state-key="b4" panels=""></mha-blend>`),
  'all.html': page(BASE_WIDGETS.map(([name, w]) => `<h2>${name}</h2><${w.tag} panels="nonsense"></${w.tag}>`).join('\n')),
} });

const shownPanels = (locator) => locator.evaluate((el) =>
  [...el.shadowRoot.querySelectorAll('[data-panel]')].filter((p) => !p.hidden).map((p) => p.dataset.panel));
const noticeOf = (locator) => locator.locator('.panels-notice');

test('blend: a wrong-case name, a typo and an empty value each say so; right names are quiet', async () => {
  const { page, problems } = await newWatchedPage(course.browser);
  await page.goto(`${course.url}blend.html`);
  await buildAllWidgets(page);
  for (const id of ['upper', 'typo', 'right', 'empty']) await page.locator(`#${id}[ready]`).waitFor();
  const upper = page.locator('#upper');
  await noticeOf(upper).waitFor();
  assert.match(await noticeOf(upper).textContent(), /“Plane” \(did you mean “plane”\?\).*Showing every panel.*“one-head”, “plane”, “two-heads”, “values”/);
  assert.deepEqual(await shownPanels(upper), ['one-head', 'plane', 'two-heads', 'values']);

  const typo = page.locator('#typo');
  assert.match(await noticeOf(typo).textContent(), /names no panel of this widget: “valeus”\. This widget's panels are/);
  assert.deepEqual(await shownPanels(typo), ['plane']);

  const right = page.locator('#right');
  assert.equal(await noticeOf(right).count(), 0);
  assert.deepEqual(await shownPanels(right), ['plane', 'values']);

  const empty = page.locator('#empty');
  assert.match(await noticeOf(empty).textContent(), /The panels attribute is empty\. Showing every panel\./);
  assert.equal((await shownPanels(empty)).length, 4);
  // The notice is where the author looks: on screen, at the top of the widget.
  assert.ok(await noticeOf(upper).isVisible());
  await screenshot(page, 'panels-attribute-notices');
  assert.deepEqual(problems, []);
});

test('every widget: an unknown panel name gives a notice and the whole widget, never an empty one', async () => {
  const { page, problems } = await newWatchedPage(course.browser);
  await page.goto(`${course.url}all.html`);
  await buildAllWidgets(page);
  for (const [name, w] of BASE_WIDGETS) {
    const widget = page.locator(w.tag);
    await page.locator(`${w.tag}[ready]`).waitFor();
    await noticeOf(widget).waitFor();
    assert.match(await noticeOf(widget).textContent(), /“nonsense”.*Showing every panel/, name);
    const panels = await shownPanels(widget);
    const all = await widget.evaluate((el) => new Set([...el.shadowRoot.querySelectorAll('[data-panel]')].map((p) => p.dataset.panel)).size);
    assert.equal(new Set(panels).size, all, `${name}: every panel shown`);
  }
  assert.deepEqual(problems, []);
});
