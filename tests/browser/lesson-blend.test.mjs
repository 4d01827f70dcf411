// The blend widget in Chromium, driven as a learner drives it (typing, arrow keys on
// sliders, clicking presets and mode buttons, undo, reload), with every displayed number
// checked against the core's own answer for the same state, computed here in Node.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { BlendModels, blendConfig, presetRow } from '../../web/widgets/blend/blend-model.js';
import { formatNumber } from '../../web/widgets/shared/format.js';
import { loadTestEngine } from '../node/load-engine.mjs';
import { newWatchedPage, openBrowser, screenshot, serveDist } from './browser.mjs';

let browser, server, models, config;
before(async () => {
  server = await serveDist();
  browser = await openBrowser();
  config = blendConfig();
  models = new BlendModels(await loadTestEngine('simd'), config);
});
after(async () => {
  models?.dispose();
  await browser?.close();
  await server?.close();
});

function startingState() {
  return {
    query: config.queryIndex,
    mode: 'weights',
    weights: presetRow(config, config.presets.split),
    scores: config.tokens.map(() => 0),
    headA: presetRow(config, config.presets.twoHeads.headA),
    headB: presetRow(config, config.presets.twoHeads.headB),
  };
}

// The one-head readout line as the widget writes it, for the core's view of `state`.
function expectedReadout(state) {
  const view = models.compute(state);
  const q = config.tokens[state.query];
  return `Output for “${q}” = (${view.output.map((v) => formatNumber(v)).join(', ')}); like “researcher”: cos = ${formatNumber(view.readout.subject)} · like “it”: cos = ${formatNumber(view.readout.complement)}`;
}

async function openBlend(viewport) {
  const { page, problems } = await newWatchedPage(browser, viewport);
  await page.goto(server.url);
  const blend = page.locator('mha-blend[ready]');
  await blend.waitFor();
  return { page, problems, blend };
}

const readout = (blend) => blend.locator('.readout').textContent();

describe('blend widget', () => {
  test('shows the core’s output for the preset split, and two heads keep both', async () => {
    const { page, problems, blend } = await openBlend();
    assert.equal(await readout(blend), expectedReadout(startingState()));
    const view = models.compute(startingState());
    assert.ok(view.readoutA.subject > 0.95 && view.readoutB.complement > 0.95, 'two heads keep both');
    const headA = await blend.locator('.head-a-text').textContent();
    assert.match(headA, new RegExp(`cos = ${formatNumber(view.readoutA.subject)}`));
    await screenshot(page, 'blend-start');
    assert.deepEqual(problems, []);
  });

  test('typing a weight rescales the others and updates the output', async () => {
    const { problems, blend } = await openBlend();
    const field = blend.getByLabel('Weight on “researcher”, exact value').first();
    await field.fill('');
    await field.pressSequentially('0.7');
    const state = startingState();
    // The widget keeps the budget: the rest is scaled by (1 - 0.7) / (1 - 0.45).
    state.weights = state.weights.map((w, i) => (i === 1 ? 0.7 : (w * 0.3) / 0.55));
    assert.equal(await readout(blend), expectedReadout(state));
    const it = blend.getByLabel('Weight on “it”, exact value').first();
    assert.equal(await it.inputValue(), formatNumber(0.4 * 0.3 / 0.55));
    assert.deepEqual(problems, []);
  });

  test('arrow keys on a slider move a weight by 0.01 per press', async () => {
    const { problems, blend } = await openBlend();
    const slider = blend.getByRole('slider', { name: 'Weight on “it”' }).first();
    await slider.focus();
    for (let i = 0; i < 5; i++) await slider.press('ArrowRight');
    const state = startingState();
    const others = 1 - 0.4;
    state.weights = state.weights.map((w, i) => (i === 7 ? 0.45 : (w * (1 - 0.45)) / others));
    assert.equal(await readout(blend), expectedReadout(state));
    assert.deepEqual(problems, []);
  });

  test('scores mode: softmax (in the core) turns typed scores into weights', async () => {
    const { problems, blend } = await openBlend();
    await blend.getByRole('button', { name: 'Edit scores' }).click();
    const field = blend.getByLabel('Score on “researcher”, exact value');
    await field.fill('');
    await field.pressSequentially('3');
    const state = { ...startingState(), mode: 'scores', scores: config.tokens.map((_, i) => (i === 1 ? 3 : 0)) };
    assert.equal(await readout(blend), expectedReadout(state));
    assert.deepEqual(problems, []);
  });

  test('bad input: a message beside the field, the last good output stays', async () => {
    const { page, problems, blend } = await openBlend();
    const before = await readout(blend);
    const field = blend.getByLabel('Weight on “researcher”, exact value').first();
    for (const text of ['abc', '1e999', 'NaN', '0x10', '-0.5', '']) {
      await field.fill(text);
      assert.equal(await field.getAttribute('aria-invalid'), 'true', `"${text}" is rejected`);
      assert.ok((await blend.locator('.field-error', { hasText: 'Weight on “researcher”' }).first().textContent()).length > 0);
      assert.equal(await readout(blend), before);
      assert.equal(await field.inputValue(), text, 'the typed text is kept for correction');
    }
    await screenshot(page, 'blend-bad-input');
    await field.fill('0.45');
    assert.equal(await field.getAttribute('aria-invalid'), 'false');
    assert.deepEqual(problems, []);
  });

  test('presets, undo, reset, and the state survives a reload', async () => {
    const { page, problems, blend } = await openBlend();
    await blend.getByRole('button', { name: 'All on the subject' }).click();
    const subject = { ...startingState(), weights: presetRow(config, config.presets.subject) };
    assert.equal(await readout(blend), expectedReadout(subject));
    await page.reload();
    await page.locator('mha-blend[ready]').waitFor();
    assert.equal(await readout(page.locator('mha-blend')), expectedReadout(subject), 'reload keeps the state');
    await page.locator('mha-blend').getByRole('button', { name: 'Reset' }).click();
    assert.equal(await readout(page.locator('mha-blend')), expectedReadout(startingState()));
    await page.locator('mha-blend').getByRole('button', { name: 'Undo' }).click();
    assert.equal(await readout(page.locator('mha-blend')), expectedReadout(subject));
    assert.deepEqual(problems, []);
  });

  test('undo it: the core finds other weights with the same output', async () => {
    const { blend } = await openBlend();
    const view = models.compute(startingState());
    assert.equal(view.alternative.found, true);
    assert.ok(view.alternative.maxOutputDifference < 1e-5);
    const cells = await blend.locator('.alt-table tbody tr').nth(1).locator('td').allTextContents();
    assert.deepEqual(cells, [formatNumber(0.45), formatNumber(view.alternative.weights[1])]);
  });

  test('usable at 320 px wide', async () => {
    const { page, problems } = await openBlend({ width: 320, height: 700 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px`);
    await screenshot(page, 'blend-320');
    assert.deepEqual(problems, []);
  });
});
