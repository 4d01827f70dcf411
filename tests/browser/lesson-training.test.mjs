// The training widget in Chromium, driven as a learner drives it: keys on the task and head
// choices, Train, Pause, Resume, the head switches (Space), typing k and Prune. The numbers
// it shows are checked against the core's own run of the same seed, computed here in Node
// with the training module (the same SIMD build the worker loads). While it trains, a
// PerformanceObserver records long tasks on the page's thread (reported; the bench holds
// the 50 ms goal, since timings are not asserted in tests on this shared machine).
// Then: a sandboxed frame (no worker: training runs on the page in slices), read-only, axe
// in light and dark, and screenshots.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { TrainingSession, trainToEnd } from '../../web/widgets/training/training-model.js';
import { loadTestTrainingEngine } from '../node/load-engine.mjs';
import { screenshot, newWatchedPage, openTestBrowser, pageTurns, serveDist } from './browser.mjs';
import { WCAG22, axeViolations } from './axe.mjs';

const percent = (value) => `${(value * 100).toFixed(1)}%`;
// Accuracy job by job, as the widget says it (issue 22: every figure per job, against chance).
const jobs = (accuracy) => `token 2 back ${percent(accuracy[0])}, first token ${percent(accuracy[1])}`;
const scoresLine = (look, off = 0) => `${off ? `With ${off} head${off > 1 ? 's' : ''} off, right` : 'Right'}: ${jobs(look.outputAccuracy)}; all jobs at once ${percent(look.accuracy)} (chance 1 in 256); loss ${look.loss.toFixed(3)}.`;

let browser, server, engine;
before(async () => {
  server = await serveDist();
  browser = await openTestBrowser();
  engine = await loadTestTrainingEngine('simd');
});
after(async () => {
  await browser?.close();
  await server?.close();
});

