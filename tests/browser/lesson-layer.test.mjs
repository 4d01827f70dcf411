// The layer at a glance (<mha-layer>), driven as a learner drives it (on the lesson page where
// the lesson around it matters: links to the widgets that zoom in, layout, the URL; else in
// the page of the widget alone):
// every drawn matrix (X, Q, K, V, each head's weights, Concat, W_O, output) is compared,
// cell by cell, with the core's forward pass run here in Node at h = 4, 2 and 1; picking a
// word and a head (click, tap on the map, keyboard) lights exactly that path; the URL keeps
// the state and refuses crafted state; axe finds nothing in light or dark; screenshots.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { LayerModel, pathSentence } from '../../web/widgets/layer/layer-model.js';
import { THE_WORLD as w } from '../../web/widgets/shared/world.js';
import { formatNumber } from '../../web/text/format.js';
import { roundToSum } from '../../web/ui/budget-math.js';
import { loadTestEngine } from '../node/load-engine.mjs';
import { buildAllWidgets, newWatchedPage, openTestBrowser, pageTurns, screenshot, serveDist } from './browser.mjs';
import { WCAG22, axeViolations } from './axe.mjs';

const TAG = 'mha-layer';
let browser, server, layer;
before(async () => {
  server = await serveDist();
  browser = await openTestBrowser();
  layer = new LayerModel(await loadTestEngine('simd'), w);
});
after(async () => {
  layer?.dispose();
  await browser?.close();
  await server?.close();
});

// The widget on the lesson page, or (`alone`) in the page of this widget alone, embed.html:
// the same element, for checks that do not depend on the lesson around it, at a fraction of
// the cost (the lesson builds seven widgets and the practice). The tests take turns with one
// page (pageTurns: a new document each, nothing stored).
const turn = pageTurns(() => browser);
async function openWidget(viewport = { width: 1280, height: 800 }, { hash = '', colorScheme = 'light', alone = false } = {}) {
  const { page, problems } = await turn(server.url + (alone ? `embed.html?widget=layer${hash}` : hash), viewport, { colorScheme });
  if (!alone) await buildAllWidgets(page);
  const widget = page.locator(`${TAG}[ready]`);
  await widget.waitFor();
  return { page, problems, widget };
}

// What each drawn grid shows: the values its painted rows stand for (each row one cell,
// named by its values, MatrixGrid paintRows), row by row.
const drawn = (widget) => widget.evaluate((host) => {
  const out = {};
  for (const figure of host.shadowRoot.querySelectorAll('#layer-map .map:not([hidden]) figure.part')) {
    const rows = [...figure.querySelectorAll('tbody tr')];
    out[figure.dataset.part] = rows.map((tr) => tr.querySelector('td.ui-cell-row').getAttribute('aria-label').split('; '));
  }
  return out;
});
// A matrix cell of a part of the shown map, for the pointer: its painted row and the point
// in it at the middle of column `col` (a row of `cols` bands, each a cell and a 1 px gap).
async function mapCell(widget, part, row, col) {
  const cell = widget.locator(`.map:not([hidden]) [data-part="${part}"] td.ui-cell-row[data-row="${row}"]`);
  const cols = await cell.evaluate((td) => td.colSpan);
  const box = await cell.boundingBox();
  const pitch = (box.width + 1) / cols;
  const position = { x: col * pitch + (pitch - 1) / 2, y: box.height / 2 };
  return { click: () => cell.click({ position }), hover: () => cell.hover({ position }) };
}
const asRows = ({ rows, cols, data }) => Array.from({ length: rows }, (_, r) =>
  Array.from(data.subarray(r * cols, (r + 1) * cols), (v) => formatNumber(v)));

// The parts the core computes, as the widget should draw them at h.
function expectedParts(h) {
  const view = layer.forward(h);
  const parts = {
    x: asRows(view.x), queries: asRows(view.queries), keys: asRows(view.keys), values: asRows(view.values),
    concat: asRows(view.concat), wo: asRows(view.wo), output: asRows(view.output),
  };
  view.weights.forEach((m, i) => { parts[`weights-${i}`] = asRows(m); });
  return parts;
}

