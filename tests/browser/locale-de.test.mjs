// Every widget in German, in Chromium: the lesson page with <html lang="de">, and one widget
// with lang="de" on an English page. Walks every widget's shadow tree (text, aria-label,
// aria-description, aria-valuetext, title, placeholder, live regions) and finds no English
// UI string left (token text, notation such as W_Q or d_model, and the lesson's prose are
// allowed), numbers with decimal commas and no decimal point, and a number field that
// accepts "0,45" and refuses "0.45" with a German message. English stays English.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildAllWidgets, newWatchedPage, pageTurns, screenshot, useSiteAndBrowser } from './browser.mjs';
import { THE_WORLD as w } from '../../web/widgets/shared/world.js';
import { englishIn, hasDecimalPoint } from '../node/english-words.mjs';
import { axeViolations } from './axe.mjs';

const session = useSiteAndBrowser();

/**
 * Every string a user can see or hear in the page's widgets: [tag, kind, text]. Lesson
 * content inside a widget (a practice question: the lesson's prose stays English) is marked
 * with its own lang (lang="en" inside a German widget, so screen readers read it as
 * English): such a part is the lesson's text, not UI, and is skipped.
 */
function widgetStrings(page, selector = '*') {
  return page.evaluate((selector) => {
    const out = [];
    const attributes = ['aria-label', 'aria-description', 'aria-valuetext', 'title', 'placeholder', 'alt'];
    const otherLanguage = (el) => {
      const lang = el.closest?.('[lang]')?.getAttribute('lang');
      return Boolean(lang) && !lang.startsWith('de');
    };
    const walk = (root, tag) => {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
      for (let node = walker.currentNode; node; node = walker.nextNode()) {
        if (node.nodeType === Node.TEXT_NODE) {
          const parent = node.parentElement;
          // Notation (W_Q, d_model, head_i) is typeset identifiers, not words; styles are not text.
          if (!parent || parent.closest('.ui-sym, var, style, script') || otherLanguage(parent)) continue;
          const text = node.textContent.trim();
          if (text) out.push([tag, 'text', text]);
          continue;
        }
        if (otherLanguage(node)) continue;
        for (const name of attributes) {
          const value = node.getAttribute?.(name);
          if (value) out.push([tag, name, value]);
        }
        if (node.shadowRoot) walk(node.shadowRoot, tag);
      }
    };
    const widgets = [...document.querySelectorAll('*')].filter((el) => el.localName.startsWith('mha-') && el.shadowRoot && el.matches(selector));
    for (const widget of widgets) walk(widget.shadowRoot, widget.localName);
    return out;
  }, selector);
}

/** Opens a page, replacing text in its HTML on the way (to set lang where a test wants it). */
async function openWith(path, edit, viewport) {
  const { page, problems } = await newWatchedPage(session.browser, viewport);
  const file = path.split('?')[0];
  await page.route((url) => url.pathname.endsWith(`/${file}`), async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, body: edit(await response.text()) });
  });
  await page.goto(session.server.url + path);
  return { page, problems };
}

async function allReady(page) {
  await buildAllWidgets(page);
  await page.waitForFunction(() => {
    const widgets = [...document.querySelectorAll('*')].filter((el) => el.localName.startsWith('mha-'));
    return widgets.length > 0 && widgets.every((el) => el.hasAttribute('ready') || !customElements.get(el.localName));
  }, null, { timeout: 90000 });
}