// The tests take turns with one page (pageTurns): a new document each, nothing stored.
const turn = pageTurns(() => browser);
async function openTraining(viewport = { width: 1100, height: 900 }, { colorScheme = 'light', query = '' } = {}) {
  const { page, problems } = await turn(`${server.url}embed.html?widget=training${query}`, viewport, { colorScheme, reducedMotion: 'reduce' });
  // Long tasks on the page's thread with their start time, those before this too (buffered).
  // In the document, not an init script: the page is shared, an init script would stay with it.
  await page.evaluate(() => {
    window.longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.longTasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
  const widget = page.locator('mha-training[ready]');
  await widget.waitFor();
  return { page, problems, widget };
}

const phase = (page) => page.evaluate(() => document.querySelector('mha-training').phase);
const waitForPhase = (page, wanted, timeout = 120000) =>
  page.waitForFunction((p) => document.querySelector('mha-training').phase === p, wanted, { timeout });

describe('<mha-training>', () => {
  test('train, pause, resume with keys and clicks; the page never blocks for 50 ms; the numbers are the core’s', async () => {
    const { page, problems, widget } = await openTraining();
    // Two heads, by keyboard: focus the head-count group and press → once.
    await widget.getByRole('radio', { name: '1 head of width 16' }).focus();
    await page.keyboard.press('ArrowRight');
    assert.equal(await widget.getByRole('radio', { name: '2 heads of width 8' }).getAttribute('aria-checked'), 'true');
    const trainButton = widget.getByRole('button', { name: 'Train' });
    const started = await page.evaluate(() => performance.now());
    await trainButton.click();
    // Pause once the curves have a few points.
    await page.waitForFunction(() => (document.querySelector('mha-training').lastLook?.steps ?? 0) >= 100, null, { timeout: 60000 });
    await widget.getByRole('button', { name: 'Pause' }).click();
    await page.waitForFunction(() => document.querySelector('mha-training').shadowRoot.querySelector('.status').textContent.startsWith('Paused at step'));
    const pausedAt = await page.evaluate(() => document.querySelector('mha-training').lastLook.steps);
    await page.waitForTimeout(600); // a window of observation: nothing may happen in it
    assert.equal(await page.evaluate(() => document.querySelector('mha-training').lastLook.steps), pausedAt, 'nothing trains while paused');
    assert.match(await widget.locator('.status').textContent(), new RegExp(`Paused at step ${pausedAt.toLocaleString('en')}\\.`));
    await screenshot(widget, 'training-paused');
    // Resume by keyboard: the same button, Enter.
    await widget.getByRole('button', { name: 'Resume' }).focus();
    await page.keyboard.press('Enter');
    await waitForPhase(page, 'trained');
    const ended = await page.evaluate(() => performance.now());
    // The page's thread only draws: the core trains in the worker. Long tasks are recorded
    // and reported, not asserted: on a shared 2-core machine a task's wall time measures the
    // other processes too (the project measures speed in `npm run bench`, which records the
    // longest task while the demo trains; see bench/README.md). The Pause click above was
    // answered mid-training, which is what responsiveness means to the learner.
    const longTasks = await page.evaluate(([from, to]) => window.longTasks.filter((t) => t.start >= from && t.start <= to), [started, ended]);
    console.log(`long tasks on the page's thread while training (${((ended - started) / 1000).toFixed(1)} s): ${longTasks.length}, longest ${Math.max(0, ...longTasks.map((t) => t.duration))} ms`);
    assert.match(await page.evaluate(() => document.querySelector('mha-training').where), /^in a background thread, wasm SIMD$/);
    assert.match(await widget.locator('.status').textContent(), /^Trained: token 2 back 100\.0%, first token 100\.0% right \(chance 6\.3% for each\)/);

    // The same run in Node: every number shown is the core's.
    const expected = trainToEnd(engine, { task: 'back-and-first', heads: 2, seed: 1 });
    assert.equal(await widget.locator('.scores').textContent(), scoresLine(expected.look));
    assert.equal(await widget.locator('.progress-text').textContent(), 'step 1,500 of 1,500');
    const ranking = await widget.locator('.ranking li .head-name').allTextContents();
    assert.deepEqual(ranking, [...expected.ranking].reverse().map((r) => `Head ${r.head + 1}`), 'most important first');
    const table = await widget.locator('.comparison tbody tr').allTextContents();
    assert.equal(table.length, 1);
    assert.match(table[0], /^Two jobs2token 2 back 100\.0%, first token 100\.0%100\.0%$/);
    await screenshot(widget, 'training-trained-2-heads');
    assert.deepEqual(problems, []);
  });

  test('after training: heads switched off (Space) and pruned (typed k, click) show the core’s accuracies', async () => {
    const { page, problems, widget } = await openTraining();
    await widget.getByRole('radio', { name: '4 heads of width 4' }).click();
    await widget.getByRole('button', { name: 'Train' }).click();
    await waitForPhase(page, 'trained');

    const session = new TrainingSession(engine, { task: 'back-and-first', heads: 4, seed: 1 });
    try {
      while (!session.done) session.step(500);
      const { ranking, curve } = session.analyse();
      // Switch off the head the core ranks most important: the token two back goes to chance.
      const carrier = ranking[3].head;
      const toggle = widget.getByRole('switch', { name: `Head ${carrier + 1} on` });
      await toggle.focus();
      await page.keyboard.press('Space');
      const look = session.setOff([carrier]);
      const waitScores = (text) => page.waitForFunction((t) => document.querySelector('mha-training').shadowRoot.querySelector('.scores').textContent === t, text);
      await waitScores(scoresLine(look, 1));
      assert.ok(look.outputAccuracy[0] < 0.1, 'the job-carrying head hurts');
      // The status line says which job the head took down, from every head on to now.
      const all = session.setOff([]);
      assert.equal(await widget.locator('.status').textContent(),
        `Head ${carrier + 1} off: token 2 back ${percent(all.outputAccuracy[0])} → ${percent(look.outputAccuracy[0])}, first token ${percent(look.outputAccuracy[1])} right.`);
      session.setOff([carrier]);
      assert.deepEqual((await page.evaluate(() => document.querySelector('mha-training').state)).off, [carrier]);
      // Any combination: a second head off too, then both back on.
      const idle = ranking[0].head;
      await widget.getByRole('switch', { name: `Head ${idle + 1} on` }).click();
      const both = session.setOff([carrier, idle].sort());
      await waitScores(scoresLine(both, 2));
      await widget.getByRole('switch', { name: `Head ${carrier + 1} on` }).click();
      await widget.getByRole('switch', { name: `Head ${idle + 1} on` }).click();
      const none = session.setOff([]);
      await waitScores(scoresLine(none));

      // Prune the 2 least important: typed k, then the button.
      const field = widget.getByRole('textbox', { name: 'Heads to prune, k' });
      await field.fill('2');
      await widget.getByRole('button', { name: 'Prune the k least important' }).click();
      const prunedOff = ranking.slice(0, 2).map((r) => r.head).sort((a, b) => a - b);
      await page.waitForFunction((off) => JSON.stringify(document.querySelector('mha-training').state.off) === JSON.stringify(off), prunedOff);
      const pruned = session.setOff(prunedOff);
      await waitScores(scoresLine(pruned, 2));
      assert.equal(pruned.accuracy, curve[2].accuracy);
      assert.equal(await widget.locator('#prune-chart').getAttribute('aria-label'),
        `Accuracy per job with the k least important heads removed: ${curve.map((c) => `k = ${c.removed}: ${jobs(c.outputAccuracy)}`).join('; ')}.`);
      assert.equal(await widget.locator('#prune-chart .curve.chance').count(), 1, 'the chance line');
      assert.equal(await widget.locator('#prune-chart .curve-marker').count(), 1, 'the current k is marked on the curve');
      await screenshot(widget, 'training-pruned-4-heads');
      // Enter in the field prunes too: k = 1, the least important head alone.
      await field.fill('1');
      await field.press('Enter');
      const oneOff = [ranking[0].head];
      await page.waitForFunction((off) => JSON.stringify(document.querySelector('mha-training').state.off) === JSON.stringify(off), oneOff);
      const one = session.setOff(oneOff);
      await waitScores(scoresLine(one, 1));
      assert.ok(one.outputAccuracy[0] > 0.99 && one.outputAccuracy[1] > 0.85, 'the least important head of four costs little');
      // Each head's panel says what it costs off alone, job by job.
      const offAlone = await widget.locator('.head-result').allTextContents();
      assert.equal(offAlone[ranking[3].head], `off alone: token 2 back ${(ranking[3].outputAccuracyWithout[0] * 100).toFixed(0)}%, first token ${(ranking[3].outputAccuracyWithout[1] * 100).toFixed(0)}%`);
      // A k larger than h is refused where the learner typed it.
      await field.fill('9');
      assert.equal(await field.getAttribute('aria-invalid'), 'true');
      await field.press('Escape');
    } finally {
      session.dispose();
    }
    // Reset: untrained again, every head on, nothing to switch.
    await widget.getByRole('button', { name: 'Reset' }).click();
    assert.equal(await phase(page), 'idle');
    assert.deepEqual((await page.evaluate(() => document.querySelector('mha-training').state)).off, []);
    assert.equal(await widget.getByRole('switch', { name: 'Head 1 on' }).isDisabled(), true);
    assert.deepEqual(problems, []);
  });

  test('Train, then Reset while the training module loads: the worker does not train on', async () => {
    const { page, problems } = await newWatchedPage(browser, { width: 1100, height: 900 });
    // Every message a worker posts to the page is counted, with the time it arrived.
    await page.addInitScript(() => {
      window.workerMessages = [];
      const Original = window.Worker;
      window.Worker = class extends Original {
        constructor(...args) {
          super(...args);
          this.addEventListener('message', (event) => window.workerMessages.push({ type: event.data?.type, at: performance.now() }));
        }
      };
    });
    // The training module is held back until the test lets it go, so Reset lands while it loads.
    let release, requested;
    const held = new Promise((resolve) => { release = resolve; });
    const asked = new Promise((resolve) => { requested = resolve; });
    await page.route(/multiple_heads_train_[a-z]+[^/]*\.wasm/, async (route) => { requested(); await held; await route.continue(); });
    await page.goto(`${server.url}embed.html?widget=training`);
    const widget = page.locator('mha-training[ready]');
    await widget.waitFor();
    await widget.getByRole('button', { name: 'Train' }).click();
    await asked; // the worker is loading the module
    await widget.getByRole('button', { name: 'Reset' }).click();
    assert.equal(await phase(page), 'idle');
    const loaded = page.waitForResponse(/multiple_heads_train_[a-z]+[^/]*\.wasm/);
    release();
    await (await loaded).finished();
    // Nothing must follow: a window of observation (not a wait for something), long enough
    // for the module to compile and a run to report many times (every 25 steps, about ten
    // times a second).
    await page.waitForTimeout(1500);
    const messages = await page.evaluate(() => window.workerMessages);
    console.log(`worker messages after Reset during the load: ${messages.length} (${[...new Set(messages.map((m) => m.type))].join(', ') || 'none'})`);
    assert.deepEqual(messages.filter((m) => m.type === 'look' || m.type === 'done'), [], 'no training after Reset');
    assert.equal(await phase(page), 'idle', 'the page still says untrained');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('in a sandboxed frame (no worker) training runs on the page in short slices and says so', async () => {
    // A page of its own: its first, blank document can frame the local server; one navigated
    // to (a turn's about:blank, a data: URL) gets an error page in the frame.
    const { page, problems } = await newWatchedPage(browser, { width: 1000, height: 900 });
    await page.setContent(`<iframe sandbox="allow-scripts" width="950" height="850" src="${server.url}embed.html?widget=training"></iframe>`);
    const frame = page.frameLocator('iframe');
    const widget = frame.locator('mha-training[ready]');
    await widget.waitFor();
    await widget.getByRole('radio', { name: 'One job: predict the previous token' }).click();
    await widget.getByRole('radio', { name: '4 heads of width 4' }).click();
    await widget.getByRole('button', { name: 'Train' }).click();
    await widget.locator('.status', { hasText: 'Trained:' }).waitFor({ timeout: 120000 });
    assert.match(await widget.locator('.status').textContent(), /^Trained: previous token 100\.0% right \(chance 6\.3%\)/);
    const expected = trainToEnd(engine, { task: 'previous-token', heads: 4, seed: 1 });
    assert.equal(await widget.locator('.scores').textContent(), `Right: previous token ${percent(expected.look.outputAccuracy[0])}; loss ${expected.look.loss.toFixed(3)}.`);
    // The frame's own record says where it trained (the status line is replaced at the end).
    const where = await page.frames()[1].evaluate(() => document.querySelector('mha-training').where);
    assert.match(where, /on this page, in short slices \(no worker here\)/);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('read-only: the state shows, nothing trains', async () => {
    const { page, problems } = await turn(`${server.url}embed.html?widget=training&readonly`);
    const widget = page.locator('mha-training[ready]');
    await widget.waitFor();
    assert.equal(await page.evaluate(() => document.querySelector('mha-training').readOnly), true);
    assert.equal(await widget.getByRole('button', { name: 'Train' }).isDisabled(), true);
    assert.equal(await widget.getByRole('radio', { name: '4 heads of width 4' }).isDisabled(), true);
    assert.deepEqual(problems, []);
  });

  test('accessible: axe finds nothing in light or dark, untrained and trained; phone screenshot', async () => {
    for (const colorScheme of ['light', 'dark']) {
      const { page, problems, widget } = await openTraining({ width: 1100, height: 900 }, { colorScheme });
      const axe = async (when) => {
        assert.deepEqual(await axeViolations(page, { within: 'mha-training', rules: WCAG22 }), [], `axe in ${colorScheme}, ${when}`);
      };
      await axe('untrained');
      await widget.getByRole('radio', { name: 'One job: predict the previous token' }).click();
      await widget.getByRole('button', { name: 'Train' }).click();
      await waitForPhase(page, 'trained');
      await axe('trained');
      await screenshot(widget, `training-trained-${colorScheme}`);
      assert.deepEqual(problems, []);
    }
    const phone = await openTraining({ width: 390, height: 800 });
    await phone.widget.getByRole('button', { name: 'Train' }).click();
    await waitForPhase(phone.page, 'trained');
    const width = await phone.page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `no sideways scroll at 390 px (${width})`);
    await screenshot(phone.widget, 'training-390');
    assert.deepEqual(phone.problems, []);
  });
});
