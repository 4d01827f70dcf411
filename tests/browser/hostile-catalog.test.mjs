// A course's locale catalog reaches the live widgets as text, never as markup (issue 26), in
// real Chromium. A course author's page registers (registerLocale, docs/EMBEDDING.md) a
// catalog in which every string of en.json starts with `<img src=x onerror=…><b data-hostile>`,
// then puts every widget on the page in that language: each lesson widget (with a figure to
// redraw for print), the practice copy panel, and every idea's practice block. Interactions
// bring out the catalog's rarer strings: field errors, verdicts, notices for a bad state
// attribute, a bad link, unknown panels, a bad config, an unknown idea and a bad imported copy,
// training and measuring status lines. Then, walking the document and every shadow root, not
// one element and not one `on…` attribute came from the catalog and the handler never ran: on
// screen, in print media (each widget's figure redrawn from the catalog), and after a PDF.
//
// Twice: under the strict CSP the lesson is made for, where an injected handler would be
// blocked but reported as a violation (a page problem), and with no CSP at all, where an
// injected handler would run and count in window.__hacked. The catalog's text is found in
// every widget, so the walk cannot pass by finding nothing. The static figures built in Node
// from the same kind of catalog: tests/node/hostile-catalog.test.mjs.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { buildAllWidgets, newWatchedPage, screenshot, useCourseSite } from './browser.mjs';
import { WIDGETS } from '../../web/widgets/registry.js';

// The whole English UI: the lesson's groups and the kit's (web/ui/locales: the ui group).
const en = {
  ...JSON.parse(readFileSync(new URL('../../lessons/multiple-heads/locales/en.json', import.meta.url))),
  ...JSON.parse(readFileSync(new URL('../../web/ui/locales/en.json', import.meta.url))),
};
const practice = JSON.parse(readFileSync(new URL('../../lessons/multiple-heads/practice.json', import.meta.url)));

const MOUNT = 'course/attention';
const LANG = 'xx';
// Markup that does something if parsed: an element to find, and a handler that counts its runs
// (the image `x` does not exist, so onerror fires wherever inline handlers may run).
const ATTACK = '<img src=x onerror="window.__hacked=(window.__hacked||0)+1"><b data-hostile>';
const ATTACK_TEXT = '<img src=x';

/** Every string of a catalog with the attack before it; placeholders and plural forms kept. */
const hostile = (entry) => (typeof entry === 'string' ? `${ATTACK}${entry}`
  : Object.fromEntries(Object.entries(entry).map(([key, value]) => [key, hostile(value)])));
const countStrings = (entry) => (typeof entry === 'string' ? 1 : Object.values(entry).reduce((n, value) => n + countStrings(value), 0));
const HOSTILE_CATALOG = hostile(en);
const CATALOG_STRINGS = countStrings(en);

// What the author's page holds, in order: { tag, attributes, figure } (figure: the widget's
// name, for an empty static figure the widget redraws for print from its renderer).
const LESSON_WIDGETS = Object.entries(WIDGETS).map(([name, { tag }]) => ({ tag, attributes: { lang: LANG }, figure: name }));
const NOTICE_WIDGETS = [
  // A state attribute that is not a state, and panel names the widget does not have: notices.
  { tag: 'mha-blend', attributes: { lang: LANG, 'state-key': 'blend-notices', state: '{"mode":"<b>x</b>"}', panels: 'Plane nowhere' } },
  // A config that is not JSON: the widget says so instead of building.
  { tag: 'mha-wo-mixing', attributes: { lang: LANG, 'state-key': 'wo-bad-config', config: '{' } },
  // An idea the lesson does not have.
  { tag: 'mha-practice', attributes: { lang: LANG, idea: 'nowhere' } },
];
const PRACTICE_BLOCKS = [
  { tag: 'mha-practice', attributes: { lang: LANG } }, // the copy panel
  ...practice.ideas.map(({ id }) => ({ tag: 'mha-practice', attributes: { lang: LANG, idea: id } })),
];
const PAGE_WIDGETS = [...LESSON_WIDGETS, ...NOTICE_WIDGETS, ...PRACTICE_BLOCKS];
// The widgets whose figure the browser redraws for print. Not the training's: its figure is a
// training run made by the lesson's build, which the browser does not repeat (its renderer
// throws there, see training-static.js), so an author's empty figure stays empty.
const REDRAWN_FIGURES = LESSON_WIDGETS.filter(({ tag }) => tag !== 'mha-training').map(({ tag }) => tag);
// The layer's entry in the address is not JSON: a link notice.
const BAD_LINK = '?mha.layer=%7Bnot-json';

