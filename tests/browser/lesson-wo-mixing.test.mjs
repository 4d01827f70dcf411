// The W_O mixing widget in Chromium, in the lesson's one world, driven as a learner drives
// it (dragging W_O cells with mouse and touch, keys, typed exact values, presets, the
// direction u, the head count, token chips, undo / reset), with every number and every bar
// it shows checked against the core's answer for the same state, computed here in Node.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  WoMixingModel, describeAlong, directionValues, presetValues, startingState, woMixingConfig,
} from '../../web/widgets/wo-mixing/wo-mixing-model.js';
import { THE_WORLD as w, headClass } from '../../web/widgets/shared/world.js';
import { parseNotation, spoken } from '../../web/ui/notation.js';
import { formatNumber } from '../../web/text/format.js';
import { loadTestEngine } from '../node/load-engine.mjs';
import { screenshot, buildAllWidgets, newWatchedPage, pageTurns, useSiteAndBrowser } from './browser.mjs';
import { WCAG22, axeViolations } from './axe.mjs';

const session = useSiteAndBrowser();
const TAG = 'mha-wo-mixing';
const EMBED = 'embed.html?widget=wo-mixing';
const d = w.dModel;
let model, config;
before(async () => {
  config = woMixingConfig();
  model = new WoMixingModel(await loadTestEngine('simd'), config);
});
after(() => model?.dispose());

const start = () => startingState(config);
const withEntry = (state, index, value) => ({ ...state, wo: state.wo.map((v, k) => (k === index ? value : v)) });
/** Text as the page shows it: the notation's sub- and superscripts inline ("W_O" -> "WO"). */
const shown = (text) => parseNotation(text).map((p) => (typeof p === 'string' ? p : `${p.base}${p.sub ?? ''}${p.sup ?? ''}`)).join('');

// Tests on the embed page take turns with one page (pageTurns); the few on the lesson page
// get a page of their own.
const embedPage = pageTurns(() => session.browser);

async function open(url = EMBED, viewport = { width: 1280, height: 800 }, options = {}) {
  const address = session.server.url + url;
  const colorScheme = options.dark ? 'dark' : null;
  const embedded = url.startsWith('embed.html');
  const { page, problems } = embedded ? await embedPage(address, viewport, { colorScheme }) : await newWatchedPage(session.browser, viewport);
  if (!embedded) {
    if (colorScheme) await page.emulateMedia({ colorScheme });
    await page.goto(address);
  }
  await buildAllWidgets(page);
  const widget = page.locator(`${TAG}[ready]`);
  await widget.waitFor();
  return { page, problems, widget };
}

const woCell = (widget, r, c) => widget.locator(`.wo-grid td.ui-cell[data-row="${r}"][data-col="${c}"]`);
const uCell = (widget, c) => widget.locator(`.reader-panel td.ui-cell[data-col="${c}"]`);

/** What the widget draws: grid cells' values, the bars' geometry, the sentences. */
function drawn(widget) {
  return widget.evaluate((el) => {
    const root = el.shadowRoot;
    const labels = (selector) => [...root.querySelectorAll(selector)].map((c) => c.getAttribute('aria-label'));
    const chart = (svg) => ({
      axis: Number(svg.querySelector('line.ui-axis').getAttribute('y1')),
      rects: [...svg.querySelectorAll('rect.ui-part')].map((r) => ({
        y: Number(r.getAttribute('y')), h: Number(r.getAttribute('height')), colour: r.style.getPropertyValue('--part').trim(),
      })),
      totals: [...svg.querySelectorAll('line.ui-total-mark')].map((l) => Number(l.getAttribute('y1'))),
    });
    return {
      state: el.state,
      wo: labels('.wo-grid td.ui-cell'),
      concat: labels('.concat td.ui-cell'),
      u: labels('.reader-panel td.ui-cell'),
      rowBands: [...root.querySelectorAll('.wo-grid .ui-row-band-label')].map((th) => ({
        rows: th.rowSpan, colour: th.querySelector('.ui-band-bar').style.getPropertyValue('--band').trim(),
      })),
      columnBands: [...root.querySelectorAll('.concat .ui-band-label')].map((th) => ({
        cols: th.colSpan, colour: th.querySelector('.ui-band-bar').style.getPropertyValue('--band').trim(),
      })),
      headCharts: [...root.querySelectorAll('.head-output svg')].map(chart),
      headNames: [...root.querySelectorAll('.head-output figcaption')].map((f) => f.textContent),
      contributions: chart(root.querySelector('.output-panel svg')),
      heard: chart(root.querySelector('.heard svg')),
      sentence: root.querySelector('.sentence').textContent,
      announced: root.querySelector('.widget > .sr-only[aria-live]').textContent,
      pressed: [...root.querySelectorAll('button[aria-pressed="true"]')].map((b) => b.textContent),
    };
  });
}

