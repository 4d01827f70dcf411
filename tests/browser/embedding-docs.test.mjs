// docs/EMBEDDING.md, run: every fenced snippet of the guide is executed as an author would
// use it, so the guide cannot drift from the package. By language (and the comment
// "<!-- snippet: kind -->" right above a fence, where the language is not enough):
//   html   a whole page (`page`, or text starting with <!doctype) or a fragment put into a
//          page; loaded in Chromium from a site with dist/ at /course/attention/, served
//          under the guide's own Content-Security-Policy line (`platform`: under the policy
//          the guide gives for a course platform, which allows inline scripts); every widget
//          in it and in its frames must become ready, with no console error, warning or CSP
//          violation; where the snippet sizes its frames (embed-resizer.js, or its own
//          script), each frame must take its document's height;
//   css    applied to a page of every widget: each custom property it sets must reach every
//          widget element (the selector names them all); `print`: the elements it names
//          are hidden in print media and only there, every other widget still prints;
//   js     run as a module in a page holding the widgets it names (after they are ready);
//          `module` snippets (bare `import 'multiple-heads'`) are type-checked instead;
//   ts/tsx compiled with tsc against the package's types (`preact`: with Preact's JSX);
//   sh     syntax-checked (bash -n); its npm scripts, tarball version and paths must exist;
//   http   response headers: the CSP is the one the site is served under, the others are
//          compared with what the tests' server (and `npm start`) sends.
// A snippet of any other kind fails the test: a new kind needs a way to run it here.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { cacheControl, serveStatic } from '../../scripts/lib/static-server.mjs';
import { buildAllWidgets, DIST_DIR, openTestBrowser, pageTurns } from './browser.mjs';
import { WIDGET_TAGS } from '../../web/widgets/registry.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const GUIDE = readFileSync(path.join(ROOT, 'docs/EMBEDDING.md'), 'utf8');
const MANIFEST = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const SITE_PATH = '/course/attention/';
const WAIT = { timeout: 90_000 };

/** Every fenced snippet: { lang, kind, text, line, section }. */
export function snippets(markdown = GUIDE) {
  const found = [];
  const lines = markdown.split('\n');
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    if (/^#{2,3} /.test(lines[i])) section = lines[i].replace(/^#+ /, '');
    const open = /^```(\w*)\s*$/.exec(lines[i]);
    if (!open) continue;
    let end = i + 1;
    while (end < lines.length && !/^```\s*$/.test(lines[end])) end++;
    let j = i - 1;
    while (j >= 0 && lines[j].trim() === '') j--;
    const kind = /^<!-- snippet: ([\w-]+) -->$/.exec(lines[j]?.trim() ?? '')?.[1] ?? null;
    found.push({ lang: open[1], kind, text: lines.slice(i + 1, end).join('\n'), line: i + 1, section });
    i = end;
  }
  return found;
}

const ALL = snippets();
const of = (lang) => ALL.filter((s) => s.lang === lang);
const label = (s) => `line ${s.line} (${s.section})`;
const CSP = of('http').map((s) => /^Content-Security-Policy: (.+)$/m.exec(s.text)?.[1]).find(Boolean);

test('the guide has snippets of known kinds only, and one Content-Security-Policy line', () => {
  assert.ok(ALL.length >= 15, `found ${ALL.length} snippets`);
  const unknown = ALL.filter((s) => !['html', 'css', 'js', 'ts', 'tsx', 'sh', 'http'].includes(s.lang));
  assert.deepEqual(unknown.map(label), [], 'each snippet names a language this test runs');
  assert.ok(CSP?.includes("'wasm-unsafe-eval'"), 'the guide gives the CSP the widgets need');
});

let site, server, browser;

