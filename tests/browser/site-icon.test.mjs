// The site's icon (web/favicon.png) is web/favicon.svg as Chromium draws it at 32 x 32, and
// every page links the PNG. The pages do not link the SVG: Chromium fetches a page's icon
// again after each change of its address, which the lesson makes at every edit, and an SVG
// icon was decoded into a document of its own each time (bench/README.md). A changed SVG
// needs `node scripts/make-favicon-png.mjs`; this test says so when it was forgotten.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../../scripts/lib/run.mjs';
import { newWatchedPage, openTestBrowser } from './browser.mjs';

// Every page of the site: web/*.html and web/examples/*.html (a new page is checked too).
const PAGES = ['web', 'web/examples'].flatMap((dir) => readdirSync(path.join(ROOT, dir))
  .filter((name) => name.endsWith('.html')).map((name) => `${dir}/${name}`));
const dataUrl = (file, type) => `data:${type};base64,${readFileSync(path.join(ROOT, file)).toString('base64')}`;

test('every page links the PNG icon, and no SVG icon', () => {
  assert.ok(PAGES.length >= 5, `pages found: ${PAGES}`);
  for (const page of PAGES) {
    const icons = [...readFileSync(path.join(ROOT, page), 'utf8').matchAll(/<link rel="icon"[^>]*>/g)].map(([tag]) => tag);
    assert.equal(icons.length, 1, `${page}: one icon`);
    assert.match(icons[0], /href="(\.\.?)\/favicon\.png" type="image\/png"/, page);
  }
});

test('favicon.png is favicon.svg drawn at 32 x 32 (else run scripts/make-favicon-png.mjs)', async () => {
  const browser = await openTestBrowser();
  try {
    const { page, problems } = await newWatchedPage(browser, { width: 100, height: 100 });
    const difference = await page.evaluate(async ([svg, png]) => {
      const pixels = async (src) => {
        const image = new Image();
        image.src = src;
        await image.decode();
        const canvas = new OffscreenCanvas(32, 32);
        const context = canvas.getContext('2d');
        context.drawImage(image, 0, 0, 32, 32);
        return { size: [image.naturalWidth, image.naturalHeight], data: context.getImageData(0, 0, 32, 32).data };
      };
      const [a, b] = [await pixels(svg), await pixels(png)];
      let max = 0;
      let sum = 0;
      for (let i = 0; i < a.data.length; i++) {
        const d = Math.abs(a.data[i] - b.data[i]);
        max = Math.max(max, d);
        sum += d;
      }
      return { pngSize: b.size, max, mean: sum / a.data.length };
    }, [dataUrl('web/favicon.svg', 'image/svg+xml'), dataUrl('web/favicon.png', 'image/png')]);
    assert.deepEqual(difference.pngSize, [32, 32]);
    // Antialiased edges may differ by a few levels between the two ways of drawing.
    assert.ok(difference.max <= 24 && difference.mean <= 1, `the PNG differs from the SVG: ${JSON.stringify(difference)}`);
    console.log(`icon: PNG against SVG, largest channel difference ${difference.max}, mean ${difference.mean.toFixed(3)}`);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});