describe('German', () => {
  test('the lesson page with lang="de": no English UI string in any widget, decimal commas', async () => {
    const { page, problems } = await openWith('index.html', (html) => html.replace('<html lang="en">', '<html lang="de">'), { width: 1280, height: 900 });
    await allReady(page);
    // Open every disclosure and the layer's numbers, so their contents are rendered too.
    await page.evaluate(() => {
      for (const el of document.querySelectorAll('*')) {
        if (el.localName.startsWith('mha-')) for (const d of el.shadowRoot?.querySelectorAll('details') ?? []) d.open = true;
      }
    });
    // Their toggle events (queued as tasks) have run once two frames are drawn.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const strings = await widgetStrings(page);
    const tags = new Set(strings.map(([tag]) => tag));
    for (const tag of ['mha-layer', 'mha-blend', 'mha-head-splitting', 'mha-wo-mixing', 'mha-heads-questions']) assert.ok(tags.has(tag), `${tag} was walked`);
    const english = strings.flatMap(([tag, kind, text]) => {
      const found = englishIn(text);
      return found.length ? [`${tag} ${kind}: “${text.slice(0, 140)}” (${found.join(', ')})`] : [];
    });
    assert.deepEqual(english, [], `English left in German widgets:\n${english.join('\n')}`);
    const points = strings.filter(([, , text]) => hasDecimalPoint(text)).map(([tag, kind, text]) => `${tag} ${kind}: ${text.slice(0, 120)}`);
    assert.deepEqual(points, [], 'no decimal point in German');
    const commas = strings.filter(([, , text]) => /\d,\d/.test(text));
    assert.ok(commas.length > 100, `numbers with decimal commas (${commas.length})`);
    console.log(`German lesson page: ${strings.length} strings in ${tags.size} kinds of widget, ${commas.length} with decimal commas`);
    // The prose stays English: the mechanism for translating it is the build's, not the widgets'.
    assert.match(await page.locator('main h2').first().textContent(), /[A-Za-z]/);
    assert.deepEqual(problems, []);
  });

  test('printed in German: every figure and every practice answer key is redrawn in the page’s language', async () => {
    // The build drew the figures in English; on a page with lang="de" each widget and each
    // practice block draws its figure again in German, with the core, and that is what prints.
    const { page, problems } = await openWith('index.html', (html) => html.replace('<html lang="en">', '<html lang="de">'), { width: 1100, height: 900 });
    await allReady(page);
    await page.waitForFunction(() => {
      const figures = [...document.querySelectorAll('[data-static-figure][data-locale]')];
      return figures.length > 10 && figures.every((figure) => figure.dataset.locale === 'de');
    }, null, { timeout: 60000 });
    await page.emulateMedia({ media: 'print' });
    const texts = await page.evaluate(() => [...document.querySelectorAll('[data-static-figure]')].flatMap((figure) => {
      const out = [];
      const walker = document.createTreeWalker(figure, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.parentElement.closest('var, style') || !node.parentElement.checkVisibility()) continue;
        const text = node.textContent.trim();
        if (text) out.push(`${figure.dataset.staticFigure}: ${text}`);
      }
      for (const el of figure.querySelectorAll('[aria-label]')) out.push(`${figure.dataset.staticFigure}: ${el.getAttribute('aria-label')}`);
      return out;
    }));
    const blocks = await page.locator('mha-practice[idea] > [data-static-figure="practice"]').count();
    assert.ok(blocks >= 9, `${blocks} practice answer keys`);
    const english = texts.filter((text) => englishIn(text.replace(/^[a-z-]+: /, '')).length > 0);
    assert.deepEqual(english, [], `English left in the printed German figures:\n${english.slice(0, 20).join('\n')}`);
    assert.deepEqual(texts.filter((text) => hasDecimalPoint(text)), [], 'no decimal point');
    assert.ok(texts.some((text) => /^practice: .*Richtig: /.test(text) || /^practice: Richtig/.test(text)), 'the answer key is German');
    console.log(`printed German figures: ${texts.length} strings, ${blocks} practice answer keys`);
    assert.deepEqual(problems, []);
  });

  test('typing “0,45” into a number field is accepted; “0.45” is refused with a German message', async () => {
    const { page, problems } = await openWith('embed.html?widget=blend', (html) => html.replace('<html lang="en">', '<html lang="de">'), { width: 1280, height: 900 });
    const blend = page.locator('mha-blend[ready]');
    await blend.waitFor();
    const subject = w.tokens[w.subjectIndex];
    await blend.getByRole('slider', { name: `Ein Kopf: Gewicht auf „${subject}“` }).focus();
    await page.keyboard.press('Enter');
    const field = blend.getByLabel(`Ein Kopf: genaues Gewicht auf „${subject}“ (die anderen werden umskaliert)`);
    assert.match(await field.inputValue(), /^\d,\d\d$/, 'the field shows the value with a decimal comma');
    await field.fill('0,45');
    assert.equal(await field.getAttribute('aria-invalid'), 'false');
    const budget = (await blend.evaluate((el) => el.state)).budget;
    assert.ok(Math.abs(budget[w.subjectIndex] - 0.45) < 1e-9, `0,45 committed (${budget[w.subjectIndex]})`);
    assert.equal(await blend.getByRole('slider', { name: `Ein Kopf: Gewicht auf „${subject}“` }).getAttribute('aria-valuetext'), '0,45 des Budgets');
    await field.fill('0.3');
    assert.equal(await field.getAttribute('aria-invalid'), 'true');
    const message = await blend.locator('.ui-budget-editor .ui-error').textContent();
    assert.equal(message, 'Ein Kopf: genaues Gewicht auf „researcher“ (die anderen werden umskaliert): Dezimalstellen mit Komma schreiben: 0,3, nicht 0.3.');
    assert.ok(Math.abs((await blend.evaluate((el) => el.state)).budget[w.subjectIndex] - 0.45) < 1e-9, 'the last good value is kept');
    await screenshot(page, 'locale-de-blend', { of: 'mha-blend' });
    // German pages are as accessible as English ones (lang on the page, the field's message).
    assert.deepEqual(await axeViolations(page), []);
    await page.keyboard.press('Escape');
    // A W_O cell too: a digit opens the cell's field, "0,5" is the value.
    await page.goto(`${session.server.url}embed.html?widget=wo-mixing`);
    const wo = page.locator('mha-wo-mixing[ready]');
    await wo.waitFor();
    await wo.locator('.wo-grid .ui-cell').nth(3 * 12).focus();
    await page.keyboard.type('0,5');
    assert.equal(await wo.locator('.wo-grid .ui-cell-editor input').getAttribute('aria-invalid'), 'false');
    await page.keyboard.press('Enter');
    assert.equal((await wo.evaluate((el) => el.state)).wo[3 * 12], 0.5);
    // (Long German compounds carry soft hyphens, U+00AD, so that narrow columns can break them.)
    assert.match((await wo.locator('.wo-grid').textContent()).replace(/\u00ad/g, ''), /Zeile 4 \(Ergänzungsfinder, seine Koordinate 1\), Ausgabe 1: 0,50/);
    assert.deepEqual(problems, []);
  });

  test('one widget with lang="de" on an English page: that widget German, the others English', async () => {
    const { page, problems } = await openWith('examples/course.html', (html) => html.replace('<mha-wo-mixing>', '<mha-wo-mixing lang="de">'), { width: 1280, height: 900 });
    const wo = page.locator('mha-wo-mixing[ready]');
    const blend = page.locator('mha-blend[ready]');
    await wo.waitFor();
    await blend.waitFor();
    const german = await widgetStrings(page, 'mha-wo-mixing');
    const english = german.flatMap(([, kind, text]) => (englishIn(text).length ? [`${kind}: ${text.slice(0, 120)}`] : []));
    assert.deepEqual(english, []);
    assert.ok(german.some(([, , text]) => /\d,\d\d/.test(text)));
    await wo.getByRole('button', { name: 'Zahlen zeigen' }).waitFor();
    // The blend beside it has no lang of its own: the page's English.
    await blend.getByRole('button', { name: 'Back to its own weights' }).waitFor();
    assert.match(await blend.locator('.sum-line').first().textContent(), /\d\.\d{3} \+/);
    // In a frame: lang is one of the attributes embed.html takes from its address.
    await page.goto(`${session.server.url}embed.html?widget=heads-questions&lang=de`);
    const questions = page.locator('mha-heads-questions[ready]');
    await questions.waitFor();
    assert.equal(await questions.getAttribute('lang'), 'de');
    const framed = await widgetStrings(page);
    assert.deepEqual(framed.flatMap(([, kind, text]) => (englishIn(text).length ? [`${kind}: ${text.slice(0, 120)}`] : [])), []);
    await questions.getByRole('button', { name: 'Werte zeigen' }).waitFor();
    assert.deepEqual(problems, []);
  });
});

