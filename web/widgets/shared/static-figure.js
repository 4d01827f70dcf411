// Static figures: what a widget shows before it loads, when JavaScript or WebAssembly is
// unavailable, and on paper. Each widget's <name>-static.js renders one with
// renderStaticFigure(attributes, { engine, world }) as an HTML string; the lesson's build
// (scripts/lib/lesson-plugin.mjs) runs the core in Node and puts the string inside the
// widget's element, and the live widget keeps it up to date for print. Pure strings, no DOM.
//
// Language: every word comes from the locale files (the `staticFigure` group and the
// widgets' own keys) through the Messages of `figureMessages` (the element's lang, else the
// build's or page's locale), numbers with the locale's decimal separator.
//
// Colours: shapes carry the world's head classes (head-<id>) and fill with var(--head)
// through web/static-figures.css, so the figure follows the light and dark palettes the
// world defines; the build adds those classes' variables to the page as a stylesheet.
// Intensity (a weight, a magnitude) is fill-opacity: a presentation attribute, allowed
// under the strict CSP, where an inline style would not be.

// First: its words are registered before any figure is worded (one-widget entries).
import './static-figure-messages.js';
import { messagesFor } from './i18n.js';

/** Text made safe for HTML content and attribute values. */
export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

/** A number for an SVG coordinate: short and never in exponent form. */
export const coordinate = (value) => String(Math.round(value * 100) / 100);

/** An opacity in [0, 1] with two decimals (a weight of 0.004 still shows as a trace). */
export const opacity = (value) => (Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0).toFixed(2);

/**
 * An SVG image: role="img" with `label` as its text alternative (the numbers it draws are
 * also written out beside it, in the figure's caption or table).
 */
export function svgImage({ width, height, label, body, scale = 1 }) {
  // Drawn at `scale` CSS px per unit where there is room, narrower on a phone (CSS
  // max-width: 100%), so small cells are legible on a wide screen and nothing overflows.
  const size = `width="${Math.round(width * scale)}" height="${Math.round(height * scale)}"`;
  return `<svg class="mha-static-svg" ${size} viewBox="0 0 ${coordinate(width)} ${coordinate(height)}" role="img" aria-label="${escapeHtml(label)}">${body}</svg>`;
}

/** SVG text; `anchor` start, middle or end. */
export function svgText(x, y, text, { anchor = 'start', className = '' } = {}) {
  const cls = className ? ` class="${className}"` : '';
  return `<text x="${coordinate(x)}" y="${coordinate(y)}" text-anchor="${anchor}"${cls}>${escapeHtml(text)}</text>`;
}

export function svgRect(x, y, width, height, { className = '', fillOpacity = null } = {}) {
  const cls = className ? ` class="${className}"` : '';
  const op = fillOpacity === null ? '' : ` fill-opacity="${opacity(fillOpacity)}"`;
  return `<rect x="${coordinate(x)}" y="${coordinate(y)}" width="${coordinate(width)}" height="${coordinate(height)}"${cls}${op}/>`;
}

/**
 * A matrix as a grid of cells: sequential (values in [0, max], the head's colour) or
 * diverging (sign by class pos / neg, strength by |value| / max). `outlineRow` frames one
 * row (the picked query). Returns SVG markup placed at (x, y).
 *
 * Small on the wire: strengths are rounded to tenths, cells under a twentieth of the scale
 * are left as the pale base, and runs of equal cells along a row are one rectangle in one
 * <path> per class and strength (relative moves: "m5 0h10v5h-10z").
 */
