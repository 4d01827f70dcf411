// Vite serves and bundles the page in web/. base './' keeps every URL relative, so the
// built dist/ works from any static host and any sub-path. The lesson text comes from
// lessons/ through lessonPlugin (Markdown + KaTeX rendered at build time).
//
// The lesson's language: MHA_LOCALE=de npm run build builds lessons/multiple-heads/lesson.de.md
// (when it exists; else the English lesson.md) and sets <html lang="de"> on every page, so
// the widgets speak the language of lessons/multiple-heads/locales/de.json too.
import { existsSync } from 'node:fs';
import { defineConfig } from 'vite';
import { kitCssPlugin } from './scripts/lib/kit-css-plugin.mjs';
import { lessonPlugin } from './scripts/lib/lesson-plugin.mjs';
import { worldsPlugin } from './scripts/lib/worlds-plugin.mjs';

const LOCALE = process.env.MHA_LOCALE || 'en';
if (!/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(LOCALE)) throw new Error(`MHA_LOCALE=“${LOCALE}” is not a language tag like “de” or “de-CH”`);

/** The lesson's Markdown in a language: lesson.<locale>.md, else lesson.md (English). */
function lessonFile(locale) {
  const localised = `lessons/multiple-heads/lesson.${locale}.md`;
  return locale !== 'en' && existsSync(localised) ? localised : 'lessons/multiple-heads/lesson.md';
}

/**
 * The build's language: <html lang="de"> on the embed page (a widget alone) and on the
 * lesson page when its prose is translated; the widgets read it. A page whose prose is
 * still English (the lesson, the course example) keeps lang="en" and gets lang="de" on each
 * widget (widgetLanguage), so screen readers read the prose as English, the widgets as German.
 */
const pageLanguage = (locale, proseTranslated) => ({
  name: 'multiple-heads-page-language',
  transformIndexHtml: (html) => {
    const translated = html.includes('id="embed-root"') || (proseTranslated && html.includes('id="lesson"'));
    return locale === 'en' || !translated ? html : html.replace('<html lang="en">', `<html lang="${locale}">`);
  },
});
const widgetLanguage = (locale) => ({
  name: 'multiple-heads-widget-language',
  transformIndexHtml: {
    order: 'post',
    handler: (html) => (locale === 'en' || !html.includes('<html lang="en">') ? html : html.replace(/<(mha-[a-z-]+)(?=[\s>])/g, `<$1 lang="${locale}"`)),
  },
});

/**
 * The core's loader and its SIMD wasm start downloading with the page's own scripts: without
 * these hints the browser learns of them only when the first widget asks for the engine,
 * after the page is parsed, laid out and its modules evaluated (about 0.5 s into a load of
 * the lesson here). Only built pages with widgets; the URLs are relative to each page.
 * The wasm is fetched as the loader fetches it (CORS mode, same-origin credentials), so the
 * browser reuses the preloaded response. media="(scripting: enabled)": a reader without
 * JavaScript (who sees the static figures) downloads neither.
 */
const SCRIPTING = '(scripting: enabled)';
const preloadCore = () => ({
  name: 'multiple-heads-preload-core',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler(html, ctx) {
      if (!ctx.bundle || !(/<mha-[a-z-]+[\s>]/.test(html) || html.includes('id="embed-root"'))) return html;
      const files = Object.keys(ctx.bundle);
      const loader = files.find((f) => /^assets\/multiple_heads_simd-[\w-]+\.js$/.test(f));
      const wasm = files.find((f) => /^assets\/multiple_heads_simd-[\w-]+\.wasm$/.test(f));
      const up = '../'.repeat(Math.max(0, ctx.path.split('/').length - 2)) || './';
      return [
        loader && { tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, media: SCRIPTING, href: `${up}${loader}` }, injectTo: 'head' },
        wasm && { tag: 'link', attrs: { rel: 'preload', as: 'fetch', type: 'application/wasm', crossorigin: true, media: SCRIPTING, href: `${up}${wasm}` }, injectTo: 'head' },
      ].filter(Boolean);
    },
  },
});

export default defineConfig({
  root: 'web',
  base: './',
  publicDir: false,
  plugins: [
    lessonPlugin({ file: lessonFile(LOCALE) }),
    pageLanguage(LOCALE, lessonFile(LOCALE) !== lessonFile('en')),
    widgetLanguage(LOCALE),
    preloadCore(),
    worldsPlugin(),
    kitCssPlugin(),
  ],
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    target: 'es2022',
    // The wasm modules must stay separate files (streamed and compiled by the browser).
    assetsInlineLimit: 0,
    rollupOptions: {
      input: {
        index: 'web/index.html',
        embed: 'web/embed.html',
        course: 'web/examples/course.html',
        'ui-kit': 'web/examples/ui-kit.html',
        'world-editor': 'web/world-editor.html',
        'multiple-heads': 'web/multiple-heads.js',
        'embed-resizer': 'web/embed-resizer.js',
        // A classic script embed.html loads as it is (see the file): kept at a stable name.
        'embed-check': 'web/embed-check.js',
      },
      // The two author-facing scripts keep stable names; everything else is hashed.
      output: {
        entryFileNames: (chunk) => (['multiple-heads', 'embed-resizer', 'embed-check'].includes(chunk.name)
          ? '[name].js' : 'assets/[name]-[hash].js'),
      },
      preserveEntrySignatures: 'exports-only',
    },
  },
  preview: { host: '127.0.0.1', port: 5173, strictPort: false },
  server: { host: '127.0.0.1' },
});
