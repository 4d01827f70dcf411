// The blend demonstration in Chromium, driven as a learner drives it (mouse and touch drags
// on the budget bar, keys, the exact-value field, undo, reset, reload), with every number
// and point it shows compared with the core computing the same state here in Node
// (BlendModel and WorldReader on the same wasm build).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { BlendModel, describeShare } from '../../web/widgets/blend/blend-model.js';
import { THE_WORLD as w } from '../../web/widgets/shared/world.js';
import { WorldReader } from '../../web/widgets/shared/world-reader.js';
import { loadTestEngine } from '../node/load-engine.mjs';
import { buildAllWidgets, newWatchedPage, pageTurns, screenshot, useSiteAndBrowser } from './browser.mjs';

import { moveSplit, rebalance, roundToSum, stepWeight } from '../../web/ui/budget-math.js';
import { axeViolations } from './axe.mjs';

const session = useSiteAndBrowser();
let engine, model, reader;
before(async () => {
  engine = await loadTestEngine('simd');
  model = new BlendModel(engine);
  reader = new WorldReader(engine, w);
});
after(() => {
  model?.dispose();
  reader?.dispose();
});

const EMBED = 'embed.html?widget=blend';
const onehot = (i) => w.tokens.map((_, t) => (t === i ? 1 : 0));
const close = (a, b, eps = 1e-5) => a.length === b.length && a.every((v, i) => Math.abs(v - b[i]) <= eps);

// Tests on the embed page take turns with one page (pageTurns); the few on the lesson page
// get a page of their own.
const embedPage = pageTurns(() => session.browser);

async function open(path = EMBED, viewport = { width: 1280, height: 800 }) {
  const url = session.server.url + path;
  const embedded = path.startsWith('embed.html');
  const { page, problems } = embedded ? await embedPage(url, viewport) : await newWatchedPage(session.browser, viewport);
  if (!embedded) await page.goto(url);
  await buildAllWidgets(page);
  const blend = page.locator('mha-blend[ready]');
  await blend.waitFor();
  return { page, problems, blend };
}

/** A page with touch input; CDP touch events make pointerType "touch". */
async function openTouch() {
  const page = await session.browser.newPage({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text()); });
  await page.goto(session.server.url + EMBED);
  const blend = page.locator('mha-blend[ready]');
  await blend.waitFor();
  const cdp = await page.context().newCDPSession(page);
  const touch = (type, x, y) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }] });
  return { page, problems, blend, touch };
}

const state = (blend) => blend.evaluate((el) => el.state);

/** The one head's bar and the point to grab the boundary after “researcher” at. */
async function subjectBoundary(blend) {
  const box = await blend.locator(`.one-head .ui-budget-handle[data-left="${w.subjectIndex}"]`).boundingBox();
  const track = await blend.locator('.one-head .ui-budget-track').boundingBox();
  // The handle's left part: its right part may lie under the next boundary's handle.
  return { track, x: box.x + 4, y: box.y + box.height / 2 };
}
const view = (blend) => blend.evaluate((el) => JSON.parse(JSON.stringify(el.view)));

