// Control and effect on one screen (issue 10), tested on the lesson page as a learner meets it:
//   * at 1280 x 800, focusing any control of any widget leaves the figure it changes in view
//     (a control names its figures with aria-controls; every focusable control must);
//   * at most 15 tab stops per widget, and a "skip past this widget" link that works;
//   * at 390 px: the page is at most 13 screens long, nothing tappable is under 24 x 24 px,
//     and display math never clips without a way to scroll it;
//   * dark mode is a designed palette, not the light page.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WIDGET_TAGS } from '../../web/widgets/registry.js';
import { buildAllWidgets, newWatchedPage, screenshot, useSiteAndBrowser } from './browser.mjs';

const session = useSiteAndBrowser();
const MAX_TAB_STOPS = 15;
const PHONE = { width: 390, height: 844 };

async function openLesson(viewport, options = {}) {
  const { page, problems } = await newWatchedPage(session.browser, viewport);
  if (options.colorScheme) await page.emulateMedia({ colorScheme: options.colorScheme });
  await page.goto(session.server.url);
  await buildAllWidgets(page);
  for (const tag of WIDGET_TAGS) await page.locator(`${tag}[ready]`).first().waitFor();
  return { page, problems };
}

// One lesson page per window size, shared by the tests: each is built once (seven widgets and
// the practice), and the tests only read it or move the focus, except the switch test, which
// runs last on the phone page. Dark mode loads a page of its own.
const shared = new Map();
function lessonAt(viewport) {
  const key = `${viewport.width}x${viewport.height}`;
  if (!shared.has(key)) shared.set(key, openLesson(viewport));
  return shared.get(key);
}

// Elements reachable with Tab inside a widget's shadow root, in document order.
const TAB_STOPS = `(root) => [...root.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]')]
  .filter((el) => el.tabIndex >= 0 && !el.disabled && !el.closest('[hidden], details:not([open]) > :not(summary)')
    && (el.getClientRects().length > 0 || el.classList.contains('skip-widget')))`;

test('at 1280 x 800, every control of every widget has its figure in view while it has focus', async () => {
  const { page, problems } = await lessonAt({ width: 1280, height: 800 });
  const misses = [];
  const unlabelled = [];
  for (const tag of WIDGET_TAGS) {
    // Walk the widget with Tab from its skip link, as a keyboard user does.
    await page.locator(tag).first().evaluate((el) => el.shadowRoot.querySelector('.skip-widget').focus());
    for (let k = 0; k < 40; k++) {
      await page.keyboard.press('Tab');
      const result = await page.evaluate((tag) => {
        const host = document.querySelector(tag);
        if (document.activeElement !== host) return { left: true };
        const root = host.shadowRoot;
        let control = root.activeElement;
        while (control?.shadowRoot?.activeElement) control = control.shadowRoot.activeElement;
        if (!control || control.classList.contains('widget-end')) return { left: true };
        // Not controls: links that move the reader ([data-no-figure]) and read-only figures
        // that take focus to be read.
        if (control.matches('[data-no-figure]') || control.closest('[aria-readonly="true"]')) return { skip: true };
        const ids = (control.getAttribute('aria-controls') ?? '').split(/\s+/).filter(Boolean);
        const name = control.getAttribute('aria-label') ?? control.textContent.trim().slice(0, 40);
        if (ids.length === 0) return { name, unlabelled: true };
        const out = [];
        for (const id of ids) {
          const figure = root.getElementById(id);
          if (!figure) { out.push(`${id} (missing)`); continue; }
          const box = figure.getBoundingClientRect();
          const visible = Math.min(box.bottom, innerHeight) - Math.max(box.top, 0);
          // In view: at least 100 px (or all of a shorter figure) on screen with the control.
          if (visible < Math.min(100, box.height) - 1) out.push(id);
        }
        return { name, out };
      }, tag);
      if (result.left) break;
      if (result.skip) continue;
      if (result.unlabelled) unlabelled.push(`${tag}: “${result.name}”`);
      else if (result.out.length) misses.push(`${tag}: “${result.name}” -> ${result.out.join(', ')}`);
    }
  }
  assert.deepEqual(unlabelled, [], 'controls without aria-controls naming the figure they change');
  assert.deepEqual(misses, [], 'figures out of view while their control has focus');
  assert.deepEqual(problems, []);
});

