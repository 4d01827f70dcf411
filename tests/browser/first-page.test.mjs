// Opens the built page in Chromium under a strict CSP, edits a weight as a user would, and
// checks the displayed output against the core's own answer for the same weights.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loadTestEngine } from '../node/load-engine.mjs';
import { newWatchedPage, openBrowser, screenshot, serveDist } from './browser.mjs';

let browser, server;
before(async () => {
  server = await serveDist();
  browser = await openBrowser();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

// What the page should show for the row of "said" with these weights: computed by the
// core in Node, with the page's model (one-hot tokens, W_V = W_O = I).
async function expectedRow(saidWeights) {
  const engine = await loadTestEngine('simd');
  const L = 4;
  const model = engine.createModel({ seqLen: L, dModel: L, numHeads: 1 });
  const identity = new Float32Array(L * L).map((_, i) => (i % (L + 1) === 0 ? 1 : 0));
  model.setProjection('value', identity);
  model.setOutputProjection(identity);
  const weights = new Float32Array(L * L).fill(1 / L);
  weights.set(saidWeights, L);
  model.setAttentionOverride(0, weights);
  const row = model.forward(identity).heads[0].output.row(1);
  model.delete();
  return Array.from(row, (v) => v.toFixed(3));
}

const shownRow = async (page) =>
  (await page.locator('#head-output').textContent()).split('\n').map((line) => line.trim().split(/\s+/).pop());

test('typing a weight updates the output computed by the core', async () => {
  const { page, problems } = await newWatchedPage(browser);
  await page.goto(server.url);
  await page.locator('#engine-status').filter({ hasText: 'wasmsimd' }).waitFor();
  assert.deepEqual(await shownRow(page), await expectedRow([0.45, 0.15, 0.4, 0]));

  // Move weight from "researcher" to "it": select the field, type, as a user does.
  const researcher = page.getByLabel('on “researcher”');
  const it = page.getByLabel('on “it”');
  await researcher.fill('');
  await researcher.pressSequentially('0.05');
  await it.fill('');
  await it.pressSequentially('0.8');
  assert.deepEqual(await shownRow(page), await expectedRow([0.05, 0.15, 0.8, 0]));
  await screenshot(page, 'first-page');
  assert.deepEqual(problems, []);
});

test('an invalid weight shows a message and keeps the last valid output', async () => {
  const { page, problems } = await newWatchedPage(browser);
  await page.goto(server.url);
  await page.locator('#engine-status').filter({ hasText: 'wasmsimd' }).waitFor();
  const good = await shownRow(page);
  const researcher = page.getByLabel('on “researcher”');
  await researcher.fill('');
  await researcher.pressSequentially('abc');
  await page.locator('#weights-error').filter({ hasText: 'must be a number' }).waitFor();
  assert.equal(await researcher.getAttribute('aria-invalid'), 'true');
  assert.deepEqual(await shownRow(page), good);

  await researcher.fill('0.9'); // now the row sums to 1.45: the core says so
  await page.locator('#weights-error').filter({ hasText: 'row 1 sums to 1.45' }).waitFor();
  assert.deepEqual(await shownRow(page), good);
  await screenshot(page, 'first-page-error');
  assert.deepEqual(problems, []);
});
