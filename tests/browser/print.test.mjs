// Print: the lesson on paper. With the live widgets loaded, print media shows no button,
// slider or field anywhere (page or widgets), each widget prints as its static figure,
// redrawn for its current state, figures and formulas do not split across pages, links
// print their address, and the A4 PDF is at most 7 pages (it was 13 to 15 before print
// styles). Screenshots: test-results/screenshots/print-*.png (print media at A4's width).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { before, test } from 'node:test';
import { buildAllWidgets, pageTurns, screenshot, useCourseSite, useSiteAndBrowser } from './browser.mjs';
import { loadTestEngine, loadTestTrainingEngine } from '../node/load-engine.mjs';
import { WIDGETS } from '../../web/widgets/registry.js';
import { LIVE_NOTE, STATIC_NOTE } from '../../web/widgets/shared/static-figure.js';
import { formatPercent } from '../../web/text/format.js';
import { IDEAS, blockProblems, parseKinds, shownText } from '../../web/widgets/practice/practice-data.js';
import { THE_WORLD } from '../../web/widgets/shared/world.js';
import { BlendModel } from '../../web/widgets/blend/blend-model.js';
import { SplitModels, splitConfig, startingState as startingSplit } from '../../web/widgets/head-splitting/head-splitting-model.js';

const session = useSiteAndBrowser();
// An author's page: a widget with only their fallback text, one whose element also holds the
// build's figure (what the lesson's build writes when the author put a fallback inside), and
// one far below the fold, which is not built until the page is printed.
const FALLBACK = '<p class="fallback">This interactive figure needs JavaScript.</p>';
const course = useCourseSite({ mount: 'mha', prefix: 'mha-print-' });
async function writeAuthorPage() {
  const { addStaticFigures } = await import('../../scripts/lib/lesson-plugin.mjs');
  course.write('print.css', '.spacer { height: 6000px; }');
  course.write('page.html', `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Print</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="print.css"><script type="module" src="mha/multiple-heads.js"></script></head>
<body><main><h1>Print</h1>
<mha-blend id="fallback-only">${FALLBACK}</mha-blend>
${await addStaticFigures(`<mha-wo-mixing id="with-figure">${FALLBACK}</mha-wo-mixing>`)}
<div class="spacer"></div>
<mha-layer id="far"></mha-layer>
</main></body></html>`);
}
const STATIC = Object.entries(WIDGETS)
  .filter(([name]) => existsSync(new URL(`../../web/widgets/${name}/${name}-static.js`, import.meta.url)))
  .map(([name, widget]) => ({ name, tag: widget.tag }));
const MAX_PAGES = 7;

let engine;
before(async () => {
  engine = await loadTestEngine('simd');
});

// The lesson's tests take turns with one page (pageTurns): a new document each, nothing
// stored, print media off again.
const turn = pageTurns(() => session.browser);
/** The lesson with every widget loaded, at A4's printable width (210 mm − 2 × 14 mm). */
async function loadedLesson() {
  const { page } = await turn(session.server.url, { width: 688, height: 1000 });
  await buildAllWidgets(page);
  for (const tag of Object.values(WIDGETS).map((widget) => widget.tag)) {
    if (await page.locator(tag).count()) await page.locator(`${tag}[ready]`).first().waitFor({ timeout: 60000 });
  }
  return page;
}