test(`at most ${MAX_TAB_STOPS} tab stops per widget, and "skip past this widget" leaves it`, async () => {
  const { page, problems } = await lessonAt({ width: 1280, height: 800 });
  const counts = {};
  for (const tag of WIDGET_TAGS) {
    counts[tag] = await page.evaluate(`(${TAB_STOPS})(document.querySelector('${tag}').shadowRoot).length`);
  }
  console.log('tab stops per widget:', JSON.stringify(counts));
  for (const [tag, n] of Object.entries(counts)) assert.ok(n <= MAX_TAB_STOPS, `${tag} has ${n} tab stops`);

  // From each widget's skip link, Enter then Tab lands past the widget (at the next widget's
  // skip link when nothing focusable stands between them).
  const path = () => page.evaluate(() => {
    let el = document.activeElement;
    const names = [];
    while (el) { names.push(el.localName + (el.classList.contains('skip-widget') ? '.skip-widget' : '')); el = el.shadowRoot?.activeElement; }
    return names;
  });
  for (const [i, tag] of WIDGET_TAGS.entries()) {
    await page.locator(tag).first().evaluate((el) => el.shadowRoot.querySelector('.skip-widget').focus());
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    const landed = await path();
    assert.ok(!landed.includes(tag), `after skipping ${tag}, focus is still inside it: ${landed.join(' > ')}`);
    const next = WIDGET_TAGS[i + 1];
    if (next) assert.ok(!landed.some((n) => WIDGET_TAGS.includes(n)) || landed.join(' ') === `${next} a.skip-widget`, `after ${tag}: ${landed.join(' > ')}`);
  }
  assert.deepEqual(problems, []);
});

test('at 390 px: tap targets of 24 px or more, display math never clipped nor scrolled', async () => {
  const { page, problems } = await lessonAt(PHONE);
  const small = await page.evaluate((tags) => tags.flatMap((tag) => {
    const root = document.querySelector(tag).shadowRoot;
    // A budget bar's segments are chosen with the keyboard; pointers grab its handles.
    return [...root.querySelectorAll('a[href], button, input, select, summary, [tabindex]:not(.ui-budget-seg), .ui-budget-handle')]
      .filter((el) => el.getClientRects().length > 0 && !el.classList.contains('skip-widget') && !el.classList.contains('widget-end')
        && getComputedStyle(el).visibility !== 'hidden' && !el.closest('[hidden]'))
      .map((el) => ({ el, box: (el.closest('label') ?? el).getBoundingClientRect() }))
      .filter(({ box }) => box.width < 24 - 0.5 || box.height < 24 - 0.5)
      .map(({ el, box }) => `${tag} ${el.localName}.${el.className?.baseVal ?? el.className} ${box.width.toFixed(0)}x${box.height.toFixed(0)}`);
  }), WIDGET_TAGS);
  const clipped = await page.evaluate(() => [...document.querySelectorAll('.math-display')]
    .filter((box) => box.scrollWidth > box.clientWidth + 1 && getComputedStyle(box).overflowX !== 'auto')
    .map((box) => box.textContent.slice(0, 40)));
  // Every formula of the lesson fits a phone's width: none needs sideways scrolling (issue 22).
  const scrolled = await page.evaluate(() => [...document.querySelectorAll('.math-display')]
    .filter((box) => box.scrollWidth > box.clientWidth + 1)
    .map((box) => `${box.textContent.slice(0, 40)}: ${box.scrollWidth} px in ${box.clientWidth}`));
  assert.deepEqual(scrolled, []);
  // Word-chip rows show every word: none scrolls sideways, and the last word is on screen.
  const hiddenWords = await page.evaluate((tags) => tags.flatMap((tag) => [...document.querySelector(tag).shadowRoot.querySelectorAll('.ui-row-narrow')]
    .filter((row) => row.scrollWidth > row.clientWidth + 1 || [...row.children].some((chip) => chip.getBoundingClientRect().right > row.getBoundingClientRect().right + 1))
    .map((row) => `${tag} ${row.className}`)), WIDGET_TAGS);
  assert.deepEqual(hiddenWords, []);
  await screenshot(page, 'lesson-390', { of: 'mha-layer' });
  assert.deepEqual(small.slice(0, 20), [], `${small.length} targets under 24 px`);
  assert.deepEqual(clipped, []);
  assert.deepEqual(problems, []);
});

// The formulas' glyphs all come from one math font (web/styles.css): with the generic math
// family alone, Chromium on Debian (whose default math font is not installed) looked up a
// fallback per character and size, 159 lookups in a load, and set the formulas in a serif
// text font mixed with the math font: small operators, no stretched brackets (issue 25).
test('formulas: every glyph in one math font, none from a fallback', async () => {
  const { page } = await lessonAt({ width: 1280, height: 800 });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('DOM.enable');
  await cdp.send('CSS.enable');
  const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
  const { nodeIds } = await cdp.send('DOM.querySelectorAll', { nodeId: root.nodeId, selector: 'math mi, math mn, math mo, math mtext' });
  assert.ok(nodeIds.length > 200, `${nodeIds.length} token elements in the lesson's formulas`);
  const glyphs = new Map();
  for (const nodeId of nodeIds) {
    for (const { familyName, glyphCount } of (await cdp.send('CSS.getPlatformFontsForNode', { nodeId })).fonts) {
      glyphs.set(familyName, (glyphs.get(familyName) ?? 0) + glyphCount);
    }
  }
  await cdp.detach();
  const families = [...glyphs.keys()];
  assert.equal(families.length, 1, `the formulas' glyphs by font: ${JSON.stringify([...glyphs])}`);
  assert.match(families[0], /math/i, `a math font, not a text font: ${families[0]}`);
});

