// Practice under every idea, as a learner meets it: each kind of problem (choose, number,
// predict-then-see, widget task, and an impossible widget task) failed and solved by mouse
// and by keyboard, the reason shown checked against the core's own figures (the same
// checkers run here in Node on the same core); the learner's copy kept across a reload,
// exported and imported into a fresh profile, refusing 60 malformed files without losing
// anything, kept in memory with a notice where storage is blocked; start over asks first;
// collapsed to one line on a phone, at most 15 tab stops per block, axe clean light and dark.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';
import { buildAllWidgets, downloadedFile, newWatchedPage, screenshot, useSiteAndBrowser } from './browser.mjs';
import { loadTestEngine } from '../node/load-engine.mjs';
import { malformedFiles } from '../node/malformed-copies.mjs';
import { PracticeCheckers } from '../../web/widgets/practice/checkers.js';
import { IDEAS, PROBLEMS, problemById, shownText } from '../../web/widgets/practice/practice-data.js';
import { WIDGET_STARTS } from '../../web/widgets/practice/widget-states.js';
import { STORAGE_KEY } from '../../web/widgets/shared/learner-copy.js';
import { axeViolations } from './axe.mjs';

const session = useSiteAndBrowser();
let checkers;
before(async () => {
  checkers = new PracticeCheckers(await loadTestEngine());
});

const RIGHT = 'Right. ';
const WRONG = 'Not quite. ';
// A wrong first try: a nudge and a button; the reason comes on request (issue 22).
const FIRST_TRY = `${WRONG}Think again and try another answer, or: Show why`;
const option = (id, optionId) => problemById(id).options.find((o) => o.id === optionId);

async function openLesson(viewport, { blockStorage = false } = {}) {
  const { page, problems } = await newWatchedPage(session.browser, viewport);
  if (blockStorage) {
    await page.addInitScript(() => {
      Object.defineProperty(window, 'localStorage', { get() { throw new DOMException('The page may not keep data', 'SecurityError'); } });
    });
  }
  // Each block as its element is upgraded (in a microtask: the same task, before any other).
  await page.addInitScript(() => {
    window.practiceAtUpgrade = [];
    const attach = Element.prototype.attachShadow;
    Element.prototype.attachShadow = function attachShadow(...args) {
      const root = attach.apply(this, args);
      if (this.localName === 'mha-practice' && this.hasAttribute('idea')) {
        queueMicrotask(() => window.practiceAtUpgrade.push({
          block: `${this.getAttribute('idea')} ${this.getAttribute('kinds') ?? ''}`,
          open: root.querySelector('details[open]') !== null,
          problems: root.querySelectorAll('fieldset').length,
          ready: this.hasAttribute('ready'),
        }));
      }
      return root;
    };
  });
  await page.goto(session.server.url);
  await buildAllWidgets(page);
  await page.locator('mha-heads-questions[ready]').waitFor();
  await page.locator('mha-practice[ready]').first().waitFor();
  return { page, problems };
}

// An idea's block; the lesson puts two ideas' predictions in a block of their own before the
// widget (kinds="predict", open from the start), the rest in the block after it.
const block = (page, idea) => page.locator(`mha-practice[idea="${idea}"]:not([kinds="predict"])`);
const predictBlock = (page, idea) => page.locator(`mha-practice[idea="${idea}"][kinds="predict"]`);
const problem = (page, id) => page.locator(`mha-practice fieldset[data-problem="${id}"]`);
const feedback = (page, id) => problem(page, id).locator('p.feedback');

async function openBlockByMouse(page, idea) {
  await block(page, idea).locator('summary.practice-summary').click();
  await block(page, idea).locator('details[open]').waitFor();
}

async function waitFeedback(page, id, start) {
  const node = feedback(page, id);
  await page.waitForFunction(([el, s]) => el.textContent.startsWith(s), [await node.elementHandle(), start]);
  return node.textContent();
}