/** What the widget shows, read from its DOM. */
function shown(blend) {
  return blend.evaluate((el) => {
    const root = el.shadowRoot;
    const marks = (box) => [...box.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td.answer')].map((td) => [...td.querySelectorAll('.mark')].map((m) => (m.classList.contains('right') ? '✓' : '✗') + m.textContent.slice(0, 1)).join('')));
    const centre = (node) => {
      const box = node.getBoundingClientRect();
      return [box.x + box.width / 2, box.y + box.height / 2];
    };
    return {
      headline: root.querySelector('.headline').textContent,
      fair: root.querySelector('.fair').textContent,
      sumLine: root.querySelector('.one-head .sum-line').textContent,
      fixedSumLines: [...root.querySelectorAll('.two-heads .sum-line')].map((p) => p.textContent),
      altSumLine: root.querySelector('.alt .sum-line').textContent,
      undo: root.querySelector('.undo-text').textContent,
      oneMarks: marks(root.querySelector('.one-head .reader')),
      twoMarks: marks(root.querySelector('.two-heads .reader')),
      oneCount: root.querySelector('.one-head .reader-count').textContent,
      twoCount: root.querySelector('.two-heads .reader-count').textContent,
      bar: [...root.querySelectorAll('.one-head .ui-budget-seg')].map((s) => Number(s.getAttribute('aria-valuenow'))),
      altBar: root.querySelector('.alt').classList.contains('absent') ? null : [...root.querySelectorAll('.alt .ui-budget-seg')].map((s) => Number(s.getAttribute('aria-valuenow'))),
      tokenPixels: [...root.querySelectorAll('.plane .token circle')].map(centre),
      points: Object.fromEntries([...root.querySelectorAll('.plane [data-point]')].map((p) => [p.dataset.point, centre(p)])),
      labels: [...root.querySelectorAll('.one-head .ui-budget-label')].map((l) => l.textContent),
    };
  });
}

/** The marks a reader result should produce: per cell, who then what, ✓ or ✗. */
const expectedMarks = (read) => w.reader.subjects.map((_, s) => w.reader.complements.map((_, c) => {
  const v = read.variants.find((x) => x.subject === s && x.complement === c);
  return `${v.whoAnswer === s ? '✓✓' : '✗✗'}${v.whatAnswer === c ? '✓✓' : '✗✗'}`;
}));

/** Checks everything on screen against the core's answer for `st`, computed in Node. */
async function assertShowsCore(blend, st) {
  const expected = model.compute(st);
  const one = reader.read(2, st.budget ? { 0: st.budget } : {});
  const two = reader.read(4);
  const got = await shown(blend);
  // Reader: accuracies from WorldReader, and every cell.
  assert.equal(expected.one.subjectCorrect, one.subjectCorrect);
  assert.match(got.headline, new RegExp(`One head: who said it\\? ${one.subjectCorrect} of 16; what was said\\? ${one.complementCorrect} of 16\\.`));
  assert.match(got.headline, new RegExp(`Two heads: ${two.subjectCorrect} of 16 and ${two.complementCorrect} of 16\\.`));
  assert.equal(got.oneCount, `One head: who? ${one.subjectCorrect}/16 · what? ${one.complementCorrect}/16`);
  assert.equal(got.twoCount, `Two heads: who? ${two.subjectCorrect}/16 · what? ${two.complementCorrect}/16`);
  assert.deepEqual(got.oneMarks, expectedMarks(one));
  assert.deepEqual(got.twoMarks, expectedMarks(two));
  // The budget: the bar, and its three parts adding up to 1.
  assert.ok(close(got.bar, expected.budget.map((v) => Math.round(v * 1000) / 1000), 1e-9), `bar ${got.bar}`);
  const others = expected.budget.reduce((s, v, t) => (t === w.subjectIndex || t === w.complementIndex ? s : s + v), 0);
  const parts = roundToSum([expected.budget[w.subjectIndex], expected.budget[w.complementIndex], others], 3);
  assert.equal(got.sumLine, `researcher ${parts[0].toFixed(3)} + it ${parts[1].toFixed(3)} + 9 other words ${parts[2].toFixed(3)} = 1.000`);
  const line = (weights, keys) => {
    const rest = weights.reduce((s, v, t) => (keys.includes(t) ? s : s + v), 0);
    const p = roundToSum([...keys.map((t) => weights[t]), rest], 3);
    return `${keys.map((t, k) => `${w.tokens[t]} ${p[k].toFixed(3)}`).join(' + ')} + ${w.L - keys.length} other words ${p[keys.length].toFixed(3)} = 1.000`;
  };
  assert.deepEqual(got.fixedSumLines, [line(model.subjectBudget, [w.subjectIndex]), line(model.complementBudget, [w.complementIndex])]);
  if (expected.alternative.meaningful) assert.equal(got.altSumLine, line(expected.alternative.weights, [w.subjectIndex, w.complementIndex]));
  const labelSum = got.labels.reduce((s, text) => s + Number(text.match(/\d\.\d\d$/)[0]), 0);
  assert.ok(Math.abs(labelSum - 1) < 1e-9, `bar labels add up to ${labelSum}`);
  // The page's own view is the core's.
  const v = await view(blend);
  assert.ok(close(v.budget, expected.budget, 1e-7));
  assert.ok(close(v.output, expected.output, 1e-6));
  assert.ok(Math.abs(v.plane.explained - expected.plane.explained) < 1e-9);
  // Points: every drawn point is the core's plane coordinate under one affine map with the
  // same scale on both axes (y up): fit it on two tokens, check all others and the outputs.
  const px = got.tokenPixels;
  const [a, b] = [w.subjectIndex, w.complementIndex];
  const P = expected.plane.tokens;
  const scale = Math.hypot(px[a][0] - px[b][0], px[a][1] - px[b][1]) / Math.hypot(P[a][0] - P[b][0], P[a][1] - P[b][1]);
  const toPixel = ([x, y]) => [px[a][0] + (x - P[a][0]) * scale, px[a][1] - (y - P[a][1]) * scale];
  P.forEach((p, t) => assert.ok(close(toPixel(p), px[t], 0.6), `token ${w.tokens[t]}: ${px[t]} vs ${toPixel(p)}`));
  for (const name of ['one', 'subject', 'complement']) {
    assert.ok(close(toPixel(expected.plane[name]), got.points[name], 0.6), `${name} point`);
  }
  // Undo it? The other weights' point is drawn on the output's point.
  const alt = expected.alternative;
  if (alt.meaningful) {
    assert.ok(close(got.points.alternative, got.points.one, 1), `alternative ${got.points.alternative} vs output ${got.points.one}`);
    assert.ok(close(got.altBar, alt.weights.map((x) => Math.round(x * 1000) / 1000), 1e-9));
    assert.match(got.undo, new RegExp(`${describeShare(alt.moved).replace(/[()<.]/g, '\\$&')} of the budget moved`));
  } else {
    assert.equal(got.points.alternative, undefined);
    assert.equal(got.altBar, null);
  }
  return { expected, got, one, two };
}

describe('blend: one head of width 6 against two heads of width 3', () => {
  test('the comparison is fair: the same d_model, the same weights, h heads of width d/h', async () => {
    const { fairness } = model;
    assert.equal(fairness.one.dModel, fairness.two.dModel);
    assert.equal(fairness.one.dModel, w.dModel);
    assert.equal(fairness.one.numHeads * fairness.one.width, fairness.one.dModel);
    assert.equal(fairness.two.numHeads * fairness.two.width, fairness.two.dModel);
    assert.equal(fairness.one.width, 2 * fairness.two.width, 'the one head is as wide as the two together');
    assert.equal(fairness.sameWeights, true);
    assert.deepEqual(model.oneHead.members.map((m) => m.id), ['subject', 'complement']);
    const { blend, problems } = await open();
    const got = await shown(blend);
    // Typeset: W_Q shows as W with subscript Q (text "WQ"), d_model as d with "model" below.
    assert.equal(got.fair, `Same WQ, WK, WV, WO, dmodel = ${fairness.one.dModel}: 1 head of width ${fairness.one.width} (both jobs) or 2 heads of width ${fairness.two.width} (one each).`);
    assert.equal(await blend.evaluate((el) => el.shadowRoot.querySelectorAll('.fair sub').length), 5);
    assert.deepEqual(problems, []);
  });

  test('starts from the head’s own softmax weights; every number and point is the core’s', async () => {
    const { blend, problems } = await open();
    assert.deepEqual(await state(blend), { budget: null });
    const { expected, one, two } = await assertShowsCore(blend, { budget: null });
    assert.ok(expected.budget[w.subjectIndex] > 0.4 && expected.budget[w.complementIndex] > 0.4, 'the one head splits “said”’s budget');
    assert.ok(model.subjectBudget[w.subjectIndex] > 0.85 && model.complementBudget[w.complementIndex] > 0.85);
    assert.deepEqual([one.subjectCorrect, one.complementCorrect, two.subjectCorrect, two.complementCorrect], [8, 8, 16, 16]);
    // The proof on the page's own sentence, as the core reads it back (issue 22).
    const heard = ({ words, right }) => `${words.map((x) => `“${x}”`).join(' = ')} ${right === null ? '=' : right ? '✓' : '✗'}`;
    const { sentence } = expected;
    const shown = await blend.locator('.headline .sentence').textContent();
    assert.ok(shown.includes(`one head hears ${heard(sentence.one.who)}`), shown);
    assert.ok(shown.includes(`said ${heard(sentence.one.what)}`), shown);
    assert.match(shown, /one head hears “editor” ✗\(wrong\) said “this” ✗\(wrong\); two heads hear “researcher” ✓\(right\) said “it” ✓\(right\)/);
    // Why a wider head cannot help: both halves of its output are one average.
    const half = expected.output.slice(0, 3).map((x) => x.toFixed(2)).join(', ');
    assert.match(await blend.locator('.one-alpha').textContent(), new RegExp(`both halves of the output are the same average, \\(${half}\\) for the Subject finder and \\(${half}\\)`));
    console.log(`default: one head ${one.subjectCorrect}/16 and ${one.complementCorrect}/16; two heads ${two.subjectCorrect}/16 and ${two.complementCorrect}/16; budget ${expected.budget[w.subjectIndex].toFixed(4)} / ${expected.budget[w.complementIndex].toFixed(4)}; undo-it moved ${describeShare(expected.alternative.moved)}`);
    assert.deepEqual(problems, []);
  });

  test('dragging the bar with the mouse toward the subject wins “who?” and loses “what?”', async () => {
    const { page, blend, problems } = await open();
    const { track, x, y } = await subjectBoundary(blend);
    await page.mouse.move(x, y);
    await page.mouse.down();
    const targetX = track.x + track.width * 0.7;
    for (let i = 1; i <= 6; i++) await page.mouse.move(x + ((targetX - x) * i) / 6, y + 10);
    await page.mouse.up();
    const st = await state(blend);
    const fraction = (targetX - track.x) / track.width;
    assert.ok(close(st.budget, moveSplit(model.ownBudget, w.subjectIndex, fraction), 1e-6), `drag gave ${st.budget}`);
    const { one } = await assertShowsCore(blend, st);
    assert.equal(one.subjectCorrect, 16);
    assert.ok(one.complementCorrect < 16);
    console.log(`dragged to ${fraction.toFixed(3)}: researcher ${st.budget[w.subjectIndex].toFixed(3)}, it ${st.budget[w.complementIndex].toFixed(3)}: one head ${one.subjectCorrect}/16 and ${one.complementCorrect}/16`);
    // The same state typed as exact values gives the same view.
    const typed = await blend.evaluate((el, b) => { el.setState({ budget: b }); return el.view.one; }, st.budget);
    assert.equal(typed.subjectCorrect, one.subjectCorrect);
    assert.deepEqual(problems, []);
  });

  test('motion: a drag and a small key step move every bar at once; a PageUp eases only the bar the learner moved', async () => {
    const { page, blend, problems } = await open();
    // Every transition that starts in the widget, by the bar it belongs to (the events are
    // recorded as they fire, so a busy machine cannot miss a 120 ms transition).
    await blend.evaluate((el) => {
      el.startedTransitions = [];
      el.shadowRoot.addEventListener('transitionrun', (event) => {
        const bar = event.target.closest('.ui-budget');
        el.startedTransitions.push(bar?.classList.contains('ui-readonly') ? 'read-only bar' : bar ? 'moved bar' : event.target.className);
      });
    });
    const started = () => blend.evaluate((el) => el.startedTransitions.splice(0));
    const frames = () => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const { x, y } = await subjectBoundary(blend);
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + 40, y);
    await frames();
    const duringDrag = await started();
    await page.mouse.up();
    await frames();
    await started();
    const segment = blend.locator('.one-head .ui-budget-seg[tabindex="0"]');
    const before = await state(blend);
    await segment.press('ArrowUp');
    await frames();
    await frames();
    const afterSmallStep = await started();
    assert.notDeepEqual(await state(blend), before, 'the small step changed the weights');
    await segment.press('PageUp');
    await page.waitForFunction(() => document.querySelector('mha-blend').startedTransitions.length > 0, null, { timeout: 5000 }).catch(() => {});
    await frames();
    const afterPageUp = await started();
    assert.deepEqual(duringDrag, [], 'nothing eases while the pointer drags (every frame would be laid out again)');
    assert.deepEqual(afterSmallStep, [], 'a 0.01 key step is shown at once, as a drag step is');
    assert.ok(afterPageUp.length > 0 && afterPageUp.every((what) => what === 'moved bar'), `a PageUp eases the moved bar only: ${afterPageUp}`);
    assert.deepEqual(problems, []);
  });

  test('the proof on the page’s own sentence: dragged across the whole bar, one head never hears both right, two heads always do', async () => {
    // Issue 22's "done when": from the start state, the boundary after “researcher” dragged
    // with the mouse from the far left to the far right in one drag, the headline read at
    // every step. Each step's sentence is also the core's for the state the widget reports.
    const { page, blend, problems } = await open();
    const { track, x, y } = await subjectBoundary(blend);
    const frame = () => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const sentence = () => blend.locator('.headline .sentence').textContent();
    await page.mouse.move(x, y);
    await page.mouse.down();
    const seen = [];
    const STEPS = 40;
    for (let i = 0; i <= STEPS; i++) {
      await page.mouse.move(track.x + track.width * (0.01 + (0.98 * i) / STEPS), y + 6);
      await frame();
      const st = await state(blend);
      const { sentence: core } = model.compute(st);
      const text = await sentence();
      const { one, two } = core;
      assert.ok(!(one.who.right === true && one.what.right === true), `one head hears both right at researcher ${st.budget?.[w.subjectIndex]}: ${text}`);
      assert.ok(two.who.right === true && two.what.right === true, `two heads: ${text}`);
      assert.match(text, /two heads hear “researcher” ✓\(right\) said “it” ✓\(right\)/);
      assert.match(text, /one head hears .*(✗|=).*;/, text);
      seen.push(`${(st.budget?.[w.subjectIndex] ?? 0).toFixed(2)}/${(st.budget?.[w.complementIndex] ?? 0).toFixed(2)}: ${one.who.words.join('=')} ${one.who.right} said ${one.what.words.join('=')} ${one.what.right}`);
    }
    await page.mouse.up();
    const budgets = seen.map((line) => Number(line.split('/')[0]));
    assert.ok(Math.min(...budgets) < 0.05 && Math.max(...budgets) > 0.9, `the drag covered “researcher” from ${Math.min(...budgets)} to ${Math.max(...budgets)}`);
    console.log(`dragged across ${seen.length} budgets; one head's readings: ${[...new Set(seen.map((line) => line.split(': ')[1]))].join(' | ')}`);
    assert.deepEqual(problems, []);
  });

  test('a touch drag does the same (and does not scroll the page)', async () => {
    const { page, blend, problems, touch } = await openTouch();
    const handle = blend.locator(`.one-head .ui-budget-handle[data-left="${w.subjectIndex}"]`);
    await handle.scrollIntoViewIfNeeded();
    const scrollBefore = await page.evaluate(() => window.scrollY);
    const track = await blend.locator('.one-head .ui-budget-track').boundingBox();
    const box = await handle.boundingBox();
    const [x, y] = [box.x + 4, box.y + box.height / 2];
    const targetX = track.x + track.width * 0.25;
    await touch('touchStart', x, y);
    for (let i = 1; i <= 5; i++) await touch('touchMove', x + ((targetX - x) * i) / 5, y + i);
    await touch('touchEnd');
    const st = await state(blend);
    assert.ok(close(st.budget, moveSplit(model.ownBudget, w.subjectIndex, (targetX - track.x) / track.width), 1e-6), `touch gave ${st.budget}`);
    assert.equal(await page.evaluate(() => window.scrollY), scrollBefore);
    const { one } = await assertShowsCore(blend, st);
    assert.ok(one.complementCorrect === 16 && one.subjectCorrect < 16, 'toward “it”: “what?” wins, “who?” loses');
    await page.close();
    assert.deepEqual(problems, []);
  });

  test('keys: ↑ on “researcher” steps its weight (the rest rescales); Enter types an exact one', async () => {
    const { page, blend, problems } = await open();
    const slider = blend.getByRole('slider', { name: 'One head: weight on “researcher”' });
    await slider.focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowUp');
    let expected = model.ownBudget;
    for (let i = 0; i < 3; i++) expected = stepWeight(expected, w.subjectIndex, 0.01);
    let st = await state(blend);
    assert.ok(close(st.budget, expected, 1e-9));
    await assertShowsCore(blend, st);
    await page.keyboard.press('Enter');
    const field = blend.getByLabel('One head: exact weight on “researcher” (the others rescale)');
    await field.fill('1');
    st = await state(blend);
    assert.ok(close(st.budget, rebalance(expected, w.subjectIndex, 1), 1e-9));
    assert.ok(close(st.budget, onehot(w.subjectIndex), 1e-9));
    const { one, got } = await assertShowsCore(blend, st);
    console.log(`all on the subject: one head ${one.subjectCorrect}/16 and ${one.complementCorrect}/16`);
    assert.equal(one.subjectCorrect, 16);
    assert.match(got.undo, /No other weighting gives this output: the core checked every candidate/);
    // Bad text: a message where the learner is looking, the last good state kept.
    await field.fill('2');
    assert.equal(await field.getAttribute('aria-invalid'), 'true');
    assert.deepEqual(await state(blend), st);
    await page.keyboard.press('Escape');
    // Back to the head's own weights, undo, reset, reload.
    await blend.getByRole('button', { name: 'Back to its own weights' }).click();
    assert.deepEqual(await state(blend), { budget: null });
    await blend.getByRole('button', { name: 'Undo' }).click();
    assert.ok(close((await state(blend)).budget, onehot(w.subjectIndex), 1e-9));
    await page.reload();
    const again = page.locator('mha-blend[ready]');
    await again.waitFor();
    assert.ok(close((await state(again)).budget, onehot(w.subjectIndex), 1e-9), 'reload keeps the state (URL hash)');
    await again.getByRole('button', { name: 'Reset' }).click();
    assert.deepEqual(await state(again), { budget: null });
    assert.deepEqual(problems, []);
  });

  test('Reset clears invalid typed text and its message (issue 11, item 10)', async () => {
    const { page, blend, problems } = await open();
    await blend.getByRole('slider', { name: 'One head: weight on “researcher”' }).focus();
    await page.keyboard.press('Enter');
    const field = blend.getByLabel('One head: exact weight on “researcher” (the others rescale)');
    await field.fill('abc');
    assert.equal(await field.getAttribute('aria-invalid'), 'true');
    await blend.getByRole('button', { name: 'Reset' }).click();
    assert.deepEqual(await state(blend), { budget: null });
    const leftovers = await blend.evaluate((el) => ({
      invalid: [...el.shadowRoot.querySelectorAll('[aria-invalid="true"]')].length,
      typed: [...el.shadowRoot.querySelectorAll('input')].filter((i) => i.value === 'abc' && i.getClientRects().length > 0).length,
      messages: [...el.shadowRoot.querySelectorAll('.ui-error, .field-error')].map((e) => e.textContent.trim()).filter(Boolean),
    }));
    assert.deepEqual(leftovers, { invalid: 0, typed: 0, messages: [] });
    assert.deepEqual(problems, []);
  });

  test('undo it? a tiny move reads “< 1%”, never “0%”; the point still coincides', async () => {
    const { blend, problems } = await open();
    const budget = w.tokens.map((_, t) => (t === w.subjectIndex ? 0.997 : t === 2 ? 0.003 : 0));
    await blend.evaluate((el, b) => el.setState({ budget: b }), budget);
    const { expected, got } = await assertShowsCore(blend, { budget });
    assert.ok(expected.alternative.meaningful && expected.alternative.moved < 0.01, `moved ${expected.alternative.moved}`);
    assert.match(got.undo, /< 1% \(0\.\d%\) of the budget moved/);
    assert.ok(!close(got.altBar, got.bar, 1e-3), 'the other weights differ');
    assert.deepEqual(problems, []);
  });

  test('the undo-it weights differ from the budget and land on the same point (default)', async () => {
    const { blend, problems } = await open();
    const got = await shown(blend);
    const v = await view(blend);
    assert.ok(v.alternative.meaningful);
    assert.ok(v.alternative.moved > 0.05, `moved ${v.alternative.moved}`);
    assert.ok(close(got.points.alternative, got.points.one, 1));
    const diff = v.alternative.weights.reduce((s, x, t) => s + Math.abs(x - v.budget[t]), 0) / 2;
    assert.ok(Math.abs(diff - v.alternative.moved) < 1e-4);
    assert.ok(close(v.alternative.output, v.output, 1e-5), 'same output, all 6 coordinates');
    assert.deepEqual(problems, []);
  });

  test('bad state and config: refused with a notice, the starting example shown', async () => {
    for (const [hash, message] of [
      ['#blend={"budget":[1,0]}', /budget: expected 11 weights/],
      ['#blend={"budget":[0.5,0.5,0.5,0,0,0,0,0,0,0,0]}', /add up to 1\.5/],
      ['#blend={"budget":[2,-1,0,0,0,0,0,0,0,0,0]}', /cannot be negative/],
      ['#blend={"budget":["1",0,0,0,0,0,0,0,0,0,0]}', /finite number/],
      ['#blend={"query":6,"mode":"weights"}', /unknown field “query”/],
      ['#blend=[1]', /expected an object/],
      // A link whose blend part lost its budget says so, as every other widget does (issue 26).
      ['#blend={}', /budget: missing \(expected 11 weights/],
      ['&mha.blend=%7B%7D', /budget: missing \(expected 11 weights/],
    ]) {
      const { page, blend, problems } = await open(EMBED + hash);
      assert.match(await blend.locator('.notice').textContent(), message);
      assert.deepEqual(await state(blend), { budget: null });
      await assertShowsCore(blend, { budget: null });
      assert.deepEqual(problems, []);
      await page.close();
    }
    const { page, blend, problems } = await open(`${EMBED}&config=${encodeURIComponent('{"valueWidth":0}')}`);
    assert.match(await blend.locator('.notice').textContent(), /Ignored “config”: this widget always shows the lesson’s one sentence/);
    await assertShowsCore(blend, { budget: null });
    // setState refuses and keeps the state.
    const error = await blend.evaluate((el) => { try { el.setState({ budget: [Number.NaN] }); return null; } catch (e) { return e.message; } });
    assert.match(error, /budget/);
    assert.deepEqual(await state(blend), { budget: null });
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('readonly: the bar shows the budget but keys change nothing', async () => {
    const { page, blend, problems } = await open(`${EMBED}&readonly`);
    await blend.getByRole('slider', { name: 'One head: weight on “researcher”' }).focus();
    await page.keyboard.press('ArrowUp');
    assert.deepEqual(await state(blend), { budget: null });
    assert.deepEqual(problems, []);
  });

  test('keyboard: at most 15 tab stops, distinct names for every head’s sliders', async () => {
    const { page, blend, problems } = await open();
    const names = await blend.evaluate((el) => {
      el.shadowRoot.querySelector('details.values').open = true; // opened without moving focus
      return [...el.shadowRoot.querySelectorAll('[role="slider"]')].map((s) => s.getAttribute('aria-label'));
    });
    assert.equal(new Set(names).size, names.length, 'no two sliders share a name');
    assert.ok(names.includes('Subject finder: weight on “it”') && names.includes('Complement finder: weight on “it”'));
    const stops = [];
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      const where = await page.evaluate(() => {
        let el = document.activeElement;
        while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
        const inWidget = document.activeElement?.tagName === 'MHA-BLEND';
        return inWidget ? `${el.tagName.toLowerCase()} ${el.getAttribute('aria-label') ?? el.textContent.trim().slice(0, 30)}` : null;
      });
      if (where === null && stops.length === 0) continue; // not yet in the widget
      if (where === null || stops.includes(where)) break;
      stops.push(where);
    }
    console.log(`tab stops: ${stops.length}: ${stops.join(' | ')}`);
    assert.ok(stops.length >= 5 && stops.length <= 15, `${stops.length} tab stops`);
    assert.deepEqual(problems, []);
  });

  test('control and effect together at 1280 x 800; stacked at 390 px without sideways scrolling', async () => {
    const { page, blend, problems } = await open('', { width: 1280, height: 800 });
    await blend.evaluate((el) => el.scrollIntoView());
    const inView = async () => blend.evaluate((el) => {
      const root = el.shadowRoot;
      const visible = (node) => {
        const box = node.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= innerHeight && box.left >= 0 && box.right <= innerWidth;
      };
      return {
        bar: visible(root.querySelector('.one-head .ui-budget-track')),
        point: visible(root.querySelector('.plane [data-point="one"]')),
        reader: visible(root.querySelector('.one-head .reader')),
        headline: visible(root.querySelector('.headline')),
      };
    });
    assert.deepEqual(await inView(), { bar: true, point: true, reader: true, headline: true });
    await screenshot(page, 'blend-1280', { fullPage: false }); // one screen, as the learner sees it
    await page.emulateMedia({ colorScheme: 'dark' });
    await blend.evaluate((el) => el.scrollIntoView());
    await screenshot(page, 'blend-dark-1280', { fullPage: false });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: 'light' });
    await blend.evaluate((el) => el.scrollIntoView());
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px`);
    await screenshot(blend, 'blend-390');
    assert.deepEqual(problems, []);
  });

  for (const scheme of ['light', 'dark']) {
    test(`axe: no violations in ${scheme} (values open, a field invalid)`, async () => {
      const { page, blend, problems } = await open();
      await page.emulateMedia({ colorScheme: scheme });
      await blend.locator('details.values summary').click();
      await blend.getByRole('slider', { name: 'One head: weight on “it”' }).focus();
      await page.keyboard.press('Enter');
      await blend.getByLabel('One head: exact weight on “it” (the others rescale)').fill('abc');
      const found = await axeViolations(page);
      assert.deepEqual(found, []);
      assert.deepEqual(problems, []);
    });
  }
});