/** Every visible form control, in the page and inside every widget's shadow root. */
function visibleControls(page) {
  return page.evaluate(() => {
    const found = [];
    const visit = (root, where) => {
      for (const el of root.querySelectorAll('button, input, select, textarea, progress')) {
        if (el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden') found.push(`${where} ${el.localName}[${el.type ?? ''}] “${(el.getAttribute('aria-label') ?? el.textContent).trim().slice(0, 30)}”`);
      }
      for (const host of root.querySelectorAll('*')) if (host.shadowRoot) visit(host.shadowRoot, host.localName);
    };
    visit(document, 'page');
    return found;
  });
}

test('print media: no form controls anywhere; each widget prints its figure, not the live widget', async () => {
  const page = await loadedLesson();
  assert.ok((await visibleControls(page)).length > 0, 'the live page has controls (else this test proves nothing)');
  await page.emulateMedia({ media: 'print' });
  assert.deepEqual(await visibleControls(page), []);
  const widgets = await page.evaluate((list) => list.map(({ name, tag }) => {
    const element = document.querySelector(tag);
    const figure = element.querySelector(`:scope > figure[data-static-figure="${name}"]`);
    const live = element.shadowRoot.querySelector('.widget');
    return { name, figure: figure?.getBoundingClientRect().height ?? 0, live: getComputedStyle(live).display };
  }), STATIC);
  for (const widget of widgets) {
    assert.ok(widget.figure > 100, `${widget.name}: its figure prints (${widget.figure}px)`);
    assert.equal(widget.live, 'none', `${widget.name}: the live widget does not print`);
  }
  // Figures and display math are kept whole on a page.
  const breaks = await page.evaluate(() => [...document.querySelectorAll('.math-display, figure.mha-static')]
    .map((el) => getComputedStyle(el).breakInside));
  assert.ok(breaks.length > 5 && breaks.every((value) => value === 'avoid'), breaks.join(' '));
  // Colours print with "background graphics" off (Chromium's default): the figures' bars and
  // cells, the head chips in the prose, and inside the widgets' shadow trees (issue 22).
  const adjust = await page.evaluate(() => [
    document.querySelector('.head-chip'), document.querySelector('figure.mha-static svg'),
    document.querySelector('mha-blend').shadowRoot.querySelector('.widget'),
  ].map((el) => getComputedStyle(el).printColorAdjust));
  assert.deepEqual(adjust, ['exact', 'exact', 'exact']);
  // Signs in the static figures are the live widgets' colours: positive red, negative blue.
  const signs = await page.evaluate(() => ['pos', 'neg'].map((cls) => {
    const shape = document.querySelector(`figure.mha-static .${cls}`);
    return shape ? getComputedStyle(shape).fill : null;
  }));
  assert.deepEqual(signs, ['rgb(184, 58, 58)', 'rgb(47, 100, 179)']);
  await screenshot(page, 'print-lesson', { fullPage: false });
});

test('print media: a widget prints its current state (the figure is redrawn by the core after a change)', async () => {
  const page = await loadedLesson();
  const w = THE_WORLD;
  // All of "said"'s budget on the subject: the one head answers "who?" and loses "what?".
  const budget = w.tokens.map((_, t) => (t === w.subjectIndex ? 1 : 0));
  const model = new BlendModel(engine, w);
  let expected;
  try {
    expected = model.compute({ budget }).one;
  } finally {
    model.dispose();
  }
  await page.evaluate((state) => document.querySelector('mha-blend').setState(state), { budget });
  await page.waitForFunction(() => document.querySelector('mha-blend > figure .mha-static-note')?.textContent.startsWith('Printed'));
  await page.emulateMedia({ media: 'print' });
  const figure = page.locator('mha-blend > figure');
  assert.equal(await figure.locator('.mha-static-note').textContent(), LIVE_NOTE);
  // After the line on the page's own sentence: the one head's counts.
  const one = (await figure.locator('.mha-static-readouts li').nth(1).textContent()).replace(/\s+/g, ' ');
  assert.match(one, new RegExp(`who said it\\? ${expected.subjectCorrect} of ${expected.total}; what was said\\? ${expected.complementCorrect} of ${expected.total}`));
  assert.ok((await figure.locator('svg').getAttribute('aria-label')).includes(`${w.tokens[w.subjectIndex]} 1.00`));
  await screenshot(figure, 'print-blend-current-state');
  // Printed right after an edit (before the redraw is due): beforeprint draws it at once.
  const even = w.tokens.map(() => 1 / w.L);
  const drawn = await page.evaluate((state) => {
    document.querySelector('mha-blend').setState(state);
    window.dispatchEvent(new Event('beforeprint'));
    return document.querySelector('mha-blend > figure svg').getAttribute('aria-label');
  }, { budget: even });
  assert.ok(drawn.includes(`${w.tokens[w.subjectIndex]} ${(1 / w.L).toFixed(2)}`), drawn);
});

// The head splitting's figure is redrawn with the live widget's own models (their cached
// counts, issue 25): what it prints must still be the core's counts for the widget's state.
test('print media: the head splitting prints the core’s counts for the learner’s sequence length', async () => {
  const page = await loadedLesson();
  const state = { ...startingSplit(splitConfig()), seqLen: 32 };
  const models = new SplitModels(engine, splitConfig());
  let table;
  try {
    table = models.compute(state).table;
  } finally {
    models.dispose();
  }
  await page.evaluate((s) => document.querySelector('mha-head-splitting').setState(s), state);
  await page.waitForFunction(() => document.querySelector('mha-head-splitting > figure .mha-static-note')?.textContent.startsWith('Printed'));
  await page.emulateMedia({ media: 'print' });
  const text = (await page.locator('mha-head-splitting > figure .mha-static-table').textContent()).replace(/\s+/g, ' ');
  const count = (n) => n.toLocaleString('en-US');
  for (const row of table) {
    assert.ok(text.includes(count(row.counts.attention)) && text.includes(count(row.counts.exponentials)),
      `${row.config.numHeads} × ${row.config.dK}: ${count(row.counts.attention)} and ${count(row.counts.exponentials)} in “${text.slice(0, 300)}”`);
  }
  // At the starting L the exp() counts differ: the figure really moved to L = 32.
  const start = new SplitModels(engine, splitConfig());
  try {
    const startExps = start.compute(startingSplit(splitConfig())).table.map((row) => count(row.counts.exponentials));
    assert.ok(startExps.some((n) => !text.includes(n)), 'the starting length’s counts are gone');
  } finally {
    start.dispose();
  }
});

test('print media: each practice block prints its questions with the right answer and reason, not the live block', async () => {
  const page = await loadedLesson();
  await page.emulateMedia({ media: 'print' });
  const blocks = await page.evaluate(() => [...document.querySelectorAll('mha-practice[idea]')].map((element) => {
    const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
    const figure = element.querySelector(':scope > [data-static-figure="practice"]');
    return {
      idea: element.getAttribute('idea'),
      kinds: element.getAttribute('kinds'),
      live: getComputedStyle(element.shadowRoot.querySelector('.widget')).display,
      prompts: [...figure.querySelectorAll('.mha-static-prompt')].filter(shown).map((el) => el.textContent),
      // The right answer (a choice's "Right:", a number's "The answer:", a task's verdict) shows;
      // the wrong options' reasons and the "Answer and reason" summaries do not.
      answers: [...figure.querySelectorAll('details.mha-static-answer')].map((box) => [...box.children].filter(shown).map((el) => el.textContent).join(' ')),
      hidden: [...figure.querySelectorAll('.mha-static-wrong, details.mha-static-answer > summary')].filter(shown).length,
    };
  }));
  // One block per idea, and two ideas' predictions in a block of their own before the widget.
  assert.equal(blocks.length, 9);
  assert.deepEqual([...new Set(blocks.map((block) => block.idea))].sort(), IDEAS.map((idea) => idea.id).sort());
  for (const block of blocks) {
    const problems = blockProblems(block.idea, parseKinds(block.kinds).kinds).map(({ problem }) => problem);
    assert.equal(block.live, 'none', `${block.idea}: the live block does not print`);
    assert.deepEqual(block.prompts.map((t) => t.replace(/\s+/g, ' ').trim()), problems.map((p) => shownText(p.prompt).replace(/\s+/g, ' ').trim()));
    block.answers.forEach((answer, k) => {
      assert.match(answer, /^(Right: |The answer: |It can(not)? be done\. )/, `${problems[k].id}: its answer prints (“${answer.slice(0, 80)}”)`);
      assert.ok(answer.length > 40, `${problems[k].id}: with its reason`);
    });
    assert.equal(block.hidden, 0, `${block.idea}: wrong options' reasons and summaries are not printed`);
  }
  await screenshot(page.locator('mha-practice[idea="same-arithmetic"]:not([kinds="predict"])'), 'print-practice');
});

test('print media: the training figure prints the lesson’s comparison with the core’s numbers, also after the learner changes the widget', async () => {
  const training = await loadTestTrainingEngine('simd');
  const { steps } = training.defaultTrainingConfig('back-and-first');
  const expected = [1, 2, 4].map((heads) => {
    const trainer = training.createTrainer({ task: 'back-and-first', numHeads: heads }, 1);
    try {
      trainer.step(steps);
      return trainer.evaluate().outputAccuracy.map((a) => formatPercent(a, 1));
    } finally {
      trainer.delete();
    }
  });
  const page = await loadedLesson();
  // A change in the widget: the figure cannot be trained again in the browser, so the build's
  // comparison stays, with the build's note (not "the widget's state when printed").
  const FIGURE = 'mha-training > figure[data-static-figure="training"]';
  await page.evaluate((selector) => {
    document.querySelector(selector).dataset.drawnBefore = ''; // the figure drawn before the edit, marked
    document.querySelector('mha-training').setState({ task: 'previous-token', heads: 4, seed: 7, off: [] });
  }, FIGURE);
  // The redraw after the edit replaces the figure once the page is idle.
  await page.waitForFunction((selector) => !('drawnBefore' in document.querySelector(selector).dataset), FIGURE);
  await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
  await page.emulateMedia({ media: 'print' });
  const figure = page.locator(FIGURE);
  assert.ok((await figure.boundingBox()).height > 100);
  assert.equal(await figure.locator('.mha-static-note').textContent(), STATIC_NOTE);
  const drawn = (await figure.locator('svg').first().locator('text').allTextContents()).filter((t) => /^\d+\.\d%$/.test(t));
  assert.deepEqual(drawn, expected.flat());
  const box = await figure.boundingBox();
  assert.ok(box.width <= 688 + 1, `the figure fits the printed width (${box.width}px)`);
  await screenshot(figure, 'print-training');
});

test('print media: links print their address', async () => {
  const page = await loadedLesson();
  await page.emulateMedia({ media: 'print' });
  const content = await page.evaluate(() => {
    const link = Object.assign(document.createElement('a'), { href: 'https://example.org/attention', textContent: 'a paper' });
    document.querySelector('.lesson p').append(link);
    return getComputedStyle(link, '::after').content;
  });
  assert.ok(content.includes('https://example.org/attention'), `the link prints ${content}`);
});

test(`the lesson prints on at most ${MAX_PAGES} A4 pages`, async () => {
  const page = await loadedLesson();
  const pdf = await page.pdf({ format: 'A4' });
  // Each page of Chromium's PDF is one "/Type /Page" object (the tree is "/Type /Pages").
  const pages = (pdf.toString('latin1').match(/\/Type\s*\/Page(?![a-z])/g) ?? []).length;
  console.log(`A4 pages: ${pages}`);
  assert.ok(pages >= 2, `a PDF of ${pages} pages cannot be the lesson`);
  assert.ok(pages <= MAX_PAGES, `the lesson prints on ${pages} A4 pages (at most ${MAX_PAGES})`);
});

test('an author’s fallback never prints in place of the widget; the figure prints; every widget is built for print', async () => {
  await writeAuthorPage();
  const page = await course.browser.newPage({ viewport: { width: 1000, height: 800 } });
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // The core held back: first the page as it looks while the widgets load.
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  await page.route('**/*.wasm', async (route) => { await held; await route.continue(); });
  await page.goto(`${course.url}page.html`);
  const look = () => page.evaluate(() => Object.fromEntries(['fallback-only', 'with-figure', 'far'].map((id) => {
    const element = document.getElementById(id);
    const shown = (el) => Boolean(el) && el.getClientRects().length > 0;
    return [id, {
      ready: element.hasAttribute('ready'),
      fallback: shown(element.querySelector(':scope > .fallback')),
      figure: shown(element.querySelector(':scope > [data-static-figure]')),
      live: getComputedStyle(element.shadowRoot.querySelector('.widget')).display !== 'none',
    }];
  })));
  await page.waitForFunction(() => document.getElementById('with-figure').shadowRoot?.querySelector('.loading'));
  const loading = await look();
  assert.deepEqual([loading['with-figure'].figure, loading['with-figure'].fallback], [true, false], 'loading: the figure stands in, the fallback does not show');
  assert.equal(loading['fallback-only'].fallback, true, 'loading: without a figure the author’s fallback shows');
  release();
  await page.locator('#with-figure[ready]').waitFor();
  await page.locator('#fallback-only[ready]').waitFor();
  const screen = await look();
  assert.equal(screen.far.ready, false, 'the widget far below the fold is not built yet');
  for (const id of ['fallback-only', 'with-figure']) assert.deepEqual(screen[id], { ready: true, fallback: false, figure: false, live: true }, id);
  // Printing (Chromium's PDF fires beforeprint) builds every widget first.
  await page.pdf({ format: 'A4' });
  assert.equal(await page.evaluate(() => document.getElementById('far').hasAttribute('ready')), true, 'printing built the far widget');
  await page.emulateMedia({ media: 'print' });
  const paper = await look();
  assert.deepEqual(paper['fallback-only'], { ready: true, fallback: false, figure: false, live: true }, 'without a figure the widget itself prints, not the fallback');
  assert.deepEqual(paper['with-figure'], { ready: true, fallback: false, figure: true, live: false }, 'the figure prints, not the fallback');
  await screenshot(page, 'print-author-page');
  assert.deepEqual(errors, []);
  await page.close();
});