// Issue 10's length target, asserted; the run prints the height and each widget's share, so
// a regression names its cause. 12 screens until issue 22 gave rank a widget of its own where
// the prose introduces it (570 px at 390) and put two "Predict first" lines before their
// widgets: 12.4 screens then, so the target is 13.
test('at 390 px the page is at most 13 screens long', async () => {
  const { page } = await lessonAt(PHONE);
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  const widgets = await page.evaluate((tags) => tags.map((tag) => `${tag} ${Math.round(document.querySelector(tag).getBoundingClientRect().height)}`), WIDGET_TAGS);
  console.log(`page height at 390 px: ${height} px = ${(height / PHONE.height).toFixed(1)} screens; widgets: ${widgets.join(', ')}`);
  assert.ok(height <= 13 * PHONE.height, `the page is ${(height / PHONE.height).toFixed(1)} screens long`);
});

// On a phone each widget shows its secondary panels one at a time (web/ui/narrow-switch.js):
// a radio group with one tab stop; arrow keys choose, and only the chosen panels show. Wider,
// the switch is not shown and every panel is.
test('at 390 px each widget’s “Show” switch is a radio group with one tab stop that shows one panel at a time; at 1280 px it is not there', async () => {
  // Practice blocks (<mha-practice>) have no switch: each is one line until opened.
  const tags = WIDGET_TAGS;
  const switches = (page) => page.evaluate((tags) => tags.flatMap((tag) => [...document.querySelector(tag).shadowRoot.querySelectorAll('.narrow-switch')]
    .map((sw) => ({ tag, visible: sw.getClientRects().length > 0 }))), tags);
  const wide = await lessonAt({ width: 1280, height: 800 });
  assert.ok((await switches(wide.page)).every((s) => !s.visible), 'no switch at 1280 px');
  assert.equal(await wide.page.evaluate((tags) => tags.flatMap((tag) => [...document.querySelector(tag).shadowRoot.querySelectorAll('.narrow-off')])
    .filter((el) => el.getClientRects().length === 0 && !el.closest('[hidden]')).length, tags), 0, 'every panel shown at 1280 px');

  const { page, problems } = await lessonAt(PHONE);
  const found = await switches(page);
  assert.ok(found.length >= 4 && found.every((s) => s.visible), JSON.stringify(found));
  for (const tag of new Set(found.map((s) => s.tag))) {
    const read = () => page.locator(tag).first().evaluate((host) => {
      const group = host.shadowRoot.querySelector('.narrow-switch [role="radiogroup"]');
      const radios = [...group.querySelectorAll('[role="radio"]')];
      return {
        name: group.getAttribute('aria-label'),
        stops: radios.filter((r) => r.tabIndex === 0).length,
        checked: radios.findIndex((r) => r.getAttribute('aria-checked') === 'true'),
        shown: [...host.shadowRoot.querySelectorAll('.narrow-off')].filter((el) => el.getClientRects().length > 0).length,
        focused: host.shadowRoot.activeElement?.getAttribute('aria-checked'),
      };
    });
    const before = await read();
    assert.ok(before.name && before.stops === 1 && before.checked === 0 && before.shown === 0, `${tag}: ${JSON.stringify(before)}`);
    await page.locator(tag).first().evaluate((host) => host.shadowRoot.querySelector('.narrow-switch [aria-checked="true"]').focus());
    await page.keyboard.press('ArrowRight');
    const after = await read();
    assert.ok(after.stops === 1 && after.checked === 1 && after.shown === 0 && after.focused === 'true', `${tag} after →: ${JSON.stringify(after)}`);
  }
  assert.deepEqual(problems, []);
});

test('dark mode: prefers-color-scheme dark gives the designed dark palette on the page and in every widget', async () => {
  const light = await lessonAt({ width: 1280, height: 800 });
  const dark = await openLesson({ width: 1280, height: 800 }, { colorScheme: 'dark' });
  const colours = (page) => page.evaluate((tags) => ({
    page: getComputedStyle(document.documentElement).backgroundColor,
    widgets: tags.map((tag) => getComputedStyle(document.querySelector(tag).shadowRoot.querySelector('.widget')).backgroundColor),
  }), WIDGET_TAGS);
  const [l, d] = [await colours(light.page), await colours(dark.page)];
  const luminance = (rgb) => {
    const [r, g, b] = rgb.match(/[\d.]+/g).map(Number);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  assert.ok(luminance(d.page) < 60 && luminance(l.page) > 200, `page ${l.page} / ${d.page}`);
  d.widgets.forEach((c, i) => assert.ok(luminance(c) < 60, `${WIDGET_TAGS[i]} is ${c} in dark mode`));
  await screenshot(dark.page, 'lesson-dark-1280', { of: 'mha-blend' });
  assert.deepEqual(dark.problems, []);
});
