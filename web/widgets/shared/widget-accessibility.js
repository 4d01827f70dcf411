// What every widget does for keyboard and screen reader users, for MhaWidget (widget-base.js):
//   * "Skip this widget": the first tab stop, which moves focus to a marker at the widget's end;
//   * control and effect together: a control that gets keyboard focus brings the figures it
//     names in aria-controls into view with it;
//   * heading-level="n": the widget's headings take their place in the page's outline.
import { element } from '../../ui/dom.js';
import { WIDGETS } from '../registry.js';
import { messagesFor } from './i18n.js';

// The last kind of input on the page: 'key' or 'pointer' (for bringFiguresIntoView).
let lastInput = 'key';
globalThis.addEventListener?.('keydown', () => { lastInput = 'key'; }, { capture: true });
globalThis.addEventListener?.('pointerdown', () => { lastInput = 'pointer'; }, { capture: true });

/**
 * The skip link and the marker at the widget's end, to put first and last in its shadow root.
 * The link (visible when focused) moves focus to the marker, so the next Tab leaves the
 * widget: a keyboard user passes a widget in two key presses instead of its every control.
 * The marker is a tab stop only while it holds focus: Tab from an element with tabindex -1
 * at the end of a shadow tree would start the tree again instead of leaving it.
 */
export function skipLinkAndEndMarker(widget) {
  const marker = element('span', { className: 'widget-end', tabIndex: -1 });
  marker.addEventListener('blur', () => { marker.tabIndex = -1; });
  const m = messagesFor(widget);
  const [key, entry] = Object.entries(WIDGETS).find(([, w]) => w.tag === widget.localName) ?? [widget.localName, { title: widget.localName }];
  const link = element('a', { className: 'skip-widget', href: '#', textContent: m.t('base.skip', { title: m.widgetTitle(key, entry.title) }) });
  link.addEventListener('click', (event) => {
    event.preventDefault();
    marker.tabIndex = 0;
    marker.focus();
  });
  return { link, marker };
}

/**
 * Control and effect together: every control names the figures it changes in aria-controls
 * (ids in `root`). When a control has keyboard focus and those figures are out of view, the
 * page scrolls so that they and the control are in view together (or, if they cannot all
 * fit, the control at the window's edge nearest them). Keyboard focus only: a page that
 * scrolled under a pointer would lose the click.
 */
export function bringFiguresIntoView(root, control) {
  // A component that focuses a part under a finger (a budget bar's segment on touch) can
  // match :focus-visible too, so the last input decides: a scroll under a drag breaks it.
  if (lastInput === 'pointer' || !control?.matches?.(':focus-visible')) return;
  const ids = (control.getAttribute('aria-controls') ?? '').split(/\s+/).filter(Boolean);
  const figures = ids.map((id) => root.getElementById(id)).filter((el) => el && el.getClientRects().length > 0);
  if (figures.length === 0) return;
  const boxes = figures.map((el) => el.getBoundingClientRect());
  if (boxes.every((b) => b.top >= 0 && b.bottom <= innerHeight)) return;
  window.scrollBy({ top: scrollNeeded(control.getBoundingClientRect(), boxes), behavior: 'instant' });
}

// How far to scroll to show a control (its box `own`) with its figures' boxes.
function scrollNeeded(own, boxes) {
  const top = Math.min(own.top, ...boxes.map((b) => b.top));
  const bottom = Math.max(own.bottom, ...boxes.map((b) => b.bottom));
  const margin = 8;
  // Everything fits: scroll just enough.
  if (bottom - top + 2 * margin <= innerHeight) return top < margin ? top - margin : bottom - innerHeight + margin;
  // The figures start above (or around) the control: show them from their top, with the
  // control still on screen.
  if (own.bottom - top + 2 * margin <= innerHeight) return top - margin;
  // Too tall: the control at the window's edge nearest its figures.
  return own.top <= top ? own.top - margin : own.bottom - innerHeight + margin;
}

/**
 * Widgets write h3 (and h4) headings; a page that places a widget elsewhere in its outline
 * says where with heading-level (`levelAttribute`: its text, or null), and the levels
 * shift to match.
 */
export function applyHeadingLevel(body, levelAttribute) {
  const level = Number(levelAttribute ?? 3);
  if (!Number.isInteger(level) || level < 1 || level > 6 || level === 3) return;
  for (const heading of body.querySelectorAll('h3, h4, h5, h6')) {
    const shifted = Math.min(6, Math.max(1, Number(heading.tagName[1]) + level - 3));
    heading.setAttribute('role', 'heading');
    heading.setAttribute('aria-level', String(shifted));
  }
}
