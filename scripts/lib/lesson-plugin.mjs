// A Vite plugin that turns the lesson (Markdown with $math$ and widget tags, in lessons/)
// into the page's HTML at build time. Math is typeset here with KaTeX into MathML, which
// needs no inline styles (strict CSP) and no typesetting at page load.
//
// Static figures: the build also runs the attention core in Node (the same Embind module
// the page loads) on each widget's starting state, and puts the widget's static figure
// (web/widgets/<name>/<name>-static.js, renderStaticFigure) inside its element. Readers
// without JavaScript or WebAssembly, search engines and print see it; the live widget
// replaces it once it loads (see widget-static-figure.js). The practice blocks (<mha-practice>, not
// a registry widget) get theirs the same way: the problems with answers and reasons.
// <mha-training>'s figure needs the trained comparison, which the training module (a wasm
// module of its own) computes once and the build keeps on disk (see trainingComparison).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import katex from 'katex';
import { marked } from 'marked';
import { WIDGETS } from '../../web/widgets/registry.js';

const WEB = fileURLToPath(new URL('../../web/', import.meta.url));
/** The built stylesheet with the world's head colours (so static figures and prose have them without JavaScript). */
export const HEAD_COLOURS_FILE = 'assets/head-colours.css';

const MATH = /\$\$([\s\S]+?)\$\$|\$([^$\n]+?)\$/g;

/** Renders lesson Markdown to { title, subtitle, html }. */
export function renderLesson(markdown) {
  const { meta, body } = splitFrontMatter(markdown);
  const formulas = [];
  // Replace math by placeholders first, so Markdown never sees TeX (underscores, etc.).
  const withPlaceholders = body.replace(MATH, (_, display, inline) => {
    const tex = display ?? inline;
    formulas.push(katex.renderToString(tex.trim(), {
      output: 'mathml', displayMode: display !== undefined, throwOnError: true,
    }));
    const token = `MATHPLACEHOLDER${formulas.length - 1}END`;
    return display !== undefined ? `\n\n<div class="math-display">${token}</div>\n\n` : token;
  });
  const html = marked.parse(withPlaceholders, { async: false })
    .replace(/MATHPLACEHOLDER(\d+)END/g, (_, i) => formulas[Number(i)]);
  return { ...meta, html: markWidgets(addSectionIds(html)) };
}

function splitFrontMatter(markdown) {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(markdown);
  if (!match) return { meta: {}, body: markdown };
  const meta = Object.fromEntries(match[1].split('\n').map((line) => {
    const at = line.indexOf(':');
    return [line.slice(0, at).trim(), line.slice(at + 1).trim()];
  }));
  return { meta, body: markdown.slice(match[0].length) };
}

// <h2>The question</h2> -> <h2 id="the-question">, so sections can be linked. Math in a
// heading contributes its TeX annotation ("W_O") to the id.
function addSectionIds(html) {
  return html.replace(/<h2>(.*?)<\/h2>/g, (_, inner) => {
    const text = inner
      .replace(/<math[\s\S]*?<annotation[^>]*>(.*?)<\/annotation>[\s\S]*?<\/math>/g, ' $1 ')
      .replace(/<[^>]+>/g, '');
    const id = text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/(^-|-$)/g, '');
    return `<h2 id="${id}">${inner}</h2>`;
  });
}

// Every widget tag in the lesson gets class="lesson-widget", so the page's stylesheet can
// place widgets without a hand-kept list of tags.
// Marked wraps a widget tag on a line of its own in <p>; unwrapped, because a widget holds
// block content (its static figure), which a <p> cannot: the parser would end the <p>, and
// the widget with it, at the figure's first tag.
function markWidgets(html) {
  return html
    .replace(/<p>\s*(<(mha-[a-z-]+)[^>]*>\s*<\/\2>)\s*<\/p>/g, '$1')
    .replace(/<(mha-[a-z-]+)(?=[\s>])/g, '<$1 class="lesson-widget"');
}

