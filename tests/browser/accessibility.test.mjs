// axe-core on the lesson page, the embed page and the example course page, with every
// widget loaded: no violations allowed (WCAG 2.1 A and AA rules, best practices).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildAllWidgets, newWatchedPage, pageTurns, useSiteAndBrowser } from './browser.mjs';
import { WIDGET_TAGS } from '../../web/widgets/registry.js';
import { axeViolations } from './axe.mjs';

const session = useSiteAndBrowser();

const TAGS = WIDGET_TAGS;
// Tests that need no page of their own take turns with one (pageTurns): a new document each,
// nothing stored.
const turn = pageTurns(() => session.browser);

for (const [name, url, tags, scheme] of [
  ['lesson page', '', TAGS, 'light'],
  ['lesson page', '', TAGS, 'dark'],
  ['embed page', 'embed.html?widget=wo-mixing', ['mha-wo-mixing'], 'light'],
  ['example course page', 'examples/course.html', ['mha-blend', 'mha-wo-mixing'], 'light'],
]) {
  test(`axe: no violations on the ${name} (${scheme})`, async () => {
    const { page, problems } = await turn(session.server.url + url, undefined, { colorScheme: scheme });
    await buildAllWidgets(page);
    for (const tag of tags) await page.locator(`${tag}[ready]`).first().waitFor();
    const found = await axeViolations(page);
    console.log(`${name} (${scheme}): ${found.length} violations`);
    assert.deepEqual(found, []);
    assert.deepEqual(problems, []);
  });
}

// One lesson page at 1100 x 900 for the touch targets (which only reads it) and then the
// layout shift test (which edits): built once instead of twice.
let at1100;
async function lessonAt1100() {
  if (!at1100) {
    at1100 = await newWatchedPage(session.browser, { width: 1100, height: 900 });
    await at1100.page.goto(session.server.url);
    await buildAllWidgets(at1100.page);
    for (const tag of TAGS) await at1100.page.locator(`${tag}[ready]`).first().waitFor();
  }
  return at1100;
}

test('touch targets: every control in every widget is at least 44 x 44 px', async () => {
  const { page, problems } = await lessonAt1100();
  const small = await page.evaluate((tags) => tags.flatMap((tag) => {
    const root = document.querySelector(tag).shadowRoot;
    return [...root.querySelectorAll('button, input, select')]
      .filter((el) => el.getClientRects().length > 0)
      // A control inside a <label> is hit anywhere on the label (e.g. a checkbox and its text).
      .map((el) => ({ el, box: (el.closest('label') ?? el).getBoundingClientRect() }))
      // Range inputs are as tall as their 44 px row; their thumbs are dragged along the row.
      .filter(({ box }) => box.height < 44 - 0.5 || box.width < 44 - 0.5)
      .map(({ el, box }) => `${tag} ${el.tagName.toLowerCase()}[${el.type ?? ''}] "${el.getAttribute('aria-label') ?? el.textContent.trim()}" ${box.width.toFixed(0)}x${box.height.toFixed(0)}`);
  }), TAGS);
  assert.deepEqual(small, []);
  assert.deepEqual(problems, []);
});

for (const [name, viewport] of [['320 px wide', { width: 320, height: 800, deviceScaleFactor: 1 }],
  ['200% zoom (640 CSS px on a 1280 px window)', { width: 640, height: 800, deviceScaleFactor: 2 }]]) {
  test(`the lesson reflows at ${name}: no sideways scrolling of the page`, async () => {
    const page = await session.browser.newPage({ viewport: { width: viewport.width, height: viewport.height }, deviceScaleFactor: viewport.deviceScaleFactor });
    await page.goto(session.server.url);
    await buildAllWidgets(page);
    for (const tag of TAGS) await page.locator(`${tag}[ready]`).first().waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px`);
    await page.close();
  });
}

test('reduced motion: no transitions or animations run when the user asks for less motion', async () => {
  const { page, problems } = await turn(session.server.url, { width: 1280, height: 720 }, { reducedMotion: 'reduce' });
  await buildAllWidgets(page);
  for (const tag of TAGS) await page.locator(`${tag}[ready]`).first().waitFor();
  const moving = await page.evaluate((tags) => tags.flatMap((tag) =>
    [...document.querySelector(tag).shadowRoot.querySelectorAll('*')].filter((el) => {
      const style = getComputedStyle(el);
      const seconds = (list) => list.split(',').some((t) => parseFloat(t) > 0);
      return seconds(style.transitionDuration) || (style.animationName !== 'none' && seconds(style.animationDuration));
    }).map((el) => `${tag} ${el.tagName.toLowerCase()}.${el.className?.baseVal ?? el.className}`)), TAGS);
  assert.deepEqual(moving, []);
  assert.deepEqual(problems, []);
});

test('no layout shift while numbers change: 60 edits across the widgets move nothing around them', async () => {
  const { page, problems } = await lessonAt1100();
  await page.evaluate(() => {
    window.layoutShift = 0;
    new PerformanceObserver((list) => {
      // Only shifts that move something up or down (or change its height) count: a budget
      // bar's segments sliding sideways along their own row are the edit itself.
      for (const entry of list.getEntries()) {
        if (entry.sources.some((s) => s.previousRect.y !== s.currentRect.y || s.previousRect.height !== s.currentRect.height)) window.layoutShift += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: false });
  });
  const blend = page.locator('mha-blend');
  const slider = blend.getByRole('slider', { name: 'One head: weight on “it”' });
  const wo = page.locator('mha-wo-mixing');
  for (let i = 0; i < 20; i++) {
    await slider.focus();
    await slider.press(i % 2 ? 'ArrowDown' : 'ArrowUp');
    await blend.getByRole('slider', { name: 'One head: weight on “researcher”' }).press(i % 2 ? 'PageDown' : 'PageUp');
    await wo.getByRole('button', { name: /^u = e/ }).nth(i % 2).click();
  }
  const shift = await page.evaluate(() => window.layoutShift);
  console.log(`cumulative layout shift over 60 edits: ${shift.toFixed(4)}`);
  assert.ok(shift < 0.01, `layout shift ${shift}`);
  assert.deepEqual(problems, []);
});