// Which cells of each grid are lit, as [row, col] lists ('all' when nothing is dimmed).
const litCells = (widget) => widget.evaluate((host) => {
  const out = {};
  for (const figure of host.shadowRoot.querySelectorAll('#layer-map .map:not([hidden]) figure.part')) {
    const table = figure.querySelector('table');
    if (!table.classList.contains('ui-dimmed')) { out[figure.dataset.part] = 'all'; continue; }
    out[figure.dataset.part] = [...figure.querySelectorAll('td.ui-cell-row')].flatMap((td) =>
      td.dataset.lit.split(' ').filter(Boolean).map((c) => [Number(td.dataset.row), Number(c)]));
  }
  return out;
});
const cellsOf = (rows, cols) => rows.flatMap((r) => cols.map((c) => [r, c]));
const range = (a, b) => Array.from({ length: b - a }, (_, i) => a + i);
const allRows = range(0, w.L);

function expectedLit(h, token, head) {
  const dK = w.dModel / h;
  const cols = range(head * dK, (head + 1) * dK);
  return {
    x: cellsOf([token], range(0, w.dModel)),
    queries: cellsOf([token], cols),
    keys: cellsOf(allRows, cols),
    values: cellsOf(allRows, cols),
    concat: cellsOf([token], cols),
    wo: cellsOf(cols, range(0, w.dModel)),
    output: cellsOf([token], range(0, w.dModel)),
  };
}

async function assertPath(widget, state, note = '') {
  const lit = await litCells(widget);
  const expected = expectedLit(state.h, state.token, state.head);
  for (const [part, cells] of Object.entries(expected)) assert.deepEqual(lit[part], cells, `lit cells of ${part} for ${JSON.stringify(state)}`);
  // Heatmaps: the picked head's stays whole with the word's row outlined; the others step back.
  const heat = await widget.evaluate((host) => [...host.shadowRoot.querySelectorAll('#layer-map .map:not([hidden]) .head-part')].map((figure) => ({
    off: figure.classList.contains('is-off'),
    selected: [...figure.querySelectorAll('tbody tr')].flatMap((tr, r) => (tr.classList.contains('ui-selected') ? [r] : [])),
  })));
  assert.equal(heat.length, state.h);
  heat.forEach((entry, i) => {
    assert.equal(entry.off, i !== state.head, `head ${i} dimmed?`);
    assert.deepEqual(entry.selected, i === state.head ? [state.token] : []);
  });
  const text = await widget.locator('.path-text').textContent();
  assert.equal(text, `${pathSentence(layer.compute(state), state)}${note ? ` ${note}` : ''}`);
}

const checked = (widget, group) => widget.locator(`.${group} [aria-checked="true"]`).textContent();

