// The world editor (dist/world-editor.html) in real Chromium under the strict CSP, driven
// by clicks and keys as an author would: a typed value reaches a widget of the preview; a
// cell that is not a number is marked, named and reachable from the problem list while the
// widgets keep the last good world; tokens and features are added and removed; the
// download is a world checkWorld accepts, holding the edits; a reload brings the draft
// back; starting again asks first; at 390 px only the table scrolls sideways, and the page
// is axe-clean with a problem marked. Two page loads (and one reload), one axe run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { downloadedFile, newWatchedPage, screenshot, useSiteAndBrowser } from './browser.mjs';
import { axeViolations } from './axe.mjs';
import { checkWorld } from '../../web/widgets/shared/world-check.js';

const site = useSiteAndBrowser();
const cell = (page, key) => page.locator(`[data-target="${key}"]`);
// The value of the layer's X grid at (row = token, column = feature), as the widget gives
// it: the row's painted cell names the row's values in order ("0.00; 1.00; …"), and draws
// each as its colour.
const layerX = (page, t, f) => page.evaluate(([row, col]) => {
  const grid = document.querySelector('mha-layer')?.shadowRoot?.querySelector('table[aria-label^="X, the words"]');
  const line = grid?.querySelectorAll('tbody tr')[row];
  return line?.querySelector('td.ui-cell-row')?.getAttribute('aria-label')?.split('; ')[col] ?? null;
}, [t, f]);
const previewState = (page) => page.locator('#preview-status').getAttribute('data-state');
const layerReady = (page) => page.waitForFunction(() => document.querySelector('mha-layer')?.hasAttribute('ready'), null, { timeout: 60000 });

async function type(page, key, text) {
  await cell(page, key).click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text);
}

test('an author edits a world: the preview follows, problems point at their cells, the export and the draft hold the edits', async () => {
  const { page, problems } = await newWatchedPage(site.browser, { width: 1300, height: 900 });
  await page.goto(`${site.server.url}world-editor.html`);
  await layerReady(page);
  assert.equal(await layerX(page, 0, 0), '0.00', 'the lesson\'s world: “The” is no verb');

  // A value typed in the table reaches the layer's X after the pause.
  await type(page, 'value:0:0', '7');
  await page.waitForFunction(() => document.querySelector('#preview-status').dataset.state === 'current'
    && document.querySelector('mha-layer').hasAttribute('ready'), null, { timeout: 60000 });
  await page.waitForFunction(() => document.querySelector('mha-layer').world?.data.features[0].values[0] === 7, null, { timeout: 60000 });
  assert.equal(await layerX(page, 0, 0), '7.00', 'the layer draws the typed value');

  // Arrow keys move down the column.
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.target), 'value:1:0');

  // "abc": the cell is marked and named; the list item brings the author back to it.
  await type(page, 'value:1:2', 'abc');
  const who = cell(page, 'value:1:2');
  assert.equal(await who.getAttribute('aria-invalid'), 'true');
  const message = await page.evaluate(() => {
    const input = document.querySelector('[data-target="value:1:2"]');
    return input.getAttribute('aria-describedby').split(' ').map((id) => document.getElementById(id)?.textContent).join(' ');
  });
  assert.match(message, /^Value of feature “subject” for token 3 “who”: expected a number .*found the text “abc”/);
  assert.equal(await page.locator('td:has([data-target="value:1:2"])').getAttribute('class'), 'has-problem');
  assert.match(await page.locator('#table-note').textContent(), /token 3 “who”/, 'the line under the table says it too');
  assert.equal(await previewState(page), 'stale');
  assert.match(await page.locator('#preview-status').textContent(), /keep the last good world/);
  // Export waits until the world is good.
  await page.getByRole('button', { name: 'Download the world' }).click();
  assert.match(await page.locator('#export-message').textContent(), /Not exported: the world has a problem/);
  await page.locator('#heading-about').click();
  await page.locator('.problems-list button').first().click();
  assert.equal(await page.evaluate(() => document.activeElement.dataset.target), 'value:1:2', 'the problem\'s item focuses its cell');
  await page.waitForTimeout(500);
  assert.equal(await page.evaluate(() => document.querySelector('mha-layer').world.data.features[1].values[2]), 1, 'the widgets keep the last good world');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('0.5');
  assert.equal(await who.getAttribute('aria-invalid'), null);
  assert.equal(await page.locator('.problems').getAttribute('data-count'), '0');

  // A feature cannot take another's name (the heads' rows are filed by name): refused at
  // the field, and the name it had comes back when the author leaves it.
  await type(page, 'name:0', 'subject');
  assert.equal(await cell(page, 'name:0').getAttribute('aria-invalid'), 'true');
  assert.match(await page.locator('#table-note').textContent(), /“subject” is already the name of feature 2/);
  await page.keyboard.press('Tab');
  assert.equal(await cell(page, 'name:0').inputValue(), 'verb');
  assert.equal(await cell(page, 'name:0').getAttribute('aria-invalid'), null);

  // A token at the end, named by typing; every feature gets a value for it.
  await page.getByRole('button', { name: 'Add a token at the end' }).click();
  assert.equal(await page.evaluate(() => document.activeElement.dataset.target), 'token:11');
  await page.keyboard.type('Indeed');
  assert.equal(await page.locator('tbody tr').first().locator('.value-input').count(), 12);
  // A feature, named and given a value; "bias" removed (the gist head's row with it), so
  // the heads still split the 12 features.
  await page.getByRole('button', { name: '+ Add a feature' }).click();
  assert.equal(await page.evaluate(() => document.activeElement.dataset.target), 'name:12');
  await page.keyboard.type('emphasis');
  assert.match(await page.locator('.problems-list').textContent(), /Heads \(JSON\) \(heads\): 4 heads do not divide the 13 features/);
  await type(page, 'value:12:11', '1');
  await page.getByRole('button', { name: 'Remove feature “bias”' }).click();
  assert.equal(await page.locator('.problems').getAttribute('data-count'), '0');
  await page.waitForFunction(() => document.querySelector('#preview-status').dataset.state === 'current'
    && document.querySelector('mha-layer').world?.data.tokens.includes('Indeed'), null, { timeout: 60000 });
  await layerReady(page);
  assert.match(await page.evaluate(() => document.querySelector('mha-layer').shadowRoot.textContent), /Indeed/, 'the layer shows the new token');

  // Undo takes back the last edit, redo puts it back.
  await page.getByRole('button', { name: 'Undo edit' }).click();
  assert.equal(await page.locator('input.name-input').count(), 13, 'the removed feature is back');
  await page.getByRole('button', { name: 'Redo edit' }).click();
  assert.equal(await page.locator('input.name-input').count(), 12);

  await screenshot(page, 'world-editor-desktop');

  // Export: the downloaded file is the world, accepted by checkWorld, with the edits.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download the world' }).click()]);
  assert.equal(download.suggestedFilename(), 'the-researcher-who-wrote-the-paper.json');
  const saved = JSON.parse(readFileSync(await downloadedFile(download), 'utf8'));
  assert.deepEqual(checkWorld(saved), []);
  assert.deepEqual(Object.keys(saved).slice(0, 2), ['$schema', 'formatVersion']);
  assert.equal(saved.tokens.at(-1), 'Indeed');
  assert.equal(saved.features[0].values[0], 7);
  assert.equal(saved.features[1].values[2], 0.5);
  assert.deepEqual(saved.features.at(-1), { name: 'emphasis', values: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1] });
  assert.ok(!saved.features.some((f) => f.name === 'bias') && !('bias' in saved.heads[3].query));

  // A reload brings the draft back, as it was.
  await page.reload();
  assert.equal(await cell(page, 'value:0:0').inputValue(), '7');
  assert.equal(await cell(page, 'token:11').inputValue(), 'Indeed');
  assert.match(await page.locator('.editor-status').textContent(), /Your draft is back/);

  // Starting again asks first; keeping the draft keeps it.
  await page.locator('#start-world').selectOption('german');
  await page.getByRole('button', { name: 'Start again from this world' }).click();
  const dialog = page.getByRole('dialog', { name: 'Start again?' });
  assert.match(await dialog.textContent(), /Your draft \(“The researcher who wrote the paper”, 12 tokens and 12 features\) will be discarded/);
  await dialog.getByRole('button', { name: 'Keep my draft' }).click();
  assert.equal(await cell(page, 'token:11').inputValue(), 'Indeed');
  await page.getByRole('button', { name: 'Start again from this world' }).click();
  await dialog.getByRole('button', { name: 'Discard my draft and start again' }).click();
  assert.equal(await cell(page, 'token:1').inputValue(), 'Koch');
  assert.equal(await page.locator('.problems').getAttribute('data-count'), '0');
  assert.deepEqual(problems, []);
});

