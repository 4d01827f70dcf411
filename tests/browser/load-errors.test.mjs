// When the core cannot load, the widget blames the right thing, in an author's words, and
// names the fix; the author's own content inside the element stays visible. Each case is a
// host set up wrong the way course sites are:
//   * a Content-Security-Policy without 'wasm-unsafe-eval';
//   * a sandboxed frame (origin "null") on a host that sends no Access-Control-Allow-Origin
//     at all (the module scripts cannot load: embed-check.js, a classic script, explains);
//   * the same frame when only the .wasm files lack the header;
//   * a .wasm file missing (404), or answered with a web page (a single-page-app fallback).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { serveStatic } from '../../scripts/lib/static-server.mjs';
import { DIST_DIR, newWatchedPage, openTestBrowser, screenshot } from './browser.mjs';
import { axeViolations } from './axe.mjs';

const NO_WASM_CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'";
const FALLBACK = 'A picture of one head splitting its attention between two words.';
let browser, site;
const servers = [];

before(async () => {
  site = mkdtempSync(path.join(tmpdir(), 'mha-load-errors-'));
  symlinkSync(DIST_DIR, path.join(site, 'lesson'));
  writeFileSync(path.join(site, 'inline.html'), `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Inline</title><link rel="icon" href="data:,">
<script type="module" src="lesson/multiple-heads.js"></script></head>
<body><main><h1>Attention</h1><mha-blend><p class="author-fallback">${FALLBACK}</p></mha-blend></main></body></html>`);
  writeFileSync(path.join(site, 'frame.html'), `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Frame</title><link rel="icon" href="data:,"></head>
<body><main><h1>Attention</h1>
<iframe title="blend" sandbox="allow-scripts" width="900" height="600" src="lesson/embed.html?widget=blend"></iframe>
</main></body></html>`);
  browser = await openTestBrowser();
});
after(async () => {
  await browser?.close();
  for (const server of servers) await server.close();
  rmSync(site, { recursive: true, force: true });
});

async function serve(options) {
  const server = await serveStatic(site, options);
  servers.push(server);
  return server;
}

/**
 * Serves `site` through a proxy whose `wasm(response)` decides what a .wasm request gets:
 * 'no-cors' (the file without Access-Control-Allow-Origin), 404, or 'html' (a web page).
 */
async function serveWithWasm(wasm) {
  const upstream = await serve();
  const server = http.createServer((request, response) => {
    http.get(new URL(request.url, upstream.url), (answer) => {
      const headers = { ...answer.headers };
      if (request.url.split('?')[0].endsWith('.wasm')) {
        if (wasm === 404) {
          answer.resume();
          response.writeHead(404, { 'Content-Type': 'text/plain', 'Access-Control-Allow-Origin': '*' }).end('not found');
          return;
        }
        if (wasm === 'html') {
          answer.resume();
          response.writeHead(200, { 'Content-Type': 'text/html', 'Access-Control-Allow-Origin': '*' })
            .end(readFileSync(path.join(site, 'inline.html')));
          return;
        }
        if (wasm === 'no-cors') delete headers['access-control-allow-origin'];
      }
      response.writeHead(answer.statusCode, headers);
      answer.pipe(response);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const handle = { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((done) => server.close(done)) };
  servers.push(handle);
  return handle;
}

const pageErrors = (problems) => problems.filter((p) => p.startsWith('page error'));
const NOT_THE_OLD_WORDS = /Aborted|ASSERTIONS|in this browser|magic word/;

describe('the core cannot load: the widget says why, in an author’s words', () => {
  test('no \'wasm-unsafe-eval\' in the page’s CSP: the message names the CSP and the fix; the author’s fallback shows', async () => {
    const server = await serve({ csp: NO_WASM_CSP });
    const { page, problems } = await newWatchedPage(browser);
    await page.goto(`${server.url}inline.html`);
    const alert = page.locator('mha-blend').getByRole('alert');
    await alert.waitFor();
    const text = await alert.textContent();
    assert.match(text, /Content-Security-Policy does not allow WebAssembly/);
    assert.match(text, /script-src 'self' 'wasm-unsafe-eval'/);
    assert.doesNotMatch(text, NOT_THE_OLD_WORDS);
    assert.equal(await page.getByText(FALLBACK).isVisible(), true, 'the author’s own content is shown');
    assert.equal(await page.locator('mha-blend[ready]').count(), 0);
    await screenshot(page, 'load-error-csp');
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      assert.deepEqual(await axeViolations(page), [], `axe, ${scheme}`);
    }
    assert.deepEqual(pageErrors(problems), []);
  });

  test('a sandboxed frame on a host without Access-Control-Allow-Origin: the frame says so instead of staying blank', async () => {
    const server = await serve({ cors: false });
    const { page, problems } = await newWatchedPage(browser);
    await page.goto(`${server.url}frame.html`);
    const alert = page.frameLocator('iframe').getByRole('alert');
    await alert.waitFor();
    const text = await alert.textContent();
    assert.match(text, /sandboxed \(its origin is "null"\)/);
    assert.match(text, /Access-Control-Allow-Origin: \*/);
    await screenshot(page, 'load-error-frame-cors');
    assert.deepEqual(pageErrors(problems), []);
  });

  test('a sandboxed frame whose host sends the header for scripts but not for .wasm: the widget names the header', async () => {
    const server = await serveWithWasm('no-cors');
    const { page } = await newWatchedPage(browser);
    await page.goto(`${server.url}frame.html`);
    const alert = page.frameLocator('iframe').locator('mha-blend').getByRole('alert');
    await alert.waitFor();
    const text = await alert.textContent();
    assert.match(text, /sandboxed frame \(its origin is "null"\)/);
    assert.match(text, /Access-Control-Allow-Origin: \*/);
    assert.doesNotMatch(text, NOT_THE_OLD_WORDS);
  });

  test('a missing .wasm file (404) and a web page served in its place are named as such', async () => {
    for (const [wasm, expected] of [[404, /the server answered 404 for http:\/\/\S+\.wasm/], ['html', /\.wasm is not a wasm file \(it starts with “<!doctype html>/]]) {
      const server = await serveWithWasm(wasm);
      const { page } = await newWatchedPage(browser);
      await page.goto(`${server.url}inline.html`);
      const alert = page.locator('mha-blend').getByRole('alert');
      await alert.waitFor();
      const text = await alert.textContent();
      assert.match(text, expected);
      assert.match(text, /Copy the whole built folder/);
      assert.doesNotMatch(text, NOT_THE_OLD_WORDS);
      assert.equal(await page.getByText(FALLBACK).isVisible(), true);
      await page.close();
    }
  });
});