test('German notices: a link whose state is not JSON or is refused by the widget, and a page that may not keep data (the learner\'s copy in memory)', async () => {
  const { page, problems } = await newWatchedPage(session.browser, { width: 1280, height: 900 });
  // Storage refused, as in a sandboxed frame: the practice blocks say the copy lives in memory.
  await page.addInitScript(() => {
    Object.defineProperty(window, 'localStorage', { configurable: true, get() { throw new DOMException('The operation is insecure.', 'SecurityError'); } });
  });
  await page.route((url) => url.pathname.endsWith('/index.html'), async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, body: (await response.text()).replace('<html lang="en">', '<html lang="de">') });
  });
  const layerState = encodeURIComponent(JSON.stringify({ h: 3, token: 0, head: 0 }));
  await page.goto(`${session.server.url}index.html?mha.blend=%7B&mha.layer=${layerState}`);
  const blendNotice = page.locator('mha-blend[ready] .notice:not([hidden])');
  await blendNotice.waitFor();
  const linkText = await blendNotice.textContent();
  assert.match(linkText, /kein gültiges JSON/);
  // The layer's own reason (its sanitiser's), in German too.
  const layerNotice = page.locator('mha-layer[ready] .notice:not([hidden])');
  await layerNotice.waitFor();
  const reasonText = await layerNotice.textContent();
  assert.match(reasonText, /„h“: erwartet wird eines von 1, 2, 4/);
  const practice = page.locator('mha-practice[idea]').first();
  await practice.locator('summary.practice-summary').click();
  const copyNotice = practice.locator('p.notice');
  await copyNotice.waitFor();
  const copyText = await copyNotice.textContent();
  assert.match(copyText, /nur, bis du die Seite verlässt/);
  assert.deepEqual([linkText, reasonText, copyText].flatMap((text) => englishIn(text)), [], `${linkText}\n${reasonText}\n${copyText}`);
  assert.deepEqual(problems, []);
});

