// Long animation frames while editing: the lesson page (the built site, $MHA_DIST_DIR or
// dist/) loaded, every widget built, the CPU throttled 4x (page-throttled-bench.mjs's edit page);
// then each edit kind of EDIT_KINDS `edits` times, with the page's own Long Animation Frames
// API (PerformanceObserver 'long-animation-frame': frames over 50 ms) and long tasks
// observed. Per kind, the longest frames: how long before rendering began (the input's
// handlers, other tasks), rendering (frame callbacks, style, layout, paint) and, per script
// in the frame, what invoked it (an event listener, a frame callback, an idle callback), its
// time and the style and layout it forced. A diagnostic for issue 25, not a bench: it says
// which task a long one is (a first step with a cold worker, an idle redraw that fell
// between edits), where the bench gives only its length.
//
//   node bench/long-frames.mjs [kind name filter] [edits, default 20] [--after ms] [--warm ms]
// --after: keep observing this long after a kind's last edit (idle work it left behind);
// --warm: wait this long between preparing a kind (focus, hover) and its first edit.
import { DIST_DIR, openBrowser } from '../tests/browser/browser.mjs';
import { serveGzipped } from './gzip-server.mjs';
import { EDIT_KINDS, editPage, settle } from './page-throttled-bench.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const plain = args.filter((a, i) => !a.startsWith('--') && !['--after', '--warm'].includes(args[i - 1]));
const [filter = '', edits = 20] = [plain[0], Number(plain[1] ?? 20)];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const server = await serveGzipped(DIST_DIR);
const browser = await openBrowser();
try {
  // The bench's edit page: every widget built, then the CPU throttled 4x.
  const { page } = await editPage(browser, server.url, true);
  for (const kind of EDIT_KINDS.filter((k) => k.name.includes(filter))) {
    const ctx = (await kind.prepare(page)) ?? {};
    await settle(page);
    await sleep(option('--warm', 0));
    await page.evaluate(() => {
      window.longFrames = [];
      window.longTasks = [];
      window.longObservers = [
        ['long-animation-frame', (e) => window.longFrames.push(e.toJSON())],
        ['longtask', (e) => window.longTasks.push(e.duration)],
      ].map(([type, keep]) => {
        const observer = new PerformanceObserver((list) => list.getEntries().forEach(keep));
        observer.observe({ type });
        return observer;
      });
    });
    for (let i = 0; i < edits; i++) {
      await kind.before?.(page, ctx, i);
      await kind.step(page, ctx, i);
      await settle(page);
    }
    await kind.finish?.(page, ctx);
    await sleep(option('--after', 0));
    const { frames, tasks } = await page.evaluate(() => {
      window.longObservers.forEach((observer) => observer.disconnect());
      return { frames: window.longFrames, tasks: window.longTasks };
    });
    console.log(`\n${kind.name}: ${frames.length} long frames; long tasks (ms) ${tasks.map(Math.round).join(' ') || 'none'}`);
    for (const f of frames.sort((a, b) => b.duration - a.duration).slice(0, 6)) {
      const end = f.startTime + f.duration;
      console.log(`  frame ${f.duration.toFixed(0)} ms: before rendering ${(f.renderStart ? f.renderStart - f.startTime : f.duration).toFixed(0)}, rendering ${(f.renderStart ? end - f.renderStart : 0).toFixed(0)} (style and layout ${(f.styleAndLayoutStart ? end - f.styleAndLayoutStart : 0).toFixed(0)}), blocking ${f.blockingDuration.toFixed(0)}`);
      for (const s of f.scripts) {
        console.log(`    ${s.invokerType} ${s.invoker}: ${s.duration.toFixed(0)} ms (forced style and layout ${s.forcedStyleAndLayoutDuration.toFixed(0)}) ${s.sourceFunctionName || ''} ${(s.sourceURL || '').split('/').pop()}`);
      }
    }
  }
} finally {
  await browser.close();
  await server.close();
}