// The author's script: a separate file, since the strict CSP forbids inline scripts.
const AUTHOR_SCRIPT = `import { registerLocale } from './${MOUNT}/multiple-heads.js';

const PAGE_WIDGETS = ${JSON.stringify(PAGE_WIDGETS)};
registerLocale(${JSON.stringify(LANG)}, await (await fetch('hostile-catalog.json')).json());
const main = document.querySelector('main');
for (const { tag, attributes, figure } of PAGE_WIDGETS) {
  const widget = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) widget.setAttribute(name, value);
  if (figure) {
    const placeholder = document.createElement('figure');
    placeholder.className = 'mha-static';
    placeholder.dataset.staticFigure = figure;
    widget.append(placeholder);
  }
  main.append(widget);
}
`;
const AUTHOR_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A course in a hostile language</title>
<link rel="icon" href="data:,">
<script type="module" src="author.js"></script></head>
<body><main><h1>Week 6, in a catalog that carries markup</h1></main></body></html>`;
const SITE_FILES = {
  'index.html': AUTHOR_PAGE,
  'author.js': AUTHOR_SCRIPT,
  'hostile-catalog.json': JSON.stringify(HOSTILE_CATALOG),
};

/**
 * Walks the document and every open shadow root (recursively): elements and handlers that came
 * from the catalog, how many elements and text nodes were seen, the text nodes and attribute
 * values holding the catalog's literal markup, and each widget's count of such text nodes.
 */
function walkForCatalogMarkup(attackText) {
  const found = { elements: 0, textNodes: 0, attackTextNodes: 0, attackAttributes: 0, injected: [], handlers: [], attackTextByWidget: {} };
  const outline = (el) => `<${el.localName}${[...el.attributes].map((a) => ` ${a.name}="${a.value.slice(0, 40)}"`).join('')}>`;
  const visit = (root, widget) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.nodeType === Node.TEXT_NODE) {
        found.textNodes++;
        if (node.data.includes(attackText)) {
          found.attackTextNodes++;
          if (widget) found.attackTextByWidget[widget] = (found.attackTextByWidget[widget] ?? 0) + 1;
        }
        continue;
      }
      found.elements++;
      if (node.localName === 'img' || node.hasAttribute('data-hostile')) found.injected.push(`${widget ?? 'page'}: ${outline(node)}`);
      for (const attribute of node.attributes) {
        if (attribute.name.toLowerCase().startsWith('on')) found.handlers.push(`${widget ?? 'page'}: ${attribute.name} on ${outline(node)}`);
        if (attribute.value.includes(attackText)) found.attackAttributes++;
      }
      // A widget on the page is named by its tag and its distinguishing attribute.
      const name = node.parentNode?.localName === 'main' && node.localName.startsWith('mha-')
        ? `${node.localName}${['idea', 'state-key'].map((a) => (node.hasAttribute(a) ? `[${a}=${node.getAttribute(a)}]` : '')).join('')}`
        : widget;
      if (node.shadowRoot) visit(node.shadowRoot, name);
      // The element's light-DOM children (a static figure) belong to it too.
      if (name !== widget) {
        const inner = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
        for (let text = inner.nextNode(); text; text = inner.nextNode()) {
          if (text.data.includes(attackText)) found.attackTextByWidget[name] = (found.attackTextByWidget[name] ?? 0) + 1;
        }
      }
    }
  };
  visit(document, null);
  found.hacked = window.__hacked;
  return found;
}

/** The walk, with the assertions every moment shares; returns its counts. */
async function assertNoMarkupFromCatalog(page, moment) {
  const found = await page.evaluate(walkForCatalogMarkup, ATTACK_TEXT);
  assert.deepEqual(found.injected, [], `${moment}: elements from the catalog`);
  assert.deepEqual(found.handlers, [], `${moment}: handler attributes`);
  assert.equal(found.hacked, undefined, `${moment}: the catalog's handler ran`);
  // Not vacuous: the catalog's markup arrived, as text, in every widget on the page.
  assert.ok(found.attackTextNodes > 0, `${moment}: the catalog's text is on the page`);
  const widgets = await page.evaluate(() => document.querySelectorAll('main > [lang]').length);
  assert.equal(Object.keys(found.attackTextByWidget).length, widgets,
    `${moment}: the catalog's text in each of the ${widgets} widgets (${Object.keys(found.attackTextByWidget).join(', ')})`);
  return found;
}

/** Clicks every visible element `locator` matches that is still there, one by one. */
async function clickEach(locator) {
  const count = await locator.count();
  for (let k = 0; k < count; k++) {
    const target = locator.nth(k);
    if (await target.isVisible() && await target.isEnabled()) await target.click();
  }
  return count;
}

