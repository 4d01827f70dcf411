// "Embed": on the lesson page, each widget offers a course author the code that shows it,
// as it is now, on their own page: the inline element (the package script and the tag with
// its current state, attributes as in docs/EMBEDDING.md) and the iframe (embed.html with
// the same attributes as URL parameters, a width, and the resizer script), each with a Copy
// button, in a modal <dialog> (the top layer).
//
// The button that opens it is the page's, not the widget's: it stands in the light DOM just
// before the widget (one tab stop before the widget's own "skip past" link, so the widget
// keeps its own tab stops), in a wrapper that gives it the widget's corner to sit at. It
// takes no row, so the page is no longer: 900 px and wider, a 44 px square in the page's
// margin beside the widget's top right corner; narrower, a 24 px tab on the widget's top
// border (see embed-code.css).
//
// The code is text in read-only text areas, never markup on this page: a crafted state
// cannot inject anything here, and what is copied is exactly what is shown.
import { WIDGETS, attributeWords } from '../registry.js';
import { element } from '../../ui/dom.js';
import { messagesFor } from './i18n.js';
import { roundedNumbers } from './rounded-numbers.js';
import styles from './embed-code.css?inline';


// Attributes that belong to the lesson page rather than to the widget: its key in this
// page's address and whether it uses it (the author's page has its own).
const PAGE_ONLY = new Set(['state', 'state-key', 'url-state']);

const entryFor = (widget) => Object.entries(WIDGETS).find(([, entry]) => entry.tag === widget.localName);

// Single-quoted HTML attribute: JSON's many double quotes stay readable.
const attributeValue = (text) => `'${String(text).replaceAll('&', '&amp;').replaceAll("'", '&#39;')}'`;

/**
 * The widget's state as the snippet writes it: its numbers rounded, if the widget accepts
 * the rounded state (its own sanitiser); otherwise exactly as it is.
 */
function snippetState(widget) {
  const state = widget.state;
  const rounded = roundedNumbers(state);
  try {
    widget.sanitizeState(structuredClone(rounded));
    return JSON.stringify(rounded);
  } catch {
    return JSON.stringify(state);
  }
}

/** The widget's attributes for an embed: the author-facing ones it has, then its current state. */
function embedAttributes(widget, entry) {
  const pairs = entry.attributes.filter((name) => !PAGE_ONLY.has(name) && widget.hasAttribute(name))
    .map((name) => [name, widget.getAttribute(name)]);
  pairs.push(['state', snippetState(widget)]);
  return pairs;
}

/**
 * The two snippets for `widget` as it is now: { inline, iframe }. `siteUrl` is the address of
 * the folder that holds multiple-heads.js, embed.html and embed-resizer.js (the built dist/).
 * `sameSite`: the author pastes into a page of this same site, so the addresses are written
 * from the site's root (/course/attention/multiple-heads.js): they keep working when the
 * site moves to another domain or from http to https. Otherwise they are full addresses,
 * which work from anywhere. The lesson cannot know which; the dialog asks.
 */
export function embedSnippets(widget, siteUrl, { sameSite = false } = {}) {
  const [name, entry] = entryFor(widget);
  const at = (file) => {
    const url = new URL(file, siteUrl);
    return sameSite ? `${url.pathname}${url.search}` : url.href;
  };
  const pairs = embedAttributes(widget, entry);
  const attributes = pairs.map(([key, value]) => (value === '' ? ` ${key}` : ` ${key}=${attributeValue(value)}`)).join('');
  const inline = `<script type="module" src="${at('multiple-heads.js')}"></script>\n<${entry.tag}${attributes}></${entry.tag}>`;
  const query = [['widget', name], ...pairs].map(([key, value]) => (value === '' ? key : `${key}=${encodeURIComponent(value)}`)).join('&amp;');
  const height = Math.round(entry.loadingHeight?.wide ?? 900);
  const iframe = `<script type="module" src="${at('embed-resizer.js')}"></script>\n` +
    `<iframe title="${entry.title}" src="${at('embed.html')}?${query}" width="100%" height="${height}"></iframe>`;
  return { inline, iframe };
}

let sheet = null;
let counter = 0;

/**
 * The widget's title as the Embed button and dialog name it. A page may show one widget twice,
 * cut into panels (the lesson: head splitting's counts, and later its rank panel): the panels
 * are named too, so that the two buttons are told apart.
 */
function shownTitle(widget, key, entry, m) {
  const title = m.widgetTitle(key, entry.title);
  const panels = attributeWords(widget.getAttribute('panels'));
  return panels.length ? m.t('embed.titlePanels', { title, panels: m.list(panels) }) : title;
}

/**
 * Gives a lesson widget its Embed button: wraps the widget (moving it in one task, which the
 * widget survives unchanged) and shows the button once the widget is ready. The dialog is
 * made when the button is first pressed, and its button named when the widget is ready:
 * made for every widget of the lesson at load, they cost 70 ms of the page's first second
 * on a desktop here, the first Intl.ListFormat included (issue 25). Calling it again does
 * nothing. Returns { button }, or null for an element that is not a registry widget.
 */
