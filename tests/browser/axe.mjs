// axe-core in a Chromium page, the one way every browser test runs it: the rules of WCAG 2.1
// A and AA and best practice (WCAG22: also 2.2 AA, e.g. 24 px targets), violations as lines
// a failure message can show ("id (impact): help — the first targets").
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export const WCAG21 = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
export const WCAG22 = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/**
 * axe's violations in `page`: in the whole document, or `within` every element a CSS
 * selector matches (each widget of a tag, shadow trees included), under the `rules` tags.
 * DevTools evaluation is not subject to the page's CSP, so strict-CSP pages are checked too.
 */
export async function axeViolations(page, { within = null, rules = WCAG21 } = {}) {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(([selector, tags]) => window.axe.run(selector === null ? document : document.querySelectorAll(selector), {
    runOnly: { type: 'tag', values: tags },
    // Only violations are read: axe then skips describing every passing node (a CSS
    // selector each), which is much of its time on widgets of thousands of elements.
    resultTypes: ['violations'],
    // axe is injected into the top document only, so it cannot look inside frames; with
    // iframes on it would still postMessage each frame to ask (to its own origin, which a
    // sandboxed frame's opaque origin refuses with a console warning in the headless shell)
    // and wait for an answer that never comes. The frames' own pages are checked where
    // they are the top document (the embed page).
    iframes: false,
  }).then((results) => results.violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`)),
  [within, rules]);
}