before(async () => {
  // The author's site: dist/ copied (here linked) to /course/attention/, pages at the root.
  site = mkdtempSync(path.join(tmpdir(), 'mha-docs-'));
  mkdirSync(path.join(site, 'course/attention'), { recursive: true });
  for (const entry of readdirSync(DIST_DIR)) symlinkSync(path.join(DIST_DIR, entry), path.join(site, 'course/attention', entry));
  if (!existsSync(path.join(DIST_DIR, 'single'))) {
    // `npm run build` makes dist/single/; a site built with `vite build` alone lacks it.
    const { buildSingleFiles } = await import('../../scripts/build-single-file.mjs');
    await buildSingleFiles(path.join(site, 'course/attention/single'));
  }
  // The site's icons (a page without one asks for /favicon.ico; data: icons break the CSP).
  const icon = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>';
  writeFileSync(path.join(site, 'favicon.svg'), icon);
  writeFileSync(path.join(site, 'favicon.ico'), readFileSync(path.join(ROOT, 'docs/screenshot.png')));
  // Pages under the guide's CSP; the single files under the policy the guide gives for a
  // platform that sends its own (section 8), since they carry their inline script.
  const platformCsp = /`(default-src 'self'; script-src 'self' 'unsafe-inline'[^`]+)`/.exec(GUIDE)?.[1];
  server = await serveStatic(site, { csp: (file) => (file.includes(`${path.sep}single${path.sep}`) || path.basename(file).startsWith('platform-') ? platformCsp : CSP) });
  browser = await openTestBrowser();
});
after(async () => {
  await browser?.close();
  await server?.close();
  rmSync(site, { recursive: true, force: true });
});

let pageNumber = 0;
function writePage(html, prefix = '') {
  const name = `${prefix}snippet-${++pageNumber}.html`;
  writeFileSync(path.join(site, name), html);
  return name;
}
const shell = (body, head = '') => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Snippet</title><link rel="icon" href="/favicon.svg">${head}</head>
<body><main><h1>Snippet</h1><h2>Here</h2>
${body}
</main></body></html>`;

/** Waits until every mha-* element of the page and of its frames is ready. */
async function everyWidgetReady(page) {
  await buildAllWidgets(page);
  const ready = (frame) => frame.waitForFunction(() => {
    const widgets = [...document.querySelectorAll('*')].filter((el) => el.localName.startsWith('mha-'));
    return widgets.every((el) => el.hasAttribute('ready')) ? { count: widgets.length } : false;
  }, null, WAIT).then((handle) => handle.jsonValue()).then((value) => value.count);
  const counts = [];
  // Frames: each must show a widget (a blank or refused frame has none).
  const frames = page.locator('iframe');
  for (let i = 0; i < await frames.count(); i++) {
    const frame = await (await frames.nth(i).elementHandle()).contentFrame();
    await frame.waitForFunction(() => document.querySelector('[ready]') !== null, null, WAIT);
    counts.push(await ready(frame));
  }
  counts.unshift(await ready(page));
  return counts;
}

/** Waits until every frame of the page is as tall as its document (a resizer sized it). */
async function framesSized(page) {
  const frames = page.locator('iframe');
  for (let i = 0; i < await frames.count(); i++) {
    const frame = await (await frames.nth(i).elementHandle()).contentFrame();
    const content = await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
    await frames.nth(i).evaluate((el, h) => new Promise((resolve, reject) => {
      const check = () => Math.abs(el.clientHeight - h) <= 1;
      if (check()) return resolve();
      new ResizeObserver(() => { if (check()) resolve(); }).observe(el);
      setTimeout(() => reject(new Error(`frame ${el.getAttribute('src')}: ${el.clientHeight}px, its document ${h}px`)), 15000);
    }), content);
  }
}

// The snippets' pages take turns with one page (pageTurns): a new document each, with
// nothing stored, at a fraction of a new page's cost.
const snippetPage = pageTurns(() => browser);

describe('html snippets load in Chromium under the guide’s CSP', () => {
  for (const snippet of of('html')) {
    test(label(snippet), async () => {
      const isPage = snippet.kind === 'page' || /^<!doctype/i.test(snippet.text.trim());
      const { page, problems } = await snippetPage(server.url + writePage(isPage ? snippet.text : shell(snippet.text), snippet.kind === 'platform' ? 'platform-' : ''), { width: 1100, height: 900 });
      const counts = await everyWidgetReady(page);
      assert.ok(counts.reduce((a, b) => a + b, 0) >= 1, 'the snippet shows at least one widget');
      if (/embed-resizer\.js|multiple-heads:height/.test(snippet.text)) await framesSized(page);
      assert.deepEqual(problems, []);
    });
  }
});

