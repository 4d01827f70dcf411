// Vite serves and bundles the page in web/. base './' keeps every URL relative, so the
// built dist/ works from any static host and any sub-path. The lesson text comes from
// lessons/ through lessonPlugin (Markdown + KaTeX rendered at build time).
import { defineConfig } from 'vite';
import { lessonPlugin } from './scripts/lib/lesson-plugin.mjs';

export default defineConfig({
  root: 'web',
  base: './',
  publicDir: false,
  plugins: [lessonPlugin({ file: 'lessons/multiple-heads/lesson.md' })],
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