describe('layer at a glance', () => {
  test('every drawn matrix is the core’s, at h = 4, 2 and 1, and the heads’ slices narrow as h grows', async () => {
    const { page, problems, widget } = await openWidget(undefined, { alone: true });
    for (const h of [4, 2, 1, 4]) {
      await widget.getByRole('radio', { name: `h = ${h}` }).click();
      const shown = await drawn(widget);
      const expected = expectedParts(h);
      assert.deepEqual(Object.keys(shown).sort(), Object.keys(expected).sort(), `parts drawn at h = ${h}`);
      for (const [part, rows] of Object.entries(expected)) assert.deepEqual(shown[part], rows, `${part} at h = ${h}`);
      // The page's own core agrees with Node's to float precision, not just to 2 decimals.
      const pageView = await widget.evaluate((host) => ({ concat: Array.from(host.view.concat.data), w0: Array.from(host.view.weights[0].data) }));
      const nodeView = layer.forward(h);
      pageView.concat.forEach((v, k) => assert.ok(Math.abs(v - nodeView.concat.data[k]) < 1e-6, `concat ${k}`));
      pageView.w0.forEach((v, k) => assert.ok(Math.abs(v - nodeView.weights[0].data[k]) < 1e-6, `weights ${k}`));
      // The slices: one coloured band per head over Q, K, V and Concat, each d_model / h wide.
      const bands = await widget.evaluate((host) => [...host.shadowRoot.querySelectorAll('.map:not([hidden]) [data-part="concat"] th.ui-band-label')].map((th) => th.colSpan));
      assert.deepEqual(bands, Array(h).fill(w.dModel / h), `bands at h = ${h}`);
      assert.equal(await widget.locator('.head-choice [role="radio"]').count(), h);
    }
    assert.deepEqual(problems, []);
  });

  test('picking a word and a head lights its path: chips, keyboard, and clicks on the map', async () => {
    const { page, problems, widget } = await openWidget(undefined, { alone: true });
    let state = { h: 4, token: w.queryIndex, head: 0 };
    await assertPath(widget, state);
    assert.match(await widget.locator('.path-text').textContent(), /head 1 \(Subject finder\): budget 0\.9\d on “researcher”/);

    // Click a word chip, then a head chip.
    await widget.getByRole('radio', { name: 'it (word 8)' }).click();
    await widget.getByRole('radio', { name: '3. Previous word' }).click();
    state = { h: 4, token: 7, head: 2 };
    await assertPath(widget, state);
    assert.match(await widget.locator('.path-text').textContent(), /^“it”, head 3 \(Previous word\): budget 0\.9\d on “said”/);

    // Keyboard: arrows move the choice within a group (one tab stop each), Home / End.
    await widget.getByRole('radio', { name: 'it (word 8)' }).focus();
    await page.keyboard.press('ArrowLeft');
    assert.equal(await checked(widget, 'token-choice'), 'said');
    await page.keyboard.press('End');
    assert.equal(await checked(widget, 'token-choice'), '.');
    await page.keyboard.press('Home');
    assert.equal(await checked(widget, 'token-choice'), 'The');
    await widget.getByRole('radio', { name: '3. Previous word' }).focus();
    await page.keyboard.press('ArrowRight');
    assert.equal(await checked(widget, 'head-choice'), '4. Gist');
    state = { h: 4, token: 0, head: 3 };
    await assertPath(widget, state);
    assert.deepEqual(await widget.evaluate((host) => host.state), state);

    // Click on the map: a cell of head 2's slice of Concat in the row of “was” picks both.
    await (await mapCell(widget, 'concat', 8, 4)).click();
    state = { h: 4, token: 8, head: 1 };
    await assertPath(widget, state);
    // A row of a heatmap picks that head and word; a word label picks the word.
    await (await mapCell(widget, 'weights-2', 5, 0)).click();
    await assertPath(widget, { h: 4, token: 5, head: 2 });
    await widget.locator('.map:not([hidden]) [data-part="x"] th.ui-row-label[data-row="1"]').click();
    await assertPath(widget, { h: 4, token: 1, head: 2 });
    // A column of K picks the head only.
    await (await mapCell(widget, 'keys', 9, 11)).click();
    await assertPath(widget, { h: 4, token: 1, head: 3 });

    // Fewer heads: the picked head (the Gist) is kept where it went, and the widget says so.
    await widget.getByRole('radio', { name: 'h = 2' }).click();
    await assertPath(widget, { h: 2, token: 1, head: 1 }, 'Gist is now part of head 2 (Previous word + Gist).');
    await widget.getByRole('radio', { name: 'h = 1' }).click();
    await assertPath(widget, { h: 1, token: 1, head: 0 }, 'Previous word + Gist is now part of head 1 (Subject finder + Complement finder + Previous word + Gist).');
    // “said” with one head for everything: its budget is split, no longer on “researcher”.
    await widget.getByRole('radio', { name: 'said (word 7)' }).click();
    assert.match(await widget.locator('.path-text').textContent(), /: budget “said” 0\.5\d, “paper” 0\.2\d, “it” 0\.1\d/);

    // Undo steps back, Reset returns to the start.
    await widget.getByRole('button', { name: 'Undo' }).click();
    assert.deepEqual(await widget.evaluate((host) => host.state), { h: 1, token: 1, head: 0 });
    await widget.getByRole('button', { name: 'Reset' }).click();
    await assertPath(widget, { h: 4, token: w.queryIndex, head: 0 });

    // Pointing at a cell reads its value, in words.
    await (await mapCell(widget, 'weights-0', 6, 1)).hover();
    const said = layer.forward(4).weights[0].data[6 * w.L + 1];
    assert.equal(await widget.locator('.readout').textContent(), `Head 1: weight of “said” on “researcher”: ${formatNumber(said)}`);
    await (await mapCell(widget, 'wo', 4, 4)).hover();
    assert.equal(await widget.locator('.readout').textContent(), 'WO, row 5 (head 2), column 5: 1.00');
    // Along the same row (one painted cell): the readout follows the pointer.
    await (await mapCell(widget, 'wo', 4, 5)).hover();
    assert.equal(await widget.locator('.readout').textContent(), 'WO, row 5 (head 2), column 6: 0.00');

    // The walk through the picked head (on demand, before the map) is the core's rows: the
    // query, the scores, softmax of them (the weights), the weighted sum (the output).
    await widget.getByText('Step by step, one head for the picked word').click();
    const rows = await widget.evaluate((host) => [...host.shadowRoot.querySelectorAll('.number-row')].map((figure) =>
      [...figure.querySelectorAll('td.ui-cell')].map((td) => td.getAttribute('aria-label'))));
    const view = layer.forward(4);
    const t = w.queryIndex;
    const rowOf = (m, start = 0, end = m.cols) => Array.from(m.data.subarray(t * m.cols + start, t * m.cols + end), (v) => formatNumber(v));
    // The weights are shown to 3 decimals, rounded together, so that what is written adds up to 1.
    const weightsShown = roundToSum(Array.from(view.weights[0].data.subarray(t * w.L, (t + 1) * w.L)), 3).map((v) => formatNumber(v, 3));
    assert.deepEqual(rows, [rowOf(view.x), rowOf(view.queries, 0, 3), rowOf(view.scores[0]), weightsShown, rowOf(view.headOutputs[0]), rowOf(view.output)]);
    // It comes before the map.
    assert.equal(await widget.evaluate((host) => {
      const walk = host.shadowRoot.querySelector('details.numbers');
      return Boolean(walk.compareDocumentPosition(host.shadowRoot.querySelector('.map-host')) & Node.DOCUMENT_POSITION_FOLLOWING);
    }), true);
    assert.equal(weightsShown.reduce((sum, text) => sum + Number(text), 0).toFixed(3), '1.000');
    assert.deepEqual(problems, []);
  });

  test('the map links to the widgets that zoom in, and shows a part on request (showPart)', async () => {
    const { page, problems, widget } = await openWidget();
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const address = await page.evaluate(() => location.href);
    await widget.getByRole('link', { name: 'Zoom in: What WO is for ↓' }).click();
    const top = await page.locator('mha-wo-mixing').evaluate((el) => el.getBoundingClientRect().top);
    assert.ok(Math.abs(top) < 2, `the W_O widget starts at ${top} px`);
    assert.equal(await page.evaluate(() => document.activeElement?.localName), 'mha-wo-mixing');
    assert.equal(await page.evaluate(() => location.href), address, 'the address (every widget’s state, ?mha.<key>=) is untouched');

    // showPart: the stage's heading comes into view below the sticky controls and takes focus.
    assert.equal(await widget.evaluate((host) => host.showPart('weights')), true);
    const shown = await widget.evaluate((host) => {
      const root = host.shadowRoot;
      const heading = root.querySelector('.map:not([hidden]) .stage-attend h3').getBoundingClientRect();
      const controls = root.querySelector('.controls').getBoundingClientRect();
      return { below: heading.top >= controls.bottom - 1, inView: heading.bottom < innerHeight,
        focused: root.activeElement === root.querySelector('.map:not([hidden]) .stage-attend h3'),
        marked: root.querySelector('.map:not([hidden]) .stage-attend .stage-parts').classList.contains('is-called') };
    });
    assert.deepEqual(shown, { below: true, inView: true, focused: true, marked: true });
    assert.equal(await widget.evaluate((host) => host.showPart('nonsense')), false);
    assert.equal(await widget.evaluate((host) => host.showPart('[data-part]')), false);

    // Alone in an embed, the layer has no later widgets to zoom into: no dead links.
    await page.goto(`${server.url}embed.html?widget=layer`);
    const embedded = page.locator(`${TAG}[ready]`);
    await embedded.waitFor();
    assert.equal(await embedded.locator('.page-link:visible').count(), 0);
    // The maps at the other h are drawn while the page is idle, before any switch (the
    // learner's first switch then shows a map already drawn); not in a read-only widget.
    await page.waitForFunction((tag) => document.querySelector(tag).shadowRoot.querySelectorAll('.map').length === 3, TAG);
    // The map at an h is drawn when the page is idle or when that h is first shown, and
    // kept: visit every h (the page's script may set the state of a widget; the controls
    // may be hidden by panels=).
    const visitEveryH = (host) => {
      const start = host.state;
      for (const h of host.world.headCounts) host.setState({ ...start, h, head: 0 });
      host.setState(start);
      return host.shadowRoot.querySelectorAll('.map').length;
    };
    // Under the embed's own h1, the stages' headings are level 2, at every h.
    assert.equal(await embedded.evaluate(visitEveryH), 3, 'a map at each h');
    // The maps at the other h are kept with their layout (content-visibility): they take no
    // room, nothing in them is shown, reachable by Tab or named to a screen reader.
    const setAside = await embedded.evaluate((host) => [...host.shadowRoot.querySelectorAll('.map[hidden]')].map((map) => ({
      height: map.getBoundingClientRect().height,
      shown: [...map.querySelectorAll('*')].filter((el) => el.checkVisibility()).length,
    })));
    assert.deepEqual(setAside, [{ height: 0, shown: 0 }, { height: 0, shown: 0 }]);
    const spoken = await embedded.ariaSnapshot();
    assert.equal((spoken.match(/heading "[^"]*Attend, head by head/g) ?? []).length, 1, `one map in the accessibility tree:\n${spoken.slice(0, 400)}`);
    assert.deepEqual(await embedded.evaluate((host) => [...new Set([...host.shadowRoot.querySelectorAll('.stage h3')].map((h) => h.getAttribute('aria-level')))]), ['2']);
    // panels="attend": only that stage, at every h.
    await page.goto(`${server.url}embed.html?widget=layer&panels=attend&heads=2`);
    await page.locator(`${TAG}[ready]`).waitFor();
    assert.equal(await page.locator(TAG).locator('.map:not([hidden]) .head-part').count(), 2);
    assert.equal(await page.locator(TAG).evaluate(visitEveryH), 3, 'a map at each h');
    const panels = await page.locator(TAG).evaluate((host) => [...host.shadowRoot.querySelectorAll('[data-panel]')]
      .filter((el) => !el.hidden).map((el) => el.dataset.panel));
    assert.deepEqual(panels, ['attend', 'attend', 'attend']);
    assert.deepEqual(problems, []);
  });

  test('author attributes choose the start; ones that do not fit are ignored with a notice', async () => {
    const { page, problems } = await newWatchedPage(browser, { width: 1000, height: 800 });
    const open = async (query) => {
      await page.goto(`${server.url}embed.html?widget=layer&${query}`);
      const widget = page.locator(`${TAG}[ready]`);
      await widget.waitFor();
      return widget;
    };
    let widget = await open('heads=2&token=it&head=complement');
    assert.deepEqual(await widget.evaluate((host) => host.state), { h: 2, token: 7, head: 0 });
    assert.equal(await widget.locator('.notice').isVisible(), false);
    widget = await open(`heads=3&token=${encodeURIComponent('<img src=x>')}&config=${encodeURIComponent('{"x":1}')}`);
    assert.deepEqual(await widget.evaluate((host) => host.state), { h: 4, token: w.queryIndex, head: 0 });
    assert.equal(await widget.locator('.notice').textContent(),
      'Ignored: heads="3" (expected one of 1, 2, 4); token="<img src=x>" (not a word of the sentence); the config attribute (this widget always shows the lesson’s one world).');
    await assertPath(widget, { h: 4, token: w.queryIndex, head: 0 });
    // readonly: the path is shown, nothing picks another.
    widget = await open('readonly&token=it');
    assert.equal(await widget.getByRole('radio', { name: 'said (word 7)' }).isDisabled(), true);
    await (await mapCell(widget, 'concat', 2, 7)).click();
    assert.deepEqual(await widget.evaluate((host) => host.state), { h: 4, token: 7, head: 0 });
    // Nothing to switch to: the other maps are not drawn, idle or not (three idle periods,
    // or 1.5 s each where the page is not idle: the widget draws one map per period).
    const mapsAfterIdle = () => widget.evaluate((host) => new Promise((resolve) => {
      let left = 3;
      const next = () => (--left === 0 ? resolve(host.shadowRoot.querySelectorAll('.map').length) : requestIdleCallback(next, { timeout: 1500 }));
      requestIdleCallback(next, { timeout: 1500 });
    }));
    assert.equal(await mapsAfterIdle(), 1);
    widget = await open('token=it');
    await page.waitForFunction((tag) => document.querySelector(tag).shadowRoot.querySelectorAll('.map').length === 3, TAG);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('the URL keeps the state; crafted state is refused with a notice and the start shown', async () => {
    const state = { h: 2, token: 7, head: 1 };
    const { page, problems, widget: inLesson } = await openWidget(undefined, { hash: `#layer=${encodeURIComponent(JSON.stringify(state))}` });
    await assertPath(inLesson, state);
    assert.equal(await checked(inLesson, 'count-choice'), '2');
    // Crafted links: the same address binding in the page of this widget alone (embed.html),
    // each loaded afresh (about:blank between: a new hash alone would not reload the page).
    for (const bad of ['{"h":3,"token":0,"head":0}', '{"h":2,"token":0,"head":2}', '{"h":4,"token":99,"head":0}', '{"h":4,"token":0,"head":0,"x":1}', '[1,2]', 'not json']) {
      await page.goto('about:blank');
      await page.goto(`${server.url}embed.html?widget=layer#layer=${encodeURIComponent(bad)}`);
      const widget = page.locator(`${TAG}[ready]`);
      await widget.waitFor();
      await assertPath(widget, { h: 4, token: w.queryIndex, head: 0 });
      const notice = await widget.locator('.notice').textContent();
      assert.match(notice, /link’s state for this widget/, bad);
    }
    assert.deepEqual(problems, []);
  });

  test('accessible: axe finds nothing in light or dark, few tab stops, words in a live region', async () => {
    // axe in the page of this widget alone (embed.html): axe builds its tree of the whole
    // document even when it checks one element (the lesson, built: ~16,000 nodes; this page
    // ~9,000, most of them the widget's). The whole lesson is checked in accessibility.test.mjs.
    // One page, loaded afresh in each scheme and width (a scheme switched after the load is
    // not what a reader in that scheme sees).
    const { page, problems } = await newWatchedPage(browser, { width: 1280, height: 800 });
    for (const [colorScheme, viewport] of [['light', undefined], ['dark', undefined], ['light', { width: 390, height: 844 }]]) {
      await page.emulateMedia({ colorScheme });
      if (viewport) await page.setViewportSize(viewport);
      await page.goto(`${server.url}embed.html?widget=layer`);
      await page.locator(`${TAG}[ready]`).waitFor();
      await page.locator(TAG).getByText('Step by step, one head for the picked word').click();
      const found = await axeViolations(page, { within: 'mha-layer', rules: WCAG22 });
      assert.deepEqual(found, [], `axe in ${colorScheme} at ${viewport?.width ?? 1280} px`);
    }
    assert.deepEqual(problems, []);
    await page.close();
  });

  // Few tab stops and words in a live region, on the lesson page (where the zoom links count
  // too), with the walk open: checked in the screenshot test's pages.
  async function assertFewStops(widget, what) {
    const walk = widget.getByText('Step by step, one head for the picked word');
    await walk.click();
    const stops = await widget.evaluate((host) => [...host.shadowRoot.querySelectorAll('a[href], button, summary, [tabindex]')]
      // checkVisibility: not in a map set aside (content-visibility: hidden keeps its layout,
      // so its links have boxes, but nothing in it takes focus: a Tab walk skips them).
      .filter((el) => el.tabIndex >= 0 && !el.disabled && el.getClientRects().length > 0 && el.checkVisibility()).length);
    assert.ok(stops <= 15, `${stops} tab stops (${what})`);
    assert.equal(await widget.locator('.path-text').getAttribute('aria-live'), 'polite');
    await walk.click();
  }

  test('switching h does not move the lesson below: the layer keeps its tallest height until the numbers open or the width changes', async () => {
    const { page, problems, widget } = await openWidget({ width: 1000, height: 800 });
    // Where the next section's heading is, from the layer's top; and the layer's own height.
    const measure = () => page.evaluate(() => {
      const host = document.querySelector('mha-layer');
      const top = host.getBoundingClientRect().top;
      const map = host.shadowRoot.querySelector('.map:not([hidden])').getBoundingClientRect();
      const body = host.shadowRoot.querySelector('.widget').getBoundingClientRect();
      return {
        below: Math.round(document.getElementById('one-head-gives-one-average').getBoundingClientRect().top - top),
        mapInside: map.bottom <= body.bottom + 0.5,
        blank: Math.round(body.bottom - map.bottom),
      };
    });
    const twoFrames = () => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const start = await measure();
    const seen = [start];
    for (const h of [2, 1, 2, 4, 1, 2]) {
      await widget.getByRole('radio', { name: `h = ${h}` }).click();
      await twoFrames();
      const now = await measure();
      assert.ok(now.mapInside, `h = ${h}: the map is inside the widget`);
      assert.ok(now.below >= seen.at(-1).below, `h = ${h}: the lesson below did not move up (${seen.at(-1).below} -> ${now.below})`);
      seen.push(now);
    }
    // Each h has been shown: the layer is as tall as at the tallest, and a shorter map
    // leaves blank space under it (h = 1 after h = 4: their maps differ by about 200 px).
    const tallest = Math.max(...seen.map((m) => m.below));
    assert.equal(seen.at(-2).below, tallest, 'at h = 1, as tall as the tallest seen');
    assert.ok(seen.at(-2).blank > 100, `blank space under the shorter map (${seen.at(-2).blank} px)`);
    await widget.getByRole('radio', { name: 'h = 1' }).click();
    await screenshot(page, 'layer-held-height-1000', { of: TAG });
    // Opening and closing the numbers lets go: the layer takes its own height at h = 1.
    const summary = widget.locator('details.numbers summary');
    await summary.click();
    await summary.click();
    await twoFrames();
    const released = await measure();
    assert.ok(released.below < tallest - 100, `released: ${released.below} < ${tallest}`);
    assert.ok(released.blank < 40, `no blank under the map once released (${released.blank} px)`);
    // Held again by a switch, then another width lets go (wrapped anew, the old height means nothing).
    await widget.getByRole('radio', { name: 'h = 4' }).click();
    await widget.getByRole('radio', { name: 'h = 1' }).click();
    assert.ok((await measure()).blank > 100, 'held again');
    await page.setViewportSize({ width: 600, height: 800 });
    await twoFrames();
    assert.ok((await measure()).blank < 40, 'another width lets go');
    assert.deepEqual(problems, []);
  });

  test('1280 x 800: the controls stay in view above the map; 390 px: no page scrolling sideways; few tab stops; screenshots', async () => {
    for (const colorScheme of ['light', 'dark']) {
      for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
        const { page, problems, widget } = await openWidget(viewport, { colorScheme });
        const name = `layer-${viewport.width}-${colorScheme}`;
        // The whole widget as laid out on the page (a full-page capture, so that the sticky
        // controls sit where they start, not stuck over the middle of the map).
        await screenshot(page, name, { of: TAG });
        if (viewport.width === 1280) {
          // Scroll to the last stage: the word chips are still on screen (sticky), with the
          // output they light up.
          await widget.locator('.map:not([hidden]) [data-part="output"]').evaluate((el) => el.scrollIntoView({ block: 'end' }));
          const inView = await widget.evaluate((host) => {
            const box = (el) => el.getBoundingClientRect();
            const chips = box(host.shadowRoot.querySelector('.token-choice'));
            const output = box(host.shadowRoot.querySelector('.map:not([hidden]) [data-part="output"]'));
            // (Within a pixel: scrollIntoView aligns to whole pixels, boxes end at fractions.)
            const within = (box) => box.top >= -1 && box.bottom <= innerHeight + 1;
            return { chips: within(chips), output: within(output) };
          });
          assert.deepEqual(inView, { chips: true, output: true });
          // Wide, every stage is shown and there is no stage choice.
          assert.equal(await widget.locator('.stage-choice').isVisible(), false);
          await screenshot(page, `${name}-scrolled`, { fullPage: false });
        } else {
          // A phone shows one stage at a time, picked above the map; showPart picks its stage.
          const shownStages = () => widget.evaluate((host) => [...host.shadowRoot.querySelectorAll('.map:not([hidden]) .stage')]
            .filter((el) => el.getClientRects().length > 0).map((el) => el.dataset.panel));
          assert.deepEqual(await shownStages(), ['attend']);
          await widget.getByRole('radio', { name: '3. Mix' }).click();
          assert.deepEqual(await shownStages(), ['mix']);
          assert.equal(await widget.evaluate((host) => host.showPart('x')), true);
          assert.deepEqual(await shownStages(), ['project']);
          await widget.getByRole('radio', { name: 'All' }).click();
          assert.deepEqual(await shownStages(), ['project', 'attend', 'mix']);
          await widget.getByRole('radio', { name: '2. Attend' }).click();
          const sideways = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
          assert.ok(sideways <= 0, `the page scrolls ${sideways} px sideways`);
          const height = (await widget.boundingBox()).height;
          console.log(`layer widget at 390 px (${colorScheme}): ${Math.round(height)} px = ${(height / 844).toFixed(2)} screens`);
        }
        await assertFewStops(widget, `${colorScheme} at ${viewport.width} px`);
        assert.deepEqual(problems, []);
      }
    }
  });
});

// The tests above take turns with one page; the lesson keeps the learner's copy in storage,
// written again when the page is hidden. A turn must start with nothing stored, as a new
// page would (else one test's edits would come back in the next).
test('a turn of the shared page starts with nothing stored, even what the last page wrote as it left', async () => {
  const { page } = await openWidget();
  await page.evaluate(() => {
    localStorage.setItem('mha-test-before', '1');
    addEventListener('pagehide', () => localStorage.setItem('mha-test-on-leaving', '1'));
  });
  const { page: next } = await openWidget(undefined, { alone: true });
  assert.equal(next, page, 'the same page, taking turns');
  const stored = await next.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('mha-test-')));
  assert.deepEqual(stored, []);
});
