// The W_O mixing widget in Chromium, driven as a learner drives it (typing into W_O, arrow
// keys, Ctrl+arrow moves, dragging an entry, the selected-entry slider, presets, the
// direction u, the head count, undo/reset, reload), with every displayed number checked
// against the core's own answer for the same state, computed here in Node.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  WoMixingModels, describeAlong, presetMatrix, sanitizeWoState, startingState, woMixingConfig,
} from '../../web/widgets/wo-mixing/wo-mixing-model.js';
import { spoken } from '../../web/widgets/wo-mixing/notation.js';
import { formatNumber } from '../../web/widgets/shared/format.js';
import { loadTestEngine } from '../node/load-engine.mjs';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { SCREENSHOT_DIR, newWatchedPage, openBrowser, serveDist } from './browser.mjs';

let browser, server, models, config, shared;
before(async () => {
  server = await serveDist();
  browser = await openBrowser();
  config = woMixingConfig();
  models = new WoMixingModels(await loadTestEngine('simd'), config);
  shared = await open(); // one lesson page for the tests at 1000 px (loading it is the slow part)
});
after(async () => {
  models?.dispose();
  await browser?.close();
  await server?.close();
});

const TAG = 'mha-wo-mixing';

/** A screenshot of the widget alone (the whole lesson page would bury it). */
async function screenshot(page, name) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.locator(TAG).screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}
const fmt = (values) => values.map((v) => formatNumber(v));
const withEntry = (state, index, value) => ({ ...state, wo: state.wo.map((v, k) => (k === index ? value : v)) });

async function open(viewport, hash = '') {
  const { page, problems } = await newWatchedPage(browser, viewport);
  await page.goto(server.url + hash);
  await page.locator(`${TAG}[ready]`).waitFor();
  return { page, problems, widget: page.locator(TAG) };
}

/** The shared page, its widget back at the starting state. */
async function fresh() {
  await shared.widget.getByRole('button', { name: 'Reset' }).click();
  return shared;
}

const cell = (widget, row, output) => widget.getByRole('textbox', { name: `W O entry, row ${row}, output ${output}`, exact: true });
const rowsOf = async (table) => table.locator('tbody tr').evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((td) => td.textContent)));

/** Asserts that everything the widget shows matches the core's view of `state`. */
async function assertShows(widget, state) {
  const view = models.compute(state);
  assert.deepEqual(await widget.evaluate((el) => el.state), state, 'the widget holds this state');
  const concat = await widget.locator('.concat .slot .num').allTextContents();
  assert.deepEqual(concat, fmt(view.concat), 'concatenated head outputs');
  const heads = await widget.locator('.head-vector .vector').evaluateAll((vs) => vs.map((v) => [...v.children].map((c) => c.textContent)));
  assert.deepEqual(heads, view.headOutputs.map(fmt), 'head outputs');
  assert.deepEqual(await rowsOf(widget.locator('.output-table')),
    view.output.map((total, j) => [...view.contributions.map((c) => formatNumber(c[j])), formatNumber(total)]), 'contributions and totals');
  assert.deepEqual(await rowsOf(widget.locator('.along-table')), [
    ...view.withMixing.heads.map((v, i) => [formatNumber(v), formatNumber(view.withoutMixing.heads[i])]),
    [formatNumber(view.withMixing.total), formatNumber(view.withoutMixing.total)],
  ], 'lengths along u with and without mixing');
  assert.equal(await widget.locator('.sr-only[aria-live]').textContent(), spoken(describeAlong(config, view)));
  return view;
}

