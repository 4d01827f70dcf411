// The head-splitting widget in Chromium, driven as a learner drives it (menus, typing, arrow
// keys on the slider, the Measure and Cancel buttons, undo, reset, reload), with every
// displayed count and singular value checked against the core's own answer for the same
// state, computed here in Node. Timings are only checked to exist and be positive: machines
// are too noisy for ratios.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import {
  SplitModels, divisors, nearestDivisor, sanitizeSplitState, splitConfig, startingState,
} from '../../web/widgets/head-splitting/head-splitting-model.js';
import { formatCount, formatNumber } from '../../web/widgets/shared/format.js';
import { loadTestEngine } from '../node/load-engine.mjs';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { SCREENSHOT_DIR, newWatchedPage, openBrowser, serveDist } from './browser.mjs';

const PARTS = ['projections', 'scores', 'weightedSum', 'attention', 'output', 'exponentials'];
const TABLE_PARTS = ['attention', 'projections', 'output'];

let browser, server, models, config;
before(async () => {
  server = await serveDist();
  browser = await openBrowser();
  config = splitConfig();
  models = new SplitModels(await loadTestEngine('simd'), config);
});
after(async () => {
  models?.dispose();
  await browser?.close();
  await server?.close();
});

async function openSplit(viewport, hash = '') {
  const { page, problems } = await newWatchedPage(browser, viewport);
  await page.goto(server.url + hash);
  const widget = page.locator('mha-head-splitting[ready]');
  await widget.waitFor();
  return { page, problems, widget };
}

/** A picture of the widget alone (quicker than the whole lesson page). */
function screenshot(widget, name) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return widget.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}

/** Polls `read` until it returns `expected` (slider edits land on the next frame). */
async function eventually(read, expected, message) {
  const deadline = Date.now() + 5000;
  let value;
  do {
    value = await read();
    if (isDeepStrictEqual(value, expected)) return;
    await new Promise((resolve) => setTimeout(resolve, 40));
  } while (Date.now() < deadline);
  assert.deepEqual(value, expected, message);
}

// What the widget shows, read from the page.
const shownCounts = (widget) => widget.locator('.counts tbody tr').evaluateAll((rows) =>
  Object.fromEntries(rows.map((row) => [row.dataset.part, row.querySelector('.count').textContent])));
const shownTable = (widget) => widget.locator('.configs tbody tr').evaluateAll((rows) => rows.map((row) =>
  [row.dataset.heads, ...[...row.querySelectorAll('td[data-part]')].map((td) => `${td.dataset.part}=${td.textContent}`)]));
const shownRank = async (widget) => [
  await widget.locator('.nonzero-count').textContent(),
  await widget.locator('.spectrum-dk').textContent(),
  await widget.locator('.spectrum-svg rect.bar').count(),
  await widget.locator('.spectrum-svg rect.zero-tick').count(),
];

// The same, computed by the core in Node.
function expectedCounts(shape) {
  const { counts } = models.countsFor(shape);
  return Object.fromEntries(PARTS.map((part) => [part, formatCount(counts[part])]));
}
const expectedTable = (seqLen) => config.configurations.map((c) => {
  const { config: core, counts } = models.countsFor({ dModel: c.dModel, heads: c.heads, seqLen });
  return [String(core.numHeads), ...TABLE_PARTS.map((part) => `${part}=${formatCount(counts[part])}`)];
});
function expectedRank(spectrum) {
  const { values, nonZero, config: core } = models.spectrumFor(spectrum);
  return [String(nonZero), String(core.dK), nonZero, values.length - nonZero];
}

