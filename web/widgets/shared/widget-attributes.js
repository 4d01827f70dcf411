// The attributes that shape what a widget offers, for MhaWidget (widget-base.js):
//   * panels="a b": only these panels (elements marked data-panel="name"), with a notice for
//     names the widget does not have;
//   * readonly: the controls stay visible and readable, but nothing can be changed (the base
//     also refuses every learner commit, so no control can slip through);
//   * config="<JSON>": a widget's own configuration, read strictly.
import { element } from '../../ui/dom.js';
import { attributeWords } from '../registry.js';
import { messagesFor } from './i18n.js';

/**
 * panels="a b": only these panels. A name that is not one of this widget's (a typo, or
 * "Plane" for "plane": names are matched exactly) is named in a notice at the top with the
 * widget's panel names, and when no name is known every panel stays shown: a wrong
 * attribute never leaves an empty widget.
 */
export function applyPanels(widget) {
  const wanted = widget.getAttribute('panels');
  if (wanted === null) return;
  const { body } = widget;
  const panels = [...body.querySelectorAll('[data-panel]')];
  const known = [...new Set(panels.map((panel) => panel.dataset.panel))];
  const names = attributeWords(wanted);
  const shown = new Set(names.filter((name) => known.includes(name)));
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length > 0 || shown.size === 0) {
    body.prepend(element('p', { className: 'notice panels-notice', role: 'status', textContent: panelsNotice(messagesFor(widget), known, unknown, shown) }));
  }
  showOnly(panels, shown);
  // On a phone the widget's switch offers only the parts still shown.
  for (const narrow of body.querySelectorAll('.narrow-switch')) narrow.narrowSwitch?.keepShownPanels();
}

/**
 * panels="a b" for content a widget draws after it was built (`root`, e.g. the layer's map
 * at an h first shown later): its panels are hidden or shown as applyPanels did the others.
 * (The notice, if any, is already there.)
 */
export function applyPanelsTo(widget, root) {
  const wanted = widget.getAttribute('panels');
  if (wanted === null) return;
  const panels = [...root.querySelectorAll('[data-panel]')];
  const known = new Set([...widget.body.querySelectorAll('[data-panel]'), ...panels].map((panel) => panel.dataset.panel));
  showOnly(panels, new Set(attributeWords(wanted).filter((name) => known.has(name))));
}

// The panels named in `shown` stay, the others are hidden; none named: every panel stays.
function showOnly(panels, shown) {
  for (const panel of panels) panel.hidden = shown.size > 0 && !shown.has(panel.dataset.panel);
}

// The notice for panel names the widget does not have (or none at all).
function panelsNotice(m, known, unknown, shown) {
  const quoted = (text) => m.t('common.quoted', { text });
  const hint = (name) => {
    const same = known.find((panel) => panel.toLowerCase() === name.toLowerCase());
    return same ? m.t('base.didYouMean', { name: quoted(name.slice(0, 40)), same: quoted(same) }) : quoted(name.slice(0, 40));
  };
  const what = unknown.length > 0 ? m.t('base.panelsUnknown', { names: unknown.slice(0, 5).map(hint).join(', ') }) : m.t('base.panelsEmpty');
  const fallback = shown.size === 0 ? m.t('base.panelsFallback') : '';
  return known.length === 0 ? m.t('base.panelsNone', { what, fallback })
    : m.t('base.panelsKnown', { what, fallback, names: known.map(quoted).join(', ') });
}

/**
 * Read-only: the history toolbar hidden, text fields readOnly (still readable and
 * selectable), every other control disabled. Choosing what to show (a phone's switch)
 * changes nothing, so it stays. Text that tells the learner how to edit (drag, type, pick;
 * marked `data-edit-hint`) is hidden, and what a read-only widget says instead (marked
 * `data-read-only-hint`, built hidden) is shown: a widget that cannot be edited does not
 * ask the reader to drag.
 */
export function applyReadOnly(body) {
  for (const toolbar of body.querySelectorAll('.history')) toolbar.hidden = true;
  for (const hint of body.querySelectorAll('[data-edit-hint]')) hint.hidden = true;
  for (const hint of body.querySelectorAll('[data-read-only-hint]')) hint.hidden = false;
  for (const control of body.querySelectorAll('input, select, button, textarea')) {
    if (control.closest('.narrow-switch')) continue;
    if (control.type === 'text' || control.tagName === 'TEXTAREA') control.readOnly = true;
    else control.disabled = true;
  }
}

/** The text of a `config` attribute (or null) as an object; throws Error if it is not one. */
export function parseConfigAttribute(text) {
  if (text === null) return {};
  if (text.length > 20000) throw new Error('the config attribute is too long');
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('the config attribute is not valid JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error('the config attribute must be a JSON object');
  }
  return value;
}

/**
 * Two versions of a line of text, for applyReadOnly: `editable` (how to edit: marked as an
 * edit hint) and `readOnly` (what to say when nothing can be edited, or null for nothing),
 * as nodes to put where the line goes.
 */
export function editHint(editable, readOnly = null) {
  editable.dataset.editHint = '';
  if (!readOnly) return [editable];
  readOnly.dataset.readOnlyHint = '';
  readOnly.hidden = true;
  return [editable, readOnly];
}
