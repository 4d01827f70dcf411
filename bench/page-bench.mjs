// The page half of `npm run bench`: transfer size of the core, time until the lesson is
// interactive, edit-to-repaint latency, main-thread long tasks while "Measure on this
// device" runs, and that measurement itself (the head-splitting widget's worker, at
// L = 256) beside the same measurement in Node. Headless Chromium on localhost, the built
// dist/ (or $MHA_DIST_DIR).
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { newWatchedPage, openBrowser, serveDist, DIST_DIR } from '../tests/browser/browser.mjs';
import { WIDGET_TAGS } from '../web/widgets/registry.js';

const TAGS = WIDGET_TAGS;

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

export async function pageBench() {
  // 1. Size: the SIMD wasm module and its JS loader, gzipped (what a browser downloads).
  const assets = readdirSync(path.join(DIST_DIR, 'assets'));
  const gz = (name) => gzipSync(readFileSync(path.join(DIST_DIR, 'assets', name)), { level: 9 }).length;
  const wasm = assets.find((f) => f.startsWith('multiple_heads_simd') && f.endsWith('.wasm'));
  const loader = assets.find((f) => f.startsWith('multiple_heads_simd') && f.endsWith('.js'));
  const size = { wasmGzip: gz(wasm), loaderGzip: gz(loader) };
  size.totalGzip = size.wasmGzip + size.loaderGzip;

  const server = await serveDist();
  const browser = await openBrowser();
  try {
    // 2. Interactive: navigation start to every widget drawn and ready (median of 5 loads).
    //    The moment is taken in the page, by a MutationObserver on the widgets' `ready`
    //    attributes: waiting with Playwright's locators instead ran their queries on the
    //    page's main thread while it loaded (about 70 ms of it) and read the clock only
    //    after a round trip.
    const loads = [];
    for (let i = 0; i < 5; i++) {
      const { page } = await newWatchedPage(browser);
      await page.addInitScript((tags) => {
        const selector = tags.join(',');
        const check = () => {
          if (document.readyState === 'loading' || window.mhaAllReadyAt !== undefined) return;
          const widgets = document.querySelectorAll(selector);
          if (widgets.length > 0 && [...widgets].every((el) => el.hasAttribute('ready'))) window.mhaAllReadyAt = performance.now();
        };
        new MutationObserver(check).observe(document, { subtree: true, attributes: true, attributeFilter: ['ready'] });
        document.addEventListener('DOMContentLoaded', check);
      }, TAGS);
      await page.goto(server.url, { waitUntil: 'commit' });
      await page.waitForFunction(() => window.mhaAllReadyAt !== undefined, null, { timeout: 30000 });
      loads.push(await page.evaluate(() => window.mhaAllReadyAt));
      await page.close();
    }
    loads.sort((a, b) => a - b);

    // 3. Edit latency over 200 edits of one weight (the blend widget's budget bar, one
    //    ArrowUp / ArrowDown key each, as a keyboard user makes them). Each edit is
    //    dispatched at the start of a frame (inside a rAF callback); we time the work until
    //    the new state is on screen-ready (the key handler, i.e. the core and the DOM update,
    //    plus style and layout, forced), and check that the next frame came one frame
    //    interval later (no frame missed).
    const { page } = await newWatchedPage(browser);
    await page.goto(server.url);
    await Promise.all(TAGS.map((tag) => page.locator(`${tag}[ready]`).waitFor()));
    const edits = await page.evaluate(async () => {
      const blend = document.querySelector('mha-blend');
      const segment = blend.shadowRoot.querySelector('.ui-budget-seg[tabindex="0"]');
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      const work = [], gaps = [];
      let previous = await frame();
      for (let i = 0; i < 200; i++) {
        previous = await frame();
        const key = Math.floor(i / 10) % 2 === 0 ? 'ArrowUp' : 'ArrowDown';
        const start = performance.now();
        segment.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, composed: true, cancelable: true }));
        void blend.shadowRoot.querySelector('.headline').getBoundingClientRect(); // style + layout
        work.push(performance.now() - start);
        const next = await frame();
        gaps.push(next - previous);
      }
      const sorted = gaps.slice().sort((a, b) => a - b);
      const interval = sorted[sorted.length >> 1];
      return { work: work.sort((a, b) => a - b), interval, missed: gaps.filter((g) => g > 1.5 * interval).length };
    });

    // 4. Long tasks on the main thread while the measurement runs in its worker.
    const longTasks = await page.evaluate(async () => {
      const tasks = [];
      const observer = new PerformanceObserver((list) => tasks.push(...list.getEntries().map((e) => e.duration)));
      observer.observe({ type: 'longtask', buffered: false });
      const widget = document.querySelector('mha-head-splitting');
      const button = [...widget.shadowRoot.querySelectorAll('button')].find((b) => /Measure/.test(b.textContent));
      button.click();
      const started = performance.now();
      while (performance.now() - started < 15000) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        if (!button.disabled && performance.now() - started > 500) break;
      }
      observer.disconnect();
      return tasks;
    });
    // 5. The page's own measurement, as a learner makes it: L = 256 typed into the field,
    //    "Measure on this device" clicked, the worker's medians read off the widget.
    const measured = await measureOnPage(browser, server.url);
    return {
      measureInWorker: measured,
      size,
      interactiveMs: { median: loads[2], max: loads[4] },
      editWorkMs: { median: percentile(edits.work, 0.5), p95: percentile(edits.work, 0.95), edits: edits.work.length },
      framesMissedByEdits: edits.missed,
      frameIntervalMs: edits.interval,
      longTasksDuringMeasure: { count: longTasks.length, longestMs: Math.max(0, ...longTasks) },
    };
  } finally {
    await browser.close();
    await server.close();
  }
}

/** The head-splitting widget's "Measure on this device" at L = seqLen, in its worker. */
export async function measureOnPage(browser, url, seqLen = 256) {
  const { page } = await newWatchedPage(browser);
  try {
    await page.goto(url);
    // The lesson shows head splitting twice (its counts, then its rank panel): the first has the timing.
    const widget = page.locator('mha-head-splitting').first();
    await page.locator('mha-head-splitting[ready]').first().waitFor();
    const field = widget.getByRole('textbox', { name: /^Sequence length L/ });
    await field.fill(String(seqLen));
    await widget.getByRole('button', { name: 'Measure on this device' }).click();
    await widget.locator('button:enabled', { hasText: 'Measure on this device' }).waitFor({ timeout: 120000 });
    return await page.evaluate(() => {
      const { measurement } = document.querySelector('mha-head-splitting');
      return measurement.results.map((r) => ({ ...r.config, medianMs: r.medianMs, samples: r.samples, passesPerSample: r.passesPerSample }));
    });
  } finally {
    await page.close();
  }
}
