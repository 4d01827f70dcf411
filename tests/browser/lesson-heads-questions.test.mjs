// The heads-questions widget in Chromium, driven as a learner drives it (query menu, clicks
// on heatmap rows, the tie toggle, typing and arrow keys in the W_Q grid, undo, reset,
// reload), with every displayed weight checked against the core's own answer for the same
// state, computed here in Node by the same model code.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  HeadsQuestionsModel, describeRow, headsQuestionsConfig, startingQueries,
} from '../../web/widgets/heads-questions/heads-questions-model.js';
import { formatNumber } from '../../web/widgets/shared/format.js';
import { loadTestEngine } from '../node/load-engine.mjs';
import { SCREENSHOT_DIR, newWatchedPage, openBrowser, serveDist } from './browser.mjs';

const TAG = 'mha-heads-questions';
let browser, server, models, config;
before(async () => {
  server = await serveDist();
  browser = await openBrowser();
  config = headsQuestionsConfig();
  models = new HeadsQuestionsModel(await loadTestEngine('simd'), config);
});
after(async () => {
  models?.dispose();
  await browser?.close();
  await server?.close();
});

// Screenshots of the widget alone (the whole lesson page is slow to capture).
async function screenshot(widget, name) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await widget.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}

const startingState = () => ({ tied: false, query: config.queryIndex, head: 0, wq: startingQueries(config) });
const tokenIndex = (token) => config.tokens.indexOf(token);
const featureIndex = (name) => config.featureNames.indexOf(name);
/** A state with W_Q^head[feature, col] = value. */
function edited(state, head, feature, col, value) {
  const next = structuredClone(state);
  next.wq[head][featureIndex(feature) * config.dK + col] = value;
  return next;
}
/** Each head's full L x L weights from the core in Node, as plain arrays. */
const coreWeights = (state) => models.compute(state).weights.map((m) => Array.from(m.data));

async function openWidget(viewport, hash = '') {
  const { page, problems } = await newWatchedPage(browser, viewport);
  await page.goto(server.url + hash);
  const widget = page.locator(`${TAG}[ready]`);
  await widget.waitFor();
  return { page, problems, widget };
}

// The weights the page's core computed (element.view), per head.
const pageWeights = (widget) => widget.evaluate((host) => host.view.weights.map((m) => Array.from(m.data)));

// The numbers table of the selected query: one array of texts per head.
async function shownRows(widget) {
  const rows = await widget.locator('table.numbers tbody tr').evaluateAll((trs) =>
    trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.firstChild.textContent)));
  return rows[0].map((_, head) => rows.map((row) => row[head]));
}
const expectedRows = (state) => models.compute(state).rows.map((row) => row.map((w) => formatNumber(w)));

function assertClose(actual, expected, message) {
  assert.equal(actual.length, expected.length, message);
  actual.forEach((a, i) => assert.ok(Math.abs(a - expected[i]) <= 1e-6, `${message}: entry ${i}: ${a} vs ${expected[i]}`));
}

