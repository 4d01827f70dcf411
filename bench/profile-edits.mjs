// Where an edit's script time goes, by function: the lesson page (the built site,
// $MHA_DIST_DIR or dist/; an unminified build names the functions:
// `npx vite build --minify false --outDir /tmp/unminified && cp -rn dist/* /tmp/unminified/`)
// loaded, every widget built, the CPU throttled 4x as in page-throttled-bench.mjs, then one
// edit kind (EDIT_KINDS, a name filter) three times to warm up and `edits` times under V8's
// sampling profiler. Prints per edit the functions' self time and their inclusive time (a
// function counted once per sample however deep it recurses). "(program)" is the browser's
// own work outside scripts (style, layout, paint); a DOM call's time shows under it or under
// its caller. A diagnostic for issue 25, not a bench: sampling costs time.
//
//   node bench/profile-edits.mjs <kind name filter> [edits, default 12] [--unthrottled]
import { buildAllWidgets, DIST_DIR, newWatchedPage, openBrowser } from '../tests/browser/browser.mjs';
import { serveGzipped } from './gzip-server.mjs';
import { EDIT_KINDS, settle } from './page-throttled-bench.mjs';

const args = process.argv.slice(2);
const [filter, editsArg] = args.filter((a) => !a.startsWith('--'));
const kind = EDIT_KINDS.find((k) => k.name.includes(filter ?? ''));
if (!filter || !kind) {
  console.error(`usage: node bench/profile-edits.mjs <kind> [edits] [--unthrottled]; kinds: ${EDIT_KINDS.map((k) => k.name).join('; ')}`);
  process.exit(2);
}
const edits = Number(editsArg ?? 12);
const server = await serveGzipped(DIST_DIR);
const browser = await openBrowser();
try {
  const { page } = await newWatchedPage(browser, { width: 1000, height: 800 });
  await page.goto(server.url);
  await buildAllWidgets(page);
  await new Promise((resolve) => setTimeout(resolve, 3000)); // what the page does when idle, done
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  if (!args.includes('--unthrottled')) await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const ctx = (await kind.prepare(page)) ?? {};
  for (let i = 0; i < 3; i++) {
    await kind.before?.(page, ctx, i);
    await kind.step(page, ctx, i);
    await settle(page);
  }
  const self = new Map();
  const inclusive = new Map();
  let busy = 0;
  const name = (frame) => `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop()}:${frame.lineNumber + 1}`;
  for (let i = 3; i < 3 + edits; i++) {
    await kind.before?.(page, ctx, i);
    await cdp.send('Profiler.start');
    await kind.step(page, ctx, i);
    await settle(page);
    const { profile } = await cdp.send('Profiler.stop');
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    profile.samples.forEach((id, k) => {
      const ms = (profile.timeDeltas[k + 1] ?? 0) / 1000;
      const own = name(byId.get(id).callFrame);
      self.set(own, (self.get(own) ?? 0) + ms);
      if (own.startsWith('(idle)')) return;
      busy += ms;
      const seen = new Set();
      for (let n = id; n !== undefined; n = parent.get(n)) {
        const key = name(byId.get(n).callFrame);
        if (seen.has(key)) continue;
        seen.add(key);
        inclusive.set(key, (inclusive.get(key) ?? 0) + ms);
      }
    });
  }
  const top = (map, count) => [...map].filter(([key]) => !key.startsWith('(idle)') && !key.startsWith('(root)'))
    .sort((a, b) => b[1] - a[1]).slice(0, count).map(([key, ms]) => `  ${(ms / edits).toFixed(2).padStart(7)}  ${key}`).join('\n');
  console.log(`${kind.name}: ${edits} edits, ${args.includes('--unthrottled') ? 'unthrottled' : 'CPU 4x'}; ms per edit, sampled (busy ${(busy / edits).toFixed(1)})`);
  console.log(`self:\n${top(self, 25)}\ninclusive:\n${top(inclusive, 40)}`);
  await kind.finish?.(page, ctx);
} finally {
  await browser.close();
  await server.close();
}
