// The heads-questions widget in Chromium, driven as a learner drives it: clicks and taps on
// map rows, arrow keys and Enter, the head radios, the tie switch, drags, keys and typing in
// the W_Q grid, undo, reset, reload. Every map is checked against the core's own weights for
// the same state, computed here in Node by the same model code on the same world. What
// depends on the lesson's layout is checked on the lesson page, the rest in embed.html.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  HeadsQuestionsModel, WQ_EDIT, defaultHeadsQuestionsState, describeRow,
} from '../../web/widgets/heads-questions/heads-questions-model.js';
import { THE_WORLD as w } from '../../web/widgets/shared/world.js';
import { formatNumber } from '../../web/text/format.js';
import { cssNumber, shadeOf } from '../../web/ui/colour-scale.js';
import { loadTestEngine } from '../node/load-engine.mjs';
import { buildAllWidgets, newWatchedPage, pageTurns, screenshot, useSiteAndBrowser } from './browser.mjs';
import { WCAG22, axeViolations } from './axe.mjs';

const TAG = 'mha-heads-questions';
const session = useSiteAndBrowser();
let models;
before(async () => { models = new HeadsQuestionsModel(await loadTestEngine('simd'), w); });
after(() => models?.dispose());

const WIDE = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const start = () => defaultHeadsQuestionsState(w);
const token = (word) => w.tokens.indexOf(word);
const feature = (name) => w.featureNames.indexOf(name);
const headIndex = (id) => w.heads.findIndex((h) => h.id === id);
/** Each head's L x L weights from the core in Node, as plain arrays. */
const coreWeights = (state) => models.compute(state).weights.map((m) => Array.from(m));

// The widget on the lesson page, or (`alone`) in the page of this widget alone, embed.html:
// the same element, for checks that do not depend on the lesson's layout, at a fraction of the
// cost (the lesson builds seven widgets and the practice; axe's tree is of the whole document).
// The widget alone takes turns with one page (pageTurns): its state is in the address only.
const embedPage = pageTurns(() => session.browser);

async function openWidget(viewport = WIDE, { path = '', colorScheme = 'light', hasTouch = false, alone = false } = {}) {
  const address = session.server.url + (alone ? `embed.html?widget=heads-questions${path}` : path);
  const shared = alone && !hasTouch;
  const { page, problems } = shared ? await embedPage(address, viewport, { colorScheme })
    : hasTouch ? await touchPage(viewport)
      : await newWatchedPage(session.browser, viewport);
  if (!shared) {
    await page.emulateMedia({ colorScheme });
    await page.goto(address);
  }
  if (!alone) await buildAllWidgets(page);
  const widget = page.locator(`${TAG}[ready]`);
  await widget.waitFor();
  await widget.evaluate((host) => host.shadowRoot.querySelector('.board').scrollIntoView());
  return { page, problems, widget };
}

