// axe-core on the lesson page, the embed page and the example course page, with every
// widget loaded: no violations allowed (WCAG 2.1 A and AA rules, best practices).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import { newWatchedPage, openBrowser, serveDist } from './browser.mjs';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
let browser, server;
before(async () => {
  server = await serveDist();
  browser = await openBrowser();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

const TAGS = ['mha-blend', 'mha-head-splitting', 'mha-wo-mixing', 'mha-heads-questions'];

async function violations(page) {
  // DevTools evaluation is not subject to the page's CSP, which stays strict.
  await page.evaluate(axeSource);
  const results = await page.evaluate(() => window.axe.run(document, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
  }));
  return results.violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

for (const [name, url, tags] of [
  ['lesson page', '', TAGS],
  ['embed page', 'embed.html?widget=wo-mixing', ['mha-wo-mixing']],
  ['example course page', 'examples/course.html', ['mha-blend', 'mha-wo-mixing']],
]) {
  test(`axe: no violations on the ${name}`, async () => {
    const { page, problems } = await newWatchedPage(browser);
    await page.goto(server.url + url);
    for (const tag of tags) await page.locator(`${tag}[ready]`).first().waitFor();
    const found = await violations(page);
    console.log(`${name}: ${found.length} violations`);
    assert.deepEqual(found, []);
    assert.deepEqual(problems, []);
  });
}
