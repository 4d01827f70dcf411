// A Vite plugin that turns the lesson (Markdown with $math$ and widget tags, in lessons/)
// into the page's HTML at build time. Math is typeset here with KaTeX into MathML, which
// needs no inline styles (strict CSP) and no typesetting at page load.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import katex from 'katex';
import { marked } from 'marked';

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
function markWidgets(html) {
  return html.replace(/<(mha-[a-z-]+)(?=[\s>])/g, '<$1 class="lesson-widget"');
}

const escapeHtml = (text) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/** Vite plugin: fills <!--lesson:title-->, <!--lesson:subtitle--> and <!--lesson:body-->. */
export function lessonPlugin({ file }) {
  const absolute = path.resolve(file);
  return {
    name: 'multiple-heads-lesson',
    transformIndexHtml: {
      order: 'pre',
      handler(html) {
        const lesson = renderLesson(readFileSync(absolute, 'utf8'));
        return html
          .replaceAll('<!--lesson:title-->', escapeHtml(lesson.title ?? ''))
          .replaceAll('<!--lesson:subtitle-->', escapeHtml(lesson.subtitle ?? ''))
          .replace('<!--lesson:body-->', lesson.html);
      },
    },
    configureServer(server) {
      server.watcher.add(absolute);
      server.watcher.on('change', (changed) => {
        if (path.resolve(changed) === absolute) server.ws.send({ type: 'full-reload' });
      });
    },
  };
}
