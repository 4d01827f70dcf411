// The head-splitting widget in Chromium, driven as a learner drives it (menus, typing, arrow
// keys on the slider, the Measure and Cancel buttons, undo, reset, reload). Every label on
// the blocks, every drawn area and every singular value and rank is checked against the
// core's own answer for the same state, computed here in Node. Timings are only checked to
// exist and be positive: machines are too noisy for ratios.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import {
  SplitModels, divisors, nearestDivisor, sanitizeSplitState, splitConfig, startingState,
} from '../../web/widgets/head-splitting/head-splitting-model.js';
import { THE_WORLD as w, headsAt, headClass } from '../../web/widgets/shared/world.js';
import { formatCount, formatNumber } from '../../web/text/format.js';
import { loadTestEngine } from '../node/load-engine.mjs';
import { screenshot, buildAllWidgets, newWatchedPage, openTestBrowser, pageTurns, serveDist, watchedPageAt } from './browser.mjs';
import { WCAG22, axeViolations } from './axe.mjs';

const PARTS = ['projections', 'scores', 'weightedSum', 'attention', 'output', 'exponentials'];

let browser, server, models, config;
before(async () => {
  server = await serveDist();
  browser = await openTestBrowser();
  config = splitConfig();
  models = new SplitModels(await loadTestEngine('simd'), config);
});
after(async () => {
  models?.dispose();
  await browser?.close();
  await server?.close();
});

/**
 * The widget alone on the embed page (quick), or on the lesson page (its real width). Tests
 * take turns with one page (pageTurns: a new document each, nothing stored); `own`: a page
 * of its own, for a page that several tests share.
 */
const turn = pageTurns(() => browser);
async function openSplit(viewport = { width: 1000, height: 800 }, { hash = '', lesson = false, colorScheme = 'light', own = false } = {}) {
  const url = server.url + (lesson ? '' : 'embed.html?widget=head-splitting') + hash;
  // Reduced motion: the strips' lengths are measured at once, not mid-transition.
  const media = { colorScheme, reducedMotion: 'reduce' };
  const { page, problems } = own ? await watchedPageAt(browser, url, viewport, media) : await turn(url, viewport, media);
  await buildAllWidgets(page);
  // The lesson shows the widget twice: its counts where it counts (the first), its rank
  // panel where the prose introduces rank (state-key="rank").
  const widget = page.locator('mha-head-splitting[ready]').first();
  await widget.waitFor();
  const rank = lesson ? page.locator('mha-head-splitting[state-key="rank"][ready]') : widget;
  await rank.waitFor();
  return { page, problems, widget, rank };
}

/** Waits until the widget's models hold the counts of every shape key in `keys` ("512/8/66"). */
function countsArrive(widget, keys) {
  return widget.evaluate((host, wanted) => new Promise((resolve, reject) => {
    const deadline = performance.now() + 15000;
    const poll = () => {
      if (wanted.every((key) => host.models.counts.has(key))) resolve();
      else if (performance.now() > deadline) reject(new Error(`not computed ahead: ${wanted.filter((key) => !host.models.counts.has(key))}`));
      else setTimeout(poll, 20);
    };
    poll();
  }), keys);
}

/** Polls `read` until it returns `expected` (slider edits land on the next frame). */
async function eventually(read, expected, message) {
  const deadline = Date.now() + 5000;
  let value;
  do {
    value = await read();
    if (isDeepStrictEqual(value, expected)) return;
    await new Promise((resolve) => setTimeout(resolve, 40));
  } while (Date.now() < deadline);
  assert.deepEqual(value, expected, message);
}

// ---- what the widget shows, read from the page ---------------------------------------

/** The cost figure: each block row's count label, per-head label, pieces and boxes. */
const shownBlocks = (widget) => widget.evaluate((host) => {
  const root = host.shadowRoot;
  const row = (selector) => {
    const el = root.querySelector(`.blocks-panel ${selector}`);
    const blocks = el.querySelector('.blocks');
    return {
      count: el.querySelector('.block-label .count').textContent,
      perHead: el.querySelector('.block-label .per-head')?.textContent ?? null,
      pieces: blocks.children.length,
      box: (({ width, height }) => ({ width, height }))(blocks.getBoundingClientRect()),
      pieceBoxes: [...blocks.children].map((b) => (({ width, height }) => ({ width, height }))(b.getBoundingClientRect())),
    };
  };
  return {
    dK: root.querySelector('.dk-value').textContent,
    one: row('.figure:not(.exp-figure) .block-row:first-child'),
    heads: row('.figure:not(.exp-figure) .block-row:last-child'),
    expOne: row('.exp-figure .block-row:first-child'),
    expHeads: row('.exp-figure .block-row:last-child'),
    values: Object.fromEntries([...root.querySelectorAll('.counts tbody tr')].map((tr) =>
      [tr.dataset.part, [tr.querySelector('.count').textContent, tr.querySelector('.count-one').textContent]])),
  };
});