describe('heads-questions widget', () => {
  test('four heads, four different questions: every weight shown is the core’s', async () => {
    const { problems, widget } = await openWidget();
    const state = startingState();
    assert.deepEqual(await shownRows(widget), expectedRows(state));
    // The page's core and Node's core agree on every head's whole heatmap.
    const weights = await pageWeights(widget);
    coreWeights(state).forEach((expected, i) => assertClose(weights[i], expected, `head ${i}`));
    // The heads really differ: every pair disagrees somewhere by more than 0.5.
    for (let i = 0; i < 4; i++) {
      for (let j = i + 1; j < 4; j++) {
        const gap = Math.max(...weights[i].map((w, k) => Math.abs(w - weights[j][k])));
        assert.ok(gap > 0.5, `heads ${i} and ${j} differ by at most ${gap}`);
      }
    }
    // Each head's summary names its answer for “said”, from the core's row.
    const view = models.compute(state);
    const summaries = await widget.locator('.summary').allTextContents();
    assert.deepEqual(summaries, view.rows.map((row) => `${describeRow(config.tokens, state.query, row)}.`));
    assert.match(summaries[0], /“paper”/);
    assert.match(summaries[1], /“researcher”/);
    // The cell shades are the core's weights (row “said”, head B).
    const shades = await widget.locator('.head-b .cell[data-row="6"]').evaluateAll((cells) =>
      cells.map((cell) => Number(cell.style.getPropertyValue('--w'))));
    assertClose(shades, view.rows[1], 'head B shades');
    // The text alternative of each heatmap lists each row's strongest key.
    const label = await widget.getByRole('img', { name: /Head B \(Subject finder\)/ }).getAttribute('aria-label');
    assert.match(label, /said → researcher \(0\.91\)/);
    await screenshot(widget, 'heads-questions-start');
    assert.deepEqual(problems, []);
  });

  test('picking the query with the menu or by clicking a heatmap row', async () => {
    const { problems, widget } = await openWidget();
    await widget.getByLabel('Query token').selectOption({ label: 'it (8)' });
    assert.deepEqual(await shownRows(widget), expectedRows({ ...startingState(), query: tokenIndex('it') }));
    assert.match(await widget.locator('.head-c .summary').textContent(), /“it” looks most at “paper”/);
    await widget.locator('.head-b .row-label', { hasText: 'wrote' }).click();
    assert.deepEqual(await shownRows(widget), expectedRows({ ...startingState(), query: tokenIndex('wrote') }));
    assert.equal(await widget.getByLabel('Query token').inputValue(), String(tokenIndex('wrote')));
    assert.deepEqual(problems, []);
  });

  test('tying all heads to head A’s projections makes identical copies; untying restores them', async () => {
    const { problems, widget } = await openWidget();
    await widget.getByRole('checkbox', { name: /Tie all heads/ }).check();
    const tied = { ...startingState(), tied: true };
    const weights = await pageWeights(widget);
    for (let i = 1; i < 4; i++) assert.deepEqual(weights[i], weights[0], `head ${i} equals head A`);
    coreWeights(tied).forEach((expected, i) => assertClose(weights[i], expected, `tied head ${i}`));
    const rows = await shownRows(widget);
    for (let i = 1; i < 4; i++) assert.deepEqual(rows[i], rows[0]);
    assert.match(await widget.locator('.head-d .head-title').textContent(), /tied to head A/);
    assert.equal(await widget.getByLabel('Head to edit').isDisabled(), true);
    assert.match(await widget.locator('[aria-live="polite"]').textContent(), /^All heads tied to head A\. head A: “said” looks most at “paper”/);
    await screenshot(widget, 'heads-questions-tied');
    await widget.getByRole('checkbox', { name: /Tie all heads/ }).uncheck();
    assert.deepEqual(await shownRows(widget), expectedRows(startingState()));
    assert.deepEqual(problems, []);
  });

  test('editing one head’s W_Q moves only that head’s heatmap (typing and arrow keys)', async () => {
    const { problems, widget } = await openWidget();
    const before = await pageWeights(widget);
    // Head B: verbs stop looking for subjects.
    await widget.getByLabel('Head to edit').selectOption({ label: 'Head B: Subject finder' });
    const field = widget.getByLabel('W_Q of head B, row “verb”, column 3');
    await field.fill('');
    await field.pressSequentially('0');
    let state = edited({ ...startingState(), head: 1 }, 1, 'verb', 2, 0);
    let after = await pageWeights(widget);
    coreWeights(state).forEach((expected, i) => assertClose(after[i], expected, `head ${i}`));
    for (const i of [0, 2, 3]) assert.deepEqual(after[i], before[i], `head ${i} is unchanged`);
    assert.notDeepEqual(after[1], before[1]);
    assert.deepEqual(await shownRows(widget), expectedRows(state));

    // Head A, row “bias”, column 1 from −2 to −4 with ArrowDown: q = (2t − 4, −1), so the
    // peak moves to s = t − 2: “said” now looks two words back, at “the”.
    await widget.getByLabel('Head to edit').selectOption({ label: 'Head A: Previous word' });
    const bias = widget.getByLabel('W_Q of head A, row “bias”, column 1');
    await bias.focus();
    for (let i = 0; i < 5; i++) await bias.press('ArrowDown');
    assert.equal(await bias.inputValue(), '-2.5', 'five presses of 0.1');
    assert.deepEqual(await shownRows(widget), expectedRows(edited({ ...state, head: 0 }, 0, 'bias', 0, -2.5)));
    await bias.press('Shift+ArrowDown');
    await bias.press('Shift+ArrowDown');
    for (let i = 0; i < 5; i++) await bias.press('ArrowUp');
    assert.equal(await bias.inputValue(), '-4');
    state = edited({ ...state, head: 0 }, 0, 'bias', 0, -4);
    const previous = after;
    after = await pageWeights(widget);
    coreWeights(state).forEach((expected, i) => assertClose(after[i], expected, `head ${i}`));
    for (const i of [1, 2, 3]) assert.deepEqual(after[i], previous[i], `head ${i} is unchanged`);
    assert.match(await widget.locator('.head-a .summary').textContent(), /“said” looks most at “the”/);
    assert.deepEqual(await shownRows(widget), expectedRows(state));
    assert.deepEqual(problems, []);
  });

  test('while tied, the grid edits the one shared W_Q: every heatmap changes together', async () => {
    const { problems, widget } = await openWidget();
    await widget.getByRole('checkbox', { name: /Tie all heads/ }).check();
    const field = widget.getByLabel('W_Q of head A, row “bias”, column 1');
    await field.fill('0');
    const state = edited({ ...startingState(), tied: true }, 0, 'bias', 0, 0);
    const weights = await pageWeights(widget);
    for (let i = 1; i < 4; i++) assert.deepEqual(weights[i], weights[0]);
    coreWeights(state).forEach((expected, i) => assertClose(weights[i], expected, `head ${i}`));
    assert.match(await widget.locator('.head-d .summary').textContent(), /“said” looks most at “said”/);
    // Untied again: heads B, C, D ask their own questions, head A keeps the edit.
    await widget.getByRole('checkbox', { name: /Tie all heads/ }).uncheck();
    assert.deepEqual(await shownRows(widget), expectedRows({ ...state, tied: false }));
    assert.deepEqual(problems, []);
  });

  test('bad input: a message below the field, the last good weights stay, the text is kept', async () => {
    const { problems, widget } = await openWidget();
    const before = await shownRows(widget);
    const field = widget.getByLabel('W_Q of head A, row “position”, column 1');
    const message = widget.locator(`[id="${await field.getAttribute('aria-describedby')}"]`);
    for (const text of ['abc', '1e999', 'NaN', '0x10', '', '200', '--1']) {
      await field.fill(text);
      assert.equal(await field.getAttribute('aria-invalid'), 'true', `"${text}" is rejected`);
      assert.match(await message.textContent(), /W_Q of head A, row “position”, column 1/);
      assert.equal(await message.getAttribute('role'), 'alert');
      assert.deepEqual(await shownRows(widget), before, 'the last good weights stay');
      assert.equal(await field.inputValue(), text, 'the typed text is kept for correction');
    }
    await field.fill('abc');
    await screenshot(widget, 'heads-questions-bad-input');
    await field.fill('2');
    assert.equal(await field.getAttribute('aria-invalid'), 'false');
    assert.equal(await message.isVisible(), false);
    // Typing on at the end: "2." is kept as typed (not rewritten to "2"), then "2.5".
    await field.press('End');
    await field.pressSequentially('.5');
    assert.equal(await field.inputValue(), '2.5');
    assert.deepEqual(await shownRows(widget), expectedRows(edited(startingState(), 0, 'position', 0, 2.5)));
    // A typographic minus, as printed in the lesson, is a minus sign.
    await field.fill('\u22121');
    assert.deepEqual(await shownRows(widget), expectedRows(edited(startingState(), 0, 'position', 0, -1)));
    assert.deepEqual(problems, []);
  });

  test('undo, reset, and the state survives a reload through the URL', async () => {
    const { page, problems, widget } = await openWidget();
    await widget.getByLabel('Query token').selectOption({ label: 'who (3)' });
    await widget.getByLabel('W_Q of head A, row “position”, column 1').fill('1');
    await widget.getByRole('checkbox', { name: /Tie all heads/ }).check();
    const state = { ...edited(startingState(), 0, 'position', 0, 1), query: tokenIndex('who'), tied: true };
    assert.deepEqual(await widget.evaluate((host) => host.state), state);
    await page.reload();
    const reloaded = page.locator(`${TAG}[ready]`);
    await reloaded.waitFor();
    assert.deepEqual(await reloaded.evaluate((host) => host.state), state, 'reload keeps the state');
    assert.deepEqual(await shownRows(reloaded), expectedRows(state));
    assert.equal(await reloaded.getByRole('checkbox', { name: /Tie all heads/ }).isChecked(), true);
    await reloaded.getByRole('button', { name: 'Reset' }).click();
    assert.deepEqual(await shownRows(reloaded), expectedRows(startingState()));
    await reloaded.getByRole('button', { name: 'Undo' }).click();
    assert.deepEqual(await shownRows(reloaded), expectedRows(state));
    assert.deepEqual(problems, []);
  });

  test('malformed states are refused: from a link (with a notice) and from setState', async () => {
    const bad = encodeURIComponent(JSON.stringify({ ...startingState(), tied: 'yes' }));
    const { problems, widget } = await openWidget(undefined, `#heads-questions=${bad}`);
    assert.match(await widget.locator('.notice').textContent(), /tied: expected true or false/);
    assert.deepEqual(await shownRows(widget), expectedRows(startingState()));
    const messages = await widget.evaluate((host) => {
      const good = host.state;
      const attempts = [
        null, [], { ...good, extra: 1 }, { ...good, query: 11 }, { ...good, query: 1.5 }, { ...good, head: 4 },
        { ...good, wq: good.wq.slice(1) }, { ...good, wq: [good.wq[0].slice(1), ...good.wq.slice(1)] },
        { ...good, wq: [[...good.wq[0].slice(1), 1e9], ...good.wq.slice(1)] },
        { ...good, wq: [[...good.wq[0].slice(1), '1'], ...good.wq.slice(1)] },
      ];
      return attempts.map((attempt) => {
        try { host.setState(attempt); return 'accepted'; } catch (error) { return error.message; }
      });
    });
    assert.ok(messages.every((m) => m !== 'accepted'), messages.join(' | '));
    assert.deepEqual(await shownRows(widget), expectedRows(startingState()));
    assert.deepEqual(problems, []);
  });

  test('table view: the same weights as text, with row and column headers', async () => {
    const { problems, widget } = await openWidget();
    await widget.getByRole('button', { name: 'Show the weights as tables' }).click();
    assert.equal(await widget.locator('.heatmap').first().isVisible(), false);
    const table = widget.getByRole('table', { name: /Head C \(Reference\)/ });
    const itRow = await table.getByRole('row', { name: /^it / }).locator('td').allTextContents();
    const expected = models.compute({ ...startingState(), query: tokenIndex('it') }).rows[2].map((w) => formatNumber(w));
    assert.deepEqual(itRow, expected);
    assert.deepEqual(problems, []);
  });

  test('usable at 320 px wide: no sideways page scroll', async () => {
    const { page, problems, widget } = await openWidget({ width: 320, height: 700 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px`);
    // The heatmaps and the W_Q grid fit inside the widget at this width.
    const spill = await widget.evaluate((host) => {
      const right = host.getBoundingClientRect().right;
      return [...host.shadowRoot.querySelectorAll('.heatmap, .matrix-editor, table.numbers')]
        .map((el) => el.getBoundingClientRect().right - right).filter((d) => d > 0);
    });
    assert.deepEqual(spill, []);
    await screenshot(widget, 'heads-questions-320');
    assert.deepEqual(problems, []);
  });
});
