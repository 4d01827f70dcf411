// Part of npm run build (alone: node scripts/build-single-file.mjs [outDir]): one
// self-contained HTML file per widget, dist/single/<widget>.html, with its script, styles,
// workers and wasm inlined. It works opened from disk (file://, where Chromium refuses
// module scripts from files: here the one script is inline) and uploaded to a
// learning-management system as a single file.
//
// In a frame, the file reports its height to the page around it (web/embed-height.js), as
// embed.html does; embed-resizer.js, or the few lines of docs/EMBEDDING.md section 8, size
// the frame.
//
// How the pieces get inside one file:
//  * Vite bundles the widget into ONE ES module (dynamic imports inlined), placed in an
//    inline <script type="module">.
//  * Every `new URL('<file>.wasm', import.meta.url)` in the page's code (engine.js, the
//    Emscripten glue, training.js) becomes a data: URL holding the file (base64, one copy
//    per file). The loaders fetch it as they would fetch the file, and pass it on to their
//    workers.
//  * Every `new Worker(new URL('<worker>.js', import.meta.url), { type: 'module' })` becomes
//    Vite's inline worker (`?worker&inline`: the worker's own bundle, started from a blob:
//    URL). In a worker's bundle the wasm URLs become unused placeholders: a worker gets its
//    wasm address from the page.
//  * Styles: the widgets' own are constructable stylesheets (CSSOM, allowed by any
//    style-src); the page's few rules are one inline <style>.
//  * The file carries its own Content-Security-Policy (a <meta>): nothing from the network,
//    the inline script and style allowed by their SHA-256 hashes, wasm by
//    'wasm-unsafe-eval', data: for the wasm fetches, blob: for the workers.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { WIDGETS } from '../web/widgets/registry.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WEB = path.join(ROOT, 'web');
const ENTRY_PREFIX = '\0mha-single-entry:';
const WASM_PREFIX = '\0mha-inline-wasm:';

