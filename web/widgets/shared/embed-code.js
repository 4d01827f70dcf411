// "Embed": on the lesson page, each widget offers a course author the code that shows it,
// as it is now, on their own page: the inline element (the package script and the tag with
// its current state, attributes as in docs/EMBEDDING.md) and the iframe (embed.html with
// the same attributes as URL parameters, a width, and the resizer script), each with a Copy
// button. One small "Embed" tab on the widget's top edge (straddling its border, in the
// page's margin and the widget's padding, so no row of any widget grows) opens them in a
// modal <dialog> (the top layer): no page length on a phone, one tab stop in the widget,
// right after its skip link.
//
// The code is text in read-only text areas, never markup on this page: a crafted state
// cannot inject anything here, and what is copied is exactly what is shown.
import { WIDGETS } from '../registry.js';
import { element } from './widget-base.js';
import styles from './embed-code.css?inline';

// Attributes that belong to the lesson page rather than to the widget: its key in this
// page's address and whether it uses it (the author's page has its own).
const PAGE_ONLY = new Set(['state', 'state-key', 'url-state']);

const entryFor = (widget) => Object.entries(WIDGETS).find(([, entry]) => entry.tag === widget.localName);

// Single-quoted HTML attribute: JSON's many double quotes stay readable.
const attributeValue = (text) => `'${String(text).replaceAll('&', '&amp;').replaceAll("'", '&#39;')}'`;

/** The widget's attributes for an embed: the author-facing ones it has, then its current state. */
function embedAttributes(widget, entry) {
  const pairs = entry.attributes.filter((name) => !PAGE_ONLY.has(name) && widget.hasAttribute(name))
    .map((name) => [name, widget.getAttribute(name)]);
  pairs.push(['state', JSON.stringify(widget.state)]);
  return pairs;
}

/**
 * The two snippets for `widget` as it is now: { inline, iframe }. `siteUrl` is the address of
 * the folder that holds multiple-heads.js, embed.html and embed-resizer.js (the built dist/).
 */
export function embedSnippets(widget, siteUrl) {
  const [name, entry] = entryFor(widget);
  const at = (file) => new URL(file, siteUrl).href;
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
 * Adds the Embed tab and its dialog to a widget (in its shadow root, beside the body, so a
 * rebuild of the body keeps them). Calling it again does nothing.
 */
export function addEmbedCode(widget, siteUrl) {
  const root = widget.shadowRoot;
  const skip = root?.querySelector('.skip-widget');
  if (!skip || root.querySelector('.embed-open') || !entryFor(widget)) return null;
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(styles);
  }
  if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  const id = `embed-${++counter}`;
  const dialog = buildDialog(widget, siteUrl, id);
  const open = element('button', { type: 'button', className: 'secondary embed-open', textContent: 'Embed' });
  open.setAttribute('aria-haspopup', 'dialog');
  open.setAttribute('aria-label', `Embed code for this widget (${entryFor(widget)[1].title})`);
  open.dataset.noFigure = ''; // it changes no figure (see tests/browser/one-screen.test.mjs)
  open.addEventListener('click', () => dialog.show());
  skip.after(open);
  root.append(dialog.element);
  dialog.element.addEventListener('close', () => open.focus());
  return { button: open, dialog: dialog.element };
}

function buildDialog(widget, siteUrl, id) {
  const title = entryFor(widget)[1].title;
  const status = element('p', { className: 'embed-status', role: 'status' });
  const fields = {};
  const block = (kind, heading, help) => {
    const area = element('textarea', { id: `${id}-${kind}`, readOnly: true, rows: 4, spellcheck: false, className: 'embed-text' });
    area.setAttribute('autocomplete', 'off');
    fields[kind] = area;
    const copy = element('button', { type: 'button', textContent: 'Copy' });
    copy.setAttribute('aria-label', `Copy the ${heading.toLowerCase()}`);
    copy.addEventListener('click', () => copyText(area, status, heading));
    return element('section', { className: 'embed-block' }, [
      element('label', { htmlFor: area.id, className: 'embed-label', textContent: heading }),
      element('p', { className: 'embed-help', textContent: help }),
      area,
      copy,
    ]);
  };
  const close = element('button', { type: 'button', className: 'secondary', textContent: 'Close' });
  const dialog = element('dialog', { className: 'embed-dialog' }, [
    element('h3', { id: `${id}-title`, textContent: `Embed “${title}” as it is now` }),
    element('p', { className: 'embed-help', textContent: 'Paste one of these into your page: it shows this widget in its current state. The addresses point at this site; if you host the files yourself (see docs/EMBEDDING.md), change them to yours.' }),
    block('inline', 'Inline element', 'The package script (once per page) and the element.'),
    block('iframe', 'Iframe', 'The resizer script (once per page, so the frame takes the widget’s height) and the frame.'),
    status,
    element('div', { className: 'toolbar' }, [close]),
  ]);
  dialog.setAttribute('aria-labelledby', `${id}-title`);
  close.addEventListener('click', () => dialog.close());
  return {
    element: dialog,
    show() {
      // The code is made when asked for, from the state the widget has now.
      const { inline, iframe } = embedSnippets(widget, siteUrl);
      fields.inline.value = inline;
      fields.iframe.value = iframe;
      status.textContent = '';
      dialog.showModal();
    },
  };
}

// The clipboard API where the page may use it; otherwise the text is selected and the
// browser's own copy command tried; if that fails too, the learner is told to press the
// keys, with the text already selected. The status line says which happened.
async function copyText(area, status, heading) {
  status.textContent = '';
  try {
    await navigator.clipboard.writeText(area.value);
    status.textContent = `Copied the ${heading.toLowerCase()} to the clipboard.`;
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
  status.textContent = copied
    ? `Copied the ${heading.toLowerCase()} to the clipboard.`
    : `The ${heading.toLowerCase()} is selected: press Ctrl+C (⌘C on a Mac) to copy it.`;
}
