// Widgets are built when they come near the reader's view, one per task, the nearest first.
// All of a page's widgets wait for the same core; built as it arrives, in one go, they made
// one long task (on a 4x slowed CPU, 3.9 s for the lesson's seven), and the widget the
// reader looks at appeared only when the last one below the fold was done. Built one per
// task, the browser can draw between them; built only near the view, a widget the reader
// never scrolls to costs nothing (its static figure, the build's drawing, stands in for it,
// at the widget's height, so the page does not move and nothing looks missing).
//
// "Near" is an IntersectionObserver with NEAR_MARGIN beyond the window (above and below),
// so a widget is built before it scrolls into view. Its first report comes only with a
// rendering update, which a busy page (the lesson's other widgets loading) delays by
// hundreds of ms; so a widget the observer has not reported yet is measured once, in the
// turn that decides (one layout for all of them), and the observer takes over from there.
//
// Built at once, whatever their place: every widget when the page is printed (beforeprint,
// or print media: on paper each widget prints its figure for its current state), and a
// widget the caller marks `eager` (the author's loading="eager", a state for it in the
// address, the #anchor inside it). Without IntersectionObserver every widget is near.

// Two screens beyond the window each way (percentages of the window's height).
const NEAR_SCREENS = 2;
export const NEAR_MARGIN = `${NEAR_SCREENS * 100}% 0px ${NEAR_SCREENS * 100}% 0px`;

/** widget -> { go, near, distance, parked, onPark } for every widget waiting for its turn (distance null: not measured yet). */
const waiting = new Map();
let pending = false;
let observer;

// A new task soon, without the 4 ms clamp of nested timers.
const channel = typeof MessageChannel === 'function' ? new MessageChannel() : null;
const soon = (fn) => {
  if (!channel) { setTimeout(fn, 0); return; }
  channel.port1.onmessage = fn;
  channel.port2.postMessage(null);
};

/** How far a box is from the window: 0 if any of it is in view, else the pixels between. */
function distanceFromView(box) {
  const height = globalThis.innerHeight ?? 0;
  return box.top > height ? box.top - height : box.bottom < 0 ? -box.bottom : 0;
}

// Near or not; a widget found far from the view waits there (parked), once.
function place(turn, near, distance) {
  turn.near = near;
  turn.distance = distance;
  if (near) schedule();
  else if (!turn.parked) {
    turn.parked = true;
    turn.onPark?.();
  }
}

// The observer's boxes are measured with its notifications, so choosing the next widget
// forces no layout (the nearest at the time it came near; close enough for an order).
function noticed(entries) {
  for (const entry of entries) {
    const turn = waiting.get(entry.target);
    if (turn) place(turn, entry.isIntersecting, distanceFromView(entry.boundingClientRect));
  }
}

// Widgets the observer has not reported yet, measured now (near: within NEAR_SCREENS).
function measureUnreported() {
  const height = globalThis.innerHeight ?? 0;
  for (const [widget, turn] of waiting) {
    if (turn.distance !== null || !widget.isConnected) continue;
    const distance = distanceFromView(widget.getBoundingClientRect());
    place(turn, distance <= NEAR_SCREENS * height, distance);
  }
}

function nearObserver() {
  if (observer === undefined) {
    observer = typeof IntersectionObserver === 'function' ? new IntersectionObserver(noticed, { rootMargin: NEAR_MARGIN }) : null;
  }
  return observer;
}

/** Takes `widget` out of the queue and lets its build go on (now, in this task's microtasks). */
function release(widget) {
  const turn = waiting.get(widget);
  if (!turn) return;
  waiting.delete(widget);
  observer?.unobserve(widget);
  turn.go();
}

function next() {
  pending = false;
  measureUnreported();
  let best = null;
  let bestDistance = Infinity;
  for (const [widget, turn] of waiting) {
    // A widget that left the page goes first, at no cost: it will not build.
    const distance = widget.isConnected ? turn.distance : -1;
    if ((turn.near || !widget.isConnected) && (best === null || distance < bestDistance)) [best, bestDistance] = [widget, distance];
  }
  if (best === null) return;
  release(best); // the widget builds in this task's microtasks, before the next turn
  schedule();
}

function schedule() {
  if (pending || waiting.size === 0) return;
  pending = true;
  soon(next);
}

/**
 * Every waiting widget, now: for print, whose layout follows the listeners of beforeprint
 * (and of the print media query) without a task between, so one per task would be too late.
 * They build in this task's microtasks, before the page is laid out for paper.
 */
export function buildAllNow() {
  for (const widget of [...waiting.keys()]) release(widget);
}

globalThis.addEventListener?.('beforeprint', buildAllNow);
globalThis.matchMedia?.('print').addEventListener?.('change', (event) => {
  if (event.matches) buildAllNow();
});

/**
 * Resolves when it is `widget`'s turn to be built (in a task of its own): soon if it is near
 * the view or `eager`, else once it comes near (or the page is printed). `onPark` is called
 * once if the widget is found far from the view, to wait there (it keeps its loading height).
 */
export function buildTurn(widget, { eager = false, onPark } = {}) {
  return new Promise((go) => {
    const observing = !eager && nearObserver();
    waiting.set(widget, { go, near: !observing, distance: observing ? null : eager ? Number.MAX_SAFE_INTEGER : 0, parked: false, onPark });
    if (observing) observing.observe(widget);
    schedule();
  });
}

/** A widget that left the page stops waiting (its build sees it is not connected). */
export function leaveQueue(widget) {
  if (waiting.has(widget)) release(widget);
}
