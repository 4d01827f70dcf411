// Nothing a learner does loses their work (issue 26), as a learner does it in Chromium:
// random sequences of learner actions on the lesson page, real clicks and keys (edits in
// every widget, answers of any text to every kind of problem, widget checks, export and
// import of their own copy, undo of the import, start over, reloads). After each sequence
// what the page shows (every widget's state, every recorded answer with its verdict, the
// progress) must come back exactly after a reload, and after export -> import into another
// profile, whose stored copy must then be the exported text byte for byte.
// MHA_COPY_SEQUENCES sets how many sequences: 15 in `npm test`, 200 in `npm run soak`.
// (The same property over 1,000 sequences at the model level: tests/node/learner-copy-keeps.)
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, test } from 'node:test';
import { buildAllWidgets, downloadedFile, screenshot, useSiteAndBrowser } from './browser.mjs';
import { generator, PROBLEMS } from '../../web/widgets/practice/practice-data.js';
import { STORAGE_KEY } from '../../web/widgets/shared/learner-copy.js';
import { WIDGET_TAGS } from '../../web/widgets/registry.js';

const SEQUENCES = Number(process.env.MHA_COPY_SEQUENCES ?? 15);
const session = useSiteAndBrowser();

// The learner's profile and another one (a second device) that only imports.
let learner;
let other;
after(async () => {
  await learner?.context.close();
  await other?.context.close();
});

async function openProfile() {
  const context = await session.browser.newContext({ viewport: { width: 1100, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (message) => { if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text()); });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  await load(page, () => page.goto(session.server.url));
  return { context, page, problems };
}

const ALL = [...WIDGET_TAGS, 'mha-practice'];
async function load(page, go) {
  await go();
  await buildAllWidgets(page);
  await page.waitForFunction((tags) => [...document.querySelectorAll(tags.join(','))].every((el) => el.hasAttribute('ready')), ALL);
}

// Answers a learner might type: right, wrong, padded, German decimals, words, too long, empty.
const TYPED = ['768', '16', ' 64 ', '\t64   ', '0.5', '0,5', '1e3', 'sixteen', '', '-3', '9'.repeat(80), '12'.padEnd(70, ' '), 'Ω ≈ 4', '4096'];
const KEYS = ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'PageUp', 'PageDown', 'Home', 'End'];
// Controls a learner edits a widget with (never Train: a training run is not an edit).
const CONTROLS = '[role=slider], input[type=range], select, button[role=radio], input[type=radio], input[role=switch], td[tabindex]';

const practiceBlock = (page, problemId) => page.locator(`mha-practice:has(fieldset[data-problem="${problemId}"])`);
const panel = (page) => page.locator('mha-practice:not([idea])');

async function openDetails(locator) {
  // The block's own <details> in its shadow root (a static figure in the light DOM has one too).
  const details = locator.locator('details.practice');
  if (!(await details.evaluate((d) => d.open))) await locator.locator('summary.practice-summary').click();
}

// Marks one visible control of a widget (chosen by the sequence's generator) for a locator.
async function pickControl(page, tag, random) {
  const count = await page.locator(tag).first().evaluate((el, selector) => {
    const visible = [...el.shadowRoot.querySelectorAll(selector)].filter((c) => c.checkVisibility() && !c.disabled && c.getAttribute('aria-disabled') !== 'true');
    for (const c of el.shadowRoot.querySelectorAll('[data-pick]')) delete c.dataset.pick;
    visible.forEach((c, k) => { c.dataset.pick = String(k); });
    return visible.length;
  }, CONTROLS);
  if (count === 0) return null;
  return page.locator(tag).first().locator(`[data-pick="${Math.floor(random() * count)}"]`);
}

async function waitMarked(page, problemId) {
  await page.waitForFunction((id) => {
    for (const block of document.querySelectorAll('mha-practice')) {
      const feedback = block.shadowRoot.querySelector(`fieldset[data-problem="${id}"] p.feedback`);
      if (feedback) return !feedback.classList.contains('busy');
    }
    return false;
  }, problemId);
}