describe('css snippets reach every widget', () => {
  for (const snippet of of('css').filter((s) => s.kind !== 'print')) {
    test(label(snippet), async () => {
      writeFileSync(path.join(site, `snippet-${snippet.line}.css`), snippet.text);
      const tags = [...new Set([...WIDGET_TAGS, 'mha-practice'])];
      const { page, problems } = await snippetPage(server.url + writePage(shell(tags.map((t) => `<${t}></${t}>`).join('\n'),
        `<link rel="stylesheet" href="snippet-${snippet.line}.css"><script type="module" src="${SITE_PATH}multiple-heads.js"></script>`)));
      await everyWidgetReady(page);
      const declared = [...snippet.text.matchAll(/(--[\w-]+)\s*:\s*([^;]+);/g)].map((m) => [m[1], m[2].trim()]);
      assert.ok(declared.length > 0, 'the snippet sets custom properties');
      const missing = await page.evaluate(({ tags, declared }) => tags.flatMap((tag) => {
        const style = getComputedStyle(document.querySelector(tag));
        return declared.filter(([name, value]) => style.getPropertyValue(name).trim() !== value).map(([name]) => `${tag} ${name}`);
      }), { tags, declared });
      assert.deepEqual(missing, [], 'every property reaches every widget (is every widget in the selector?)');
      assert.deepEqual(problems, []);
    });
  }
});

describe('print css snippets hide what they name on paper, and only there', () => {
  for (const snippet of of('css').filter((s) => s.kind === 'print')) {
    test(label(snippet), async () => {
      writeFileSync(path.join(site, `snippet-${snippet.line}.css`), snippet.text);
      const tags = [...new Set([...WIDGET_TAGS, 'mha-practice'])];
      const named = tags.filter((tag) => new RegExp(`(^|[\\s,{])${tag}(?=[\\s,{])`).test(snippet.text));
      assert.ok(named.length > 0, 'the snippet names widgets');
      const { page, problems } = await snippetPage(server.url + writePage(shell(tags.map((t) => `<${t}></${t}>`).join('\n'),
        `<link rel="stylesheet" href="snippet-${snippet.line}.css"><script type="module" src="${SITE_PATH}multiple-heads.js"></script>`)));
      await everyWidgetReady(page);
      const hidden = () => page.evaluate((list) => list.filter((tag) => getComputedStyle(document.querySelector(tag)).display === 'none'), tags);
      assert.deepEqual(await hidden(), [], 'on screen every widget shows');
      await page.emulateMedia({ media: 'print' });
      assert.deepEqual(await hidden(), named, 'in print, the widgets the snippet names are hidden, the others print');
      assert.deepEqual(problems, []);
    });
  }
});