// The tests from here take turns with one page (pageTurns): a new document each, nothing
// stored. (Those above keep pages of their own: they route the page's HTML, or add a script.)
const turn = pageTurns(() => session.browser);

test('German text fits a 320 px phone: no widget scrolls the page sideways', async () => {
  const { WIDGETS } = await import('../../web/widgets/registry.js');
  const { page, problems } = await turn('about:blank', { width: 320, height: 800 });
  const wide = [];
  for (const name of Object.keys(WIDGETS)) {
    await page.goto(`${session.server.url}embed.html?widget=${name}&lang=de`);
    await page.locator(`${WIDGETS[name].tag}[ready]`).waitFor();
    const [scroll, client] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
    if (scroll > client) wide.push(`${name}: ${scroll} px in ${client}`);
  }
  assert.deepEqual(wide, []);
  assert.deepEqual(problems, []);
});

describe('English is unchanged', () => {
  test('the lesson page in English shows English messages and decimal points', async () => {
    const { page, problems } = await turn(`${session.server.url}embed.html?widget=blend`, { width: 1280, height: 900 });
    const blend = page.locator('mha-blend[ready]');
    await blend.waitFor();
    await blend.getByRole('slider', { name: 'One head: weight on “researcher”' }).focus();
    await page.keyboard.press('Enter');
    const field = blend.getByLabel('One head: exact weight on “researcher” (the others rescale)');
    assert.match(await field.inputValue(), /^\d\.\d\d$/);
    await field.fill('0,45');
    assert.equal(await field.getAttribute('aria-invalid'), 'true');
    assert.match(await blend.locator('.ui-budget-editor .ui-error').textContent(), /use a point for the decimals: 0\.45, not 0,45\./);
    await field.fill('0.45');
    assert.equal(await field.getAttribute('aria-invalid'), 'false');
    assert.deepEqual(problems, []);
  });
});
