// Renders web/favicon.svg to web/favicon.png (32 x 32, transparent corners) with the tests'
// Chromium. The pages link the PNG: Chromium fetches a page's icon again after every change
// of its address (the lesson writes its state there at each edit) and decodes an SVG icon
// into a document of its own each time, several milliseconds per edit (bench/README.md).
// Run it after changing the SVG: `node scripts/make-favicon-png.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { TEST_CHROMIUM_LAUNCH } from './lib/chromium.mjs';
import { ROOT } from './lib/run.mjs';

const svg = readFileSync(path.join(ROOT, 'web/favicon.svg'), 'utf8');
const browser = await chromium.launch(TEST_CHROMIUM_LAUNCH);
try {
  const page = await browser.newPage({ viewport: { width: 32, height: 32 } });
  await page.setContent(`<style>html,body{margin:0;background:transparent}svg{display:block;width:32px;height:32px}</style>${svg}`);
  writeFileSync(path.join(ROOT, 'web/favicon.png'), await page.screenshot({ omitBackground: true }));
} finally {
  await browser.close();
}