/**
 * Bars drawn for `parts` (one { values, colour } per head) and `totals`: one rectangle per
 * non-zero value, column by column, in the part's colour, up for positive and down for
 * negative, all at one scale; the total marks at the totals.
 */
function assertChart(chart, parts, totals, what) {
  const expected = [];
  const columns = parts[0].values.length;
  for (let j = 0; j < columns; j++) {
    for (const part of parts) if (part.values[j] !== 0) expected.push({ v: part.values[j], colour: part.colour });
  }
  assert.equal(chart.rects.length, expected.length, `${what}: one bar per non-zero value`);
  const biggest = expected.reduce((best, e, k) => (Math.abs(e.v) > Math.abs(expected[best].v) ? k : best), 0);
  const unit = chart.rects[biggest].h / Math.abs(expected[biggest].v);
  expected.forEach((e, k) => {
    const rect = chart.rects[k];
    assert.equal(rect.colour, e.colour, `${what}: bar ${k} in its head's colour`);
    assert.ok(Math.abs(rect.h - Math.max(Math.abs(e.v) * unit, 0.5)) < 0.02, `${what}: bar ${k} is ${e.v} long`);
    if (e.v > 0) assert.ok(rect.y < chart.axis, `${what}: bar ${k} stands above zero`);
    else assert.ok(rect.y >= chart.axis - 0.01, `${what}: bar ${k} hangs below zero`);
  });
  if (totals) totals.forEach((t, j) => assert.ok(Math.abs(chart.axis - chart.totals[j] - t * unit) < 0.02, `${what}: total ${j} at ${t}`));
}

/** Asserts that the widget holds `state` and shows exactly the core's view of it. */
async function assertShows(widget, state) {
  const view = model.compute(state);
  const seen = await drawn(widget);
  assert.deepEqual(seen.state, state, 'the widget holds this state');
  const fmt = (values) => values.map((v) => formatNumber(v));
  assert.deepEqual(seen.wo, fmt(state.wo), 'W_O grid');
  assert.deepEqual(seen.u, fmt(state.u), 'u grid');
  assert.deepEqual(seen.concat, fmt(view.concat), 'Concat: the core’s concatenated head outputs');
  const colour = (head) => `var(--${headClass(head)})`;
  assert.deepEqual(seen.rowBands, view.heads.map((head) => ({ rows: head.end - head.start, colour: colour(head) })), 'W_O row blocks banded by head');
  assert.deepEqual(seen.columnBands, view.heads.map((head) => ({ cols: head.end - head.start, colour: colour(head) })), 'Concat slices banded by head');
  assert.deepEqual(seen.headNames, view.heads.map((head) => head.name));
  view.headOutputs.forEach((values, i) => assertChart(seen.headCharts[i], [{ values, colour: colour(view.heads[i]) }], null, `head ${i} output`));
  // One scale for all the heads' small charts, so their sizes compare.
  const units = seen.headCharts.map((c, i) => {
    const k = view.headOutputs[i].reduce((b, v, j, a) => (Math.abs(v) > Math.abs(a[b]) ? j : b), 0);
    const nonZeroBefore = view.headOutputs[i].slice(0, k).filter((v) => v !== 0).length;
    return c.rects[nonZeroBefore].h / Math.abs(view.headOutputs[i][k]);
  });
  assert.ok(units.every((u) => Math.abs(u - units[0]) < 1e-3 * units[0]), 'head charts share one scale');
  const parts = view.contributions.map((values, i) => ({ values, colour: colour(view.heads[i]) }));
  assertChart(seen.contributions, parts, view.output, 'contributions');
  assertChart(seen.heard, view.heads.map((head, i) => ({ values: [view.withMixing.heads[i], view.withoutMixing.heads[i]], colour: colour(head) })),
    [view.withMixing.total, view.withoutMixing.total], 'who is heard');
  const sentence = describeAlong(config, view);
  assert.equal(seen.sentence, shown(sentence), 'who is heard, in words');
  assert.equal(seen.announced, spoken(sentence), 'announced in words');
  return { view, seen };
}

