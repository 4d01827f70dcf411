// What an edit costs the widget itself: each edit kind (EDIT_KINDS) on two lesson pages side
// by side, both with every widget built and the CPU throttled 4x (page-throttled-bench.mjs's
// edit page): the whole lesson, and the same page with everything but the edited widget taken
// out of the document (its ancestors kept, so its styles and layout context stay). The pages
// take turns edit by edit. The difference is what the rest of the page adds to an edit (its
// style, layout, pre-paint and paint, the address write's forced layout); what is left on the
// pruned page is the widget's own script and rendering, plus the input's delivery. A
// diagnostic for issue 25, not a bench.
//
//   node bench/edits-alone.mjs [kind name filter] [edits per kind and page, default 16]
import { DIST_DIR, openBrowser } from '../tests/browser/browser.mjs';
import { serveGzipped } from './gzip-server.mjs';
import { EDIT_KINDS, editPage, percentile, settle, throttleEditPage, timedWindow } from './page-throttled-bench.mjs';

const [filter = '', editsArg] = process.argv.slice(2);
const edits = Number(editsArg ?? 16);
const summary = (times) => {
  const sorted = [...times].sort((a, b) => a - b);
  return `${percentile(sorted, 0.5).toFixed(0)} / ${percentile(sorted, 0.95).toFixed(0)} / ${sorted.at(-1).toFixed(0)}`;
};
// Elements in the document and in every shadow root.
const elementCount = (page) => page.evaluate(() => {
  const count = (root) => [...root.querySelectorAll('*')].reduce((n, el) => n + 1 + (el.shadowRoot ? count(el.shadowRoot) : 0), 0);
  return count(document);
});

const server = await serveGzipped(DIST_DIR);
const browser = await openBrowser();
try {
  console.log(`CPU 4x, ${edits} edits per kind and page, alternating; main-thread ms per edit p50 / p95 / max (the measurement's own window taken off)`);
  for (const kind of EDIT_KINDS.filter((k) => k.name.includes(filter))) {
    const whole = await editPage(browser, server.url, true);
    await throttleEditPage(whole, false);
    const alone = await editPage(browser, server.url, true);
    await throttleEditPage(alone, false);
    await alone.page.evaluate((tag) => {
      for (let node = document.querySelector(tag); node && node !== document.body; node = node.parentElement) {
        for (const sibling of [...node.parentElement.children]) {
          if (sibling !== node && !['SCRIPT', 'STYLE', 'LINK'].includes(sibling.tagName)) sibling.remove();
        }
      }
    }, kind.tag);
    const runs = [];
    for (const p of [whole, alone]) {
      const ctx = (await kind.prepare(p.page)) ?? {};
      await settle(p.page);
      runs.push({ p, ctx, times: [] });
    }
    for (let i = 0; i < edits; i++) {
      for (const run of i % 2 === 0 ? runs : [...runs].reverse()) {
        // Only the page being edited is throttled (an idle throttled page keeps a core busy).
        for (const other of runs) if (other !== run) await throttleEditPage(other.p, false);
        await throttleEditPage(run.p, true);
        await kind.before?.(run.p.page, run.ctx, i);
        const window = await timedWindow(run.p.page, run.p.cdp, () => kind.step(run.p.page, run.ctx, i));
        run.times.push(Math.max(0, window.task - run.p.idleMs));
      }
    }
    for (const run of runs) await kind.finish?.(run.p.page, run.ctx);
    const [wholeCount, aloneCount] = [await elementCount(whole.page), await elementCount(alone.page)];
    console.log(`${kind.name}\n  whole lesson (${wholeCount} elements)   ${summary(runs[0].times)}\n  the widget alone (${aloneCount} elements)   ${summary(runs[1].times)}`);
    for (const p of [whole, alone]) {
      if (p.problems.length) throw new Error(`${kind.name}: the page reported problems: ${p.problems.join('; ')}`);
      await p.page.close();
    }
  }
} finally {
  await browser.close();
  await server.close();
}
