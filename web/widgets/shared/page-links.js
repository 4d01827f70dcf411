// Links between the layer at a glance (the map) and the widgets that zoom into its parts.
// Both are links whose click scrolls within the page instead of going to a #fragment: the
// URL hash holds every widget's state (lesson-state.js), and a fragment would replace it.
//
//   layerLink('attend')        for a later widget: "See it in the layer at a glance" shows
//                              that part of <mha-layer> (hidden when the page has none)
//   zoomLink('mha-blend', ..)  for the layer: "Zoom in" scrolls to a later widget (hidden
//                              when the page does not have it, e.g. in an embed)
import { element } from '../../ui/dom.js';
import { notation } from '../../ui/notation.js';
import { messagesFor } from './i18n.js';

const reducedMotion = () => globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? true;

/** Scrolls to a page element and moves keyboard focus there, so the next Tab continues from it. */
export function bringIntoView(target) {
  target.scrollIntoView({ block: 'start', behavior: reducedMotion() ? 'auto' : 'smooth' });
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus({ preventScroll: true });
}

// A link (it takes the reader somewhere on the page) whose click scrolls instead of
// following href="#", which would replace the URL hash and with it the widgets' state.
// Its accessible name is its visible text (WCAG 2.5.3: speech users say what they see).
function pageLink({ text, content = notation(text), targetExists, go }) {
  const link = element('a', { href: '#', className: 'page-link' }, content);
  link.dataset.noFigure = ''; // it moves the reader, it changes no figure here
  link.hidden = !targetExists();
  link.addEventListener('click', (event) => {
    event.preventDefault();
    go();
  });
  return link;
}

/**
 * A button that shows `part` of the page's <mha-layer>: a stage ('project', 'attend', 'mix')
 * or a matrix ('x', 'queries', 'keys', 'values', 'weights', 'concat', 'wo', 'output').
 */
export function layerLink(part, text, messages = messagesFor('en')) {
  text ??= messages.t('pageLinks.see');
  const layer = () => document.querySelector('mha-layer');
  return pageLink({
    text,
    targetExists: () => Boolean(layer()),
    go: () => layer()?.showPart?.(part),
  });
}

/** A button that scrolls to the page's `tag` widget (titled `title`). */
export function zoomLink(tag, title, messages = messagesFor('en')) {
  const target = () => document.querySelector(tag);
  // The words before the title ("Zoom in: ") are wrapped, so that a narrow layer can hide
  // them from sight (the link keeps them in its name; what is seen stays part of it).
  const titled = element('span', { className: 'zoom-title' }, notation(title));
  const parts = messages.nodes('pageLinks.zoom', { title: titled });
  const at = parts.indexOf(titled);
  return pageLink({
    content: [element('span', { className: 'zoom-prefix' }, parts.slice(0, at)), ...parts.slice(at)],
    targetExists: () => Boolean(target()),
    go: () => { const t = target(); if (t) bringIntoView(t); },
  });
}
