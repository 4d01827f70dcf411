// Soak: many random edits across all four widgets, made through Chromium as a user makes
// them (typing good and bad text, arrow keys on sliders, clicks on buttons and presets,
// menus, undo, reset). MHA_SOAK_EDITS sets how many (default 80; `npm run soak`: 10,000).
// Afterwards: no console error, the wasm heap back to its size after warm-up (no leaked
// models), the JS heap bounded, and the page still answers an edit promptly.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildAllWidgets, newWatchedPage, useSiteAndBrowser } from './browser.mjs';
import { WIDGET_TAGS } from '../../web/widgets/registry.js';

const EDITS = Number(process.env.MHA_SOAK_EDITS ?? 80);
const TAGS = WIDGET_TAGS;
const TEXTS = ['0.3', '0.05', '1', '-1', '2.5', '0', '12', '64', 'abc', '1e999', 'NaN', '', '0x10', '−0.4', '3.14159', ' 7 ',
  '-0', '1e-30', '1e30', '9'.repeat(10000), '1\t2\n3\t4', '<b>1</b>', '٣'];
const KEYS = ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'PageUp', 'Home', 'End'];

const session = useSiteAndBrowser();

test(`soak: ${EDITS} random edits across every widget`, { timeout: 60 * 60 * 1000 }, async () => {
  const { page, problems } = await newWatchedPage(session.browser, { width: 1200, height: 900 });
  await page.goto(session.server.url);
  await buildAllWidgets(page);
  for (const tag of TAGS) await page.locator(`${tag}[ready]`).first().waitFor();
  const cdp = await page.context().newCDPSession(page);
  let seed = 2026;
  const rand = (n) => ((seed = (seed * 1103515245 + 12345) >>> 0) % n);

  // Controls a learner can use right now in one widget (visible, enabled), by kind.
  const controls = (tag) => page.evaluate((tag) => {
    const root = document.querySelector(tag).shadowRoot;
    return [...root.querySelectorAll('input, button, select, [role="slider"]')].map((el, index) => ({
      index,
      // A kit slider (a budget bar segment) takes keys as a range input does.
      kind: el.getAttribute('role') === 'slider' ? 'range' : el.tagName === 'INPUT' ? el.type : el.tagName.toLowerCase(),
      usable: !el.disabled && !el.readOnly && el.getClientRects().length > 0 && !/Measure|Cancel/.test(el.textContent),
      options: el.tagName === 'SELECT' ? el.options.length : 0,
    })).filter((c) => c.usable);
  }, tag);

  async function edit() {
    const tag = TAGS[rand(TAGS.length)];
    const list = await controls(tag);
    if (list.length === 0) return;
    const control = list[rand(list.length)];
    const target = page.locator(`${tag} :is(input, button, select, [role="slider"])`).nth(control.index);
    switch (control.kind) {
      case 'text': await target.fill(TEXTS[rand(TEXTS.length)]); break;
      case 'range': await target.focus(); for (let k = rand(3); k >= 0; k--) await target.press(KEYS[rand(KEYS.length)]); break;
      case 'select': await target.selectOption({ index: rand(control.options) }); break;
      default: await target.click(); // buttons (presets, modes, undo, reset), checkboxes
    }
  }

  async function settle() {
    // Every widget back to its starting example, then a full garbage collection.
    for (const tag of TAGS) {
      // A widget already at its start (an untrained <mha-training>) disables its Reset.
      const reset = page.locator(tag).getByRole('button', { name: 'Reset', exact: true });
      if (await reset.isEnabled()) await reset.click();
    }
    await cdp.send('HeapProfiler.collectGarbage');
    const js = (await cdp.send('Runtime.getHeapUsage')).usedSize;
    const wasm = await page.evaluate(async () => {
      const engine = await (await import('./multiple-heads.js')).sharedEngine();
      return { heap: engine.heapBytesInUse(), models: engine.liveModels };
    });
    return { js, ...wasm };
  }

  const warmUp = Math.max(20, Math.floor(EDITS / 10));
  for (let i = 0; i < warmUp; i++) await edit();
  // The layer draws the map at an h, and makes its model, the first time that h is shown, and
  // keeps both (one per h): every h once before the count, so that a count that grows after
  // it is a leak, not the first visit to an h.
  for (const radio of await page.locator('mha-layer').getByRole('radio', { name: /^h = / }).all()) await radio.click();
  const before = await settle();
  const started = Date.now();
  for (let i = 0; i < EDITS; i++) await edit();
  const seconds = (Date.now() - started) / 1000;
  const afterSoak = await settle();

  // Still responsive: one more edit answered quickly.
  const t0 = Date.now();
  await page.locator('mha-blend').getByRole('button', { name: 'Reset', exact: true }).click();
  await page.locator('mha-blend').getByRole('slider', { name: 'One head: weight on “researcher”' }).press('PageUp');
  await page.locator('mha-blend .headline', { hasText: 'who said it? 12 of 16;' }).waitFor();
  const lastEditMs = Date.now() - t0;

  console.log(`soak: ${EDITS} edits in ${seconds.toFixed(0)} s; wasm heap ${before.heap} B -> ${afterSoak.heap} B ` +
    `(models ${before.models} -> ${afterSoak.models}); JS heap ${(before.js / 1e6).toFixed(1)} MB -> ${(afterSoak.js / 1e6).toFixed(1)} MB; last edit answered in ${lastEditMs} ms`);
  assert.equal(afterSoak.models, before.models, 'no model leaked');
  assert.ok(afterSoak.heap <= before.heap + 64 * 1024, `wasm heap grew from ${before.heap} to ${afterSoak.heap}`);
  assert.ok(afterSoak.js <= before.js * 1.5 + 4e6, `JS heap grew from ${before.js} to ${afterSoak.js}`);
  assert.ok(lastEditMs < 2000);
  assert.deepEqual(problems, []);
});