test('by mouse: each kind failed and solved, the reason shown is the core’s', async () => {
  const { page, problems } = await openLesson({ width: 1100, height: 900 });

  // Choose and justify: a wrong option, then the right one; the reason is the option's own.
  await openBlockByMouse(page, 'one-average');
  await problem(page, 'blend-why').getByText(shownText(option('blend-why', 'uniform').text)).click();
  await problem(page, 'blend-why').getByRole('button', { name: 'Check' }).click();
  assert.equal(await feedback(page, 'blend-why').textContent(), FIRST_TRY, 'a first guess does not give the answer away');
  await problem(page, 'blend-why').getByRole('button', { name: 'Show why' }).click();
  assert.equal(await feedback(page, 'blend-why').textContent(), WRONG + shownText(option('blend-why', 'uniform').reason));
  assert.equal(await problem(page, 'blend-why').getByRole('button', { name: 'Check' }).evaluate((el) => el.matches(':focus')), true, 'the focus goes back to Check');
  await problem(page, 'blend-why').getByText(shownText(option('blend-why', 'many-to-one').text)).click();
  await problem(page, 'blend-why').getByRole('button', { name: 'Check' }).click();
  assert.equal(await feedback(page, 'blend-why').textContent(), RIGHT + shownText(option('blend-why', 'many-to-one').reason));

  // An impossible widget task: checking the widget fails with the learner's own figures and
  // the core's bound; saying it cannot be done is right, with the bound.
  const start = WIDGET_STARTS['mha-blend']();
  await problem(page, 'blend-both-aligned').getByRole('button', { name: 'Check my widget' }).click();
  const failed = await waitFeedback(page, 'blend-both-aligned', WRONG);
  const expectedFail = checkers.goal(problemById('blend-both-aligned'), start);
  assert.equal(failed, WRONG + expectedFail.reason);
  assert.match(failed, new RegExp(`is ${expectedFail.figures.bound} aligned with each`));
  await screenshot(block(page, 'one-average'), 'practice-failed-task');
  await problem(page, 'blend-both-aligned').getByRole('button', { name: 'It cannot be done' }).click();
  const solved = await waitFeedback(page, 'blend-both-aligned', RIGHT);
  assert.equal(solved, RIGHT + checkers.claimImpossible(problemById('blend-both-aligned'), start).reason);

  // A number: a named misstep (d_model, forgetting that d_k shrinks), then the core's answer.
  await openBlockByMouse(page, 'construction');
  const input = problem(page, 'dk-768').getByLabel('Your answer');
  await input.click();
  await input.fill('sixty-four');
  await problem(page, 'dk-768').getByRole('button', { name: 'Check' }).click();
  await page.waitForFunction((el) => el.getAttribute('aria-invalid') === 'true', await input.elementHandle());
  assert.match(await feedback(page, 'dk-768').textContent(), /not a number|number/i);
  await input.fill('768');
  await problem(page, 'dk-768').getByRole('button', { name: 'Check' }).click();
  assert.equal(await waitFeedback(page, 'dk-768', WRONG), FIRST_TRY);
  await problem(page, 'dk-768').getByRole('button', { name: 'Show why' }).click();
  const misstep = await feedback(page, 'dk-768').textContent();
  assert.equal(misstep, WRONG + shownText(checkers.checkNumber(problemById('dk-768'), '768').reason));
  assert.match(misstep, /forgot that dk shrinks/);
  await input.fill('64');
  await problem(page, 'dk-768').getByRole('button', { name: 'Check' }).click();
  assert.equal(await waitFeedback(page, 'dk-768', RIGHT), RIGHT + shownText(checkers.checkNumber(problemById('dk-768'), '64').reason));
  assert.equal(await input.getAttribute('aria-invalid'), null);

  // Predict, then see: a wrong prediction; the layer widget is set to the case and shows it.
  const outcome = checkers.outcome(problemById('merged-budget'));
  await problem(page, 'merged-budget').getByText(shownText(option('merged-budget', 'subject').text)).click();
  await problem(page, 'merged-budget').getByRole('button', { name: 'Commit and see' }).click();
  const predicted = await waitFeedback(page, 'merged-budget', WRONG);
  assert.ok(predicted.includes(`gives “researcher” ${outcome.figures.subjectWeight} and “it” ${outcome.figures.complementWeight}`), predicted);
  assert.deepEqual(await page.locator('mha-layer').evaluate((el) => el.state), checkers.seeState(problemById('merged-budget'), null));
  await problem(page, 'merged-budget').getByText(shownText(option('merged-budget', 'half').text)).click();
  await problem(page, 'merged-budget').getByRole('button', { name: 'Commit and see' }).click();
  assert.match(await waitFeedback(page, 'merged-budget', RIGHT), /The widget above now shows it/);

  // A widget task solved in the widget with the mouse: h = 32 at d_model 512 gives d_k = 16.
  await openBlockByMouse(page, 'same-arithmetic');
  await problem(page, 'dk-16').getByRole('button', { name: 'Check my widget' }).click();
  assert.match(await waitFeedback(page, 'dk-16', WRONG), /Your 8 heads are 64 wide/);
  const split = page.locator('mha-head-splitting[panels~="counts"]');
  await split.getByRole('combobox', { name: 'Number of heads h', exact: true }).selectOption('32');
  // The old reason quoted the old state: the block says the widget has changed since.
  await problem(page, 'dk-16').locator('p.stale').waitFor();
  await problem(page, 'dk-16').getByRole('button', { name: 'Check my widget' }).click();
  const done = await waitFeedback(page, 'dk-16', RIGHT);
  assert.equal(await problem(page, 'dk-16').locator('p.stale').isVisible(), false);
  const splitState = await split.evaluate((el) => el.state);
  assert.equal(done, RIGHT + shownText(checkers.goal(problemById('dk-16'), splitState).reason));
  assert.match(done, /scores cost 2,097,152 multiply-adds, the same as one head of width 512 \(2,097,152\)/);
  await screenshot(block(page, 'same-arithmetic'), 'practice-solved-task');

  // The summaries count what is done.
  assert.equal(await block(page, 'one-average').locator('summary.practice-summary').textContent(), 'Practice: 3 problems, 2 done');
  assert.equal(await block(page, 'construction').locator('summary.practice-summary').textContent(), 'Practice: 2 problems, 2 done');
  assert.deepEqual(problems, []);
});

