// Issue 23, "Load only what is used": a page with one widget, imported through its own
// entry (dist/widgets/<name>.js, `import 'multiple-heads/<name>'`), downloads at most
// BUDGET_KB gzipped. For every entry of the registry (WIDGET_ENTRIES) one page holds only
// that element and its script; the site is served gzip-compressed (bench/gzip-server.mjs,
// zlib level 6, as a production host would) and Chromium reports, through the DevTools
// protocol, each response's bytes on the wire. Counted: every response of the load (the
// page, scripts, styles, wasm, data) until the widget is ready and the network has been
// quiet for QUIET_MS, so whatever the widget fetches as it starts is in the sum. The size
// is the gzipped bodies (kB = 1024 bytes, as bench/README.md counts); the headers (about
// 0.4 kB a response from this server, mostly its CSP) are printed beside it.
//
// Also: two widgets on one page share their code (the engine, its wasm, the widget base,
// the UI kit are downloaded once), and the full bundle (multiple-heads.js) is measured the
// same way, for comparison. One browser context, one page navigated from entry to entry
// with the cache off.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { serveGzipped } from '../../bench/gzip-server.mjs';
import { DIST_DIR, newWatchedPage, openBrowser } from './browser.mjs';
import { WIDGETS, WIDGET_ENTRIES } from '../../web/widgets/registry.js';

export const BUDGET_KB = 120;
// Every entry meets it (measured 2026-12-05, kB gzipped: bench/README.md, "Load only what is
// used", lists each widget's figure and the steps that brought the six that compute with
// the core under it; the core's wasm and its loader are about 70 kB of the 120).
const QUIET_MS = 500;
const tagOf = (name) => WIDGETS[name]?.tag ?? `mha-${name}`;
// Each element as an author would place it; practice needs the idea its problems are under.
const elementOf = (name) => (name === 'practice' ? '<mha-practice idea="one-average"></mha-practice>' : `<${tagOf(name)}></${tagOf(name)}>`);
const kB = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;

let site, server, browser, context, page, problems, network;

/** A page of the site: the scripts in <head>, the elements in <main>. */
function writePage(name, scripts, elements) {
  writeFileSync(path.join(site, `${name}.html`), `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${name}</title><link rel="icon" href="pkg/favicon.svg">
${scripts.map((src) => `<script type="module" src="pkg/${src}"></script>`).join('\n')}
</head><body><main><h1>${name}</h1><h2>A widget</h2>
${elements.join('\n')}
</main></body></html>`);
}

