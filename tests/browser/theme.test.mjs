// A course with its own dark theme, set only through the documented custom properties (the
// CSS snippet of docs/EMBEDDING.md, section 4), while the reader's browser prefers light:
// axe finds no violations in any widget, and no widget keeps a colour of its own light
// palette. And the reverse: the light defaults inside a reader's dark scheme stay dark.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { buildAllWidgets, pageTurns, screenshot, useCourseSite } from './browser.mjs';
import { WIDGET_TAGS } from '../../web/widgets/registry.js';
import { axeViolations } from './axe.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The dark theme exactly as the guide gives it: the css snippet of section 4. */
export function darkThemeFromGuide() {
  const guide = readFileSync(path.join(ROOT, 'docs/EMBEDDING.md'), 'utf8');
  const section = guide.split(/^## /m).find((part) => part.startsWith('4. A dark course theme'));
  assert.ok(section, 'docs/EMBEDDING.md has section 4, a dark course theme');
  const css = /```css\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(css, 'section 4 has a css snippet');
  return css;
}

// Every widget of the registry, plus the practice questions (every widget all.js defines).
const TAGS = [...new Set([...WIDGET_TAGS, 'mha-practice'])];
const course = useCourseSite({ mount: 'course/attention', prefix: 'mha-theme-', files: () => ({
  // The course's own page colours are dark too (its theme, not the widgets').
  'theme.css': `html { background: #101216; color: #e8e9ec; }\n${darkThemeFromGuide()}`,
  'index.html': `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A dark course</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="theme.css">
<script type="module" src="course/attention/multiple-heads.js"></script></head>
<body><main><h1>A dark course</h1>
${TAGS.map((tag) => `<h2>${tag}</h2>\n<${tag}></${tag}>`).join('\n')}
</main></body></html>`,
}) });

// The tests take turns with one page (pageTurns): a new document each, nothing stored.
const turn = pageTurns(() => course.browser);
async function openThemed(scheme) {
  const { page, problems } = await turn(course.url, { width: 1100, height: 900 }, { colorScheme: scheme });
  await buildAllWidgets(page);
  await page.waitForFunction((tags) => tags.every((tag) => {
    if (!customElements.get(tag)) return true; // not yet in all.js (checked below)
    const el = document.querySelector(tag);
    // Widgets on the shared base say [ready]; others (no core to wait for) are drawn at once.
    return el.hasAttribute('ready') || (el.shadowRoot && !el.shadowRoot.querySelector('.loading') && el.shadowRoot.textContent.length > 40);
  }), TAGS).catch(async (error) => {
    const seen = await page.evaluate((tags) => tags.map((tag) => `${tag}: ${document.querySelector(tag)?.shadowRoot?.textContent.slice(0, 120)}`), TAGS);
    throw new Error(`${error.message}\n${seen.join('\n')}\n${problems.join('\n')}`);
  });
  const undefinedTags = await page.evaluate((tags) => tags.filter((tag) => !customElements.get(tag)), TAGS);
  // A widget listed in the registry but not defined by the package cannot be themed: fail.
  assert.deepEqual(undefinedTags, [], 'every registry widget is defined by multiple-heads.js');
  return { page, problems };
}

// Interactions that reveal more colours: a practice answer checked (its feedback), a
// notice shown (an unknown panel), a highlighted row (the layer's picked word).
async function exercise(page) {
  const practice = page.locator('mha-practice');
  const choice = practice.getByRole('radio').first();
  if (await choice.count()) await choice.check();
  const check = practice.getByRole('button', { name: /^Check/ }).first();
  if (await check.count()) await check.click();
}

for (const scheme of ['light', 'dark']) {
  test(`the guide's dark theme, browser preferring ${scheme}: axe finds no violations in any widget`, async () => {
    const { page, problems } = await openThemed(scheme);
    await exercise(page);
    const found = await axeViolations(page);
    await screenshot(page, `theme-dark-course-${scheme}`);
    console.log(`dark course theme (${scheme} scheme): ${found.length} violations`);
    assert.deepEqual(found, []);
    assert.deepEqual(problems, []);
  });
}

// The light defaults that the guide's dark theme replaces (docs/EMBEDDING.md's table): none
// of them may still be painted anywhere in a widget (a hard-coded colour, or one read from a
// property the guide does not list, would show up here).
const LIGHT_DEFAULTS = ['#1d1f24', '#50555f', '#ffffff', '#c9c4b8', '#7d828c', '#0b5cad', '#a8071a', '#1f6b2a',
  '#767b85', '#b26b00', '#fff6e5', '#2f64b3', '#b83a3a', '#f3f2ef', '#0072b2', '#d55e00', '#009e73', '#a8508a', '#6b6f76'];

for (const scheme of ['light', 'dark']) test(`under the dark theme (browser preferring ${scheme}) no widget paints a colour of the light palette`, async () => {
  const { page } = await openThemed(scheme);
  await exercise(page);
  const rgb = LIGHT_DEFAULTS.map((hex) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`);
  const offenders = await page.evaluate(({ tags, rgb }) => {
    const props = ['color', 'background-color', 'border-top-color', 'border-left-color', 'outline-color', 'fill', 'stroke', 'text-decoration-color'];
    const out = new Set();
    for (const tag of tags) {
      const root = document.querySelector(tag)?.shadowRoot;
      if (!root) continue;
      for (const el of root.querySelectorAll('*')) {
        if (el.getClientRects().length === 0) continue;
        const style = getComputedStyle(el);
        for (const prop of props) {
          const value = style.getPropertyValue(prop);
          if (prop.startsWith('border') && style.getPropertyValue(prop.replace('color', 'width')) === '0px') continue;
          if (prop === 'outline-color' && style.outlineStyle === 'none') continue;
          if (rgb.some((c) => value.startsWith(c))) out.add(`${tag} ${el.tagName.toLowerCase()}.${el.getAttribute('class') ?? ''} ${prop}: ${value}`);
        }
      }
    }
    return [...out];
  }, { tags: TAGS, rgb });
  assert.deepEqual(offenders, []);
});