describe('W_O mixing widget', () => {
  test('starting state: the core’s head outputs, contributions and who is heard along u', async () => {
    const { page, problems, widget } = shared;
    const view = await assertShows(widget, startingState(config));
    // Two heads add into output 1: along e_1 both are heard with this W_O, only A without.
    assert.match(describeAlong(config, view), /head A contributes 1\.18 and head B 0\.65 \(with this W_O\); with the identity W_O only head A can be heard\./);
    assert.equal(await widget.locator('tbody.head-a tr.block th').textContent(), 'WOA: head A’s rows (its slice A1–A3)');
    assert.equal(await widget.getByRole('button', { name: 'Two heads add into one direction' }).getAttribute('aria-pressed'), 'true');
    await screenshot(page, 'wo-mixing-start');
    assert.deepEqual(problems, []);
  });

  test('typing an entry, then ArrowUp/ArrowDown (Shift: fine steps) change it', async () => {
    const { problems, widget } = await fresh();
    const b1 = cell(widget, 'B1', 2); // head B's first coordinate, written into output 2
    await b1.fill('');
    await b1.pressSequentially('0.5');
    const index = 3 * 6 + 1;
    await assertShows(widget, withEntry(startingState(config), index, 0.5));
    await b1.press('ArrowUp');
    await b1.press('ArrowUp');
    await b1.press('Shift+ArrowDown');
    assert.equal(await b1.inputValue(), '0.69');
    await assertShows(widget, withEntry(startingState(config), index, 0.69));
    assert.equal(await widget.getByRole('button', { name: 'Two heads add into one direction' }).getAttribute('aria-pressed'), 'false');
    assert.deepEqual(problems, []);
  });

  test('keyboard alone: one Tab stop, Ctrl/Alt+arrows move, the slider edits the selected entry', async () => {
    const { page, problems, widget } = await fresh();
    const focused = () => widget.evaluate((el) => { const a = el.shadowRoot.activeElement; return a?.getAttribute('aria-label') ?? a?.type ?? null; });
    await cell(widget, 'A1', 1).click(); // select A1 → 1: it becomes the grid's Tab stop
    await widget.getByRole('button', { name: 'One head spread across all' }).focus();
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'W O entry, row A1, output 1', 'Tab lands on the selected entry');
    for (let i = 0; i < 3; i++) await page.keyboard.press('Control+ArrowDown');
    await page.keyboard.press('Alt+ArrowRight');
    assert.equal(await focused(), 'W O entry, row B1, output 2');
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'range', 'the next Tab leaves the grid for the slider');
    const slider = widget.getByRole('slider');
    assert.match(await widget.locator('.slider-label').textContent(), /row B1 \(head B\) → output 2/);
    await slider.focus();
    for (let i = 0; i < 5; i++) await slider.press('ArrowRight');
    await assertShows(widget, withEntry(startingState(config), 19, 0.05));
    assert.equal(await cell(widget, 'B1', 2).inputValue(), '0.05');
    assert.deepEqual(problems, []);
  });

  test('dragging an entry up raises it by 0.01 per pixel, and Undo takes the drag back in one step', async () => {
    const { problems, widget } = await fresh();
    await cell(widget, 'B1', 1).scrollIntoViewIfNeeded();
    const box = await cell(widget, 'B1', 1).boundingBox();
    const page = widget.page();
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x, y - 10, { steps: 3 });
    await page.mouse.move(x, y - 30, { steps: 5 });
    await page.mouse.up();
    await assertShows(widget, withEntry(startingState(config), 18, 1.3));
    await widget.getByRole('button', { name: 'Undo' }).click();
    await assertShows(widget, startingState(config));
    assert.deepEqual(problems, []);
  });

  test('presets and directions: who can be heard along u, with and without mixing', async () => {
    const { page, problems, widget } = await fresh();
    const base = startingState(config);
    await widget.getByRole('button', { name: 'Identity: private slices' }).click();
    let view = await assertShows(widget, { ...base, wo: presetMatrix(config, 'identity', 2) });
    assert.deepEqual(view.withMixing.heads, view.withoutMixing.heads, 'identity W_O is no mixing');
    await widget.getByRole('button', { name: 'One head spread across all' }).click();
    await widget.getByRole('button', { name: 'u = e₄' }).click();
    view = await assertShows(widget, { ...base, wo: presetMatrix(config, 'spread', 2), u: [0, 0, 0, 1, 0, 0] });
    assert.ok(Math.abs(view.withMixing.heads[0]) > 0.1 && Math.abs(view.withoutMixing.heads[0]) < 1e-6, 'head A is heard along e4 only when spread');
    // Type u = (1, 0, 0, 1, 0, -1) component by component; the core normalises it.
    await widget.getByRole('textbox', { name: 'Direction u, component 1' }).fill('1');
    await widget.getByRole('textbox', { name: 'Direction u, component 6' }).fill('-1');
    const u = [1, 0, 0, 1, 0, -1];
    view = await assertShows(widget, { ...base, wo: presetMatrix(config, 'spread', 2), u });
    assert.equal(await widget.locator('.unit-u').textContent(), `u / |u| = (${fmt(view.unitU).join(', ')}): only the direction of u matters.`);
    await widget.getByRole('combobox', { name: 'Token whose vectors are shown' }).selectOption('0');
    await assertShows(widget, { ...base, token: 0, wo: presetMatrix(config, 'spread', 2), u });
    await screenshot(page, 'wo-mixing-spread');
    assert.deepEqual(problems, []);
  });

  test('three heads: W_O regroups into three row blocks and the preset follows', async () => {
    const { page, problems, widget } = await fresh();
    await widget.getByRole('combobox', { name: 'Number of heads' }).selectOption('3');
    const state = { ...startingState(config), heads: 3, wo: presetMatrix(config, 'shared', 3) };
    const view = await assertShows(widget, state);
    assert.equal(view.headWidth, 2);
    assert.equal(await widget.locator('.wo-grid tbody').count(), 3);
    assert.equal(await widget.locator('tbody.head-c tr.block th').textContent(), 'WOC: head C’s rows (its slice C1–C2)');
    await cell(widget, 'C2', 1).fill('0.8'); // head C's second coordinate also into output 1
    const mixed = await assertShows(widget, withEntry(state, 5 * 6, 0.8));
    assert.ok(mixed.withMixing.heads[2] !== 0 && mixed.withoutMixing.heads[2] === 0, 'head C is heard along e1 only with mixing');
    await screenshot(page, 'wo-mixing-three-heads');
    assert.deepEqual(problems, []);
  });

  test('bad input: a message beside the field, the last good result stays, the text is kept', async () => {
    const { page, problems, widget } = await fresh();
    const start = startingState(config);
    const entry = cell(widget, 'A2', 3);
    for (const text of ['abc', '1e999', 'NaN', '0x10', '', '5000']) {
      await entry.fill(text);
      assert.equal(await entry.getAttribute('aria-invalid'), 'true', `"${text}" is rejected`);
      assert.match(await widget.locator('.grid-error').textContent(), /^Entry \(row A2, output 3\) /);
      assert.equal(await entry.inputValue(), text, 'the typed text is kept for correction');
    }
    await assertShows(widget, start);
    const u1 = widget.getByRole('textbox', { name: 'Direction u, component 1' });
    await u1.fill('zero');
    assert.match(await widget.locator('#wo-u-error').textContent(), /^Component 1 of u must be a plain decimal number/);
    await u1.fill('0'); // u = 0 has no direction: the core refuses it
    assert.equal(await u1.getAttribute('aria-invalid'), 'true');
    assert.match(await widget.locator('#wo-u-error').textContent(), /zero vector has no direction/);
    await assertShows(widget, start);
    await screenshot(page, 'wo-mixing-bad-input');
    // Editing another component takes the 0 as typed: u = e4 is accepted, messages clear.
    await widget.getByRole('textbox', { name: 'Direction u, component 4' }).fill('1');
    await entry.fill('1');
    await assertShows(widget, { ...withEntry(start, 8, 1), u: [0, 0, 0, 1, 0, 0] });
    assert.equal(await u1.inputValue(), '0.00');
    assert.equal(await widget.locator('#wo-u-error').textContent(), '');
    assert.equal(await widget.locator('.grid-error').textContent(), '');
    assert.deepEqual(problems, []);
  });

  test('undo, reset, and the state survives a reload; a bad link falls back with a notice', async () => {
    const { page, problems, widget } = await fresh();
    await widget.getByRole('button', { name: 'One head spread across all' }).click();
    await widget.getByRole('button', { name: 'u = (e₁+e₄)/√2' }).click();
    const spread = { ...startingState(config), wo: presetMatrix(config, 'spread', 2), u: [1, 0, 0, 1, 0, 0] };
    await page.reload();
    await page.locator(`${TAG}[ready]`).waitFor();
    await assertShows(widget, spread);
    await widget.getByRole('button', { name: 'Reset' }).click();
    await assertShows(widget, startingState(config));
    await widget.getByRole('button', { name: 'Undo' }).click();
    await assertShows(widget, spread);

    const bad = { ...startingState(config), wo: [1, 2, 3] };
    await page.goto(`${server.url}#wo-mixing=${encodeURIComponent(JSON.stringify(bad))}`);
    await page.reload();
    await page.locator(`${TAG}[ready]`).waitFor();
    assert.match(await widget.locator('.notice').textContent(), /ignored \(wo: expected 36 numbers\)/);
    await assertShows(widget, startingState(config));
    assert.deepEqual(problems, []);
  });

  test('sanitizeState rejects malformed states', () => {
    const good = startingState(config);
    assert.deepEqual(sanitizeWoState(config, good), good);
    const cases = [
      [null, /expected an object/], [[], /expected an object/],
      [{ ...good, heads: 4 }, /heads/], [{ ...good, token: 9 }, /token/], [{ ...good, token: 1.5 }, /token/],
      [{ ...good, wo: good.wo.slice(1) }, /wo: expected 36/], [{ ...good, u: [1, 0] }, /u: expected 6/],
      [{ ...good, wo: good.wo.map((v, k) => (k ? v : '1')) }, /wo: every entry/],
      [{ ...good, u: [1e4, 0, 0, 0, 0, 0] }, /u: every entry/], [{ ...good, u: [null, 0, 0, 0, 0, 1] }, /u: every entry/],
    ];
    for (const [raw, message] of cases) assert.throws(() => sanitizeWoState(config, raw), message);
    assert.throws(() => models.compute({ ...good, u: [0, 0, 0, 0, 0, 0] }), /zero vector/);
  });

  test('usable at 320 px wide: nothing in the widget scrolls the page sideways', async () => {
    const { page, problems, widget } = await open({ width: 320, height: 800 });
    // Only this widget on the page: other sections are checked by their own tests.
    await page.evaluate((tag) => {
      for (const node of document.querySelectorAll('main > *')) if (!node.contains(document.querySelector(tag))) node.remove();
    }, TAG);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px`);
    const clipped = await widget.locator('input.cell').evaluateAll((cells) => cells.filter((c) => c.scrollWidth > c.clientWidth).length);
    assert.equal(clipped, 0, 'every W_O entry fits its field');
    const target = await cell(widget, 'A1', 1).boundingBox();
    assert.ok(target.height >= 44 && target.width >= 34, `entries stay large enough to hit (${target.width}×${target.height})`);
    await screenshot(page, 'wo-mixing-320');
    assert.deepEqual(problems, []);
  });
});