export function svgGrid({ x, y, rows, cols, data, cell, max = 1, headClass = '', diverging = false, outlineRow = null }) {
  const groups = new Map();
  for (let r = 0; r < rows; r++) {
    let run = null;
    for (let c = 0; c <= cols; c++) {
      const value = c < cols ? data[r * cols + c] : NaN;
      const level = Number.isFinite(value) ? Math.min(10, Math.round((Math.abs(value) / max) * 10)) : 0;
      const key = level === 0 ? null : `${diverging ? (value > 0 ? 'pos' : 'neg') : 'fill'} ${level}`;
      if (run && run.key === key) {
        run.length += 1;
        continue;
      }
      if (run) {
        if (!groups.has(run.key)) groups.set(run.key, []);
        groups.get(run.key).push(run);
      }
      run = key === null ? null : { key, r, c, length: 1 };
    }
  }
  const paths = [...groups].map(([key, runs]) => {
    const [className, level] = key.split(' ');
    let at = null;
    const d = runs.map((run) => {
      const px = x + run.c * cell;
      const py = y + run.r * cell;
      const move = at === null ? `M${coordinate(px)} ${coordinate(py)}` : `m${coordinate(px - at[0])} ${coordinate(py - at[1])}`;
      at = [px, py];
      const w = run.length * cell;
      return `${move}h${w}v${cell}h-${w}z`;
    }).join('');
    return `<path class="${className}" fill-opacity="${(level / 10).toFixed(1)}" d="${d}"/>`;
  });
  const outline = outlineRow === null ? '' : svgRect(x, y + outlineRow * cell, cols * cell, cell, { className: 'outline' });
  return `<g class="mha-static-grid ${headClass}">${svgRect(x, y, cols * cell, rows * cell, { className: 'grid-base' })}${paths.join('')}${outline}</g>`;
}

/**
 * A budget (weights summing to 1) as one bar of segments, one per token, widths by weight;
 * the tokens in `labelled` get their word and weight written under the bar.
 */
export function svgBudgetBar({ x, y, width, height, weights, tokens, labelled, headClass, format }) {
  const parts = [`<g class="mha-static-bar ${headClass}">`, svgRect(x, y, width, height, { className: 'grid-base' })];
  let at = x;
  weights.forEach((weight, t) => {
    const w = weight * width;
    // Every segment in the head's colour, the labelled ones at full strength.
    parts.push(svgRect(at, y, w, height, { className: 'fill seg', fillOpacity: labelled.includes(t) ? 1 : 0.35 }));
    if (labelled.includes(t)) {
      parts.push(svgText(at + w / 2, y + height + 13, `${tokens[t]} ${format(weight)}`, { anchor: 'middle', className: 'small' }));
    }
    at += w;
  });
  parts.push('</g>');
  return parts.join('');
}

/**
 * The Messages a figure speaks: the element's own lang attribute, else `locale` (the
 * build's language, or the live widget's), else English.
 */
export const figureMessages = (attributes, locale) => messagesFor(stringAttribute(attributes, 'lang') || locale || 'en');

/**
 * A message as HTML. Every part of it is text: the locale's message itself (a course's own
 * catalog may hold anything, `<img onerror=…>` included) and its text parameters are
 * escaped; only parameters given as rawHtml(…) (a <strong> figure, a head chip, d<sub>model</sub>,
 * all built by the renderers) go in as markup. Numbers are formatted by m.t (plain digits).
 */
export function messageHtml(m, key, params = {}) {
  const pieces = new Map();
  const slots = {};
  for (const [name, value] of Object.entries(params)) {
    if (typeof value === 'number') {
      slots[name] = value;
      continue;
    }
    const token = `\u0001${pieces.size}\u0001`;
    pieces.set(token, value instanceof RawHtml ? value.html : escapeHtml(value));
    slots[name] = token;
  }
  return escapeHtml(m.t(key, slots)).replace(/\u0001\d+\u0001/g, (token) => pieces.get(token) ?? '');
}

class RawHtml {
  constructor(html) { this.html = html; }
}
/** Marks markup for messageHtml, to be put in unescaped. */
export const rawHtml = (html) => new RawHtml(html);

/** The line under every static figure: what it is, and what the live one adds. */
export const staticNote = (m) => m.t('staticFigure.note');