/** Interactions that bring the catalog's messages out: errors, verdicts, statuses. */
async function bringOutMessages(page) {
  // Every closed <details> (the practice blocks, the copy panel, exact values, notes) opened.
  const closed = page.locator('details:not([open]) > summary').filter({ visible: true });
  for (let opened = 0; await closed.count() > 0; opened++) {
    assert.ok(opened < 200, 'details keep closing');
    await closed.first().click();
  }
  // The widgets' own buttons that show more (exact values) and run things.
  const widget = (tag) => page.locator(`main > ${tag}[lang]:not([state-key])`);
  await widget('mha-wo-mixing').getByRole('button', { name: /Show the numbers$/ }).click();
  await widget('mha-heads-questions').getByRole('button', { name: /Show values$/ }).click();
  await widget('mha-heads-questions').locator('input.head-radio').nth(1).check();
  await widget('mha-layer').getByRole('radio', { name: /researcher \(word 2\)$/ }).click();
  await widget('mha-layer').getByRole('radio', { name: /Gist$/ }).click();
  await widget('mha-wo-mixing').getByRole('radio', { name: /“it”, word 8$/ }).click();
  await widget('mha-wo-mixing').getByRole('gridcell').filter({ visible: true }).first().press('+');
  // Measuring on this device, cancelled: its status lines.
  const splitting = widget('mha-head-splitting');
  await splitting.getByRole('button', { name: /Measure on this device$/ }).click();
  const cancel = splitting.getByRole('button', { name: /Cancel$/ });
  if (await cancel.isEnabled()) await cancel.click();
  // Training, a few steps, then paused: its progress and status lines.
  const training = widget('mha-training');
  await training.getByRole('button', { name: /Train$/ }).click();
  await page.waitForFunction(() => (document.querySelector('mha-training').lastLook?.steps ?? 0) >= 1, null, { timeout: 30000 });
  await training.getByRole('button', { name: /Pause$/ }).click();
  await page.waitForFunction(() => document.querySelector('mha-training').phase === 'paused');
  // Sliders: a few keys on the first visible ones of each widget.
  for (const { tag } of LESSON_WIDGETS) {
    const sliders = widget(tag).getByRole('slider').filter({ visible: true });
    for (let k = 0; k < Math.min(2, await sliders.count()); k++) {
      for (const key of ['ArrowRight', 'PageUp', 'End', 'Home']) await sliders.nth(k).press(key);
    }
  }
  // Every number field, in the widgets and the practice problems: refused texts (each says
  // why as it is typed), then Enter.
  const fields = page.locator('input.ui-num:not([readonly]), input.answer').filter({ visible: true });
  const fieldCount = await fields.count();
  for (let k = 0; k < fieldCount; k++) {
    for (const typed of ['', 'abc', '0,5', '9'.repeat(400), '1e999']) await fields.nth(k).fill(typed);
    await fields.nth(k).press('Enter');
  }
  // Practice: each question's check without an answer, then with its first option; each
  // widget goal checked and said to be impossible (the verdicts and their reasons).
  const problem = (kinds) => page.locator(kinds.map((kind) => `mha-practice fieldset.problem[data-kind=${kind}]`).join(', '));
  const questionChecks = problem(['choose', 'predict']).locator('.check-row button:not(.secondary)');
  await clickEach(questionChecks);
  const firstOptions = problem(['choose', 'predict']).locator('.choices-list label:first-child input');
  for (let k = 0; k < await firstOptions.count(); k++) await firstOptions.nth(k).check();
  await clickEach(questionChecks);
  await clickEach(problem(['widget']).locator('.check-row button').filter({ hasText: /(Check my widget|It cannot be done)$/ }));
  // The copy panel: a copy that is not JSON imported, an export, and Start over declined.
  const copyPanel = page.locator('main > mha-practice[lang]:not([idea])');
  await copyPanel.locator('input[type=file]').setInputFiles({ name: 'not-a-copy.json', mimeType: 'application/json', buffer: Buffer.from('{ not json') });
  const download = page.waitForEvent('download');
  await copyPanel.getByRole('button', { name: /Export my copy$/ }).click();
  await download;
  await copyPanel.getByRole('button', { name: /Start over$/ }).click();
  await copyPanel.getByRole('button', { name: /Keep my work$/ }).click();
  return fieldCount;
}