/** Only the labels (for quick comparisons). */
const shownLabels = async (widget) => {
  const b = await shownBlocks(widget);
  return { dK: b.dK, one: b.one.count, heads: b.heads.count, perHead: b.heads.perHead, pieces: b.heads.pieces, expOne: b.expOne.count, expHeads: b.expHeads.count, values: b.values };
};

// ---- the same, computed by the core in Node ------------------------------------------

function expectedLabels({ dModel, heads, seqLen }) {
  const main = models.countsFor({ dModel, heads, seqLen });
  const one = models.countsFor({ dModel, heads: 1, seqLen });
  const { numHeads: h, dK, seqLen: L } = main.config;
  // The core's tallies obey the formula; the per-head label is the total over h.
  assert.equal(main.counts.attention, 2 * L ** 2 * dModel);
  assert.equal(main.counts.attention / h, 2 * L ** 2 * dK);
  assert.equal(main.counts.exponentials, h * L ** 2);
  assert.equal(one.counts.exponentials, L ** 2);
  return {
    dK: String(dK),
    one: formatCount(one.counts.attention),
    heads: formatCount(main.counts.attention),
    perHead: h === 1 ? null : formatCount(main.counts.attention / h),
    pieces: h,
    expOne: formatCount(one.counts.exponentials),
    expHeads: formatCount(main.counts.exponentials),
    values: Object.fromEntries(PARTS.map((part) => [part, [formatCount(main.counts[part]), formatCount(one.counts[part])]])),
  };
}

/** Areas: the h blocks together cover the one-head block (within 1 px of width). */
function assertAreas(blocks, h) {
  const { one, heads, expOne, expHeads } = blocks;
  assert.equal(heads.pieces, h);
  const sum = heads.pieceBoxes.reduce((total, b) => total + b.width * b.height, 0);
  const area = one.box.width * one.box.height;
  assert.ok(Math.abs(sum - area) <= one.box.height, `h blocks cover ${sum.toFixed(0)} px², one head ${area.toFixed(0)} px²`);
  assert.ok(heads.pieceBoxes.every((b) => Math.abs(b.height - one.box.height) < 0.5), 'one height for every block');
  const widths = heads.pieceBoxes.map((b) => b.width);
  assert.ok(Math.max(...widths) - Math.min(...widths) <= 1, 'the heads’ blocks are equal');
  // exp() calls: the h-head strip is h times the one-head strip (both drawn to one scale).
  assert.ok(Math.abs(expHeads.box.width - h * expOne.box.width) <= Math.max(1, h * 0.5) || expOne.box.width <= 3,
    `exp strips ${expHeads.box.width} and ${expOne.box.width} for h = ${h}`);
}

// ---- the rank panel -------------------------------------------------------------------