/** The state after typing `text` into W_O cell (r, c) through the kit's exact-value field. */
async function typeInto(widget, r, c, text) {
  await woCell(widget, r, c).click();
  await woCell(widget, r, c).press('Enter');
  const field = widget.locator('.ui-cell-editor input');
  await field.fill('');
  await field.pressSequentially(text);
  await field.press('Enter');
}

describe('W_O mixing widget', () => {
  test('starting state in the one world: every number and bar is the core’s', async () => {
    const { problems, widget } = await open();
    const { view, seen } = await assertShows(widget, start());
    assert.equal(w.tokens[seen.state.token], 'said');
    assert.deepEqual(view.heads.map((head) => head.name), ['Subject finder', 'Complement finder', 'Previous word', 'Gist']);
    assert.deepEqual(seen.pressed.sort(), ['Identity: private slices', 'u = e1']);
    assert.equal(await widget.getByRole('radio', { checked: true }).textContent(), 'said');
    assert.match(await widget.locator('.caption').textContent(), /^Try it: drag WO’s cell in row 4/);
    assert.deepEqual(problems, []);
  });

  test('a W_O cell dragged with the mouse, dragged by touch, or stepped with + keys changes the state as typing does', async () => {
    const { page, problems, widget } = await open();
    await typeInto(widget, 3, 0, '0.5'); // row 4 (the Complement finder's first) into output 1
    const typed = withEntry(start(), 3 * d, 0.5);
    await assertShows(widget, typed);

    await widget.getByRole('button', { name: 'Reset' }).click();
    const cell = woCell(widget, 3, 0);
    await cell.scrollIntoViewIfNeeded();
    const box = await cell.boundingBox();
    const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x, y - 20, { steps: 4 });
    await page.mouse.move(x, y - 50, { steps: 6 });
    await page.mouse.up();
    assert.deepEqual(await widget.evaluate((el) => el.state), typed, 'mouse drag 50 px up = typing 0.5');
    await widget.getByRole('button', { name: 'Undo' }).click();
    await assertShows(widget, start()); // the whole drag is one undo step
    await widget.getByRole('button', { name: 'Reset' }).click();
    await typeInto(widget, 3, 0, '0.25'); // typed character by character: one undo step
    await widget.getByRole('button', { name: 'Undo' }).click();
    await assertShows(widget, start());

    await widget.getByRole('button', { name: 'Reset' }).click();
    await cell.focus();
    for (let i = 0; i < 5; i++) await cell.press('+');
    assert.deepEqual(await widget.evaluate((el) => el.state), typed, '+ five times = typing 0.5');
    await cell.press('Shift+-');
    await assertShows(widget, withEntry(start(), 3 * d, 0.49));
    await cell.press('PageDown');
    await assertShows(widget, withEntry(start(), 3 * d, -0.51));
    await widget.getByRole('button', { name: 'Undo' }).click();
    await assertShows(widget, withEntry(start(), 3 * d, 0.49));

    // Touch (CDP touch events, so pointerType is "touch"), on a phone-sized page.
    const touchPage = await session.browser.newPage({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    const touchProblems = [];
    touchPage.on('pageerror', (error) => touchProblems.push(error.message));
    touchPage.on('console', (m) => { if (m.type() === 'error') touchProblems.push(m.text()); });
    await touchPage.goto(session.server.url + EMBED);
    const touchWidget = touchPage.locator(`${TAG}[ready]`);
    await touchWidget.waitFor();
    const touchCell = woCell(touchWidget, 3, 0);
    await touchCell.scrollIntoViewIfNeeded();
    const t = await touchCell.boundingBox();
    const cdp = await touchPage.context().newCDPSession(touchPage);
    const touch = (type, tx, ty) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x: tx, y: ty }] });
    const [tx, ty] = [t.x + t.width / 2, t.y + t.height / 2];
    const scrollBefore = await touchPage.evaluate(() => window.scrollY);
    await touch('touchStart', tx, ty);
    for (let i = 1; i <= 10; i++) await touch('touchMove', tx, ty - i * 5);
    await touch('touchEnd');
    assert.deepEqual(await touchWidget.evaluate((el) => el.state), typed, 'touch drag 50 px up = typing 0.5');
    assert.equal(await touchPage.evaluate(() => window.scrollY), scrollBefore, 'the drag did not scroll the page');
    assert.deepEqual(touchProblems, []);
    await touchPage.close();
    assert.deepEqual(problems, []);
  });

  test('readonly: no drag, key, wheel, typed value, preset, chip or menu changes anything', async () => {
    const { page, problems, widget } = await open(`${EMBED}&readonly`);
    const before = await widget.evaluate((el) => el.state);
    const cell = woCell(widget, 3, 0);
    await cell.click();
    for (const key of ['+', '-', 'PageUp', 'Shift+ArrowUp', '5', 'Enter', 'F2']) await cell.press(key);
    assert.equal(await widget.locator('.ui-cell-editor').count(), 0, 'no exact-value field opens');
    await page.mouse.wheel(0, -300);
    const box = await cell.boundingBox();
    await page.mouse.move(box.x + 10, box.y + 10);
    await page.mouse.down();
    await page.mouse.move(box.x + 10, box.y - 60, { steps: 6 });
    await page.mouse.up();
    await uCell(widget, 1).click();
    await uCell(widget, 1).press('+');
    const enabled = await widget.evaluate((el) => [...el.shadowRoot.querySelectorAll('button, select, input')]
      .filter((c) => !c.disabled && !c.readOnly && c.getClientRects().length > 0).map((c) => c.outerHTML.slice(0, 60)));
    assert.deepEqual(enabled, [], 'every button and menu is disabled');
    await widget.locator('.chip').nth(7).click({ force: true });
    await widget.locator('.chips').press('ArrowRight').catch(() => {});
    assert.deepEqual(await widget.evaluate((el) => el.state), before);
    assert.equal(await page.evaluate(() => location.search + location.hash), '?widget=wo-mixing&readonly', 'the URL was not rewritten');
    assert.deepEqual(problems, []);
  });

  test('presets and directions: who is heard along u, with this W_O and with W_O = I', async () => {
    const { problems, widget } = await open();
    const heard = (lengths) => lengths.map((v) => Math.abs(v) >= config.audibleThreshold);
    await widget.getByRole('button', { name: 'Subject and complement finders write into the same direction' }).click();
    let { view } = await assertShows(widget, { ...start(), wo: presetValues(config, 'shared') });
    assert.deepEqual(heard(view.withMixing.heads), [true, true, false, false], 'along e1 both finders are heard with this W_O');
    assert.deepEqual(heard(view.withoutMixing.heads), [true, false, false, false], '… and only the subject finder with W_O = I');
    await widget.getByRole('button', { name: /^u = e4/ }).click();
    ({ view } = await assertShows(widget, { ...start(), wo: presetValues(config, 'shared'), u: directionValues(config, 'e4') }));
    assert.ok(Math.abs(view.withMixing.heads[1]) < Math.abs(view.withoutMixing.heads[1]), 'the complement finder left coordinate 4 partly');
    await widget.getByRole('button', { name: 'Gist spread across all coordinates' }).click();
    ({ view } = await assertShows(widget, { ...start(), wo: presetValues(config, 'spread'), u: directionValues(config, 'e4') }));
    assert.ok(heard(view.withMixing.heads)[3] && !heard(view.withoutMixing.heads)[3], 'the Gist is heard along e4 only when spread');
    await widget.getByRole('button', { name: /^u = e1 \+ e4/ }).click();
    await assertShows(widget, { ...start(), wo: presetValues(config, 'spread'), u: directionValues(config, 'e1e4') });
    await widget.getByRole('button', { name: 'Identity: private slices' }).click();
    ({ view } = await assertShows(widget, { ...start(), u: directionValues(config, 'e1e4') }));
    assert.deepEqual(view.withMixing, view.withoutMixing, 'identity W_O is the concatenation alone');
    // u edited in its own grid: coordinate 2 stepped down with the keys.
    await uCell(widget, 1).focus();
    await uCell(widget, 1).press('-');
    await assertShows(widget, { ...start(), u: directionValues(config, 'e1e4').map((v, k) => (k === 1 ? -0.1 : v)) });
    assert.deepEqual(problems, []);
  });

  test('head count and token: merged heads at h = 2 and 1, token chips by click and arrow keys', async () => {
    const { problems, widget } = await open();
    await widget.getByRole('button', { name: 'Subject and complement finders write into the same direction' }).click();
    const shared = { ...start(), wo: presetValues(config, 'shared') };
    await widget.getByRole('combobox', { name: 'Number of heads' }).selectOption('2');
    let { view } = await assertShows(widget, { ...shared, heads: 2 });
    assert.deepEqual(view.heads.map((head) => head.merged), [true, true]);
    await widget.getByRole('combobox', { name: 'Number of heads' }).selectOption('1');
    ({ view } = await assertShows(widget, { ...shared, heads: 1 }));
    assert.equal(view.headWidth, 12);
    await widget.getByRole('combobox', { name: 'Number of heads' }).selectOption('4');
    await widget.getByRole('radio', { name: '“it”, word 8' }).click();
    await assertShows(widget, { ...shared, token: 7 });
    await widget.getByRole('radio', { name: '“it”, word 8' }).press('ArrowRight');
    await assertShows(widget, { ...shared, token: 8 });
    assert.equal(await widget.evaluate((el) => el.shadowRoot.activeElement?.textContent), 'was', 'focus follows the picked chip');
    assert.deepEqual(problems, []);
  });

  test('every displayed negative uses the minus sign U+2212, never a hyphen', async () => {
    const { problems, widget } = await open();
    const state = { ...withEntry(start(), 3 * d, -1.28), u: start().u.map((v, k) => (k === 3 ? -0.31 : v)) };
    await widget.evaluate((el, s) => el.setState(s), state);
    await widget.getByRole('button', { name: 'Show the numbers' }).click();
    await woCell(widget, 3, 0).click(); // its readout: "…, output 1: −1.28"
    // A refused exact value: the message writes the limits and the typed text with U+2212.
    await uCell(widget, 0).click();
    await uCell(widget, 0).press('Enter');
    await widget.locator('.reader-panel .ui-cell-editor input').fill('-20');
    assert.match(await widget.locator('.reader-panel .ui-cell-editor .ui-error').textContent(), /between −10 and 10; −20 is outside/);
    const texts = await widget.evaluate((el) => {
      const root = el.shadowRoot;
      const out = [root.textContent];
      for (const node of root.querySelectorAll('*')) {
        for (const name of ['aria-label', 'title', 'aria-description']) if (node.getAttribute(name)) out.push(node.getAttribute(name));
      }
      return out.join('\n');
    });
    assert.match(texts, /−1\.28/, 'the negative entry is on screen');
    assert.match(texts, /−0\.31/);
    assert.doesNotMatch(texts, /-\d/, 'no hyphen-minus before a digit');
    assert.deepEqual(problems, []);
  });

  test('keyboard: at most 15 tab stops, the W_O grid is one', async () => {
    const { page, problems, widget } = await open();
    await widget.getByRole('button', { name: 'Gist spread across all coordinates' }).click(); // Undo is enabled
    await widget.evaluate((el) => el.shadowRoot.querySelector('.skip-widget, a, button').focus());
    const stops = [];
    for (let i = 0; i < 40; i++) {
      const where = await page.evaluate((tag) => {
        const el = document.querySelector(tag);
        const active = el.shadowRoot.activeElement;
        if (document.activeElement !== el || !active) return null;
        return active.closest('.wo-grid') ? 'wo-grid' : `${active.tagName.toLowerCase()} ${active.textContent.slice(0, 30)}`;
      }, TAG);
      if (where === null) break;
      stops.push(where);
      await page.keyboard.press('Tab');
    }
    console.log(`tab stops in <${TAG}>: ${stops.length}`);
    assert.ok(stops.length <= 15, `${stops.length} tab stops: ${stops.join(' | ')}`);
    assert.equal(stops.filter((s) => s === 'wo-grid').length, 1, 'the W_O grid is one tab stop');
    assert.deepEqual(problems, []);
  });

  test('bad attributes and config: a notice in words (never NaN or Infinity), the starting example', async () => {
    // One page, each address loaded afresh.
    const { page, problems } = await newWatchedPage(session.browser, { width: 1280, height: 800 });
    const widget = page.locator(`${TAG}[ready]`);
    for (const query of ['heads=NaN', 'heads=Infinity', 'heads=0x3', 'heads=1e999', 'heads=3', 'token=nope', 'config=%7B%22dModel%22%3A6%7D']) {
      await page.goto(`${session.server.url}${EMBED}&${query}`);
      await widget.waitFor();
      const notice = await widget.locator('.notice').textContent();
      assert.match(notice, /^Ignored: the (heads|token|widget|config)|this widget takes no config/, query);
      assert.doesNotMatch(notice, /NaN|Infinity/, query);
      await assertShows(widget, start());
      assert.deepEqual(problems, [], query);
    }
    await page.goto(`${session.server.url}${EMBED}&heads=2&token=it`);
    await widget.waitFor();
    assert.equal(await widget.locator('.notice').isHidden(), true);
    await assertShows(widget, { ...start(), heads: 2, token: 7 });
    await page.close();
  });

  test('Reset clears invalid typed text and its message; a refused u keeps the last good one', async () => {
    const { problems, widget } = await open();
    await woCell(widget, 3, 0).click();
    await woCell(widget, 3, 0).press('Enter');
    await widget.locator('.ui-cell-editor input').fill('abc');
    assert.match(await widget.locator('.ui-cell-editor .ui-error').textContent(), /must be a plain decimal number/);
    // u = 0 has no direction: the core refuses it, the message stays beside u.
    await uCell(widget, 0).click();
    await uCell(widget, 0).press('Enter');
    await widget.locator('.reader-panel .ui-cell-editor input').fill('0');
    assert.match(await widget.locator('.reader-panel .ui-error').first().textContent(), /zero/);
    await assertShows(widget, start());
    await widget.getByRole('button', { name: 'Reset' }).click();
    assert.equal(await widget.locator('.ui-cell-editor').count(), 0, 'no field with the typed text is left');
    const errors = await widget.evaluate((el) => [...el.shadowRoot.querySelectorAll('.ui-error, [aria-invalid="true"]')]
      .map((e) => e.textContent).filter((t) => t !== ''));
    assert.deepEqual(errors, []);
    assert.equal(await widget.locator('[aria-invalid="true"]').count(), 0);
    await assertShows(widget, start());
    assert.deepEqual(problems, []);
  });

  test('the state survives a reload; a crafted link falls back with a notice', async () => {
    const { page, problems, widget } = await open();
    await widget.getByRole('button', { name: 'Gist spread across all coordinates' }).click();
    await page.reload();
    await page.locator(`${TAG}[ready]`).waitFor();
    await assertShows(widget, { ...start(), wo: presetValues(config, 'spread') });
    for (const bad of [{ ...start(), wo: [1, 2, 3] }, { ...start(), heads: 3 }, { ...start(), u: new Array(d).fill(0) }]) {
      await page.goto(`${session.server.url}${EMBED}#wo-mixing=${encodeURIComponent(JSON.stringify(bad))}`);
      await page.reload();
      await page.locator(`${TAG}[ready]`).waitFor();
      assert.match(await widget.locator('.notice').textContent(), /ignored|rejected/);
      await assertShows(widget, start());
    }
    assert.deepEqual(problems, []);
  });

  test('at 1280 x 800 the W_O grid and the figures it changes are in view together', async () => {
    const { page, problems, widget } = await open('');
    await widget.locator('.wo-panel h3').evaluate((h) => h.scrollIntoView({ block: 'start' }));
    await woCell(widget, 3, 0).click();
    const inView = async (locator) => {
      const box = await locator.boundingBox();
      return box.y >= 0 && box.y + box.height <= 800 && box.x >= 0 && box.x + box.width <= 1280;
    };
    assert.equal(await widget.evaluate((el) => el.shadowRoot.activeElement?.dataset.row), '3', 'a W_O cell has focus');
    assert.ok(await inView(widget.locator('.wo-grid table')), 'the whole W_O grid');
    assert.ok(await inView(widget.locator('.output-panel svg')), 'the stacked contributions');
    assert.ok(await inView(widget.locator('.heard svg')), 'who is heard along u');
    const grid = await widget.locator('.wo-grid table').boundingBox();
    const bars = await widget.locator('.output-panel svg').boundingBox();
    assert.ok(bars.x > grid.x + grid.width, 'control and effect side by side');
    // The focused cell's path: Concat coordinate 4 lit (the row it multiplies), output 1 marked.
    const lit = await widget.locator('.concat td.ui-cell').evaluateAll((cells) => cells.map((c) => c.classList.contains('ui-lit')));
    assert.deepEqual(lit, Array.from({ length: d }, (_, k) => k === 3));
    assert.deepEqual(await widget.locator('.output-panel text.current').allTextContents(), ['1']);
    await widget.evaluate((el) => el.scrollIntoView());
    await screenshot(widget, 'wo-mixing-1280');
    assert.deepEqual(problems, []);
  });

  test('at 390 px: stacked, nothing scrolls sideways, cells of 24 px', async () => {
    const { page, problems, widget } = await open('', { width: 390, height: 844 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px`);
    const sizes = await widget.locator('.wo-grid td.ui-cell').evaluateAll((cells) => cells.map((c) => c.getBoundingClientRect()));
    assert.ok(sizes.every((b) => b.width >= 24 - 0.01 && b.height >= 24 - 0.01), 'every W_O cell at least 24 x 24 px');
    const scroller = await widget.locator('.wo-grid .ui-scroll').evaluate((s) => s.scrollWidth - s.clientWidth);
    assert.ok(scroller <= 0, `the W_O grid fits (${scroller}px hidden)`);
    const grid = await widget.locator('.wo-grid table').boundingBox();
    const bars = await widget.locator('.output-panel svg').boundingBox();
    assert.ok(bars.y > grid.y + grid.height, 'effect below control');
    await screenshot(widget, 'wo-mixing-390');
    const embed = await open(EMBED, { width: 390, height: 844 });
    assert.deepEqual(await axeViolations(embed.page, { rules: WCAG22 }), [], 'axe at 390 px');
    assert.deepEqual(problems, []);
  });

  for (const dark of [false, true]) {
    test(`axe: no violations in ${dark ? 'dark' : 'light'} mode (numbers shown, a cell focused)`, async () => {
      const { page, problems, widget } = await open(EMBED, { width: 1280, height: 800 }, { dark });
      await widget.getByRole('button', { name: 'Show the numbers' }).click();
      await woCell(widget, 3, 0).click();
      assert.deepEqual(await axeViolations(page, { rules: WCAG22 }), []);
      // (The lesson in dark, free of page problems: accessibility.test.mjs.)
      if (dark) await screenshot(widget, 'wo-mixing-dark-1280');
      assert.deepEqual(problems, []);
    });
  }
});