for (const { policy, csp } of [{ policy: 'the strict CSP', csp: undefined }, { policy: 'no CSP', csp: null }]) {
  describe(`a hostile locale catalog, under ${policy}`, () => {
    const course = useCourseSite({ mount: MOUNT, prefix: 'mha-hostile-catalog-', files: SITE_FILES, csp });

    test(`every widget in the catalog's language: no element or handler from it, on screen, in print and in a PDF (${policy})`, async (t) => {
      const started = Date.now();
      const { page, problems } = await newWatchedPage(course.browser);
      page.setDefaultTimeout(10000);
      const response = await page.goto(`${course.url}${BAD_LINK}`);
      // The page's script adds the widgets; then each is brought into view to be built.
      await page.waitForFunction((count) => document.querySelectorAll('main > [lang]').length === count, PAGE_WIDGETS.length, { timeout: 60000 });
      await buildAllWidgets(page);
      assert.equal(response.headers()['content-security-policy'] === undefined, csp === null, 'the policy the server sends');
      await page.waitForFunction((count) => {
        const widgets = [...document.querySelectorAll('main > [lang]')];
        return widgets.length === count && widgets.every((w) => w.hasAttribute('ready') || w.shadowRoot?.querySelector('.error'));
      }, PAGE_WIDGETS.length, { timeout: 60000 });
      const fieldCount = await bringOutMessages(page);

      // The notices the page's bad link, state, panels, config and idea call for are shown.
      const withNotices = await page.evaluate(() => [...document.querySelectorAll('main > [lang]')]
        .filter((w) => [...w.shadowRoot.querySelectorAll('.notice:not([hidden]), .error')].some((el) => el.textContent.trim() !== ''))
        .map((w) => `${w.localName}${w.hasAttribute('idea') ? `[idea=${w.getAttribute('idea')}]` : ''}${w.hasAttribute('state-key') ? `[state-key=${w.getAttribute('state-key')}]` : ''}`));
      assert.deepEqual(withNotices, ['mha-layer', 'mha-blend[state-key=blend-notices]', 'mha-wo-mixing[state-key=wo-bad-config]', 'mha-practice[idea=nowhere]']);
      const onScreen = await assertNoMarkupFromCatalog(page, 'on screen');
      if (csp !== null) await screenshot(page, 'hostile-catalog', { fullPage: false });

      // Print: each lesson widget's figure, redrawn from the catalog for its current state
      // (the core runs the widget's static renderer and the widget parses its HTML).
      await page.evaluate(() => {
        for (const widget of document.querySelectorAll('main > [lang][ready]')) if (widget.setState) widget.setState(widget.state);
      });
      await page.waitForFunction(({ tags, note }) => tags.every((tag) => document.querySelector(`main > ${tag}`)
        .querySelector(':scope > [data-static-figure] .mha-static-note')?.textContent === note),
      { tags: REDRAWN_FIGURES, note: HOSTILE_CATALOG.staticFigure.liveNote }, { timeout: 20000 });
      // Printed right after an edit: beforeprint redraws every changed figure at once.
      await page.evaluate(() => {
        for (const widget of document.querySelectorAll('main > [lang][ready]')) if (widget.setState) widget.setState(widget.state);
      });
      await page.emulateMedia({ media: 'print' });
      await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
      const printedFigures = await page.evaluate(({ tags, attackText }) => tags.filter((tag) => {
        const figure = document.querySelector(`main > ${tag} > [data-static-figure]`);
        return figure.getClientRects().length > 0 && figure.textContent.includes(attackText);
      }), { tags: REDRAWN_FIGURES, attackText: ATTACK_TEXT });
      assert.deepEqual(printedFigures, REDRAWN_FIGURES, 'each widget prints its figure, redrawn in the catalog’s text');
      const inPrint = await assertNoMarkupFromCatalog(page, 'in print media');
      const pdf = await page.pdf({ format: 'A4' });
      assert.ok(pdf.length > 10000, `a PDF of ${pdf.length} bytes`);
      const afterPdf = await assertNoMarkupFromCatalog(page, 'after a PDF');

      assert.deepEqual(problems, []);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      t.diagnostic(`${policy}: ${PAGE_WIDGETS.length} widgets, ${CATALOG_STRINGS} catalog strings, ${fieldCount} number fields; `
        + `on screen ${onScreen.elements} elements, ${onScreen.textNodes} text nodes, ${onScreen.attackTextNodes} with the catalog's markup as text `
        + `(+${onScreen.attackAttributes} attribute values); in print ${inPrint.elements}/${inPrint.attackTextNodes}; after the PDF `
        + `${afterPdf.elements}/${afterPdf.attackTextNodes}; ${seconds} s`);
      await page.close();
    });
  });
}