const shownRank = (widget) => widget.evaluate((host) => {
  const root = host.shadowRoot;
  const figure = root.querySelector('.spectrum-figure');
  return {
    name: root.querySelector('.head-name').textContent,
    scale: root.querySelector('.spectrum-scale').textContent,
    colour: [...figure.classList].find((c) => c.startsWith('head-')),
    rank: root.querySelector('.nonzero-count').textContent,
    dK: root.querySelector('.spectrum-dk').textContent,
    bars: root.querySelectorAll('.spectrum-svg rect.bar').length,
    zeros: root.querySelectorAll('.spectrum-svg rect.zero-tick').length,
    table: [...root.querySelectorAll('.spectrum-table tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
  };
});

function expectedRank(heads, head) {
  const { values, nonZero, config: core, head: named } = models.spectrumFor({ heads, head });
  const designed = headsAt(w, heads)[head];
  assert.equal(named.name, designed.name);
  assert.ok(nonZero <= core.dK, 'at most d_k');
  return {
    name: designed.name,
    scale: `top of the scale: σ1 = ${formatNumber(values[0], 3)}`,
    colour: headClass(designed),
    rank: String(nonZero),
    dK: String(core.dK),
    bars: nonZero,
    zeros: values.length - nonZero,
    table: values.map((v, i) => (i < nonZero ? [formatNumber(v, 4), 'non-zero'] : [v.toExponential(1), 'zero'])),
  };
}

describe('head-splitting widget', () => {
  // One page serves the tests that start from the starting state (each presses Reset).
  let shared;
  const fresh = async () => {
    shared ??= await openSplit({ width: 1280, height: 800 }, { own: true });
    await shared.widget.getByRole('button', { name: 'Reset' }).click();
    return shared;
  };

  test('blocks: labels are the core’s counts; the h blocks cover the one wide head’s area', async () => {
    const { widget } = await fresh();
    const start = startingState(config);
    assert.deepEqual(await shownLabels(widget), expectedLabels(start));
    assertAreas(await shownBlocks(widget), start.heads);
    // The legend's L^2 is the core's count of one head's exp() calls (one per pair).
    assert.match(await widget.locator('.legend').textContent(), new RegExp(`= ${expectedLabels(start).expOne} \\(query, key\\) pairs`));
    const dModel = widget.getByRole('combobox', { name: 'Model width d_model', exact: true });
    const heads = widget.getByRole('combobox', { name: 'Number of heads h', exact: true });
    for (const [d, h] of [[512, 32], [512, 64], [512, 1], [96, 12], [96, 3]]) {
      await dModel.selectOption(String(d));
      await heads.selectOption(String(h));
      assert.deepEqual(await shownLabels(widget), expectedLabels({ dModel: d, heads: h, seqLen: start.seqLen }), `d_model ${d}, h ${h}`);
      assertAreas(await shownBlocks(widget), h);
    }
    assert.equal(await widget.locator('.verdict').textContent(), `Same area: ${expectedLabels({ dModel: 96, heads: 3, seqLen: 64 }).heads} multiply-adds both ways, as the core counted them.`);
    const last = models.countsFor({ dModel: 96, heads: 3, seqLen: start.seqLen }).counts;
    assert.equal(await widget.locator('.sr-only[aria-live="polite"]').textContent(),
      `3 heads of width 32, L 64: ${formatCount(last.attention)} multiply-adds, the same area as one head of width 96. ` +
      `exp() calls: ${formatCount(last.exponentials)}, against ${formatCount(models.countsFor({ dModel: 96, heads: 1, seqLen: 64 }).counts.exponentials)} for one head.`);
    assert.deepEqual(shared.problems, []);
  });

  test('h offers only divisors of d_model; a width it does not divide picks the nearest', async () => {
    const { widget } = await fresh();
    const dModelSelect = widget.getByRole('combobox', { name: 'Model width d_model', exact: true });
    const headsSelect = widget.getByRole('combobox', { name: 'Number of heads h', exact: true });
    await dModelSelect.selectOption('96');
    const options = async () => (await headsSelect.locator('option').allTextContents()).map(Number);
    assert.deepEqual(await options(), divisors(96, config.maxHeads));
    await headsSelect.selectOption('12');
    assert.deepEqual(await shownLabels(widget), expectedLabels({ dModel: 96, heads: 12, seqLen: 64 }));
    // 12 does not divide 512: 8 and 16 are equally near, and the smaller is taken.
    await dModelSelect.selectOption('512');
    const picked = nearestDivisor(512, 12, config.maxHeads);
    assert.equal(picked, 8);
    assert.equal(await headsSelect.inputValue(), String(picked));
    assert.match(await widget.locator('.controls .note').textContent(), /h = 12 does not divide d_model = 512, so h is now 8/);
    assert.deepEqual(await options(), divisors(512, config.maxHeads));
    assert.deepEqual(await shownLabels(widget), expectedLabels({ dModel: 512, heads: 8, seqLen: 64 }));
    assert.deepEqual(shared.problems, []);
  });

  test('L: typing and arrow keys update every count; bad text keeps the last good state; Reset clears it', async () => {
    const { widget } = await fresh();
    const field = widget.getByRole('textbox', { name: /^Sequence length L/ });
    await field.fill('');
    await field.pressSequentially('128');
    assert.deepEqual(await shownLabels(widget), expectedLabels({ dModel: 512, heads: 8, seqLen: 128 }));
    const slider = widget.getByRole('slider', { name: 'Sequence length L, slider', exact: true });
    await slider.focus();
    await slider.press('ArrowRight');
    await slider.press('ArrowRight');
    await eventually(() => shownLabels(widget), expectedLabels({ dModel: 512, heads: 8, seqLen: 130 }), 'two arrow presses: L = 130');
    assert.equal(await field.inputValue(), '130');
    const before = await shownLabels(widget);
    const message = widget.locator('.length .ui-error');
    for (const text of ['abc', '1e999', 'NaN', '0x10', '', '2.5', '0', '300']) {
      await field.fill(text);
      assert.equal(await field.getAttribute('aria-invalid'), 'true', `"${text}" is rejected`);
      assert.ok((await message.textContent()).length > 10, `"${text}" gets a message`);
      assert.deepEqual(await shownLabels(widget), before);
      assert.equal(await field.inputValue(), text, 'the typed text is kept for correction');
    }
    assert.match(await message.textContent(), /between 1 and 256/);
    await field.fill('2.5');
    assert.match(await message.textContent(), /whole number/);
    // Reset (from script, with the field still focused) clears the typed text and its message.
    await widget.evaluate((host) => host.reset());
    assert.equal(await field.inputValue(), '64');
    assert.equal(await field.getAttribute('aria-invalid'), 'false');
    assert.equal(await message.textContent(), '');
    await field.fill('300');
    await widget.getByRole('button', { name: 'Reset' }).click();
    assert.equal(await field.inputValue(), '64');
    assert.equal(await message.textContent(), '');
    assert.deepEqual(await shownLabels(widget), expectedLabels({ dModel: 512, heads: 8, seqLen: 64 }));
    assert.deepEqual(shared.problems, []);
  });

  test('L: the next length’s counts are computed ahead in a worker; the step then uses them (no pass on the page), and they are the core’s', async () => {
    const { widget } = await fresh();
    const slider = widget.getByRole('slider', { name: 'Sequence length L, slider', exact: true });
    await slider.focus();
    await slider.press('ArrowRight'); // L = 65: from now on L - 1 and L + 1 are computed ahead
    const ahead = ['512/8/66', '512/1/66', '512/32/66'];
    await countsArrive(widget, ahead);
    // The objects the worker posted; the step to L = 66 must show them, not compute its own.
    await widget.evaluate((host, keys) => { host.aheadCounts = keys.map((key) => host.models.counts.get(key)); }, ahead);
    await slider.press('ArrowRight');
    await eventually(() => shownLabels(widget), expectedLabels({ dModel: 512, heads: 8, seqLen: 66 }), 'L = 66 shows the core’s counts');
    const used = await widget.evaluate((host, keys) => ({
      kept: keys.every((key, i) => host.models.counts.get(key) === host.aheadCounts[i]),
      main: host.view.main === host.aheadCounts[0],
      oneHead: host.view.oneHead === host.aheadCounts[1],
    }), ahead);
    assert.deepEqual(used, { kept: true, main: true, oneHead: true });
    assert.deepEqual(shared.problems, []);
  });

  // Before the first step (issue 25): the reader's pointer over L, or the focus in it, starts
  // the worker, so the first steps find their counts ready; on the lesson page, where the
  // widget has the build's figure, the figure's renderer is loaded then too. A widget nobody
  // approaches starts nothing.
  for (const approach of ['pointer', 'focus']) {
    test(`L: the ${approach} on L starts the counts worker before the first step${approach === 'pointer' ? ' (lesson page: and loads the figure’s renderer)' : ''}`, async () => {
      const lesson = approach === 'pointer';
      const { page, widget, problems } = await openSplit(undefined, { lesson });
      const fetched = [];
      const onRequest = (request) => fetched.push(request.url().split('/').pop());
      page.on('request', onRequest);
      try {
        assert.equal(await widget.evaluate((host) => host.prefetch ?? null), null, 'no worker before the reader comes');
        const slider = widget.getByRole('slider', { name: 'Sequence length L, slider', exact: true });
        if (approach === 'pointer') await slider.hover();
        else await slider.focus();
        const ahead = ['512/8/65', '512/1/65', '512/32/65', '512/8/63', '512/1/63', '512/32/63'];
        await countsArrive(widget, ahead);
        if (lesson) {
          const renderer = (name) => /^head-splitting-static-.*\.js$/.test(name);
          for (let tries = 0; !fetched.some(renderer) && tries < 100; tries++) await page.waitForTimeout(50);
          assert.ok(fetched.some(renderer), `the figure's renderer loaded before any edit: ${fetched.join(', ')}`);
        }
        await widget.evaluate((host, keys) => { host.aheadCounts = keys.map((key) => host.models.counts.get(key)); }, ahead);
        await slider.press('ArrowRight'); // the first step: L = 65, from the worker's counts
        await eventually(() => shownLabels(widget), expectedLabels({ dModel: 512, heads: 8, seqLen: 65 }), 'L = 65 shows the core’s counts');
        assert.deepEqual(await widget.evaluate((host) => ({ main: host.view.main === host.aheadCounts[0], oneHead: host.view.oneHead === host.aheadCounts[1] })), { main: true, oneHead: true });
        assert.deepEqual(problems, []);
      } finally {
        page.off('request', onRequest);
      }
    });
  }

  test('configurations: rows of one length cut into 1, 8 and 32 blocks, labelled with the core’s counts', async () => {
    const { widget } = await fresh();
    const rows = await widget.locator('.config-row').evaluateAll((els) => els.map((row) => {
      const [bar, exp] = row.querySelectorAll('.blocks');
      return {
        heads: row.dataset.heads,
        shape: row.querySelector('.config-shape').textContent,
        count: row.querySelector('.count').textContent,
        expCount: row.querySelector('.exp-count').textContent,
        pieces: bar.children.length,
        width: bar.getBoundingClientRect().width,
        expWidth: exp.getBoundingClientRect().width,
      };
    }));
    const expected = config.configurations.map((c) => models.countsFor({ dModel: c.dModel, heads: c.heads, seqLen: 64 }));
    assert.deepEqual(rows.map(({ heads, shape, count, expCount, pieces }) => ({ heads, shape, count, expCount, pieces })), expected.map(({ config: core, counts }) => ({
      heads: String(core.numHeads), shape: `${core.numHeads} × ${core.dK}`, count: formatCount(counts.attention),
      expCount: formatCount(counts.exponentials), pieces: core.numHeads,
    })));
    assert.deepEqual(rows.map((r) => r.pieces), [1, 8, 32]);
    const widths = rows.map((r) => r.width);
    assert.ok(Math.max(...widths) - Math.min(...widths) <= 1, `equal lengths: ${widths}`);
    // exp() strips: 1 : 8 : 32, as the core counted.
    assert.ok(Math.abs(rows[2].expWidth - rows[0].width) <= 1, 'the most exp() calls span the row');
    assert.ok(Math.abs(rows[1].expWidth - rows[2].expWidth / 4) <= 1);
    assert.deepEqual(shared.problems, []);
  });

  test('the price in the one world: each head’s singular values and rank, from the core, at h = 1, 2, 4', async () => {
    const { widget } = await fresh();
    const start = startingState(config);
    assert.deepEqual(await shownRank(widget), expectedRank(start.spectrumHeads, start.spectrumHead));
    const headsSelect = widget.getByRole('combobox', { name: 'Rank panel: number of heads h' });
    const headSelect = widget.getByRole('combobox', { name: 'Rank panel: head' });
    assert.deepEqual((await headsSelect.locator('option').allTextContents()).map(Number), w.headCounts);
    const seen = {};
    for (const h of w.headCounts) {
      await headsSelect.selectOption(String(h));
      assert.deepEqual(await headSelect.locator('option').allTextContents(), headsAt(w, h).map((head) => head.name));
      for (let head = 0; head < h; head++) {
        await headSelect.selectOption(String(head));
        const shown = await shownRank(widget);
        assert.deepEqual(shown, expectedRank(h, head), `h = ${h}, head ${head}`);
        (seen[h] ??= []).push(Number(shown.rank));
      }
    }
    console.log(`ranks of the world's heads: ${JSON.stringify(seen)}`);
    // What the lesson's prose may say: no head exceeds d_k, and some use fewer.
    assert.ok(w.headCounts.some((h) => seen[h].some((rank) => rank < w.dModel / h)));
    // A merged head names its members' own ranks (from the core) in its note.
    await headsSelect.selectOption('2');
    await headSelect.selectOption('0');
    const [first, second] = headsAt(w, 4);
    const alone = (i) => models.spectrumFor({ heads: 4, head: i }).nonZero;
    assert.match(await widget.locator('.rank-note').textContent(), new RegExp(`${first.name} ${alone(0)}, ${second.name} ${alone(1)}`));
    assert.match(await widget.locator('.sr-only[aria-live="polite"]').textContent(), /Subject finder \+ Complement finder, 2 heads of width 6: \d+ non-zero singular values, at most 6/);
    assert.deepEqual(shared.problems, []);
  });

  test('measure on this device: a worker times the three configurations; Cancel stops it', async () => {
    const { widget } = await fresh();
    const measure = widget.getByRole('button', { name: 'Measure on this device' });
    const cancel = widget.getByRole('button', { name: 'Cancel' });
    await measure.click();
    assert.equal(await measure.isDisabled(), true);
    await cancel.click();
    assert.match(await widget.locator('.measure-status').textContent(), /cancelled/);
    assert.equal(await measure.isDisabled(), false);

    await measure.click();
    assert.equal(await widget.locator('progress').isVisible(), true, 'progress is shown');
    await widget.locator('button:enabled', { hasText: 'Measure on this device' }).waitFor({ timeout: 15000 });
    assert.match(await widget.locator('.measure-status').textContent(), /^Measured at L = 64 /);
    const times = await widget.locator('.config-row .time').allTextContents();
    assert.equal(times.length, 3);
    for (const time of times) {
      const match = /^(\d+\.\d\d) ms$/.exec(time);
      assert.ok(match && Number(match[1]) > 0, `a positive time, got “${time}”`);
    }
    console.log(`measured: ${times.join(', ')}`);
    await screenshot(widget, 'head-splitting-measured');
    assert.deepEqual(shared.problems, []);
  });

  test('1280 x 800: the blocks stay in view while d_model, h and L are used; 390 px stacked; screenshots', async () => {
    const { page, problems, widget, rank } = await openSplit({ width: 1280, height: 800 }, { lesson: true });
    const inView = (selector) => widget.evaluate((host, selector) => {
      const box = host.shadowRoot.querySelector(selector).getBoundingClientRect();
      return box.top >= 0 && box.bottom <= innerHeight && box.left >= 0 && box.right <= innerWidth;
    }, selector);
    // A keyboard user tabs in from the page above: at each control of the cost figure, the
    // blocks it changes are on screen.
    await page.evaluate(() => window.scrollTo(0, 0));
    await widget.evaluate((host) => host.shadowRoot.querySelector('.skip-widget').focus());
    const checked = [];
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      const focused = await widget.evaluate((host) => {
        const el = host.shadowRoot.activeElement;
        return el?.closest('.cost-layout .controls') ? el.getAttribute('aria-label') ?? el.labels?.[0]?.textContent ?? el.textContent : null;
      });
      if (focused === null) continue;
      checked.push(focused);
      for (const figure of ['.blocks-panel .figure:not(.exp-figure)', '.exp-figure', '.verdict']) {
        assert.equal(await inView(figure), true, `${figure} is in view with ${focused}`);
      }
    }
    assert.ok(checked.length >= 4, `checked ${checked.join(', ')}`);
    // The rank panel (its own widget on the lesson page, where the prose introduces rank):
    // its controls sit beside its chart, and nothing of the counts is shown there.
    await rank.evaluate((host) => host.shadowRoot.querySelector('.skip-widget').focus());
    for (let i = 0; i < 6 && !(await rank.evaluate((host) => host.shadowRoot.activeElement?.getAttribute('aria-label') === 'Rank panel: head')); i++) {
      await page.keyboard.press('Tab');
    }
    assert.equal(await rank.evaluate((host) => host.shadowRoot.activeElement?.getAttribute('aria-label')), 'Rank panel: head');
    assert.equal(await rank.evaluate((host) => {
      const box = host.shadowRoot.querySelector('.spectrum-svg').getBoundingClientRect();
      return box.top >= 0 && box.bottom <= innerHeight;
    }), true, 'the chart is in view with the head menu');
    assert.deepEqual(await rank.evaluate((host) => ['.blocks-panel', '.cost-layout .controls', '.try'].map((s) => host.shadowRoot.querySelector(s).getClientRects().length)), [0, 0, 0]);
    assert.equal(await widget.evaluate((host) => host.shadowRoot.querySelector('.spectrum-svg').getClientRects().length), 0, 'the counts widget leaves the rank to the other');
    await screenshot(rank, 'head-splitting-rank-1280');
    await widget.evaluate((host) => host.scrollIntoView());
    await screenshot(widget, 'head-splitting-1280');
    assert.deepEqual(problems, []);

    const dark = await openSplit({ width: 1280, height: 800 }, { lesson: true, colorScheme: 'dark' });
    await screenshot(dark.widget, 'head-splitting-dark-1280');
    assert.deepEqual(dark.problems, []);

    const phone = await openSplit({ width: 390, height: 844 }, { lesson: true });
    const sideways = await phone.page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
    assert.ok(sideways <= 0, `the page scrolls ${sideways} px sideways`);
    // Stacked: the controls above the blocks they change, and in the rank widget its menus
    // above its chart. On a phone the "Show" switch offers only the parts each of the lesson's
    // two widgets shows: areas and times in the first, nothing to switch in the rank widget.
    const topIn = (host, s) => host.evaluate((host, s) => {
      const el = host.shadowRoot.querySelector(s);
      return el.getClientRects().length ? el.getBoundingClientRect().top : null;
    }, s);
    assert.ok(await topIn(phone.widget, '.cost-layout .controls') < await topIn(phone.widget, '.blocks-panel'));
    assert.ok(await topIn(phone.rank, '.spectrum-controls') < await topIn(phone.rank, '.spectrum-svg'));
    assert.deepEqual(await phone.widget.locator('.narrow-switch [role="radio"]').allTextContents(), ['Areas', 'Times']);
    assert.equal(await topIn(phone.widget, '.configurations-panel, [data-panel="configurations"]'), null, 'the times wait for their turn');
    assert.equal(await topIn(phone.rank, '.narrow-switch'), null);
    await screenshot(phone.rank, 'head-splitting-rank-390');
    const height = (await phone.widget.boundingBox()).height;
    console.log(`head-splitting at 390 px: ${Math.round(height)} px = ${(height / 844).toFixed(2)} screens`);
    await screenshot(phone.widget, 'head-splitting-390');
    assert.deepEqual(phone.problems, []);
  });

  test('accessible: axe finds nothing in light or dark; at most 15 tab stops; targets at least 24 px', async () => {
    for (const colorScheme of ['light', 'dark']) {
      const { page, problems, widget } = await openSplit({ width: 1280, height: 800 }, { colorScheme });
      for (const summary of await widget.locator('details summary').all()) await summary.click();
      const found = await axeViolations(page, { within: 'mha-head-splitting', rules: WCAG22 });
      assert.deepEqual(found, [], `axe in ${colorScheme}`);
      if (colorScheme === 'light') {
        // Tab through the widget from its skip link to its end.
        await widget.evaluate((host) => host.shadowRoot.querySelector('.skip-widget').focus());
        const stops = [];
        for (let i = 0; i < 40; i++) {
          const where = await page.evaluate(() => {
            let el = document.activeElement;
            if (el?.localName !== 'mha-head-splitting') return null;
            while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
            return `${el.tagName.toLowerCase()} ${el.getAttribute('aria-label') ?? el.textContent.trim().slice(0, 30)}`;
          });
          if (where === null) break;
          stops.push(where);
          await page.keyboard.press('Tab');
        }
        console.log(`head-splitting tab stops: ${stops.length}: ${stops.join(' | ')}`);
        assert.ok(stops.length >= 8 && stops.length <= 15, `${stops.length} tab stops`);
        const small = await widget.evaluate((host) => [...host.shadowRoot.querySelectorAll('button, input, select, summary')]
          .filter((el) => el.getClientRects().length > 0)
          .map((el) => ({ el, box: el.getBoundingClientRect() }))
          .filter(({ box }) => box.height < 24 || box.width < 24)
          .map(({ el, box }) => `${el.tagName} ${box.width}x${box.height}`));
        assert.deepEqual(small, []);
      }
      assert.deepEqual(problems, []);
    }
  });

  test('undo, reset, and the state survives a reload; malformed states are refused', async () => {
    const { page, problems, widget } = await openSplit();
    await widget.getByRole('combobox', { name: 'Number of heads h', exact: true }).selectOption('32');
    const field = widget.getByRole('textbox', { name: /^Sequence length L/ });
    await field.fill('16');
    assert.deepEqual(await shownLabels(widget), expectedLabels({ dModel: 512, heads: 32, seqLen: 16 }));
    await widget.getByRole('button', { name: 'Undo' }).click();
    assert.deepEqual(await shownLabels(widget), expectedLabels({ dModel: 512, heads: 32, seqLen: 64 }));
    await widget.getByRole('combobox', { name: 'Rank panel: number of heads h' }).selectOption('2');
    await page.reload();
    const reloaded = page.locator('mha-head-splitting[ready]');
    await reloaded.waitFor();
    assert.deepEqual(await shownLabels(reloaded), expectedLabels({ dModel: 512, heads: 32, seqLen: 64 }), 'reload keeps the state');
    assert.deepEqual(await shownRank(reloaded), expectedRank(2, 0));
    await reloaded.getByRole('button', { name: 'Reset' }).click();
    assert.deepEqual(await shownLabels(reloaded), expectedLabels({ dModel: 512, heads: 8, seqLen: 64 }));

    // sanitizeState: wrong types, non-divisors, out-of-range values, unknown fields.
    const good = startingState(config);
    assert.deepEqual(sanitizeSplitState(good, config), good);
    for (const [patch, pattern] of [
      [{ heads: 7 }, /does not divide/], [{ heads: '8' }, /whole number/], [{ seqLen: 300 }, /between/],
      [{ seqLen: 2.5 }, /whole number/], [{ dModel: 100 }, /one of/], [{ heads: 128 }, /between 1 and 64/],
      [{ spectrumHeads: 3 }, /one of 1, 2, 4/], [{ spectrumHeads: 8 }, /one of 1, 2, 4/], [{ spectrumHead: 4 }, /head from 0 to 3/],
      [{ spectrumDModel: 16 }, /unknown field/], [{ extra: 1 }, /unknown field/],
    ]) assert.throws(() => sanitizeSplitState({ ...good, ...patch }, config), pattern);
    assert.throws(() => sanitizeSplitState([], config), /object/);
    assert.deepEqual(problems, []);
  });

  test('usable at 320 px wide; a malformed link is refused with a notice', async () => {
    const bad = encodeURIComponent(JSON.stringify({ ...startingState(config), heads: 7 }));
    const { page, problems, widget } = await openSplit({ width: 320, height: 700 }, { hash: `#split=${bad}` });
    assert.match(await widget.locator('.notice').textContent(), /heads: 7 does not divide d_model = 512/);
    assert.deepEqual(await shownLabels(widget), expectedLabels({ dModel: 512, heads: 8, seqLen: 64 }));
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px`);
    // The whole widget on a phone shows its parts one at a time (the "Show" switch): the
    // areas first, the rank panel when chosen.
    const top = (s) => widget.evaluate((host, s) => {
      const el = host.shadowRoot.querySelector(s);
      return el.getClientRects().length ? el.getBoundingClientRect().top : null;
    }, s);
    assert.ok(await top('.cost-layout .controls') < await top('.blocks-panel'));
    assert.equal(await top('.spectrum-svg'), null, 'the rank panel waits for its turn');
    await widget.locator('.narrow-switch [role="radio"]', { hasText: 'Rank' }).click();
    assert.equal(await top('.blocks-panel'), null, 'the areas step aside for the rank panel');
    assert.ok(await top('.spectrum-controls') < await top('.spectrum-svg'));
    await widget.locator('.narrow-switch [role="radio"]', { hasText: 'Areas' }).click();
    await screenshot(widget, 'head-splitting-320');
    assert.deepEqual(problems, []);
  });

  test('an author’s config and panels (embed page)', async () => {
    const authored = {
      start: { dModel: 96, heads: 12, seqLen: 10 }, spectrumStart: { heads: 2, head: 1 },
      configurations: [{ label: 'two', dModel: 96, heads: 2 }, { label: 'six', dModel: 96, heads: 6 }],
    };
    const query = new URLSearchParams({ widget: 'head-splitting', config: JSON.stringify(authored), panels: 'controls counts configurations' });
    const { page, problems } = await newWatchedPage(browser);
    await page.goto(`${server.url}embed.html?${query}`);
    const widget = page.locator('mha-head-splitting[ready]');
    await widget.waitFor();
    assert.deepEqual(await shownLabels(widget), expectedLabels(authored.start));
    assert.deepEqual(await widget.locator('.config-row').evaluateAll((rows) => rows.map((r) => r.dataset.heads)), ['2', '6']);
    assert.equal(await widget.locator('[data-panel="spectrum"]').isHidden(), true);
    assert.equal(await widget.evaluate((host) => host.state.spectrumHeads), 2);
    assert.throws(() => splitConfig({ start: { heads: 7 } }), /does not divide/);
    assert.throws(() => splitConfig({ spectrumStart: { heads: 3 } }), /one of 1, 2, 4/);
    assert.throws(() => splitConfig({ spectrumStart: { dModel: 16 } }), /unknown field “dModel”/);
    assert.throws(() => splitConfig({ configurations: [{ label: 'x', dModel: 512, heads: 3 }] }), /does not divide/);
    assert.throws(() => splitConfig({ colour: 'red' }), /unknown config field/);
    assert.deepEqual(problems, []);
  });

  test('in a sandboxed frame (no worker allowed) the timing runs on the page and says so', async () => {
    const { page, problems } = await newWatchedPage(browser);
    await page.setContent(`<iframe sandbox="allow-scripts" width="900" height="700" src="${server.url}embed.html?widget=head-splitting"></iframe>`);
    const widget = page.frameLocator('iframe').locator('mha-head-splitting[ready]');
    await widget.waitFor();
    await widget.getByRole('button', { name: 'Measure on this device' }).click();
    await widget.locator('button:enabled', { hasText: 'Measure on this device' }).waitFor({ timeout: 15000 });
    assert.match(await widget.locator('.measure-status').textContent(), /main thread: this frame does not allow a worker/);
    const times = await widget.locator('.config-row .time').allTextContents();
    assert.equal(times.length, 3);
    for (const time of times) assert.ok(Number(time.replace(' ms', '')) > 0, `a positive time, got “${time}”`);
    assert.deepEqual(problems, []);
  });
});
