// A widget's frame, for MhaWidget (widget-base.js): its shadow root with the stylesheets,
// the notice line, the body the widget builds in, the slot its static figure shows through,
// and the skip link and end marker around them; the loading line, and the message in its
// place when loading fails; the Undo / Reset toolbar a widget places. The sheets are constructable (no inline styles: pages with
// style-src 'self' accept these), one per text, shared by every widget that uses it.
import baseStyles from './widget-base.css?inline';
import { headColourStyles } from './world.js';
import { kitSheet } from '../../ui/styles.js';
import { element } from '../../ui/dom.js';
import { WIDGETS } from '../registry.js';
import { skipLinkAndEndMarker } from './widget-accessibility.js';
import { messagesFor } from './i18n.js';

const HEAD_COLOUR_STYLES = headColourStyles();
const sheetCache = new Map();

function sheetFor(cssText) {
  let sheet = sheetCache.get(cssText);
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(cssText);
    sheetCache.set(cssText, sheet);
  }
  return sheet;
}

// While the core loads, the widget's box keeps the height it will have (the registry's
// loadingHeight, measured on the lesson page, for wide and narrow containers), so the page
// below does not move when it appears. Only while the loading line is shown (:has), so an
// error message or the built widget are never stretched. With panels="…" the height depends
// on the panels chosen: reserved only for the values the registry has measured.
function loadingSheetText(tag) {
  const entry = Object.values(WIDGETS).find((widget) => widget.tag === tag);
  const heights = [
    [':host(:not([panels]))', entry?.loadingHeight],
    ...Object.entries(entry?.panelsLoadingHeight ?? {}).map(([panels, height]) => [`:host([panels="${panels}"])`, height]),
  ].filter(([, height]) => height);
  const rule = (host, px) => `${host} .widget:has(> .loading) { min-height: ${Math.round(px)}px; }`;
  return heights.map(([host, height]) => `${rule(host, height.wide)} @container (max-width: 34rem) { ${rule(host, height.narrow)} }`).join(' ');
}

/**
 * The sheets of the widget `tag` with its own CSS `styles`: the shared base, the world's head
 * colours, the widget's own, its loading height, and the UI kit's. The kit's is there from
 * the start (widgets' styles take their colours from its --ui-* properties): a widget whose
 * core failed to load still gives its static figure, shown through the slot, the colours it
 * inherits.
 */
function widgetSheets(tag, styles) {
  return [sheetFor(baseStyles), sheetFor(HEAD_COLOUR_STYLES), sheetFor(styles ?? ''), sheetFor(loadingSheetText(tag)), kitSheet()];
}

/** Attaches the widget's shadow root and sets its `root`, `body`, `noticeBox` and `staticSlot`. */
export function attachFrame(widget) {
  widget.root = widget.attachShadow({ mode: 'open' });
  widget.root.adoptedStyleSheets = widgetSheets(widget.localName, widget.constructor.styles);
  widget.body = element('div', { className: 'widget', id: 'widget-body' });
  widget.noticeBox = element('p', { className: 'notice', role: 'status', hidden: true });
  // The element's own children (a static figure) show through this slot until ready.
  widget.staticSlot = element('slot', { className: 'static-figure' });
  const { link, marker } = skipLinkAndEndMarker(widget);
  widget.root.append(link, widget.noticeBox, widget.body, widget.staticSlot, marker);
}

/** The loading line (`text`), with the static figure inside the box that keeps the widget's height. */
export function showLoading(widget, text) {
  widget.body.replaceChildren(element('p', { className: 'loading', textContent: text }), widget.staticSlot);
}

/** A failure to load, said in place of the widget (`text`); returns false. */
export function showLoadFailure(widget, text) {
  widget.body.replaceChildren(element('p', { className: 'error', role: 'alert', textContent: text }));
  // The author's own content inside the element stays visible below (the slot).
  widget.body.after(widget.staticSlot);
  return false;
}

/** What this widget cannot show with its world (`text`, for the author), in place of the widget; returns false. */
export function showCannotShow(widget, text) {
  widget.body.replaceChildren(element('p', { className: 'cannot-show', role: 'status', textContent: text }));
  widget.body.after(widget.staticSlot);
  return false;
}

/** The head colours of the widget's world (the lesson's world's are there from the start). */
export function useWorldColours(widget, world) {
  const sheets = widget.root.adoptedStyleSheets.slice();
  sheets[1] = sheetFor(headColourStyles(world));
  widget.root.adoptedStyleSheets = sheets;
}

/** The toolbar of Undo and Reset, wired to the widget (MhaWidget.historyToolbar). */
export function historyToolbar(widget, label) {
  const m = messagesFor(widget);
  const undo = element('button', { type: 'button', textContent: m.t('common.undo'), className: 'secondary' });
  const reset = element('button', { type: 'button', textContent: m.t('common.reset'), className: 'secondary' });
  // Undo and Reset change the whole widget: their figure is the widget itself.
  for (const button of [undo, reset]) button.setAttribute('aria-controls', 'widget-body');
  undo.addEventListener('click', () => widget.undo());
  reset.addEventListener('click', () => widget.reset());
  widget.updateHistoryButtons = () => {
    const disable = !widget.canUndo;
    // Disabling the focused button would drop focus to <body>, and a keyboard user would
    // start again from the top of the page: hand focus to Reset, its neighbour, first.
    if (disable && widget.root.activeElement === undo) reset.focus();
    undo.disabled = disable;
  };
  return element('div', { className: 'toolbar history', role: 'group', ariaLabel: label }, [undo, reset]);
}
