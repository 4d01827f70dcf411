// A page opened at a section (lesson.html#heads-are-not-copies, or a link into an author's
// course page) must show that section, although the widgets above it grow from a loading
// line to their full height only once the wasm core has loaded. The browser scrolls to the
// anchor once, early; browsers with scroll anchoring (Chromium, Firefox) then mostly keep
// it in view, others (Safari) and pages that turn it off (overflow-anchor: none) do not.
// So, from the first widget that connects until every widget on the page is built (and a
// moment more for their layout to settle), the anchor is scrolled back to the top of the
// window each time a widget changes size. Holding stops at once when the reader scrolls,
// presses a key or touches the page, and never starts on a reload or Back (where the
// browser restores the reader's own scroll position). Widgets also reserve their usual
// height while loading (widget-frame.js), so the page rarely needs to move at all.
// When a hold ends, for whatever reason, the document gets an `mha-anchor-hold-end` event:
// from then on the page stays where the reader or the browser puts it.
import { readLessonState } from './lesson-state.js';

const SETTLE_MS = 1000; // after the last widget is built: images, fonts, late layout
const GIVE_UP_MS = 20000; // a core that never loads must not pin the page forever

const loading = new Set();
let target = null;
let observer = null;
let settleTimer = 0;
let giveUpTimer = 0;
let listening = false;
let started = false; // holding happens for the page's first loading only

/** The element the address's #anchor names, or null. */
export function anchorElement() {
  const { anchor } = readLessonState();
  if (!anchor || !globalThis.document) return null;
  return document.getElementById(anchor) ?? document.getElementsByName(anchor)[0] ?? null;
}

function restoredByBrowser() {
  const type = performance.getEntriesByType?.('navigation')?.[0]?.type;
  return type === 'reload' || type === 'back_forward';
}

function align() {
  if (target?.isConnected) target.scrollIntoView({ block: 'start', behavior: 'instant' });
}

function release() {
  target = null;
  observer?.disconnect();
  clearTimeout(settleTimer);
  clearTimeout(giveUpTimer);
}

function stop() {
  const held = target !== null;
  release();
  if (held) document.dispatchEvent(new Event('mha-anchor-hold-end'));
}

function hold(element) {
  release();
  target = element;
  if (!target) return;
  observer ??= new ResizeObserver(() => align());
  for (const widget of loading) observer.observe(widget);
  giveUpTimer = setTimeout(stop, GIVE_UP_MS);
  align();
}

function listen() {
  if (listening) return;
  listening = true;
  // The reader takes over: any scroll they cause ends the hold.
  for (const type of ['wheel', 'touchstart', 'keydown', 'mousedown']) {
    addEventListener(type, stop, { capture: true, passive: true });
  }
  // A section link followed while widgets still load: hold that section instead.
  addEventListener('hashchange', () => {
    if (loading.size > 0) hold(anchorElement());
  });
}

/** A widget started loading (called by MhaWidget on connection). */
export function widgetLoading(widget) {
  if (!globalThis.document || !globalThis.ResizeObserver) return;
  loading.add(widget);
  listen();
  if (target) observer.observe(widget);
  else if (!started) {
    // Only the page's first loading: a widget an author's script adds later does not yank
    // the view back to the anchor.
    started = true;
    if (!restoredByBrowser()) hold(anchorElement());
  }
}

/** A widget is built, or failed to load (its box has its final height). */
export function widgetSettled(widget) {
  if (!loading.delete(widget) || !target) return;
  align();
  if (loading.size === 0) {
    clearTimeout(settleTimer);
    settleTimer = setTimeout(stop, SETTLE_MS);
  }
}