// The learner's actions; each returns a short description for a failure's replay.
const ACTIONS = {
  async editWidget(page, random) {
    const tag = WIDGET_TAGS[Math.floor(random() * WIDGET_TAGS.length)];
    const control = await pickControl(page, tag, random);
    if (!control) return `${tag}: nothing to edit`;
    const kind = await control.evaluate((c) => `${c.localName}${c.getAttribute('role') ? `[${c.getAttribute('role')}]` : ''}`);
    if (kind.startsWith('select')) {
      const values = await control.evaluate((s) => [...s.options].filter((o) => !o.disabled).map((o) => o.value));
      const value = values[Math.floor(random() * values.length)];
      await control.selectOption(value);
      return `${tag}: ${kind} = ${value}`;
    }
    if (kind.startsWith('button') || kind.includes('switch') || kind.startsWith('input[radio]')) {
      await control.click();
      return `${tag}: click ${kind}`;
    }
    const key = KEYS[Math.floor(random() * KEYS.length)];
    await control.focus();
    await page.keyboard.press(key);
    return `${tag}: ${key} on ${kind}`;
  },
  async answer(page, random) {
    const problem = PROBLEMS[Math.floor(random() * PROBLEMS.length)];
    const block = practiceBlock(page, problem.id);
    await openDetails(block);
    const fieldset = block.locator(`fieldset[data-problem="${problem.id}"]`);
    if (problem.kind === 'number') {
      const text = TYPED[Math.floor(random() * TYPED.length)];
      await fieldset.locator('input.answer').fill(text);
      await fieldset.locator('input.answer').press('Enter');
      await waitMarked(page, problem.id);
      return `${problem.id}: typed ${JSON.stringify(text)}`;
    }
    if (problem.kind === 'widget') {
      const claim = random() < 0.5 ? 'Check my widget' : 'It cannot be done';
      await fieldset.getByRole('button', { name: claim }).click();
      await waitMarked(page, problem.id);
      return `${problem.id}: ${claim}`;
    }
    const radios = fieldset.locator('input[type=radio]');
    const k = Math.floor(random() * (await radios.count()));
    await fieldset.locator('label.choice').nth(k).click();
    await fieldset.getByRole('button', { name: problem.kind === 'predict' ? 'Commit and see' : 'Check' }).click();
    await waitMarked(page, problem.id);
    return `${problem.id}: option ${k + 1}`;
  },
  async importOwnExport(page) {
    const file = await exportCopy(page);
    await importCopy(page, file);
    return 'export, then import that file';
  },
  async undoImport(page) {
    const undo = panel(page).getByRole('button', { name: 'Undo the import' });
    if (!(await undo.isVisible())) return 'undo import: nothing to undo';
    await undo.click();
    return 'undo import';
  },
  async startOver(page) {
    await openDetails(panel(page));
    await panel(page).getByRole('button', { name: 'Start over' }).click();
    await panel(page).getByRole('button', { name: 'Yes, start over' }).click();
    return 'start over';
  },
  async reload(page) {
    await load(page, () => page.reload());
    return 'reload';
  },
};
// How often each comes up: mostly edits and answers, as a learner works.
const WEIGHTS = [['editWidget', 10], ['answer', 10], ['importOwnExport', 1], ['undoImport', 1], ['startOver', 1], ['reload', 2]];
const TOTAL_WEIGHT = WEIGHTS.reduce((s, [, w]) => s + w, 0);
function chooseAction(random) {
  let r = random() * TOTAL_WEIGHT;
  for (const [name, weight] of WEIGHTS) {
    r -= weight;
    if (r < 0) return name;
  }
  return WEIGHTS[0][0];
}

async function exportCopy(page) {
  await openDetails(panel(page));
  const [download] = await Promise.all([page.waitForEvent('download'), panel(page).getByRole('button', { name: 'Export my copy' }).click()]);
  return downloadedFile(download);
}

async function importCopy(page, file) {
  await openDetails(panel(page));
  // The message of an earlier import must not be read as this one's.
  await panel(page).locator('p.message').evaluate((p) => { p.textContent = ''; });
  await panel(page).locator('input[type="file"]').setInputFiles(file);
  await page.waitForFunction(() => /^Imported: /.test(document.querySelector('mha-practice:not([idea])').shadowRoot.querySelector('p.message')?.textContent ?? ''));
}