const escapeHtml = (text) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/** The core, loaded once per build in Node: the SIMD module the page uses, given its bytes. */
let engineLoad = null;
async function nodeEngine() {
  engineLoad ??= (async () => {
    const wasm = path.join(WEB, 'generated/multiple_heads_simd.wasm');
    if (!existsSync(wasm)) throw new Error(`static figures need the built core (${wasm}); run npm run build:wasm`);
    const { loadEngine } = await import(pathToFileURL(path.join(WEB, 'engine/engine.js')).href);
    const engine = await loadEngine({ simd: true, wasmBinary: readFileSync(wasm) });
    const { THE_WORLD } = await import(pathToFileURL(path.join(WEB, 'widgets/shared/world.js')).href);
    return { engine, world: THE_WORLD };
  })();
  return engineLoad;
}

// The training comparison (<mha-training>'s figure): 3 runs of 1,500 Adam steps, 3 to 6 s
// of the build on this machine, so it is computed once and kept in node_modules/.cache,
// under a key made of the training module's bytes and the sources that train and read it
// (a rebuilt core, a changed trainer or figure trains again). Kept results are the core's own numbers:
// tests/browser/no-js.test.mjs trains again and compares.
const TRAINING_CACHE_DIR = fileURLToPath(new URL('../../node_modules/.cache/multiple-heads/', import.meta.url));
let trainingLoad = null;
function trainingComparison() {
  trainingLoad ??= (async () => {
    const wasm = path.join(WEB, 'generated/multiple_heads_train_simd.wasm');
    if (!existsSync(wasm)) throw new Error(`the training figure needs the built training core (${wasm}); run npm run build:wasm`);
    const staticFile = path.join(WEB, 'widgets/training/training-static.js');
    const bytes = readFileSync(wasm);
    const hash = createHash('sha256').update(bytes);
    for (const file of [staticFile, path.join(WEB, 'widgets/training/training-model.js'), path.join(WEB, 'engine/training.js')]) hash.update(readFileSync(file));
    const key = hash.digest('hex').slice(0, 24);
    const cached = path.join(TRAINING_CACHE_DIR, `training-comparison-${key}.json`);
    if (existsSync(cached)) {
      try {
        return JSON.parse(readFileSync(cached, 'utf8'));
      } catch { /* a damaged file: train again */ }
    }
    const { loadTrainingEngine } = await import(pathToFileURL(path.join(WEB, 'engine/training.js')).href);
    const { trainComparison } = await import(pathToFileURL(staticFile).href);
    const trainingEngine = await loadTrainingEngine({ simd: true, wasmBinary: bytes });
    const comparison = trainComparison(trainingEngine);
    try {
      mkdirSync(TRAINING_CACHE_DIR, { recursive: true });
      for (const old of readdirSync(TRAINING_CACHE_DIR)) if (old.startsWith('training-comparison-')) rmSync(path.join(TRAINING_CACHE_DIR, old));
      writeFileSync(cached, JSON.stringify(comparison));
    } catch { /* a read-only tree: the next build trains again */ }
    return comparison;
  })();
  return trainingLoad;
}

/** A widget's static renderer, or null when it has none (web/widgets/<name>/<name>-static.js). */
async function staticRenderer(name) {
  const file = path.join(WEB, 'widgets', name, `${name}-static.js`);
  if (!existsSync(file)) return null;
  const module = await import(pathToFileURL(file).href);
  return typeof module.renderStaticFigure === 'function' ? module.renderStaticFigure : null;
}

/**
 * The elements that get a static figure, tag -> folder name: every registry widget, and the
 * practice blocks (an element of the lesson, not an embeddable widget, so not in the registry).
 */
function staticElements() {
  return new Map([...Object.entries(WIDGETS).map(([name, widget]) => [widget.tag, name]), ['mha-practice', 'practice']]);
}