test('on a phone (390 px): the table scrolls in its own box, the page does not; import errors are said; axe', async () => {
  const { page, problems } = await newWatchedPage(site.browser, { width: 390, height: 844 });
  await page.goto(`${site.server.url}world-editor.html`);
  await page.locator('.world-table').waitFor();
  const widths = await page.evaluate(() => {
    const box = document.querySelector('.table-box');
    const wider = [...document.querySelectorAll('body *')].filter((el) => !el.closest('.table-box') && el.getBoundingClientRect().right > innerWidth + 1)
      .slice(0, 5).map((el) => `${el.localName}.${el.className}`);
    return { page: document.documentElement.scrollWidth, view: innerWidth, box: box.clientWidth, table: box.scrollWidth, wider };
  });
  assert.ok(widths.page <= widths.view, `the page is ${widths.page} px wide in a ${widths.view} px window: ${widths.wider.join(', ')}`);
  assert.ok(widths.table > widths.box, 'the table scrolls sideways inside its box');
  // A world file, imported: no edits yet, so it starts at once.
  const german = JSON.parse(readFileSync(new URL('../../lessons/multiple-heads/worlds/german.json', import.meta.url), 'utf8'));
  await page.locator('#import-file').setInputFiles({ name: 'koch.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(german)) });
  await page.waitForFunction(() => document.querySelector('[data-target="token:1"]').value === 'Koch');
  assert.match(await page.locator('.editor-status').textContent(), /Started from the file koch\.json/);
  await page.locator('#paste-json').fill('{"tokens": ["a", oops]}');
  await page.getByRole('button', { name: 'Start from this JSON' }).click();
  assert.match(await page.locator('#import-message').textContent(), /^The pasted text is not valid JSON/);
  await page.locator('#paste-json').fill('[1, 2]');
  await page.getByRole('button', { name: 'Start from this JSON' }).click();
  assert.match(await page.locator('#import-message').textContent(), /is JSON but not a world/);
  // axe with a problem marked: the marks and their descriptions are checked too.
  await page.locator('[data-target="value:0:1"]').fill('abc');
  assert.equal(await page.locator('[data-target="value:0:1"]').getAttribute('aria-invalid'), 'true');
  // The page's own parts (the widgets have their own axe tests, with their own worlds).
  assert.deepEqual(await axeViolations(page, { within: '.skip-link, .editor-header, #editor, .preview > h2, #preview-status' }), [], 'axe: the editor at 390 px');
  await screenshot(page, 'world-editor-phone');
  assert.deepEqual(problems, []);
});