// A touch-screen page (newWatchedPage makes a plain one), with the same watch on errors.
async function touchPage(viewport) {
  const context = await session.browser.newContext({ viewport, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await page.addInitScript(() => document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective}`)));
  return { page, problems };
}

/** What the page's core computed (element.view.weights), per head. */
const pageWeights = (widget) => widget.evaluate((host) => host.view.weights.map((m) => Array.from(m)));

/** What each map draws: per head, every cell's shade (--t, as its class sets it) and its accessible number. */
const drawn = (widget) => widget.evaluate((host) => [...host.shadowRoot.querySelectorAll('.head-panel')].map((panel) => {
  const cells = [...panel.querySelectorAll('.ui-heatmap .ui-cell')];
  return { t: cells.map((c) => getComputedStyle(c).getPropertyValue('--t').trim()), text: cells.map((c) => c.getAttribute('aria-label')) };
}));

/** The outlined row of each map. */
const outlinedRows = (widget) => widget.evaluate((host) => [...host.shadowRoot.querySelectorAll('.head-panel .ui-heatmap')]
  .map((map) => [...map.querySelectorAll('tbody tr')].findIndex((tr) => tr.classList.contains('ui-selected'))));

const summaries = (widget) => widget.locator('.summary-text').allTextContents();
const expectedSummaries = (state) => models.compute(state).rows.map((row) => `${describeRow(w.tokens, state.query, row, { maxNames: 3 })}.`);

function assertClose(actual, expected, message) {
  assert.equal(actual.length, expected.length, message);
  actual.forEach((a, i) => assert.ok(Math.abs(a - expected[i]) <= 1e-6, `${message}: entry ${i}: ${a} vs ${expected[i]}`));
}

/** The page's maps are the core's for `state`: numbers, shades and the words under them. */
async function assertMapsAre(widget, state) {
  const expected = coreWeights(state);
  const weights = await pageWeights(widget);
  expected.forEach((e, i) => assertClose(weights[i], e, `head ${w.heads[i].name}`));
  const shown = await drawn(widget);
  expected.forEach((e, i) => {
    assert.deepEqual(shown[i].t, e.map((v) => cssNumber(shadeOf(v))), `${w.heads[i].name}: shades`);
    assert.deepEqual(shown[i].text, e.map((v) => formatNumber(v)), `${w.heads[i].name}: numbers`);
  });
  assert.deepEqual(await summaries(widget), expectedSummaries(state));
  assert.deepEqual(await outlinedRows(widget), w.heads.map(() => state.query));
}

/** The W_Q grid of the selected head: a cell by feature and column. */
const wqCell = (widget, head, featureName, col) =>
  widget.locator(`.wq-grid.head-${head} .ui-cell[data-row="${feature(featureName)}"][data-col="${col}"]`);

function edited(state, head, featureName, col, value) {
  const next = structuredClone(state);
  next.wq[head][feature(featureName) * w.dK + col] = value;
  return next;
}

describe('heads-questions widget', () => {
  test('the world’s four heads as four maps of the core’s weights, with their answers in words', async () => {
    const { page, problems, widget } = await openWidget();
    const state = start();
    assert.deepEqual(await widget.evaluate((host) => host.state), state);
    await assertMapsAre(widget, state);
    // Names and colours are the world's.
    assert.deepEqual(await widget.locator('.head-name').allTextContents(), w.heads.map((h) => h.name));
    const colours = await widget.locator('.head-panel').evaluateAll((panels) => panels.map((p) => getComputedStyle(p).borderTopColor));
    const rgb = (hex) => `rgb(${[1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16)).join(', ')})`;
    assert.deepEqual(colours, w.heads.map((h) => rgb(h.colour)));
    // The heads really ask different questions: every pair of maps differs by more than 0.5.
    const weights = coreWeights(state);
    for (let i = 0; i < 4; i++) {
      for (let j = i + 1; j < 4; j++) {
        const gap = Math.max(...weights[i].map((v, k) => Math.abs(v - weights[j][k])));
        assert.ok(gap > 0.5, `heads ${i} and ${j} differ by at most ${gap}`);
      }
    }
    // “said”: the subject finder finds “researcher”, the complement finder “it”.
    const [subject, complement] = await summaries(widget);
    assert.match(subject, /^“said” looks most at “researcher” \(0\.9\d\)\.$/);
    assert.match(complement, /^“said” looks most at “it” \(0\.9\d\)\.$/);
    // At 1280 x 800 the four maps and the editor fit on one screen together.
    const boxes = await widget.evaluate((host) => [...host.shadowRoot.querySelectorAll('.head-panel, .editor')].map((el) => {
      const b = el.getBoundingClientRect();
      return { top: b.top, bottom: b.bottom, left: b.left, right: b.right };
    }));
    for (const b of boxes) assert.ok(b.top >= -1 && b.bottom <= WIDE.height && b.right <= WIDE.width, JSON.stringify(b));
    await screenshot(widget, 'heads-questions-1280');
    assert.deepEqual(problems, []);
  });

  test('picking the query: a click on a row, a tap on a cell, arrow keys and Enter; all four maps follow', async () => {
    const { problems, widget } = await openWidget(WIDE, { alone: true });
    await widget.locator('.head-complement .ui-row-label', { hasText: 'wrote' }).click();
    await assertMapsAre(widget, { ...start(), query: token('wrote') });
    // Keyboard: the gist map's tab stop, Home, down twice, Enter.
    const gist = widget.locator('.head-gist .ui-heatmap .ui-cell[tabindex="0"]');
    await gist.focus();
    await gist.press('Control+Home');
    await widget.locator('.head-gist .ui-heatmap').press('ArrowDown');
    await widget.locator('.head-gist .ui-heatmap').press('ArrowDown');
    await widget.locator('.head-gist .ui-heatmap').press('Enter');
    await assertMapsAre(widget, { ...start(), query: token('who') });
    // The focused cell's words and the core's weight replace the gist's answer meanwhile.
    const readout = widget.locator('.head-gist .cell-readout');
    assert.equal(await readout.isVisible(), true);
    assert.equal(await widget.locator('.head-gist .summary').isVisible(), false);
    const weight = coreWeights({ ...start(), query: token('who') })[headIndex('gist')][token('who') * w.L];
    assert.equal(await readout.textContent(), `query “who”, key “The”: ${formatNumber(weight)}`);
    assert.match(await widget.locator('[aria-live="polite"].sr-only').textContent(), /^Query word “who”\. Subject finder: “who” looks most at/);
    assert.deepEqual(problems, []);

    const touch = await openWidget(PHONE, { hasTouch: true, alone: true });
    // On a phone the other heads' maps show on request (the "Maps" switch).
    await touch.widget.locator('.narrow-switch [role="radio"]', { hasText: 'All four' }).tap();
    await touch.widget.locator(`.head-previous .ui-heatmap .ui-cell[data-row="${token('it')}"][data-col="0"]`).tap();
    await assertMapsAre(touch.widget, { ...start(), query: token('it') });
    assert.deepEqual(touch.problems, []);
  });

  test('editing a W_Q cell by keys, drag and typing changes only that head’s map, in view at 1280 x 800', async () => {
    const { page, problems, widget } = await openWidget();
    await page.evaluate(() => window.scrollTo(0, 0)); // arrive from the top, by keyboard
    const c = headIndex('complement');
    await widget.locator('.head-complement .head-label').click();
    let state = { ...start(), head: c };
    assert.equal(await widget.locator('.editor h3').textContent(), 'Edit WQ of Complement finder');
    const before = await pageWeights(widget);

    // Keys: the complement finder's verbs stop looking for subjects (row “verb”, column 3).
    await page.evaluate(() => window.scrollTo(0, 0));
    const verb = wqCell(widget, 'complement', 'verb', 2);
    await verb.focus();
    const inView = await widget.evaluate((host) => {
      const b = host.shadowRoot.querySelector('.head-complement').getBoundingClientRect();
      return b.top >= 0 && b.bottom <= innerHeight;
    });
    assert.ok(inView, 'the edited head’s map is in the viewport while its W_Q cell is focused');
    for (let i = 0; i < 10; i++) await verb.press('-');
    state = edited(state, c, 'verb', 2, 0);
    let after = await pageWeights(widget);
    for (const i of [0, 2, 3]) assert.deepEqual(after[i], before[i], `${w.heads[i].name} is unchanged`);
    assert.notDeepEqual(after[c], before[c]);
    await assertMapsAre(widget, state);
    await verb.press('PageUp');
    state = edited(state, c, 'verb', 2, WQ_EDIT.bigStep);
    assert.deepEqual(await widget.evaluate((host) => host.state), state);

    // Drag: row “opens x”, column 1, dragged up by 50 px = +50 × dragPerPixel.
    const cell = wqCell(widget, 'complement', 'opens x', 0);
    const box = await cell.boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2 - 25, { steps: 5 });
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2 - 50, { steps: 5 });
    await page.mouse.up();
    const dragged = (await widget.evaluate((host) => host.state)).wq[c][feature('opens x') * w.dK];
    assert.ok(Math.abs(dragged - (1 + 50 * WQ_EDIT.dragPerPixel)) < 0.02, `dragged to ${dragged}`);
    state = edited(state, c, 'opens x', 0, dragged);
    const previous = after;
    after = await pageWeights(widget);
    for (const i of [0, 2, 3]) assert.deepEqual(after[i], previous[i], `${w.heads[i].name} is unchanged by the drag`);
    await assertMapsAre(widget, state);

    // Typing an exact value: "2.5", Enter.
    const opensY = wqCell(widget, 'complement', 'opens y', 1);
    await opensY.focus();
    await opensY.press('2');
    await page.keyboard.type('.5');
    await page.keyboard.press('Enter');
    state = edited(state, c, 'opens y', 1, 2.5);
    assert.deepEqual(await widget.evaluate((host) => host.state), state);
    await assertMapsAre(widget, state);
    for (const i of [0, 2, 3]) assert.deepEqual((await pageWeights(widget))[i], previous[i]);
    // Out of range: refused with a message beside the grid; the last good state stays.
    await opensY.press('9');
    await page.keyboard.type('9');
    const message = await widget.locator('.wq-grid.head-complement [role="alert"]').allTextContents();
    assert.ok(message.some((m) => /10/.test(m)), `a message: ${message}`);
    await page.keyboard.press('Escape');
    assert.deepEqual(await widget.evaluate((host) => host.state), state);
    assert.deepEqual(problems, []);
  });

  test('Show values: the selected head’s W_Q as numbers, the core’s own copy', async () => {
    const { problems, widget } = await openWidget(WIDE, { alone: true });
    await widget.locator('.head-previous .head-label').click();
    const button = widget.getByRole('button', { name: 'Show values' });
    await button.click();
    assert.equal(await button.getAttribute('aria-pressed'), 'true');
    const texts = await widget.locator('.wq-grid.head-previous .ui-cell-text').allTextContents();
    const core = models.compute({ ...start(), head: headIndex('previous') }).wq[headIndex('previous')];
    assert.deepEqual(texts, Array.from(core, (v) => formatNumber(v)));
    assert.ok(await widget.locator('.wq-grid.head-previous .ui-cell-text').first().isVisible());
    assert.deepEqual(problems, []);
  });

  test('tie: every head takes the selected head’s projections and the four maps become equal', async () => {
    const { problems, widget } = await openWidget(WIDE, { alone: true });
    await widget.getByRole('switch', { name: /Tie every head to Subject finder/ }).check();
    let state = { ...start(), tied: true };
    let weights = await pageWeights(widget);
    for (let i = 1; i < 4; i++) assert.deepEqual(weights[i], weights[0], `${w.heads[i].name} equals the subject finder`);
    await assertMapsAre(widget, state);
    assert.equal(await widget.locator('.head-gist .copy-note').textContent(), 'Copy of Subject finder: ');
    assert.deepEqual(await widget.locator('.copy-note').allTextContents(), ['', ...Array(3).fill('Copy of Subject finder: ')]);
    // Another head to copy: the previous-word head (its radio, by keyboard).
    const radio = (i) => widget.locator(`.head-radio[value="${i}"]`);
    await radio(0).focus();
    await radio(0).press('ArrowRight');
    await radio(1).press('ArrowRight');
    assert.equal(await radio(2).evaluate((el) => el.matches(':focus')), true);
    state = { ...state, head: headIndex('previous') };
    weights = await pageWeights(widget);
    for (let i = 0; i < 4; i++) assert.deepEqual(weights[i], weights[headIndex('previous')]);
    await assertMapsAre(widget, state);
    // Tied, the grid edits the one shared W_Q: all four maps move together.
    const cell = wqCell(widget, 'previous', 'position cos', 0);
    await cell.focus();
    await cell.press('PageDown');
    state = edited(state, headIndex('previous'), 'position cos', 0, 5.93);
    const [s, ...rest] = await pageWeights(widget);
    for (const r of rest) assert.deepEqual(r, s);
    const now = await widget.evaluate((host) => host.state);
    assert.ok(Math.abs(now.wq[2][feature('position cos') * w.dK] - 5.93) < 1e-6);
    await assertMapsAre(widget, now);
    await screenshot(widget, 'heads-questions-tied');
    // Untied: each head asks its own question again; the edit stays with its head.
    await widget.getByRole('switch').uncheck();
    await assertMapsAre(widget, { ...now, tied: false });
    assert.deepEqual(problems, []);
  });

  test('undo, reset, and the state survives a reload through the URL', async () => {
    const { page, problems, widget } = await openWidget(WIDE, { alone: true });
    await widget.locator('.head-subject .ui-row-label', { hasText: 'was' }).click();
    await wqCell(widget, 'subject', 'verb', 2).focus();
    await wqCell(widget, 'subject', 'verb', 2).press('PageDown');
    await widget.getByRole('switch').check();
    const state = { ...edited(start(), 0, 'verb', 2, 0), query: token('was'), tied: true };
    assert.deepEqual(await widget.evaluate((host) => host.state), state);
    await page.reload();
    const reloaded = page.locator(`${TAG}[ready]`);
    await reloaded.waitFor();
    assert.deepEqual(await reloaded.evaluate((host) => host.state), state, 'reload keeps the state');
    await assertMapsAre(reloaded, state);
    await reloaded.getByRole('button', { name: 'Reset' }).click();
    await assertMapsAre(reloaded, start());
    await reloaded.getByRole('button', { name: 'Undo' }).click();
    await assertMapsAre(reloaded, state);
    assert.deepEqual(problems, []);
  });

  test('bad states, a bad query attribute and a config attribute are refused with a message', async () => {
    const bad = encodeURIComponent(JSON.stringify({ ...start(), tied: 'yes' }));
    const { page, problems, widget } = await openWidget(WIDE, { path: `#heads-questions=${bad}`, alone: true });
    assert.match(await widget.locator('.notice').textContent(), /tied: expected true or false/);
    await assertMapsAre(widget, start());
    const messages = await widget.evaluate((host) => {
      const good = host.state;
      const attempts = [
        null, [], { ...good, extra: 1 }, { ...good, query: 11 }, { ...good, query: 1.5 }, { ...good, head: 4 },
        { ...good, head: -1 }, { ...good, tied: 1 }, { ...good, wq: good.wq.slice(1) },
        { ...good, wq: [good.wq[0].slice(1), ...good.wq.slice(1)] },
        { ...good, wq: [[...good.wq[0].slice(1), 11], ...good.wq.slice(1)] },
        { ...good, wq: [[...good.wq[0].slice(1), '1'], ...good.wq.slice(1)] },
        { ...good, wq: [[...good.wq[0].slice(1), null], ...good.wq.slice(1)] },
      ];
      return attempts.map((attempt) => {
        try { host.setState(attempt); return 'accepted'; } catch (error) { return error.message; }
      });
    });
    assert.ok(messages.every((m) => m !== 'accepted' && m.length > 5), messages.join(' | '));
    await assertMapsAre(widget, start());

    await page.goto(`${session.server.url}embed.html?widget=heads-questions&query=it`);
    await page.locator(`${TAG}[ready]`).waitFor();
    assert.equal(await page.locator(TAG).evaluate((host) => host.state.query), token('it'));
    await page.goto('about:blank');
    await page.goto(`${session.server.url}embed.html?widget=heads-questions&query=banana`);
    await page.locator(`${TAG}[ready]`).waitFor();
    assert.match(await page.locator(TAG).locator('.notice').textContent(), /query="banana" is not a word of the sentence .*; starting from “said”/);
    assert.equal(await page.locator(TAG).evaluate((host) => host.state.query), token('said'));
    await page.goto('about:blank');
    await page.goto(`${session.server.url}embed.html?widget=heads-questions&config={}`);
    await page.locator(`${TAG}[ready]`).waitFor();
    assert.match(await page.locator(TAG).locator('.notice').textContent(), /does not take a config attribute/);
    assert.deepEqual(problems, []);
  });

  test('readonly: no keys, drags, row clicks or switches change anything', async () => {
    const { page, problems } = await newWatchedPage(session.browser, WIDE);
    await page.goto(`${session.server.url}embed.html?widget=heads-questions&readonly`);
    const widget = page.locator(`${TAG}[ready]`);
    await widget.waitFor();
    const before = await widget.evaluate((host) => host.state);
    const cell = wqCell(widget, 'subject', 'verb', 2);
    await cell.focus();
    for (const key of ['+', '-', 'PageUp', 'Shift+ArrowUp', '5', 'Enter']) await cell.press(key);
    assert.equal(await widget.locator('.ui-cell-editor').count(), 0, 'no value field opens');
    const box = await cell.boundingBox();
    await page.mouse.move(box.x + 5, box.y + 5);
    await page.mouse.down();
    await page.mouse.move(box.x + 5, box.y - 60, { steps: 6 });
    await page.mouse.up();
    await widget.locator('.head-gist .ui-row-label', { hasText: 'wrote' }).click();
    await widget.locator('.head-gist .ui-heatmap .ui-cell[tabindex="0"]').press('ArrowDown');
    await widget.locator('.head-gist .ui-heatmap .ui-cell[tabindex="0"]').press('Enter');
    assert.equal(await widget.getByRole('switch').isDisabled(), true);
    assert.equal(await widget.locator('.head-radio[value="3"]').isDisabled(), true);
    assert.deepEqual(await widget.evaluate((host) => host.state), before);
    assert.equal([...new URL(page.url()).searchParams.keys()].filter((k) => k.startsWith('mha.')).join(), '', 'nothing was written to the URL');
    assert.equal(new URL(page.url()).hash, '');
    assert.deepEqual(problems, []);
  });

  test('keyboard: at most 15 tab stops, each map and grid one stop, visible focus', async () => {
    const { page, problems, widget } = await openWidget(WIDE, { alone: true });
    // The X grid is made when its box is first opened (not with the widget), before it opens;
    // a head's W_Q grid when its head is first selected (the other heads' grids are tested
    // where those heads are selected).
    assert.equal(await widget.locator('.features table').count(), 0);
    assert.equal(await widget.locator('.wq-grid').count(), 1);
    const gridWhenOpen = widget.evaluate((host) => new Promise((resolve) => {
      const details = host.shadowRoot.querySelector('.features');
      details.addEventListener('toggle', () => resolve(details.querySelectorAll('table td.ui-cell').length), { once: true });
    }));
    await widget.locator('.features summary').click(); // the X grid too
    assert.equal(await gridWhenOpen, w.L * w.dModel, 'the whole grid is there as the box opens');
    await widget.evaluate((host) => host.shadowRoot.querySelector('.caption').scrollIntoView());
    await page.evaluate(() => {
      const before = document.createElement('button');
      before.id = 'before-widget';
      before.textContent = 'before';
      document.querySelector('mha-heads-questions').before(before);
    });
    await page.locator('#before-widget').focus();
    const stops = [];
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      const stop = await page.evaluate(() => {
        const host = document.activeElement;
        if (host?.tagName !== 'MHA-HEADS-QUESTIONS') return null;
        const el = host.shadowRoot.activeElement;
        const outline = getComputedStyle(el).outlineStyle;
        const label = el.closest('label');
        const ring = outline !== 'none' || (label && getComputedStyle(label).outlineStyle !== 'none');
        return { what: `${el.tagName.toLowerCase()}.${el.className} ${el.getAttribute('aria-label') ?? el.textContent.slice(0, 30)}`, ring };
      });
      if (!stop) break;
      stops.push(stop);
    }
    console.log(`heads-questions tab stops: ${stops.length}`);
    assert.ok(stops.length >= 10 && stops.length <= 15, stops.map((s) => s.what).join('\n'));
    assert.deepEqual(stops.filter((s) => !s.ring).map((s) => s.what), [], 'every stop shows its focus');
    assert.equal(stops.filter((s) => /ui-cell/.test(s.what)).length, 6, 'four maps, the W_Q grid and X: one stop each');
    assert.deepEqual(problems, []);
  });

  test('at 1280 x 800 every control names the figures it changes, and they are in view while it has focus', async () => {
    const { page, problems, widget } = await openWidget();
    // By keyboard (the page brings figures into view for keyboard focus only); Undo enabled too.
    await widget.locator('.head-radio[value="0"]').focus();
    await widget.locator('.head-radio[value="0"]').press('ArrowRight');
    await page.evaluate(() => window.scrollTo(0, 0));
    const report = await widget.evaluate((host) => {
      const root = host.shadowRoot;
      const stops = [...root.querySelectorAll('a[href], button, input, select, summary, [tabindex]')]
        .filter((el) => el.tabIndex >= 0 && !el.disabled && el.getClientRects().length > 0 && !el.matches('[data-no-figure], .skip-widget'));
      return stops.map((control) => {
        // Arrive from far away each time: the top of the page, then the bottom.
        return [0, document.documentElement.scrollHeight].map((y) => {
          control.blur();
          window.scrollTo(0, y);
          control.focus();
          const ids = (control.getAttribute('aria-controls') ?? '').split(/\s+/).filter(Boolean);
          const own = control.getBoundingClientRect();
          const out = ids.filter((id) => {
            const box = root.getElementById(id).getBoundingClientRect();
            return Math.min(box.bottom, innerHeight) - Math.max(box.top, 0) < Math.min(100, box.height) - 1;
          });
          const name = control.getAttribute('aria-label') ?? control.textContent.trim().slice(0, 30) ?? control.className;
          return { name, ids: ids.length, out, controlInView: own.top >= 0 && own.bottom <= innerHeight };
        });
      }).flat();
    });
    assert.ok(report.length >= 18, `${report.length / 2} controls`);
    assert.deepEqual(report.filter((r) => r.ids === 0).map((r) => r.name), [], 'every control names its figures');
    assert.deepEqual(report.filter((r) => r.out.length || !r.controlInView).map((r) => `${r.name}: ${r.out}`), []);
    assert.deepEqual(problems, []);
  });

  test('phone (390 px): one column, the editor under its map, map cells at least 24 px, nothing spills', async () => {
    const { page, problems, widget } = await openWidget(PHONE);
    const visibleCells = () => widget.evaluate((host) => [...host.shadowRoot.querySelectorAll('.head-panel .ui-heatmap .ui-cell')]
      .filter((c) => c.getClientRects().length > 0).map((c) => c.getBoundingClientRect()).map((b) => Math.min(b.width, b.height)));
    // At first the selected head's map (every head's answer stays as a line of words); the
    // "Maps" switch shows all four.
    assert.equal((await visibleCells()).length, w.L * w.L);
    assert.equal(await widget.locator('.head-complement .summary').isVisible(), true);
    await widget.locator('.narrow-switch [role="radio"]', { hasText: 'All four' }).click();
    const sizes = await visibleCells();
    assert.equal(sizes.length, 4 * w.L * w.L);
    assert.ok(Math.min(...sizes) >= 24, `smallest map cell ${Math.min(...sizes)} px`);
    const layout = await widget.evaluate((host) => {
      const root = host.shadowRoot;
      const subject = root.querySelector('.head-subject').getBoundingClientRect();
      const editor = root.querySelector('.editor').getBoundingClientRect();
      const spill = [...root.querySelectorAll('.ui-heatmap .ui-scroll')].map((s) => s.scrollWidth - s.clientWidth);
      return { below: editor.top >= subject.bottom - 1 && editor.top - subject.bottom < 40, spill };
    });
    assert.ok(layout.below, 'the editor is right under the selected head’s map');
    assert.deepEqual(layout.spill, [0, 0, 0, 0], 'no map scrolls sideways');
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth));
    await screenshot(widget, 'heads-questions-390');
    assert.deepEqual(problems, []);
  });

  test('phone (390 px): W_Q lies on its side (3 rows of 12), map and editor fit one screen, arrows follow the picture', async () => {
    const { page, problems, widget } = await openWidget(PHONE);
    const grid = widget.locator('.wq-grid.head-subject .ui-grid');
    const box = await grid.boundingBox();
    assert.ok(box.width > 2 * box.height, `the editor is ${box.width} x ${box.height} px, wider than tall`);
    const cells = await widget.evaluate((host) => [...host.shadowRoot.querySelectorAll('.wq-grid.head-subject .ui-cell')]
      .map((c) => c.getBoundingClientRect()).map((b) => Math.min(b.width, b.height)));
    assert.ok(Math.min(...cells) >= 24, `smallest W_Q cell ${Math.min(...cells)} px`);
    // Row "verb" is the first column of the picture: Right moves to the next feature (a row of
    // W_Q), Down to the next key column; + then edits that cell of the state, as at 1280 px.
    const verb = wqCell(widget, 'subject', 'verb', 0);
    await verb.focus();
    const span = await widget.evaluate((host) => {
      const root = host.shadowRoot;
      const map = root.querySelector('.head-subject').getBoundingClientRect();
      const editor = root.querySelector('.wq-grid.head-subject').getBoundingClientRect();
      return Math.max(map.bottom, editor.bottom) - Math.min(map.top, editor.top);
    });
    assert.ok(span <= PHONE.height, `map and editor span ${span} px, more than one screen`);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    const focused = await widget.evaluate((host) => ({ ...host.shadowRoot.activeElement.dataset }));
    assert.deepEqual([Number(focused.row), Number(focused.col)], [feature('subject'), 1]);
    await page.keyboard.press('+');
    const s = headIndex('subject');
    const was = start().wq[s][feature('subject') * w.dK + 1];
    assert.deepEqual(await widget.evaluate((host) => host.state), edited(start(), s, 'subject', 1, was + WQ_EDIT.step));
    await screenshot(widget, 'heads-questions-390-editor');
    assert.deepEqual(problems, []);
  });

  for (const colorScheme of ['light', 'dark']) {
    test(`axe: no violations in the widget (${colorScheme}), X open`, async () => {
      const { page, problems, widget } = await openWidget(WIDE, { colorScheme, alone: true });
      await widget.locator('.features summary').click();
      await widget.locator('.features .ui-cell[tabindex="0"]').focus();
      const found = await axeViolations(page, { within: 'mha-heads-questions', rules: WCAG22 });
      assert.deepEqual(found, []);
      if (colorScheme === 'dark') {
        await widget.evaluate((host) => host.shadowRoot.querySelector('.board').scrollIntoView());
        await screenshot(widget, 'heads-questions-dark-1280');
      }
      assert.deepEqual(problems, []);
    });
  }
});