/** The same line once the live widget has redrawn the figure for its current state (print). */
export const liveNote = (m) => m.t('staticFigure.liveNote');

/** The notes in English (the lesson's language), for tests and callers without Messages. */
export const STATIC_NOTE = staticNote(messagesFor('en'));
export const LIVE_NOTE = liveNote(messagesFor('en'));

/**
 * The figure element every widget's static renderer returns. `name` is the widget's folder
 * name (for the class and the test), `body` its SVG and tables, `caption` its key numbers
 * in words, `m` the Messages of its note.
 */
export function staticFigure({ name, title, body, caption, m = messagesFor('en'), data = null }) {
  // data-locale: the language it was drawn in, so that a live widget in another language
  // (a page whose lang differs from the build's) redraws it in its own before it prints.
  // data-figure: what the figure was drawn from when the page cannot compute it again (the
  // training comparison, trained at build time), as JSON.
  const kept = data === null ? '' : ` data-figure="${escapeHtml(JSON.stringify(data))}"`;
  return `<figure class="mha-static mha-static-${name}" data-static-figure="${name}" data-locale="${escapeHtml(m.locale)}"${kept}>`
    + `<figcaption><b>${escapeHtml(title)}.</b> ${caption}</figcaption>${body}`
    + `<p class="mha-static-note">${escapeHtml(staticNote(m))}</p></figure>`;
}

/** A small table (first column row headers) as HTML; cells are strings, already escaped. */
export function htmlTable({ caption, head, rows, className = '' }) {
  const th = head.map((h) => `<th scope="col">${h}</th>`).join('');
  const body = rows.map(([first, ...rest]) => `<tr><th scope="row">${first}</th>${rest.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('');
  return `<table class="mha-static-table ${className}"><caption>${caption}</caption><thead><tr>${th}</tr></thead><tbody>${body}</tbody></table>`;
}

/** An attribute's text, or null when the element does not have it. */
export const stringAttribute = (attributes, name) => (typeof attributes?.[name] === 'string' ? attributes[name] : null);

/**
 * The steps every core-computed figure shares: the state to draw is `start` (the widget's
 * starting state, with its attributes), replaced by the `state` attribute's when that
 * passes the widget's own `sanitize`; a bad one is the live widget's to report, so the
 * figure quietly shows the start. The model (`createModel()`, which holds core memory)
 * is disposed however drawing ends. Returns `draw(model, state)`.
 *
 * `lent`: a model the live widget lends for a redraw on the page (its caches hold what its
 * current state needed, so the figure does not compute it again); it stays the widget's,
 * and is not disposed here.
 */
export function figureFromState(attributes, { start, sanitize, createModel, draw, lent = null }) {
  let state = start;
  try {
    const raw = stateAttribute(attributes);
    if (raw) state = sanitize(raw);
  } catch { /* a bad state attribute: the live widget says so; the figure shows the start */ }
  const model = lent ?? createModel();
  try {
    return draw(model, state);
  } finally {
    if (model !== lent) model.dispose();
  }
}

/** The widget's `state` attribute as JSON, or null (none, or not JSON: the default is shown). */
export function stateAttribute(attributes) {
  const text = attributes?.state;
  if (typeof text !== 'string' || text.length > 20000) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * Puts a freshly rendered figure (a static renderer's HTML, escaped by the renderer) in place
 * of the one drawn before, after `prepare(fresh)`; the old one stays if the HTML is not a
 * figure or the old one has left the page. Returns the new figure or null.
 */
export function replaceFigure(figure, html, prepare = () => {}) {
  const template = document.createElement('template');
  template.innerHTML = html;
  const fresh = template.content.firstElementChild;
  if (!fresh?.matches('[data-static-figure]') || !figure.isConnected) return null;
  prepare(fresh);
  figure.replaceWith(fresh);
  return fresh;
}