describe('js snippets run in a page with the widgets they use', () => {
  for (const snippet of of('js').filter((s) => s.kind !== 'module')) {
    test(label(snippet), async () => {
      const tags = [...new Set([...snippet.text.matchAll(/querySelector(?:All)?\('(mha-[a-z-]+)/g)].map((m) => m[1]))];
      const file = `snippet-${snippet.line}.js`;
      writeFileSync(path.join(site, file), `${snippet.text}\nwindow.snippetDone = true;\n`);
      const { page, problems } = await snippetPage(server.url + writePage(shell(tags.map((t) => `<${t}></${t}>`).join('\n'),
        `<script type="module" src="${SITE_PATH}multiple-heads.js"></script>`)));
      if (tags.length > 0) await everyWidgetReady(page);
      // Added as a module script file (the CSP allows no inline script), once they are ready.
      await page.evaluate((src) => document.head.append(Object.assign(document.createElement('script'), { type: 'module', src })), file);
      await page.waitForFunction(() => window.snippetDone === true, null, WAIT);
      await everyWidgetReady(page); // widgets the snippet added
      assert.deepEqual(problems, []);
    });
  }
});

describe('ts, tsx and module js snippets compile against the package’s types', () => {
  const typed = ALL.filter((s) => s.lang === 'ts' || s.lang === 'tsx' || (s.lang === 'js' && s.kind === 'module'));
  test(`${typed.length} snippets type-check`, () => {
    assert.ok(typed.length >= 3, 'the guide shows TypeScript, React and Preact use');
    const dir = mkdtempSync(path.join(tmpdir(), 'mha-docs-types-'));
    try {
      // The package as an installed dependency (this repository is it), with React's and
      // Preact's types as an author's project would have them.
      mkdirSync(path.join(dir, 'node_modules/@types'), { recursive: true });
      symlinkSync(ROOT, path.join(dir, 'node_modules/multiple-heads'));
      symlinkSync(path.join(ROOT, 'node_modules/@types/react'), path.join(dir, 'node_modules/@types/react'));
      symlinkSync(path.join(ROOT, 'node_modules/preact'), path.join(dir, 'node_modules/preact'));
      const files = typed.map((s) => {
        const name = `snippet-${s.line}.${s.lang === 'js' ? 'ts' : s.lang}`;
        const pragma = s.kind === 'preact' ? '/** @jsxImportSource preact */\n' : '';
        writeFileSync(path.join(dir, name), `${pragma}${s.text}\nexport {};\n`);
        return name;
      });
      writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022', 'dom'], types: [], jsx: 'react-jsx' },
        files,
      }));
      try {
        execFileSync(path.join(ROOT, 'node_modules/.bin/tsc'), ['-p', dir], { encoding: 'utf8', stdio: 'pipe' });
      } catch (error) {
        assert.fail(`tsc: ${error.stdout}${error.stderr}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('sh snippets are valid and name what exists', () => {
  for (const snippet of of('sh')) {
    test(label(snippet), () => {
      execFileSync('bash', ['-n'], { input: snippet.text });
      for (const line of snippet.text.split('\n').map((l) => l.replace(/#.*$/, '').trim()).filter(Boolean)) {
        const [command, ...args] = line.split(/\s+/);
        if (command === 'npm' && args[0] === 'run') {
          assert.ok(MANIFEST.scripts[args[1]], `npm run ${args[1]}: package.json has the script`);
        } else if (command === 'npm' && (args[0] === 'install' || args[0] === 'i')) {
          const tarball = args.find((a) => a.endsWith('.tgz'));
          if (tarball) assert.equal(path.basename(tarball), `${MANIFEST.name}-${MANIFEST.version}.tgz`, 'the tarball npm pack makes');
        } else if (command === 'npm') {
          assert.ok(['start', 'test', 'pack'].includes(args[0]), `npm ${args[0]} is one the guide may use`);
        } else if (command === 'cp' || command === 'ls') {
          const source = args.filter((a) => !a.startsWith('-'))[0];
          const inPackage = source.replace(/^node_modules\/multiple-heads\//, '');
          if (inPackage !== source) {
            assert.ok(MANIFEST.files.some((f) => inPackage.startsWith(f.replace(/\/$/, ''))), `${source} is in the package`);
          } else if (source.startsWith('dist/single')) {
            assert.match(readFileSync(path.join(ROOT, 'scripts/build-web.mjs'), 'utf8'), /dist\/single/, 'npm run build makes dist/single/');
          } else {
            assert.ok(existsSync(path.join(ROOT, source)) || source.startsWith('dist'), `${source} exists after a build`);
          }
        } else if (snippet.kind === 'shell-only') {
          execFileSync('bash', ['-c', `command -v ${command}`]); // the tool exists here
        } else {
          assert.fail(`${command}: a command this test does not know how to check`);
        }
      }
    });
  }
});

describe('http snippets are the headers the site is served with', () => {
  for (const snippet of of('http')) {
    test(label(snippet), async () => {
      const [, name, value] = /^([\w-]+): (.+)$/.exec(snippet.text.trim());
      if (name === 'Content-Security-Policy') {
        // The whole test site is served under it (see before()); the widgets ran there.
        assert.equal(value, CSP);
        const response = await fetch(`${server.url}course/attention/multiple-heads.js`);
        assert.equal(response.headers.get('content-security-policy'), value);
      } else if (name === 'Cache-Control') {
        const hashed = readdirSync(path.join(DIST_DIR, 'assets')).find((f) => f.endsWith('.wasm'));
        const stable = value.includes('immutable') ? null : 'multiple-heads.js';
        const file = stable ?? `assets/${hashed}`;
        assert.equal(cacheControl(path.join(DIST_DIR, file)), value);
        const response = await fetch(`${server.url}course/attention/${file}`);
        assert.equal(response.headers.get('cache-control'), value);
      } else if (name === 'Access-Control-Allow-Origin') {
        const response = await fetch(`${server.url}course/attention/multiple-heads.js`);
        assert.equal(response.headers.get('access-control-allow-origin'), value);
      } else {
        assert.fail(`${name}: a header this test does not know how to check`);
      }
    });
  }
});