before(async () => {
  assert.ok(existsSync(path.join(DIST_DIR, 'widgets')),
    `${DIST_DIR}/widgets/ is missing: build it with node scripts/build-web.mjs (npm run build)`);
  // The site: the package's built files at pkg/ (the whole of dist/ but its single-file
  // pages, which the gzip server would compress for nothing) and the pages beside it.
  site = mkdtempSync(path.join(tmpdir(), 'mha-bytes-'));
  mkdirSync(path.join(site, 'pkg'));
  for (const entry of ['assets', 'widgets', 'api.js', 'multiple-heads.js']) symlinkSync(path.join(DIST_DIR, entry), path.join(site, 'pkg', entry));
  writeFileSync(path.join(site, 'pkg/favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>');
  for (const name of WIDGET_ENTRIES) writePage(name, [`widgets/${name}.js`], [elementOf(name)]);
  writePage('two', ['widgets/blend.js', 'widgets/layer.js'], [elementOf('blend'), elementOf('layer')]);
  writePage('bundle', ['multiple-heads.js'], [elementOf('blend')]);
  writePage('german', ['widgets/blend.js'], ['<mha-blend lang="de"></mha-blend>']);
  // The API entry reaches the widgets of the entries: a French text registered through it.
  writeFileSync(path.join(site, 'french.js'), `import { registerLocale } from './pkg/api.js';
registerLocale('fr', { common: { undo: 'Annuler', reset: 'Réinitialiser' } });
document.querySelector('main').insertAdjacentHTML('beforeend', '<mha-blend lang="fr"></mha-blend>');
`);
  writePage('api', ['widgets/blend.js'], []);
  writeFileSync(path.join(site, 'api.html'), readFileSync(path.join(site, 'api.html'), 'utf8').replace('</head>', '<script type="module" src="french.js"></script></head>'));
  server = await serveGzipped(site);
  browser = await openBrowser();
  context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  ({ page, problems } = await newWatchedPage(context));
  network = await watchNetwork(page);
});
after(async () => {
  await context?.close();
  await browser?.close();
  await server?.close();
  if (site) rmSync(site, { recursive: true, force: true });
});

/** The page's responses as the DevTools protocol reports them, with the cache off. */
async function watchNetwork(target) {
  const cdp = await context.newCDPSession(target);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const state = { requests: new Map(), lastActivity: 0 };
  const touch = () => { state.lastActivity = Date.now(); };
  cdp.on('Network.requestWillBeSent', (e) => { state.requests.set(e.requestId, { url: e.request.url, done: false }); touch(); });
  cdp.on('Network.responseReceived', (e) => {
    const request = state.requests.get(e.requestId);
    if (request) Object.assign(request, { status: e.response.status, headers: e.response.encodedDataLength, encoding: e.response.headers['Content-Encoding'] ?? e.response.headers['content-encoding'] });
    touch();
  });
  cdp.on('Network.loadingFinished', (e) => {
    const request = state.requests.get(e.requestId);
    if (request) Object.assign(request, { done: true, total: e.encodedDataLength });
    touch();
  });
  cdp.on('Network.loadingFailed', (e) => {
    const request = state.requests.get(e.requestId);
    if (request) Object.assign(request, { done: true, failed: e.errorText, total: 0 });
    touch();
  });
  return state;
}

/**
 * Loads a page of the site and waits until every widget on it is ready and the network
 * has been quiet for QUIET_MS; returns { body, wire, files, responses }.
 */
async function measure(name, tags) {
  network.requests.clear();
  problems.length = 0;
  await page.goto(`${server.url}${name}.html`);
  await page.waitForFunction((wanted) => wanted.every((tag) => document.querySelector(tag)?.hasAttribute('ready')), tags, { timeout: 90_000 });
  const started = Date.now();
  while ([...network.requests.values()].some((r) => !r.done) || Date.now() - network.lastActivity < QUIET_MS) {
    assert.ok(Date.now() - started < 30_000, `${name}: the network is still busy 30 s after ready`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const responses = [...network.requests.values()].map((r) => ({
    file: r.url.replace(server.url, ''), body: r.total - (r.headers ?? 0), wire: r.total, status: r.status, failed: r.failed, encoding: r.encoding,
  }));
  const failed = responses.filter((r) => r.failed || r.status !== 200);
  assert.deepEqual(failed, [], `${name}: every request succeeds`);
  const sum = (key) => responses.reduce((s, r) => s + r[key], 0);
  return { body: sum('body'), wire: sum('wire'), files: responses.length, responses };
}

const line = (label, m) => `${label.padEnd(16)} ${kB(m.body).padStart(9)} gzipped (${kB(m.wire)} with headers, ${m.files} files)`;
const measured = new Map();

test(`each widget alone, through its entry, downloads at most ${BUDGET_KB} kB gzipped, and works`, async () => {
  const report = [];
  for (const name of WIDGET_ENTRIES) {
    const m = await measure(name, [tagOf(name)]);
    measured.set(name, m);
    report.push(line(name, m));
    assert.deepEqual(problems, [], `${name}: no console error, warning or CSP violation`);
    // The bytes are the gzipped ones: the scripts and the wasm came compressed.
    const wasm = m.responses.filter((r) => r.file.endsWith('.wasm'));
    assert.ok(m.responses.filter((r) => /\.(js|wasm)$/.test(r.file)).every((r) => r.encoding === 'gzip'), `${name}: served gzip-compressed`);
    assert.ok(name === 'practice' || wasm.length === 1, `${name}: the page's one wasm module, once (${wasm.map((r) => r.file)})`);
    // The widget drew itself (not only a loading line or an error).
    const drawn = await page.evaluate((tag) => {
      const body = document.querySelector(tag).shadowRoot?.querySelector('.widget');
      return Boolean(body && !body.querySelector('p.error[role="alert"]') && body.querySelectorAll('button, input, select, svg, [role="slider"]').length > 0);
    }, tagOf(name));
    assert.ok(drawn, `${name}: the widget is drawn, with its controls`);
  }
  console.log(`One widget per page, through its entry (budget ${BUDGET_KB} kB gzipped):\n${report.join('\n')}`);
  for (const name of WIDGET_ENTRIES) {
    const m = measured.get(name);
    const biggest = [...m.responses].sort((a, b) => b.body - a.body).slice(0, 5).map((r) => `${r.file} ${kB(r.body)}`).join(', ');
    assert.ok(m.body <= BUDGET_KB * 1024, `${name}: ${kB(m.body)} gzipped, over the ${BUDGET_KB} kB budget; largest: ${biggest}`);
  }
});

test('two widgets on one page share their code; a German widget fetches German; the full bundle, for comparison', async () => {
  for (const name of ['blend', 'layer']) if (!measured.has(name)) measured.set(name, await measure(name, [tagOf(name)]));
  const two = await measure('two', [tagOf('blend'), tagOf('layer')]);
  assert.deepEqual(problems, []);
  const bundle = await measure('bundle', [tagOf('blend')]);
  assert.deepEqual(problems, []);
  // A German widget fetches the German messages it needs (an English one fetched none).
  const german = await measure('german', [tagOf('blend')]);
  assert.deepEqual(problems, []);
  const undo = await page.evaluate((tag) => [...document.querySelector(tag).shadowRoot.querySelectorAll('button')].map((b) => b.textContent), tagOf('blend'));
  assert.ok(undo.includes('Rückgängig'), `German buttons: ${undo.join(', ')}`);
  const fetchedMessages = (m) => m.responses.filter((r) => /catalog-data/.test(r.file)).map((r) => r.file);
  assert.deepEqual(fetchedMessages(measured.get('blend')), [], 'an English page fetches no other language');
  assert.equal(fetchedMessages(german).length, 3, `the German shared, kit and blend messages: ${fetchedMessages(german)}`);
  console.log(`${line('blend + layer', two)}\n${line('blend, German', german)}\n${line('bundle, blend', bundle)}`);
  const files = (m) => new Set(m.responses.map((r) => r.file));
  const shared = [...files(measured.get('blend'))].filter((file) => files(measured.get('layer')).has(file) && file.startsWith('pkg/'));
  assert.ok(shared.some((file) => file.endsWith('.wasm')) && shared.length >= 3, `blend and layer share chunks: ${shared.join(', ')}`);
  // Each shared file once: the pair costs the two pages less what they share.
  const sharedBytes = measured.get('blend').responses.filter((r) => shared.includes(r.file)).reduce((s, r) => s + r.body, 0);
  const alone = measured.get('blend').body + measured.get('layer').body;
  assert.ok(two.body <= alone - sharedBytes + 2048, `blend + layer ${kB(two.body)}; alone ${kB(alone)}, shared ${kB(sharedBytes)}`);
});

test('the API entry (dist/api.js) shares its modules with the widget entries: registerLocale reaches them', async () => {
  const m = await measure('api', [tagOf('blend')]);
  assert.deepEqual(problems, []);
  const words = await page.evaluate((tag) => [...document.querySelector(tag).shadowRoot.querySelectorAll('button')].map((b) => b.textContent), tagOf('blend'));
  assert.ok(words.includes('Annuler') && words.includes('Réinitialiser'), `the French buttons: ${words.join(', ')}`);
  assert.equal(m.responses.filter((r) => r.file.endsWith('.wasm')).length, 1, 'one core for the API and the widget');
});