test('by keyboard: each kind failed and solved with keys alone', async () => {
  const { page, problems } = await openLesson({ width: 1100, height: 900 });
  const focusSummary = (idea) => block(page, idea).locator('summary.practice-summary').focus();

  // Open the block with Enter; Tab into the first problem's controls.
  await focusSummary('not-copies');
  await page.keyboard.press('Enter');
  await block(page, 'not-copies').locator('details[open]').waitFor();

  // Choose: the radios are one tab stop; arrows choose; Tab to Check; Enter.
  const copies = problemById('copies-why');
  const radios = problem(page, 'copies-why').getByRole('radio');
  await radios.first().focus();
  const order = await radios.evaluateAll((els) => els.map((el) => el.value));
  const wrongAt = order.findIndex((id) => !copies.options.find((o) => o.id === id).correct);
  const rightAt = order.findIndex((id) => copies.options.find((o) => o.id === id).correct);
  for (let k = 0; k < wrongAt; k++) await page.keyboard.press('ArrowDown');
  if (wrongAt === 0) await page.keyboard.press('Space');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  assert.equal(await feedback(page, 'copies-why').textContent(), FIRST_TRY);
  // Tab from Check reaches “Show why”; Enter shows the reason and gives the focus back.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  assert.equal(await feedback(page, 'copies-why').textContent(), WRONG + shownText(copies.options.find((o) => o.id === order[wrongAt]).reason));
  await radios.nth(wrongAt).focus();
  const steps = rightAt - wrongAt;
  for (let k = 0; k < Math.abs(steps); k++) await page.keyboard.press(steps > 0 ? 'ArrowDown' : 'ArrowUp');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  assert.equal(await feedback(page, 'copies-why').textContent(), RIGHT + shownText(copies.options.find((o) => o.correct).reason));

  // A widget task done in the widget by keyboard: the heads widget, Complement finder, tied.
  const hq = page.locator('mha-heads-questions');
  await problem(page, 'tie-copies').getByRole('button', { name: 'Check my widget' }).focus();
  await page.keyboard.press('Enter');
  assert.match(await waitFeedback(page, 'tie-copies', WRONG), /Select the Complement finder and tie the heads/);
  await hq.getByRole('radio', { name: /Subject finder/ }).first().focus();
  await page.keyboard.press('ArrowRight');
  await hq.getByRole('switch').first().focus();
  await page.keyboard.press('Space');
  const tied = await hq.evaluate((el) => el.state);
  assert.equal(tied.tied, true);
  assert.equal(tied.head, 1);
  await problem(page, 'tie-copies').getByRole('button', { name: 'Check my widget' }).focus();
  await page.keyboard.press('Enter');
  const tiedReason = await waitFeedback(page, 'tie-copies', RIGHT);
  assert.equal(tiedReason, RIGHT + checkers.goal(problemById('tie-copies'), tied).reason);
  assert.equal((tiedReason.match(/→ “it”/g) ?? []).length, 4);

  // An impossible task by keyboard: Enter on "It cannot be done", the core's bound (0).
  await problem(page, 'tied-differ').getByRole('button', { name: 'It cannot be done' }).focus();
  await page.keyboard.press('Enter');
  assert.match(await waitFeedback(page, 'tied-differ', RIGHT), /largest difference between any two heads' weights is 0\.000/);

  // A number by keyboard: a misstep, then the answer, with Enter in the field.
  await focusSummary('rank-price');
  await page.keyboard.press('Enter');
  const field = problem(page, 'rank-bound').getByLabel('Your answer');
  await field.focus();
  await page.keyboard.type('12');
  await page.keyboard.press('Enter');
  assert.equal(await waitFeedback(page, 'rank-bound', WRONG), FIRST_TRY);
  // A second wrong try brings the reason without asking.
  await page.keyboard.press('Enter');
  await page.waitForFunction((el) => !el.classList.contains('first-try') && !el.classList.contains('busy'), await feedback(page, 'rank-bound').elementHandle());
  const ranks = checkers.numberFigures(problemById('rank-bound')).ranks;
  assert.equal(await feedback(page, 'rank-bound').textContent(), WRONG + shownText(checkers.checkNumber(problemById('rank-bound'), '12').reason));
  assert.ok((await feedback(page, 'rank-bound').textContent()).includes(ranks));
  await page.keyboard.press('Control+A');
  await page.keyboard.type('3');
  await page.keyboard.press('Enter');
  assert.equal(await waitFeedback(page, 'rank-bound', RIGHT), RIGHT + shownText(checkers.checkNumber(problemById('rank-bound'), '3').reason));

  // Predict by keyboard: the W_O widget is set to W_O = I, u = e_1 + e_4. The prediction
  // stands before the widget, in a block that is open from the start.
  assert.equal(await predictBlock(page, 'wo').locator('details.practice').evaluate((el) => el.open), true);
  const heard = problemById('wo-heard');
  const outcome = checkers.outcome(heard);
  const wradios = problem(page, 'wo-heard').getByRole('radio');
  const worder = await wradios.evaluateAll((els) => els.map((el) => el.value));
  // First a wrong prediction (the first option in this learner's order that is not the
  // core's), then the right one.
  const wrongPrediction = worder.findIndex((id) => id !== outcome.option);
  await wradios.first().focus();
  for (let k = 0; k < wrongPrediction; k++) await page.keyboard.press('ArrowDown');
  if (wrongPrediction === 0) await page.keyboard.press('Space');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  const missed = await waitFeedback(page, 'wo-heard', WRONG);
  assert.ok(missed.includes(outcome.figures.heard), missed);
  await wradios.nth(wrongPrediction).focus();
  const target = worder.indexOf(outcome.option);
  for (let k = 0; k < Math.abs(target - wrongPrediction); k++) await page.keyboard.press(target > wrongPrediction ? 'ArrowDown' : 'ArrowUp');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  const seen = await waitFeedback(page, 'wo-heard', RIGHT);
  assert.ok(seen.includes(outcome.figures.heard), seen);
  const woState = await page.locator('mha-wo-mixing').evaluate((el) => el.state);
  assert.deepEqual(woState.u, checkers.seeState(heard, null).u);

  // A widget task solved by keyboard in the blend widget: PageUp on “researcher”.
  await focusSummary('one-average');
  await page.keyboard.press('Enter');
  const slider = page.locator('mha-blend').getByRole('slider', { name: 'One head: weight on “researcher”' });
  await slider.focus();
  for (let k = 0; k < 3; k++) await page.keyboard.press('PageUp');
  await problem(page, 'blend-subject-all').getByRole('button', { name: 'Check my widget' }).focus();
  await page.keyboard.press('Enter');
  const blendState = await page.locator('mha-blend').evaluate((el) => el.state);
  const expected = checkers.goal(problemById('blend-subject-all'), blendState);
  assert.equal(expected.done, true);
  assert.equal(await waitFeedback(page, 'blend-subject-all', RIGHT), RIGHT + expected.reason);
  assert.match(expected.reason, /right in 16 of 16 sentences/);
  assert.deepEqual(problems, []);
});

test('the copy: a reload restores answers and widget states; export then import in a fresh profile restores them', async () => {
  const { page, problems } = await openLesson({ width: 1100, height: 900 });
  await openBlockByMouse(page, 'limits');
  await problem(page, 'rank-one-head').getByLabel('Your answer').fill('12');
  await problem(page, 'rank-one-head').getByRole('button', { name: 'Check' }).click();
  await waitFeedback(page, 'rank-one-head', WRONG);
  await problem(page, 'prune').getByText(shownText(option('prune', 'slack').text)).click();
  await problem(page, 'prune').getByRole('button', { name: 'Check' }).click();
  const layerState = { h: 2, token: 3, head: 1 };
  await page.locator('mha-layer').evaluate((el, s) => el.setState(s), layerState);
  await page.locator('mha-blend').getByRole('slider', { name: 'One head: weight on “researcher”' }).focus();
  await page.keyboard.press('PageUp');
  const blendState = await page.locator('mha-blend').evaluate((el) => el.state);

  // Reload without the link's state: the copy on this device puts everything back.
  await page.goto(session.server.url);
  await buildAllWidgets(page);
  await page.locator('mha-blend[ready]').waitFor();
  await page.waitForFunction(() => document.querySelector('mha-layer')?.state?.h === 2);
  assert.deepEqual(await page.locator('mha-layer').evaluate((el) => el.state), layerState);
  assert.deepEqual(await page.locator('mha-blend').evaluate((el) => el.state), blendState);
  assert.equal(await block(page, 'limits').locator('summary.practice-summary').textContent(), 'Practice: 3 problems, 1 done');
  await openBlockByMouse(page, 'limits');
  assert.equal(await problem(page, 'rank-one-head').getByLabel('Your answer').inputValue(), '12');
  // One wrong try kept: shown as it was, the reason on request.
  assert.equal(await waitFeedback(page, 'rank-one-head', WRONG), FIRST_TRY);
  await problem(page, 'rank-one-head').getByRole('button', { name: 'Show why' }).click();
  assert.match(await feedback(page, 'rank-one-head').textContent(), /That is the ceiling/);
  assert.equal(await problem(page, 'prune').getByRole('radio', { checked: true }).getAttribute('value'), 'slack');
  assert.match(await feedback(page, 'prune').textContent(), /^Right\. /);

  // Export: the file is the copy.
  const panel = page.locator('mha-practice:not([idea])');
  await panel.locator('summary').click();
  // The progress summary: what is done and what is left, idea by idea.
  assert.match(await panel.locator('.progress-total').textContent(), /^Your copy: 1 of \d+ problems done$/);
  assert.match(await panel.locator('.progress-list').textContent(), /Limits of the picture: 1 of 3 done \(left: problems 1, 3\)/);
  await screenshot(panel, 'practice-copy-panel');
  const [download] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Export my copy' }).click()]);
  const file = await downloadedFile(download);
  const exported = readFileSync(file, 'utf8');
  assert.equal(download.suggestedFilename(), 'multiple-heads-my-copy.json');
  assert.equal(JSON.parse(exported).answers.prune.attempts[0].answer.option, 'slack');

  // A fresh profile (new browser context): nothing kept; import the file and all comes back.
  const fresh = await openLesson({ width: 1100, height: 900 });
  const freshPanel = fresh.page.locator('mha-practice:not([idea])');
  assert.match(await freshPanel.locator('.progress-total').textContent(), /^Your copy: 0 of \d+ problems done/);
  await freshPanel.locator('input[type="file"]').setInputFiles(file);
  await fresh.page.waitForFunction(() => document.querySelector('mha-layer')?.state?.h === 2);
  assert.match(await freshPanel.locator('p.message').textContent(), /^Imported: 1 of \d+ problems done/);
  assert.deepEqual(await fresh.page.locator('mha-layer').evaluate((el) => el.state), layerState);
  assert.deepEqual(await fresh.page.locator('mha-blend').evaluate((el) => el.state), blendState);
  await openBlockByMouse(fresh.page, 'limits');
  assert.equal(await problem(fresh.page, 'rank-one-head').getByLabel('Your answer').inputValue(), '12');
  assert.equal(await problem(fresh.page, 'prune').getByRole('radio', { checked: true }).getAttribute('value'), 'slack');
  assert.equal(await fresh.page.evaluate((key) => localStorage.getItem(key), STORAGE_KEY), exported);
  await screenshot(freshPanel, 'practice-imported');
  assert.deepEqual(problems, []);
  assert.deepEqual(fresh.problems, []);
});

test('60 malformed files are refused with a message, and nothing is lost', async () => {
  const { page, problems } = await openLesson({ width: 1100, height: 700 });
  await openBlockByMouse(page, 'wo');
  await problem(page, 'wo-slices').getByText(shownText(option('wo-slices', 'slice').text)).click();
  await problem(page, 'wo-slices').getByRole('button', { name: 'Check' }).click();
  await page.locator('mha-layer').evaluate((el) => el.setState({ h: 1, token: 2, head: 0 }));
  const saved = () => page.evaluate((key) => localStorage.getItem(key), STORAGE_KEY);
  // Widget states are written a quarter second after a change.
  await page.waitForFunction((key) => /"h": 1/.test(localStorage.getItem(key) ?? ''), STORAGE_KEY);
  const before = await saved();
  const panel = page.locator('mha-practice:not([idea])');
  await panel.locator('summary').click();
  const files = malformedFiles();
  assert.ok(files.length >= 50);
  for (const [k, [text, expected]] of files.entries()) {
    await panel.locator('input[type="file"]').setInputFiles({ name: `bad-${k}.json`, mimeType: 'application/json', buffer: Buffer.from(text) });
    await page.waitForFunction((el) => el.textContent.includes('Nothing was changed') && el.dataset.n !== 'seen', await panel.locator('p.message').elementHandle());
    const message = await panel.locator('p.message').textContent();
    assert.match(message, expected, `file ${k}: ${message}`);
    await panel.locator('p.message').evaluate((el) => { el.dataset.n = 'seen'; el.textContent = ''; });
    await panel.locator('p.message').evaluate((el) => { delete el.dataset.n; });
  }
  assert.equal(await saved(), before, 'the copy is unchanged');
  assert.deepEqual(await page.locator('mha-layer').evaluate((el) => el.state), { h: 1, token: 2, head: 0 });
  assert.match(await feedback(page, 'wo-slices').textContent(), /^Right\. /);
  assert.deepEqual(problems, []);
});

// The page the start-over test leaves (every answer cleared, the widgets at their start), for
// the test of what the page holds (it reads the page and follows one link): one lesson built
// instead of two.
let startedOver = null;

test('start over asks first; “Keep my work” keeps it, “Yes” clears answers and resets the widgets', async () => {
  const { page, problems } = await openLesson({ width: 1100, height: 800 });
  await openBlockByMouse(page, 'limits');
  await problem(page, 'narrow-tradeoff').getByText(shownText(option('narrow-tradeoff', 'tradeoff').text)).click();
  await problem(page, 'narrow-tradeoff').getByRole('button', { name: 'Check' }).click();
  await page.locator('mha-layer').evaluate((el) => el.setState({ h: 1, token: 2, head: 0 }));
  const panel = page.locator('mha-practice:not([idea])');
  await panel.locator('summary').click();
  await panel.getByRole('button', { name: 'Start over' }).click();
  assert.ok(await panel.getByRole('group', { name: 'Start over' }).isVisible());
  await panel.getByRole('button', { name: 'Keep my work' }).click();
  assert.match(await panel.locator('.progress-total').textContent(), /^Your copy: 1 of/);
  await panel.getByRole('button', { name: 'Start over' }).click();
  await panel.getByRole('button', { name: 'Yes, start over' }).click();
  assert.match(await panel.locator('.progress-total').textContent(), /^Your copy: 0 of/);
  assert.equal(await block(page, 'limits').locator('summary.practice-summary').textContent(), 'Practice: 3 problems, 0 done');
  assert.equal(await problem(page, 'narrow-tradeoff').getByRole('radio', { checked: true }).count(), 0);
  assert.deepEqual(await page.locator('mha-layer').evaluate((el) => el.state), WIDGET_STARTS['mha-layer']());
  assert.deepEqual(problems, []);
  startedOver = { page, problems };
});

test('storage blocked: answers work in memory, with a visible notice in every block', async () => {
  const { page, problems } = await openLesson({ width: 1100, height: 800 }, { blockStorage: true });
  await openBlockByMouse(page, 'wo');
  const notice = block(page, 'wo').locator('p.notice');
  assert.ok(await notice.isVisible());
  assert.match(await notice.textContent(), /kept only until you leave the page/);
  assert.ok(await page.locator('mha-practice:not([idea]) p.notice').isVisible());
  await problem(page, 'wo-slices').getByText(shownText(option('wo-slices', 'slice').text)).click();
  await problem(page, 'wo-slices').getByRole('button', { name: 'Check' }).click();
  assert.equal(await block(page, 'wo').locator('summary.practice-summary').textContent(), 'Practice: 2 problems, 1 done');
  assert.deepEqual(problems, []);
});

test('on a phone each block is one line until opened; at most 15 tab stops per block; axe clean light and dark', async () => {
  const phone = await openLesson({ width: 390, height: 844 });
  for (const idea of IDEAS) {
    const box = await block(phone.page, idea.id).boundingBox();
    assert.ok(box.height <= 70, `${idea.id}: ${box.height} px closed`);
    assert.match(await block(phone.page, idea.id).locator('summary.practice-summary').textContent(), /^Practice: \d problems, 0 done$/);
  }
  // The two blocks of predictions before their widgets, one problem each: on a phone one
  // line like the others (open on a wide screen, see the keyboard test).
  for (const idea of ['same-arithmetic', 'wo']) {
    assert.equal(await predictBlock(phone.page, idea).locator('summary.practice-summary').textContent(), 'Predict first: 1 problem, 0 done');
    assert.equal(await predictBlock(phone.page, idea).locator('details.practice').evaluate((el) => el.open), false, idea);
    assert.ok((await predictBlock(phone.page, idea).boundingBox()).height <= 70, `${idea}: one line on a phone`);
  }
  const copyBox = await phone.page.locator('mha-practice:not([idea])').boundingBox();
  assert.ok(copyBox.height <= 70, `the copy panel: ${copyBox.height} px closed`);
  for (const idea of IDEAS) await block(phone.page, idea.id).locator('summary.practice-summary').click();
  for (const idea of ['same-arithmetic', 'wo']) await predictBlock(phone.page, idea).locator('summary.practice-summary').click();
  await phone.page.locator('mha-practice:not([idea]) summary').click();
  const stops = await phone.page.evaluate(() => [...document.querySelectorAll('mha-practice')].map((host) => ({
    idea: host.getAttribute('idea'),
    stops: new Set([...host.shadowRoot.querySelectorAll('summary, button, input, a[href], [tabindex="0"]')]
      .filter((el) => !el.disabled && el.getClientRects().length > 0 && el.tabIndex >= 0)
      .map((el) => (el.type === 'radio' ? `radio:${el.name}` : el))).size,
  })));
  for (const { idea, stops: n } of stops) assert.ok(n <= 15, `${idea}: ${n} tab stops`);
  await screenshot(phone.page, 'practice-390', { fullPage: false });
  for (const scheme of ['light', 'dark']) {
    const { page, problems } = await openLesson({ width: 1100, height: 900 });
    await page.emulateMedia({ colorScheme: scheme });
    for (const idea of IDEAS) await block(page, idea.id).locator('summary.practice-summary').click();
    await page.locator('mha-practice:not([idea]) summary').click();
    await problem(page, 'blend-why').getByRole('radio').first().check();
    await problem(page, 'blend-why').getByRole('button', { name: 'Check' }).click();
    await problem(page, 'dk-768').getByLabel('Your answer').fill('x');
    await problem(page, 'dk-768').getByRole('button', { name: 'Check' }).click();
    await problem(page, 'blend-both-aligned').getByRole('button', { name: 'Check my widget' }).click();
    await waitFeedback(page, 'blend-both-aligned', WRONG);
    const found = await axeViolations(page, { within: 'mha-practice' });
    assert.deepEqual(found, [], scheme);
    if (scheme === 'dark') await screenshot(block(page, 'one-average'), 'practice-dark');
    assert.deepEqual(problems, []);
  }
  assert.deepEqual(phone.problems, []);
});

test('every problem of the data is on the lesson page under its idea', async () => {
  const { page } = startedOver ?? await openLesson({ width: 1100, height: 800 });
  // A closed block's problems are made in a task of their own when it comes near the view
  // (issue 25), and the block is ready with them; an open block's at once.
  const atUpgrade = await page.evaluate(() => window.practiceAtUpgrade);
  assert.ok(atUpgrade.length >= 8 && atUpgrade.some((b) => b.open) && atUpgrade.some((b) => !b.open), JSON.stringify(atUpgrade));
  for (const b of atUpgrade) {
    if (b.open) assert.ok(b.problems > 0 && b.ready, `${b.block}: open, with its problems, ready`);
    else assert.deepEqual([b.problems, b.ready], [0, false], `${b.block}: closed, no problems made yet, not ready yet`);
  }
  const shown = await page.evaluate(() => [...document.querySelectorAll('mha-practice[idea]')].flatMap((host) => [...host.shadowRoot.querySelectorAll('fieldset')].map((f) => `${host.getAttribute('idea')}/${f.dataset.problem}`)));
  assert.deepEqual(shown.sort(), PROBLEMS.map((p) => `${p.idea}/${p.id}`).sort());
  // Each problem carries its number within its idea, whichever block of the idea shows it.
  const numbers = await page.evaluate(() => [...document.querySelectorAll('mha-practice[idea]')].flatMap((host) => [...host.shadowRoot.querySelectorAll('fieldset')].map((f) => [f.dataset.problem, f.querySelector('legend').textContent.split('.')[0]])));
  for (const [id, number] of numbers) {
    const { idea } = problemById(id);
    assert.equal(Number(number), PROBLEMS.filter((p) => p.idea === idea).findIndex((p) => p.id === id) + 1, id);
  }
  // Predict, then see: a prediction whose widget is in its section stands before that widget
  // (the layer's, at the top of the page, comes before every section); a task about a panel
  // is checked on the widget that shows that panel.
  const order = await page.evaluate(() => {
    const all = [...document.querySelectorAll('mha-practice[kinds="predict"], mha-head-splitting, mha-wo-mixing')];
    return all.map((el) => `${el.localName}${el.getAttribute('kinds') ? `:${el.getAttribute('idea')}` : ''}${el.getAttribute('panels') ? `[${el.getAttribute('panels')}]` : ''}`);
  });
  assert.deepEqual(order, ['mha-practice:same-arithmetic', 'mha-head-splitting[controls counts configurations]', 'mha-head-splitting[spectrum]', 'mha-practice:wo', 'mha-wo-mixing']);
  await block(page, 'rank-price').locator('summary.practice-summary').click();
  await problem(page, 'rank-fewer').getByRole('button', { name: 'Go to the widget' }).click();
  await page.waitForFunction(() => document.activeElement?.getAttribute('state-key') === 'rank');
});

test('a saved copy with one bad part: the rest comes back, the notice names the part and gives the copy kept aside', async () => {
  const { page, problems } = await newWatchedPage(session.browser, { width: 1100, height: 900 });
  const saved = {
    format: 'multiple-heads-learner-copy', version: 1, lesson: 'multiple-heads', seed: 11,
    answers: { prune: { attempts: [{ answer: { option: 'slack' }, correct: true, at: 1 }] } },
    widgets: {
      layer: { tag: 'mha-layer', state: { h: 2, token: 6, head: 0 } },
      training: { tag: 'mha-training', state: { task: 'back-and-first', heads: 2, seed: 1, off: [] } },
      blend: { tag: 'mha-blend', state: { budget: 'not a budget' } },
    },
  };
  const text = JSON.stringify(saved);
  await page.addInitScript(([key, value]) => { if (!sessionStorage.getItem('seeded')) { localStorage.setItem(key, value); sessionStorage.setItem('seeded', '1'); } }, [STORAGE_KEY, text]);
  await page.goto(session.server.url);
  await buildAllWidgets(page);
  await page.locator('mha-layer[ready]').waitFor();
  await page.locator('mha-practice[ready]').first().waitFor();
  await page.waitForFunction(() => document.querySelector('mha-layer')?.state?.h === 2);
  assert.deepEqual(await page.locator('mha-training').evaluate((el) => el.state), saved.widgets.training.state);
  const panel = page.locator('mha-practice:not([idea])');
  const notice = panel.locator('p.notice');
  await notice.waitFor();
  assert.match(await notice.textContent(), /^One part of your saved copy could not be read and was left out; everything else is here/);
  assert.match(await notice.textContent(), /your state of the widget “One head, one average” \(budget: /);
  assert.match(await panel.locator('.progress-total').textContent(), /^Your copy: 1 of \d+ problems done/);
  await screenshot(panel, 'practice-copy-part-dropped');
  const [download] = await Promise.all([page.waitForEvent('download'), notice.getByRole('button', { name: 'Download the copy kept aside' }).click()]);
  assert.equal(readFileSync(await downloadedFile(download), 'utf8'), text, 'the copy as it was, unchanged');
  assert.deepEqual(problems, []);
  await page.close();
});
