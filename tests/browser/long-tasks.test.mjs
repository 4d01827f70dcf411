// Long tasks while a learner edits, with the CPU throttled 4x as on a mid-range phone
// (issue 25). The lesson page, loaded unthrottled; then, throttled (CDP
// Emulation.setCPUThrottlingRate), a scripted sequence of each edit kind the throttled page
// bench times (bench/page-throttled-bench.mjs EDIT_KINDS: a drag step and a key step on the
// blend's budget bar, a key step on head-splitting's L slider, the layer's h switch,
// heads-questions' tie, a key step on a W_O cell), the page's long tasks (PerformanceObserver
// 'longtask', > 50 ms) counted per kind and printed.
//
// Not timing-asserted: the machines are shared and noisy, so how long the edits take, and
// how many long tasks they cause, are printed for a reader, not judged. What is asserted
// cannot be noise: every edit changed its widget's state, and no error or warning appeared.
// `npm run bench -- --page` gives the timed figures.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EDIT_KINDS, THROTTLE, recordLongTasks, settle, stateOf, throttle } from '../../bench/page-throttled-bench.mjs';
import { WIDGET_TAGS } from '../../web/widgets/registry.js';
import { buildAllWidgets, newWatchedPage, useSiteAndBrowser } from './browser.mjs';

const session = useSiteAndBrowser();
const EDITS_PER_KIND = 3;

test(`a scripted edit sequence across the widgets under ${THROTTLE.cpuRate}x CPU throttling: every edit takes effect, no error; long tasks counted`, async () => {
  const { page, problems } = await newWatchedPage(session.browser);
  await page.addInitScript(recordLongTasks);
  await page.goto(session.server.url);
  await buildAllWidgets(page);
  await Promise.all(WIDGET_TAGS.map((tag) => page.locator(`${tag}[ready]`).first().waitFor()));
  await throttle(page, { cpu: true, network: false });

  const rows = [];
  for (const kind of EDIT_KINDS) {
    const ctx = (await kind.prepare(page)) ?? {};
    await settle(page);
    const from = await page.evaluate(() => performance.now());
    const states = [await stateOf(page, kind.tag)];
    for (let i = 0; i < EDITS_PER_KIND; i++) {
      await kind.before?.(page, ctx, i);
      await kind.step(page, ctx, i);
      await settle(page);
      states.push(await stateOf(page, kind.tag));
    }
    await kind.finish?.(page, ctx);
    const to = await page.evaluate(() => performance.now());
    const tasks = await page.evaluate(([a, b]) => window.mhaLongTasks.filter((t) => t.start >= a && t.start <= b).map((t) => t.duration), [from, to]);
    const changed = states.slice(1).filter((s, i) => s !== states[i]).length;
    rows.push({ kind: kind.name, edits: EDITS_PER_KIND, changed, seconds: (to - from) / 1000, longTasks: tasks.length, over100: tasks.filter((d) => d > 100).length, longestMs: Math.max(0, ...tasks) });
  }
  await page.close();

  console.log(`\nlong tasks while editing, CPU throttled ${THROTTLE.cpuRate}x (printed, not judged: the machine is shared)`);
  console.log(`${'edit kind'.padEnd(46)}${'edits'.padStart(6)}${'changed'.padStart(8)}${'s'.padStart(6)}${'> 50 ms'.padStart(8)}${'> 100 ms'.padStart(9)}${'longest'.padStart(9)}`);
  for (const r of rows) {
    console.log(`${r.kind.padEnd(46)}${String(r.edits).padStart(6)}${String(r.changed).padStart(8)}${r.seconds.toFixed(1).padStart(6)}${String(r.longTasks).padStart(8)}${String(r.over100).padStart(9)}${r.longestMs.toFixed(0).padStart(9)}`);
  }
  const total = rows.reduce((s, r) => ({ long: s.long + r.longTasks, over100: s.over100 + r.over100 }), { long: 0, over100: 0 });
  console.log(`total: ${total.long} long tasks, ${total.over100} over 100 ms, in ${rows.reduce((s, r) => s + r.edits, 0)} edits`);

  for (const r of rows) assert.equal(r.changed, r.edits, `${r.kind}: every edit changed the widget's state`);
  assert.deepEqual(problems, []);
});
