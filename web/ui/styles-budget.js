// BudgetBar's rules, a module of their own so that only a page that loads the component
// carries them: budget-bar.js adds them to the kit's sheet (addKitStyles, styles.js) as it
// loads; kit-styles.js puts every component's rules into kitStyles.
export const BUDGET_STYLES = `
/* ---- BudgetBar ---- */
.ui-budget { max-width: 100%; }
.ui-budget-track { position: relative; display: flex; height: 36px; border: 1px solid var(--ui-line); border-radius: 6px; overflow: visible; background: var(--ui-surface); }
.ui-budget-seg {
  flex: var(--w, 0) 1 0; min-width: 0; height: 100%;
  background: color-mix(in oklab, var(--seg-colour, var(--ui-hue, var(--ui-accent))) calc(55% + var(--shade, 0) * 45%), var(--ui-surface));
  border-right: 1px solid var(--ui-surface);
  cursor: pointer;
}
.ui-budget-seg:first-child { border-radius: 5px 0 0 5px; }
.ui-budget-seg:last-of-type { border-right: 0; }
.ui-budget-seg.ui-current { background: var(--seg-colour, var(--ui-hue, var(--ui-accent))); }
.ui-budget-seg:focus { outline: 3px solid var(--ui-ink); outline-offset: 2px; z-index: 2; position: relative; }
.ui-budget-handle {
  position: absolute; top: -4px; bottom: -4px; width: 24px; margin-left: -12px;
  left: calc(var(--at, 0) * 100%);
  cursor: ew-resize; touch-action: none; z-index: 1;
}
.ui-budget-handle::after {
  content: ""; position: absolute; left: 10px; width: 4px; top: 0; bottom: 0;
  background: var(--ui-ink); border-radius: 2px; opacity: 0.55;
}
.ui-budget-handle:hover::after, .ui-budget-handle.ui-dragging::after { opacity: 1; }
.ui-budget.ui-readonly .ui-budget-handle { display: none; }
.ui-budget.ui-readonly .ui-budget-seg { cursor: default; }
.ui-budget-labels { display: flex; margin-top: 4px; font-size: 0.75rem; min-height: 2.4em; }
.ui-budget-label { flex: var(--w, 0) 1 0; min-width: 0; overflow: hidden; text-align: center; line-height: 1.2; white-space: nowrap; }
.ui-budget-label b { display: block; font-weight: 700; overflow: hidden; text-overflow: ellipsis; }
.ui-budget-label.ui-current b { text-decoration: underline; text-underline-offset: 2px; }
.ui-budget-label.ui-rest { color: var(--ui-muted); font-style: italic; }
.ui-budget-foot { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; align-items: baseline; }
.ui-budget-total { font-size: 0.85rem; font-weight: 700; }
/* The bar the learner moves by keys eases to its new widths; a drag follows the pointer,
   and a read-only bar (one that mirrors another, as the blend's plane column does) changes
   at once: its easing laid the page out again in each frame of every drag step, about 8
   frames per step (issue 25), as read-only grids' colours do not ease either. A small key
   step (ui-instant: 0.01, a few pixels; an arrow key held down repeats it about 30 times a
   second) is shown at once too, as a drag step is: easing it cost about half of the step's
   main-thread time for a move too small to follow. */
@media (prefers-reduced-motion: no-preference) {
  .ui-budget:not(.ui-readonly) .ui-budget-seg, .ui-budget:not(.ui-readonly) .ui-budget-label { transition: flex-grow 120ms ease-out; }
  .ui-budget.ui-dragging-now .ui-budget-seg, .ui-budget.ui-dragging-now .ui-budget-label,
  .ui-budget.ui-instant .ui-budget-seg, .ui-budget.ui-instant .ui-budget-label { transition: none; }
}
`;