// What the page shows of the learner's work: each widget's state; each answered problem's
// answer as shown (the option picked or the text in the field) and its verdict; the progress.
// Every block is opened first (an answer is put back and marked again when its block opens).
async function shown(page) {
  await page.evaluate(async () => {
    const blocks = [...document.querySelectorAll('mha-practice[idea]')];
    for (const block of blocks) block.details.open = true;
    await new Promise((resolve) => setTimeout(resolve, 0));
    await Promise.all(blocks.map((block) => block.restoring));
  });
  await page.waitForFunction(() => [...document.querySelectorAll('mha-practice')].every((b) => b.shadowRoot.querySelectorAll('p.feedback.busy').length === 0));
  return page.evaluate((tags) => {
    const widgets = Object.fromEntries([...document.querySelectorAll(tags.join(','))].map((el) => [el.stateKey, el.state]));
    const answers = {};
    for (const block of document.querySelectorAll('mha-practice[idea]')) {
      for (const fieldset of block.shadowRoot.querySelectorAll('fieldset[data-problem]')) {
        const feedback = fieldset.querySelector('p.feedback');
        const verdict = feedback.classList.contains('right') ? 'right' : feedback.classList.contains('wrong') && feedback.querySelector('strong') ? 'wrong' : null;
        if (verdict === null) continue;
        answers[fieldset.dataset.problem] = {
          verdict,
          picked: fieldset.querySelector('input[type=radio]:checked')?.value ?? null,
          typed: fieldset.querySelector('input.answer')?.value ?? null,
        };
      }
    }
    const progress = document.querySelector('mha-practice:not([idea])').shadowRoot.querySelector('.progress-total').textContent;
    return { widgets, answers, progress };
  }, WIDGET_TAGS);
}

test(`${SEQUENCES} random sequences of learner actions: a reload, and export -> import in another profile, show exactly what was shown`, async () => {
  learner = await openProfile();
  other = await openProfile();
  const counts = {};
  let actions = 0;
  for (let sequence = 0; sequence < SEQUENCES; sequence += 1) {
    const random = generator(0x5eed + sequence);
    const steps = [];
    const length = 3 + Math.floor(random() * 6);
    for (let k = 0; k < length; k += 1) {
      const name = chooseAction(random);
      counts[name] = (counts[name] ?? 0) + 1;
      steps.push(await ACTIONS[name](learner.page, random));
      actions += 1;
    }
    const replay = `sequence ${sequence}: ${steps.join('; ')}`;
    const before = await shown(learner.page);

    await load(learner.page, () => learner.page.reload());
    const reloaded = await shown(learner.page);
    // Every answer shown with its verdict comes back as it was; a field that shows a refusal
    // ("Ω ≈ 4" is not a number) was never an answer, and shows the last one checked instead.
    const { answers: shownAnswers, ...rest } = before;
    const { answers: reloadedAnswers, ...reloadedRest } = reloaded;
    assert.deepEqual(reloadedRest, rest, `a reload after ${replay}`);
    for (const [id, answer] of Object.entries(shownAnswers)) assert.deepEqual(reloadedAnswers[id], answer, `${id}: a reload after ${replay}`);
    const file = await exportCopy(learner.page);
    const exported = readFileSync(file, 'utf8');
    assert.deepEqual(Object.keys(reloadedAnswers).sort(), Object.keys(JSON.parse(exported).answers).sort(), `every answer in the copy is shown: ${replay}`);

    await importCopy(other.page, file);
    assert.deepEqual(await shown(other.page), reloaded, `export -> import after ${replay}`);
    assert.equal(await other.page.evaluate((key) => localStorage.getItem(key), STORAGE_KEY), exported, replay);
  }
  await screenshot(learner.page, 'copy-property-last', { fullPage: false }); // where the learner was
  console.log(`${SEQUENCES} sequences, ${actions} actions: ${JSON.stringify(counts)}`);
  assert.deepEqual(learner.problems, []);
  assert.deepEqual(other.problems, []);
});
