// Widgets take turns to be built: one per task, the one nearest the reader's view first.
// All of a page's widgets wait for the same core; built as it arrives, in one go, they made
// one long task (on a 4x slowed CPU, 3.9 s for the lesson's seven), and the widget the
// reader looks at appeared only when the last one below the fold was done. Built one per
// task, the browser can draw between them, and the reader's widget comes first.
const waiting = []; // { widget, go }, in the order they asked
let pending = false;

// A new task soon, without the 4 ms clamp of nested timers.
const channel = typeof MessageChannel === 'function' ? new MessageChannel() : null;
const soon = (fn) => {
  if (!channel) { setTimeout(fn, 0); return; }
  channel.port1.onmessage = fn;
  channel.port2.postMessage(null);
};

/** How far the widget is from the window: 0 if any of it is in view, else the pixels between. */
function distanceFromView(widget) {
  if (!widget.isConnected) return 0; // it will not build: let it go first, at no cost
  const box = widget.getBoundingClientRect();
  const height = globalThis.innerHeight ?? 0;
  return box.top > height ? box.top - height : box.bottom < 0 ? -box.bottom : 0;
}

function next() {
  pending = false;
  if (waiting.length === 0) return;
  let best = 0;
  let bestDistance = distanceFromView(waiting[0].widget);
  for (let i = 1; i < waiting.length && bestDistance > 0; i++) {
    const distance = distanceFromView(waiting[i].widget);
    if (distance < bestDistance) [best, bestDistance] = [i, distance];
  }
  const [{ go }] = waiting.splice(best, 1);
  go(); // the widget builds in this task's microtasks, before the next turn
  if (waiting.length) schedule();
}

function schedule() {
  if (pending) return;
  pending = true;
  soon(next);
}

/** Resolves when it is `widget`'s turn to be built (in a task of its own). */
export function buildTurn(widget) {
  return new Promise((go) => {
    waiting.push({ widget, go });
    schedule();
  });
}