describe('head-splitting widget', () => {
  // One page serves the tests that start from the starting state (each presses Reset
  // first): loading the page and the core dominates this file's running time.
  let shared;
  const fresh = async () => {
    shared ??= await openSplit();
    await shared.widget.getByRole('button', { name: 'Reset' }).click();
    return shared;
  };

  test('shows d_k, the slices and the core’s counts; the head count cancels', async () => {
    const { widget } = await fresh();
    const start = startingState(config);
    const shape = { dModel: start.dModel, heads: start.heads, seqLen: start.seqLen };
    const main = models.countsFor(shape);
    // The core's tallies obey the formula, for every configuration of the lesson.
    for (const c of config.configurations) {
      const { config: core, counts } = models.countsFor({ ...c, seqLen: start.seqLen });
      assert.equal(counts.scores, core.numHeads * core.seqLen ** 2 * core.dK);
      assert.equal(counts.attention, 2 * core.seqLen ** 2 * core.dModel);
    }
    assert.equal(await widget.locator('.dk-value').textContent(), String(main.config.dK));
    const slices = await widget.locator('.width-bar .slice').allTextContents();
    assert.deepEqual(slices, main.headWidths.map((_, i) => String(i + 1)));
    assert.deepEqual(await shownCounts(widget), expectedCounts(shape));
    const one = models.countsFor({ ...shape, heads: 1 });
    const [left, right] = await widget.locator('.formula-line').all();
    assert.deepEqual(await left.locator('.num').allTextContents(),
      [String(main.config.numHeads), String(main.config.seqLen), String(main.config.dK), formatCount(main.counts.scores)]);
    assert.deepEqual(await right.locator('.num').allTextContents(),
      [String(one.config.seqLen), String(one.config.dModel), formatCount(one.counts.scores)]);
    assert.deepEqual(await shownTable(widget), expectedTable(start.seqLen));
    await screenshot(widget, 'head-splitting-start');
    assert.deepEqual(shared.problems, []);
  });

  test('h offers only divisors of d_model; a width it does not divide picks the nearest', async () => {
    const { widget } = await fresh();
    const dModelSelect = widget.getByRole('combobox', { name: 'Model width d_model', exact: true });
    const headsSelect = widget.getByRole('combobox', { name: 'Number of heads h', exact: true });
    await dModelSelect.selectOption('96');
    const options = async () => (await headsSelect.locator('option').allTextContents()).map(Number);
    assert.deepEqual(await options(), divisors(96, config.maxHeads));
    await headsSelect.selectOption('12');
    assert.deepEqual(await shownCounts(widget), expectedCounts({ dModel: 96, heads: 12, seqLen: 64 }));
    assert.equal(await widget.locator('.dk-value').textContent(), String(models.countsFor({ dModel: 96, heads: 12, seqLen: 64 }).config.dK));
    // 12 does not divide 512: 8 and 16 are equally near, and the smaller is taken.
    await dModelSelect.selectOption('512');
    const picked = nearestDivisor(512, 12, config.maxHeads);
    assert.equal(picked, 8);
    assert.equal(await headsSelect.inputValue(), String(picked));
    assert.match(await widget.locator('.controls .note').textContent(), /h = 12 does not divide d_model = 512, so h is now 8/);
    assert.deepEqual(await options(), divisors(512, config.maxHeads));
    assert.deepEqual(await shownCounts(widget), expectedCounts({ dModel: 512, heads: 8, seqLen: 64 }));
    assert.equal(await widget.locator('.width-bar .slice').count(), 8);
    assert.deepEqual(shared.problems, []);
  });

  test('L: typing and arrow keys update every count; bad text keeps the last good state', async () => {
    const { widget } = await fresh();
    const field = widget.getByLabel('Sequence length L, exact value');
    await field.fill('');
    await field.pressSequentially('128');
    assert.deepEqual(await shownCounts(widget), expectedCounts({ dModel: 512, heads: 8, seqLen: 128 }));
    assert.deepEqual(await shownTable(widget), expectedTable(128));
    const slider = widget.getByRole('slider', { name: 'Sequence length L', exact: true });
    await slider.focus();
    await slider.press('ArrowRight');
    await slider.press('ArrowRight');
    await eventually(() => shownCounts(widget), expectedCounts({ dModel: 512, heads: 8, seqLen: 130 }), 'two arrow presses: L = 130');
    await eventually(() => shownTable(widget), expectedTable(130));
    const before = await shownCounts(widget);
    for (const text of ['abc', '1e999', 'NaN', '0x10', '', '2.5', '0', '300']) {
      await field.fill(text);
      assert.equal(await field.getAttribute('aria-invalid'), 'true', `"${text}" is rejected`);
      assert.ok((await widget.locator('#seq-error').textContent()).length > 10, `"${text}" gets a message`);
      assert.deepEqual(await shownCounts(widget), before);
      assert.equal(await field.inputValue(), text, 'the typed text is kept for correction');
    }
    await screenshot(widget, 'head-splitting-bad-input');
    await field.fill('64');
    assert.equal(await field.getAttribute('aria-invalid'), 'false');
    assert.deepEqual(await shownCounts(widget), expectedCounts({ dModel: 512, heads: 8, seqLen: 64 }));
    assert.deepEqual(shared.problems, []);
  });

  test('singular values: exactly d_k are non-zero, and h changes how many', async () => {
    const { widget } = await fresh();
    const start = startingState(config);
    let spectrum = { dModel: start.spectrumDModel, heads: start.spectrumHeads, head: start.spectrumHead };
    assert.equal(models.spectrumFor(spectrum).nonZero, models.spectrumFor(spectrum).config.dK);
    assert.deepEqual(await shownRank(widget), expectedRank(spectrum));
    const headsSelect = widget.getByRole('combobox', { name: 'Spectrum panel: number of heads h' });
    for (const heads of [8, 1, 16]) {
      await headsSelect.selectOption(String(heads));
      spectrum = { ...spectrum, heads, head: 0 };
      const rank = expectedRank(spectrum);
      assert.equal(rank[0], rank[1], `h = ${heads}: non-zero count equals d_k`);
      assert.deepEqual(await shownRank(widget), rank);
    }
    await headsSelect.selectOption('4');
    await widget.getByRole('combobox', { name: 'Spectrum panel: head' }).selectOption('2');
    spectrum = { ...spectrum, heads: 4, head: 2 };
    assert.deepEqual(await shownRank(widget), expectedRank(spectrum));
    const values = models.spectrumFor(spectrum).values;
    await widget.locator('details summary').click();
    const rows = await widget.locator('.spectrum-table tbody tr').evaluateAll((trs) => trs.map((tr) =>
      [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    const { nonZero } = models.spectrumFor(spectrum);
    assert.deepEqual(rows, values.map((v, i) => (i < nonZero ? [formatNumber(v, 4), 'non-zero'] : [v.toExponential(1), 'zero'])));
    // A width the current h does not divide: 16 heads -> d_model 24 takes 12, the nearest.
    await headsSelect.selectOption('16');
    await widget.getByRole('combobox', { name: 'Spectrum panel: model width d_model' }).selectOption('24');
    assert.equal(await headsSelect.inputValue(), '12');
    assert.equal(await widget.getByRole('combobox', { name: 'Spectrum panel: head' }).inputValue(), '2', 'head 3 is kept');
    assert.deepEqual(await shownRank(widget), expectedRank({ dModel: 24, heads: 12, head: 2 }));
    await screenshot(widget, 'head-splitting-spectrum');
    assert.deepEqual(shared.problems, []);
  });

  test('measure on this device: a worker times the three configurations; Cancel stops it', async () => {
    const { widget } = await fresh();
    const measure = widget.getByRole('button', { name: 'Measure on this device' });
    const cancel = widget.getByRole('button', { name: 'Cancel' });
    await measure.click();
    assert.equal(await measure.isDisabled(), true);
    await cancel.click();
    assert.match(await widget.locator('.measure-status').textContent(), /cancelled/);
    assert.equal(await measure.isDisabled(), false);

    await measure.click();
    assert.equal(await widget.locator('progress').isVisible(), true, 'progress is shown');
    await widget.locator('button:enabled', { hasText: 'Measure on this device' }).waitFor({ timeout: 15000 });
    const status = await widget.locator('.measure-status').textContent();
    assert.match(status, /^Measured at L = 64 /);
    const times = await widget.locator('.configs .time').allTextContents();
    assert.equal(times.length, 3);
    for (const time of times) {
      const match = /^(\d+\.\d\d) ms$/.exec(time);
      assert.ok(match && Number(match[1]) > 0, `a positive time, got “${time}”`);
    }
    await screenshot(widget, 'head-splitting-measured');
    assert.deepEqual(shared.problems, []);
  });

  test('undo, reset, and the state survives a reload; malformed links are refused', async () => {
    const { page, problems, widget } = await openSplit();
    await widget.getByRole('combobox', { name: 'Number of heads h', exact: true }).selectOption('32');
    const field = widget.getByLabel('Sequence length L, exact value');
    await field.fill('16');
    assert.deepEqual(await shownCounts(widget), expectedCounts({ dModel: 512, heads: 32, seqLen: 16 }));
    await widget.getByRole('button', { name: 'Undo' }).click();
    assert.deepEqual(await shownCounts(widget), expectedCounts({ dModel: 512, heads: 32, seqLen: 64 }));
    await page.reload();
    const reloaded = page.locator('mha-head-splitting[ready]');
    await reloaded.waitFor();
    assert.deepEqual(await shownCounts(reloaded), expectedCounts({ dModel: 512, heads: 32, seqLen: 64 }), 'reload keeps the state');
    assert.equal(await reloaded.getByRole('combobox', { name: 'Number of heads h', exact: true }).inputValue(), '32');
    await reloaded.getByRole('button', { name: 'Reset' }).click();
    assert.deepEqual(await shownCounts(reloaded), expectedCounts({ dModel: 512, heads: 8, seqLen: 64 }));

    // sanitizeState: wrong types, non-divisors, out-of-range values, unknown fields.
    const good = startingState(config);
    assert.deepEqual(sanitizeSplitState(good, config), good);
    for (const [patch, pattern] of [
      [{ heads: 7 }, /does not divide/], [{ heads: '8' }, /whole number/], [{ seqLen: 300 }, /between/],
      [{ seqLen: 2.5 }, /whole number/], [{ dModel: 100 }, /one of/], [{ heads: 128 }, /between 1 and 64/],
      [{ spectrumHeads: 5 }, /does not divide/], [{ spectrumHead: 4 }, /head from 0 to 3/], [{ extra: 1 }, /unknown field/],
    ]) assert.throws(() => sanitizeSplitState({ ...good, ...patch }, config), pattern);
    assert.throws(() => sanitizeSplitState([], config), /object/);

    assert.deepEqual(problems, []);
  });

  test('usable at 320 px wide; a malformed link is refused with a notice', async () => {
    const bad = encodeURIComponent(JSON.stringify({ ...startingState(config), heads: 7 }));
    const { page, problems, widget } = await openSplit({ width: 320, height: 700 }, `#split=${bad}`);
    assert.match(await widget.locator('.notice').textContent(), /heads: 7 does not divide d_model = 512/);
    assert.deepEqual(await shownCounts(widget), expectedCounts({ dModel: 512, heads: 8, seqLen: 64 }));
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px`);
    await screenshot(widget, 'head-splitting-320');
    assert.deepEqual(problems, []);
  });

  test('an author’s config and panels (embed page)', async () => {
    const authored = { start: { dModel: 96, heads: 12, seqLen: 10 }, configurations: [{ label: 'two', dModel: 96, heads: 2 }, { label: 'six', dModel: 96, heads: 6 }] };
    const query = new URLSearchParams({ widget: 'head-splitting', config: JSON.stringify(authored), panels: 'controls counts configurations' });
    const { page, problems } = await newWatchedPage(browser);
    await page.goto(`${server.url}embed.html?${query}`);
    const widget = page.locator('mha-head-splitting[ready]');
    await widget.waitFor();
    assert.deepEqual(await shownCounts(widget), expectedCounts(authored.start));
    const rows = await shownTable(widget);
    assert.deepEqual(rows.map((row) => row[0]), ['2', '6']);
    assert.equal(await widget.locator('[data-panel="spectrum"]').isHidden(), true);
    assert.equal(await widget.locator('[data-panel="width"]').isHidden(), true);
    assert.throws(() => splitConfig({ start: { heads: 7 } }), /does not divide/);
    assert.throws(() => splitConfig({ configurations: [{ label: 'x', dModel: 512, heads: 3 }] }), /does not divide/);
    assert.throws(() => splitConfig({ colour: 'red' }), /unknown config field/);
    assert.deepEqual(problems, []);
  });

  test('in a sandboxed frame (no worker allowed) the timing runs on the page and says so', async () => {
    const { page, problems } = await newWatchedPage(browser);
    await page.setContent(`<iframe sandbox="allow-scripts" width="900" height="700" src="${server.url}embed.html?widget=head-splitting"></iframe>`);
    const widget = page.frameLocator('iframe').locator('mha-head-splitting[ready]');
    await widget.waitFor();
    await widget.getByRole('button', { name: 'Measure on this device' }).click();
    await widget.locator('button:enabled', { hasText: 'Measure on this device' }).waitFor({ timeout: 15000 });
    assert.match(await widget.locator('.measure-status').textContent(), /main thread: this frame does not allow a worker/);
    const times = await widget.locator('.configs .time').allTextContents();
    assert.equal(times.length, 3);
    for (const time of times) assert.ok(Number(time.replace(' ms', '')) > 0, `a positive time, got “${time}”`);
    assert.deepEqual(problems, []);
  });
});