export function addEmbedCode(widget, siteUrl) {
  const entry = entryFor(widget);
  if (!entry || widget.parentElement?.classList.contains('embed-frame')) return null;
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(styles);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  }
  const id = `embed-${++counter}`;
  // In the widget's language (its lang, or the page's), as the widget itself.
  const m = messagesFor(widget);
  const open = element('button', { type: 'button', className: 'embed-open', hidden: true }, [
    codeIcon(), element('span', { className: 'embed-word', textContent: m.t('embed.button') }),
  ]);
  open.title = m.t('embed.title');
  open.setAttribute('aria-haspopup', 'dialog');
  const frame = element('div', { className: 'embed-frame' });
  let dialog = null;
  open.addEventListener('click', () => {
    if (!dialog) {
      dialog = buildDialog(widget, siteUrl, id, m);
      dialog.element.addEventListener('close', () => open.focus());
      frame.append(dialog.element);
    }
    dialog.show();
  });
  // Shown, and named, when the widget has a state to give (and again if it is rebuilt).
  const show = () => {
    if (!open.hasAttribute('aria-label')) open.setAttribute('aria-label', m.t('embed.label', { title: shownTitle(widget, entry[0], entry[1], m) }));
    open.hidden = false;
  };
  widget.addEventListener('ready', show);
  if (widget.hasAttribute('ready')) show();
  widget.before(frame);
  frame.append(open, widget);
  return { button: open };
}

// "</>": the usual sign for code (decorative; the button's name says what it does).
function codeIcon() {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('class', 'embed-icon');
  const path = document.createElementNS(ns, 'path');
  path.setAttribute('d', 'M8 6 L2 12 L8 18 M16 6 L22 12 L16 18 M14 3 L10 21');
  svg.append(path);
  return svg;
}

function buildDialog(widget, siteUrl, id, m) {
  const [key, entry] = entryFor(widget);
  const title = shownTitle(widget, key, entry, m);
  const status = element('p', { className: 'embed-status', role: 'status' });
  const fields = {};
  const block = (kind) => {
    const heading = m.t(`embed.${kind}.heading`);
    const help = m.t(`embed.${kind}.help`);
    const area = element('textarea', { id: `${id}-${kind}`, readOnly: true, rows: 4, spellcheck: false, className: 'embed-text' });
    area.setAttribute('autocomplete', 'off');
    fields[kind] = area;
    const copy = element('button', { type: 'button', textContent: m.t('embed.copy') });
    copy.setAttribute('aria-label', m.t(`embed.${kind}.copy`));
    copy.addEventListener('click', () => copyText(area, status, kind, m));
    return element('section', { className: 'embed-block' }, [
      element('label', { htmlFor: area.id, className: 'embed-label', textContent: heading }),
      element('p', { className: 'embed-help', textContent: help }),
      area,
      copy,
    ]);
  };
  const where = whereChoice(id, siteUrl, m, () => fill());
  const close = element('button', { type: 'button', className: 'embed-secondary', textContent: m.t('embed.close') });
  const dialog = element('dialog', { className: 'embed-dialog' }, [
    element('h2', { id: `${id}-title`, textContent: m.t('embed.heading', { title }) }),
    element('p', { className: 'embed-help', textContent: m.t('embed.help') }),
    where.element,
    block('inline'),
    block('iframe'),
    status,
    element('div', { className: 'embed-actions' }, [close]),
  ]);
  dialog.setAttribute('aria-labelledby', `${id}-title`);
  close.addEventListener('click', () => dialog.close());
  // The code is made when asked for, from the state the widget has now.
  const fill = () => {
    const { inline, iframe } = embedSnippets(widget, siteUrl, { sameSite: where.sameSite() });
    fields.inline.value = inline;
    fields.iframe.value = iframe;
    status.textContent = '';
  };
  return {
    element: dialog,
    show() {
      fill();
      dialog.showModal();
    },
  };
}

/**
 * "Where will you paste it?": on another site (full addresses, the default: they work
 * anywhere) or on this one (addresses from the site's root). The choice is remembered for
 * the page's other dialogs while the page is open.
 */
let pasteOnThisSite = false;
function whereChoice(id, siteUrl, m, onChange) {
  const option = (value, text) => {
    const input = element('input', { type: 'radio', name: `${id}-where`, id: `${id}-where-${value}`, value });
    input.addEventListener('change', () => {
      pasteOnThisSite = value === 'same';
      onChange();
    });
    return [input, element('label', { htmlFor: input.id, textContent: text })];
  };
  const [other, otherLabel] = option('other', m.t('embed.where.other'));
  const [same, sameLabel] = option('same', m.t('embed.where.same', { site: new URL(siteUrl).origin }));
  const fieldset = element('fieldset', { className: 'embed-where' }, [
    element('legend', { textContent: m.t('embed.where.legend') }),
    element('div', {}, [other, otherLabel]),
    element('div', {}, [same, sameLabel]),
  ]);
  return {
    element: fieldset,
    sameSite() {
      same.checked = pasteOnThisSite;
      other.checked = !pasteOnThisSite;
      return pasteOnThisSite;
    },
  };
}

// The clipboard API where the page may use it; otherwise the text is selected and the
// browser's own copy command tried; if that fails too, the learner is told to press the
// keys, with the text already selected. The status line says which happened.
async function copyText(area, status, kind, m) {
  status.textContent = '';
  try {
    await navigator.clipboard.writeText(area.value);
    status.textContent = m.t(`embed.${kind}.copied`);
    return;
  } catch {
    // No permission (an embedding frame, an insecure page) or no clipboard API.
  }
  area.focus();
  area.select();
  let copied = false;
  try {
    copied = document.execCommand('copy');
  } catch {
    copied = false;
  }
  status.textContent = m.t(copied ? `embed.${kind}.copied` : `embed.${kind}.selected`);
}