/** The attributes of a start tag's attribute text, as { name: value } (value '' when bare). */
function parseAttributes(text) {
  const attributes = {};
  const decode = (value) => value.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  for (const match of text.matchAll(/([a-zA-Z-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
    attributes[match[1]] = decode(match[2] ?? match[3] ?? match[4] ?? '');
  }
  return attributes;
}

/**
 * Puts each widget's static figure, computed now by the core, inside its element, before
 * anything the author wrote there (a fallback sentence, which then shows only where the
 * figure cannot stand in: see widget-base.css). Widgets without a static renderer, and
 * elements that already hold a figure, are left as they are. The figures speak `locale`
 * (the build's language), or an element's own lang attribute.
 */
export async function addStaticFigures(html, { locale = 'en' } = {}) {
  const names = staticElements();
  const pattern = /<(mha-[a-z-]+)(\s[^>]*)?>([\s\S]*?)<\/\1>/g;
  const found = [...html.matchAll(pattern)].filter((m) => names.has(m[1]) && !m[3].includes('data-static-figure'));
  if (found.length === 0) return html;
  const context = { ...await nodeEngine(), locale };
  if (found.some((m) => names.get(m[1]) === 'training') && await staticRenderer('training')) {
    context.trainingComparison = await trainingComparison();
  }
  const figures = new Map();
  for (const match of found) {
    const render = await staticRenderer(names.get(match[1]));
    if (!render) continue;
    const figure = render(parseAttributes(match[2] ?? ''), context);
    const own = match[3].trim() === '' ? '' : match[3];
    figures.set(match.index, `<${match[1]}${match[2] ?? ''}>${figure}${own}</${match[1]}>`);
  }
  return html.replace(pattern, (whole, tag, attributes, content, offset) => figures.get(offset) ?? whole);
}

/**
 * Vite plugins: fill <!--lesson:title-->, <!--lesson:subtitle--> and <!--lesson:body-->
 * (with the widgets' static figures), and, in a build, link the world's head colours as a
 * stylesheet of their own (no inline style under the CSP; in the dev server main.js sets
 * them), so static figures and the prose's head names have them without JavaScript.
 * `locale`: the language of the static figures (MHA_LOCALE, as vite.config.js reads it).
 */
export function lessonPlugin({ file, locale = process.env.MHA_LOCALE || 'en' }) {
  const absolute = path.resolve(file);
  let headColours = null;
  const headColoursPlugin = {
    name: 'multiple-heads-head-colours',
    apply: 'build',
    async buildStart() {
      const { headColourStyles } = await import(pathToFileURL(path.join(WEB, 'widgets/shared/world.js')).href);
      headColours = headColourStyles(undefined, ':root');
    },
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        if (!html.includes('data-static-figure')) return html;
        return [{ tag: 'link', attrs: { rel: 'stylesheet', href: `./${HEAD_COLOURS_FILE}` }, injectTo: 'head' }];
      },
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: HEAD_COLOURS_FILE, source: headColours });
    },
  };
  return [{
    name: 'multiple-heads-lesson',
    transformIndexHtml: {
      order: 'pre',
      async handler(html) {
        if (!html.includes('<!--lesson:body-->')) return html;
        const lesson = renderLesson(readFileSync(absolute, 'utf8'));
        return html
          .replaceAll('<!--lesson:title-->', escapeHtml(lesson.title ?? ''))
          .replaceAll('<!--lesson:subtitle-->', escapeHtml(lesson.subtitle ?? ''))
          .replace('<!--lesson:body-->', await addStaticFigures(lesson.html, { locale }));
      },
    },
    configureServer(server) {
      server.watcher.add(absolute);
      server.watcher.on('change', (changed) => {
        if (path.resolve(changed) === absolute) server.ws.send({ type: 'full-reload' });
      });
    },
  }, headColoursPlugin];
}