const WASM_URL = /new\s+URL\(\s*(['"`])([\w./-]+\.wasm)\1\s*,\s*import\.meta\.url\s*\)/g;
const WORKER = /new\s+Worker\(\s*new\s+URL\(\s*(['"`])([\w./-]+\.js)\1\s*,\s*import\.meta\.url\s*\)\s*,\s*\{\s*type:\s*(['"])module\3\s*\}\s*\)/g;

/** The page bundle's plugin: inline wasm (blob: URLs) and inline workers. */
function inlinePagePlugin() {
  return {
    name: 'mha-single-file-page',
    enforce: 'pre',
    resolveId(id) {
      if (id.startsWith(ENTRY_PREFIX) || id.startsWith(WASM_PREFIX)) return id;
      return null;
    },
    load(id) {
      if (id.startsWith(ENTRY_PREFIX)) {
        // The widget, and (a registry widget's file) its height reported to the page around
        // the file's frame.
        const name = id.slice(ENTRY_PREFIX.length);
        const widget = `import ${JSON.stringify(path.join(WEB, 'widgets', name, 'index.js'))};`;
        if (!Object.hasOwn(WIDGETS, name)) return widget;
        return [widget, `import { reportFrameHeight } from ${JSON.stringify(path.join(WEB, 'embed-height.js'))};`,
          `reportFrameHeight(document.querySelector(${JSON.stringify(WIDGETS[name].tag)}), ${JSON.stringify(name)});`].join('\n');
      }
      if (id.startsWith(WASM_PREFIX)) {
        // A data: URL, not a blob: URL: a page opened from disk has an opaque origin, and
        // its workers (opaque origins of their own) may not fetch its blob: URLs.
        const base64 = readFileSync(id.slice(WASM_PREFIX.length)).toString('base64');
        return `export default function wasmUrl() { return ${JSON.stringify(`data:application/wasm;base64,${base64}`)}; }`;
      }
      return null;
    },
    transform(code, id) {
      if (id.startsWith('\0') || !/\.(m?js)$/.test(id.split('?')[0])) return null;
      const imports = [];
      let out = code.replace(WASM_URL, (match, quote, file) => {
        const name = `__mhaWasm${imports.length}`;
        imports.push(`import ${name} from ${JSON.stringify(WASM_PREFIX + path.resolve(path.dirname(id), file))};`);
        return `new URL(${name}())`;
      });
      out = out.replace(WORKER, (match, quote, file) => {
        const name = `__MhaWorker${imports.length}`;
        imports.push(`import ${name} from ${JSON.stringify(`${path.resolve(path.dirname(id), file)}?worker&inline`)};`);
        return `new ${name}()`;
      });
      return imports.length ? `${imports.join('\n')}\n${out}` : null;
    },
  };
}

/** A worker bundle's plugin: its own wasm URLs are never used (the page sends them). */
function workerPlaceholderPlugin() {
  return {
    name: 'mha-single-file-worker',
    enforce: 'pre',
    transform(code, id) {
      if (id.startsWith('\0') || !/\.(m?js)$/.test(id.split('?')[0])) return null;
      const out = code.replace(WASM_URL, (match, quote, file) => `new URL(${JSON.stringify(`inline:${path.basename(file)}`)})`);
      return out === code ? null : out;
    },
  };
}

/** The one ES module of `widget` (a folder of web/widgets/), everything inlined. */
export async function bundle(widget) {
  const result = await build({
    configFile: false,
    root: WEB,
    logLevel: 'warn',
    publicDir: false,
    plugins: [inlinePagePlugin()],
    worker: { format: 'iife', plugins: () => [workerPlaceholderPlugin()] },
    build: {
      write: false,
      target: 'es2022',
      minify: true,
      assetsInlineLimit: 0,
      modulePreload: false,
      rollupOptions: {
        input: ENTRY_PREFIX + widget,
        output: { format: 'es', codeSplitting: false },
      },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => r.output);
  const chunks = outputs.filter((o) => o.type === 'chunk');
  if (chunks.length !== 1) throw new Error(`${widget}: expected one script, got ${chunks.map((c) => c.fileName).join(', ')}`);
  return chunks[0].code;
}

const sha256 = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const escapeHtml = (text) => text.replace(/[&<>"]/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot' }[c]};`);

/** The single file's text for `widget` (a key of WIDGETS), from its bundled script. */
export function singleFileHtml(widget, script) {
  const { tag, title } = WIDGETS[widget];
  // "</script" inside the script would end the element early; "<\/script" means the same in JS.
  const code = script.replace(/<\/script/gi, '<\\/script');
  const style = readFileSync(path.join(WEB, 'embed.css'), 'utf8');
  const csp = ["default-src 'none'", `script-src ${sha256(code)} 'wasm-unsafe-eval'`, `style-src ${sha256(style)}`,
    'connect-src data:', 'worker-src blob:', 'img-src data:', "base-uri 'none'", "form-action 'none'"].join('; ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}: Multiple Heads</title>
<link rel="icon" href="data:,">
<style>${style}</style>
</head>
<body>
<main id="embed-root"><h1 class="sr-only">${escapeHtml(title)}</h1>
<${tag} heading-level="2" loading="eager"><p>This interactive figure needs JavaScript and WebAssembly.</p></${tag}>
</main>
<script type="module">${code}</script>
</body>
</html>
`;
}

/** Writes dist/single/<widget>.html (or into `outDir`) for every widget; returns their paths and sizes. */
export async function buildSingleFiles(outDir = path.join(ROOT, 'dist/single')) {
  mkdirSync(outDir, { recursive: true });
  const written = [];
  for (const widget of Object.keys(WIDGETS)) {
    const html = singleFileHtml(widget, await bundle(widget));
    const file = path.join(outDir, `${widget}.html`);
    writeFileSync(file, html);
    written.push({ file, bytes: Buffer.byteLength(html) });
  }
  return written;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const outDir = process.argv[2] ? path.resolve(process.argv[2]) : undefined;
  for (const { file, bytes } of await buildSingleFiles(outDir)) {
    console.log(`${path.relative(ROOT, file)}  ${(bytes / 1024).toFixed(0)} kB`);
  }
}
