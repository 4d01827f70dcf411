// kitStyles: the kit's one stylesheet (palette for light and dark, and every component's
// look). Widgets adopt it in their shadow root after their own base sheet:
//   root.adoptedStyleSheets = [...root.adoptedStyleSheets, kitSheet()];
// A plain page adopts it on the document: adoptKitStyles(document).
import { paletteCss, SEQUENTIAL_DARK_CSS, VALUES_MODE_STRENGTH } from './colour-scale.js';

const components = `
.ui-kit, .ui-kit * { box-sizing: border-box; }
.ui-kit [hidden] { display: none !important; }
.ui-sr-only {
  position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; border: 0;
}
.ui-kit { color: var(--ui-ink); }
.ui-kit :focus-visible, .ui-kit .ui-focus-ring:focus {
  outline: 3px solid var(--ui-accent);
  outline-offset: 1px;
  box-shadow: 0 0 0 1px var(--ui-focus-inner) inset;
}
.ui-error { color: var(--ui-error); font-weight: 600; font-size: 0.85rem; margin: 0.2rem 0 0; min-height: 1.2em; }
.ui-readout { color: var(--ui-muted); font-size: 0.85rem; margin: 0.2rem 0 0; min-height: 1.3em; font-variant-numeric: tabular-nums; }
.ui-num { font-variant-numeric: tabular-nums; font-family: var(--mha-mono, ui-monospace, "SFMono-Regular", Menlo, monospace); }

/* A box that scrolls sideways inside itself (never the page), with shadows at the edges
   that hide more: the cue appears only where there is more to see (background-attachment). */
.ui-scroll {
  max-width: 100%;
  overflow-x: auto;
  overscroll-behavior-x: contain;
  background:
    linear-gradient(to right, var(--ui-surface) 30%, transparent) left / 2rem 100% no-repeat local,
    linear-gradient(to left, var(--ui-surface) 30%, transparent) right / 2rem 100% no-repeat local,
    radial-gradient(farthest-side at 0 50%, color-mix(in oklab, var(--ui-ink) 35%, transparent), transparent) left / 0.8rem 100% no-repeat scroll,
    radial-gradient(farthest-side at 100% 50%, color-mix(in oklab, var(--ui-ink) 35%, transparent), transparent) right / 0.8rem 100% no-repeat scroll;
  padding: 4px;
}

/* ---- colour cells: script sets --t, the rule mixes the theme's colours ---- */
.ui-cell {
  --k: 1;
  --pos: calc(max(0, var(--t, 0)) * var(--k) * 100%);
  --neg: calc(max(0, 0 - var(--t, 0)) * var(--k) * 100%);
  background-color: color-mix(in oklab,
    color-mix(in oklab, var(--ui-diverging-zero), var(--ui-diverging-negative) var(--neg)),
    var(--ui-diverging-positive) var(--pos));
}
.ui-sequential .ui-cell {
  background-color: color-mix(in oklab, var(--ui-sequential-zero), var(--ui-hue, var(--ui-accent)) calc(var(--t, 0) * var(--k) * 100%));
}
/* On a dark surface a weak weight (0.05) took 2% of the hue and vanished into the cell's
   grey: the dark theme shows sqrt(weight), so 0.05 takes 22% (OKLab distance from zero
   about 0.1) and the order of weights is kept. */
@media (prefers-color-scheme: dark) {
  .ui-sequential .ui-cell {
    background-color: color-mix(in oklab, var(--ui-sequential-zero), var(--ui-hue, var(--ui-accent)) calc(${SEQUENTIAL_DARK_CSS} * var(--k) * 100%));
  }
}
.ui-values .ui-cell { --k: ${VALUES_MODE_STRENGTH}; }

/* ---- MatrixGrid (and Heatmap) ---- */
.ui-matrix { --cell: 28px; max-width: 100%; }
.ui-matrix.ui-compact { --cell: 14px; }
.ui-grid { border-collapse: separate; border-spacing: 1px; margin: 0; }
.ui-grid th, .ui-grid td { padding: 0; }
.ui-grid .ui-cell {
  width: var(--cell); min-width: var(--cell); height: var(--cell);
  border-radius: 2px;
  position: relative;
  text-align: center;
  font-size: 0.72rem;
  line-height: 1;
  cursor: default;
}
.ui-grid .ui-cell:focus { outline-offset: -1px; z-index: 1; }
.ui-matrix.ui-editable .ui-cell { cursor: ns-resize; touch-action: none; }
.ui-matrix.ui-pickable .ui-cell, .ui-matrix.ui-pickable .ui-row-label { cursor: pointer; }
.ui-values .ui-cell { width: 3.3em; min-width: 3.3em; height: 28px; }
.ui-cell .ui-cell-text { pointer-events: none; }
.ui-matrix:not(.ui-values) .ui-cell-text { display: none; }
.ui-grid .ui-row-label, .ui-grid .ui-col-label {
  font-weight: 500; font-size: 0.8rem; color: var(--ui-ink); white-space: nowrap;
}
.ui-grid .ui-row-label { text-align: right; padding-right: 0.4rem; min-height: 24px; }
.ui-grid .ui-col-label { text-align: center; padding-bottom: 0.15rem; font-size: 0.75rem; }
.ui-compact .ui-col-label, .ui-rotated .ui-col-label { writing-mode: vertical-rl; transform: rotate(180deg); font-size: 0.65rem; }
.ui-grid .ui-band-label { font-size: 0.7rem; font-weight: 600; color: var(--ui-ink); text-align: center; padding: 0 1px 2px; white-space: nowrap; vertical-align: bottom; }
.ui-grid .ui-band-bar { display: block; height: 6px; margin-top: 1px; border-radius: 3px; background: var(--band); }
.ui-grid .ui-row-band-label { position: relative; font-size: 0.7rem; font-weight: 600; text-align: right; padding: 0 14px 0 2px; white-space: nowrap; }
.ui-grid .ui-band-bar-v { position: absolute; right: 3px; top: 1px; bottom: 1px; width: 6px; height: auto; margin: 0; }
.ui-dimmed .ui-cell:not(.ui-lit) { opacity: 0.28; }
.ui-dimmed .ui-row-label:not(.ui-lit), .ui-dimmed .ui-col-label:not(.ui-lit) { color: var(--ui-muted); font-weight: 400; }
/* The picked row's word underlined close under its letters (an offset in em, skipping
   descenders), so in a compact grid the line never touches the word of the next row. */
.ui-grid tr.ui-selected .ui-row-label { font-weight: 700; text-decoration: underline; text-decoration-thickness: 1px; text-underline-offset: 0.12em; text-decoration-skip-ink: auto; }
.ui-grid tr.ui-selected .ui-cell { box-shadow: 0 2px 0 0 var(--ui-ink) inset, 0 -2px 0 0 var(--ui-ink) inset; }
.ui-grid tr.ui-selected .ui-cell:first-of-type { box-shadow: 0 2px 0 0 var(--ui-ink) inset, 0 -2px 0 0 var(--ui-ink) inset, 2px 0 0 0 var(--ui-ink) inset; }
.ui-grid tr.ui-selected .ui-cell:last-child { box-shadow: 0 2px 0 0 var(--ui-ink) inset, 0 -2px 0 0 var(--ui-ink) inset, -2px 0 0 0 var(--ui-ink) inset; }
.ui-grid .ui-cell.ui-key { box-shadow: 0 0 0 3px var(--ui-ink) inset, 0 0 0 4px var(--ui-surface) inset; }
.ui-grid .ui-cell[aria-invalid="true"] { box-shadow: 0 0 0 2px var(--ui-error) inset; }
/* Phones: a row of choices (token chips) shows every word: tighter chips, wrapping to as few
   lines as they need (a row that scrolled sideways hid the sentence's end, issue 22). Wider,
   the class does nothing. Empty message lines (a grid's error, a field's) reserve no height
   there: a refusal pushes the figure down by one line rather than every grid keeping a
   blank line for one. */
@container (max-width: 34rem) {
  .ui-row-narrow { flex-wrap: wrap; gap: 4px; }
  .ui-row-narrow > * { flex: none; padding-left: 0.45em; padding-right: 0.45em; }
  .ui-error:empty { min-height: 0; margin: 0; }
}
/* A tall matrix on its side in a narrow container (MatrixGrid transposeWhenNarrow): the
   table's cells flow into a grid column by column, so each matrix row becomes a column. */
@container (max-width: 34rem) {
  .ui-transpose-narrow .ui-grid {
    display: grid; grid-auto-flow: column; grid-template-rows: repeat(var(--ui-turned-rows, 4), auto);
    justify-content: start; align-items: center; gap: 1px;
  }
  .ui-transpose-narrow .ui-grid :is(thead, tbody, tr) { display: contents; }
  .ui-transpose-narrow .ui-grid .ui-cell { --cell: 24px; }
  .ui-transpose-narrow .ui-grid .ui-row-label {
    writing-mode: vertical-rl; transform: rotate(180deg); text-align: left; align-self: end; justify-self: center;
    min-height: 0; padding: 0 0 0.2rem; font-size: 0.68rem;
  }
  .ui-transpose-narrow .ui-grid .ui-col-label {
    writing-mode: horizontal-tb; transform: none; text-align: right; padding: 0 0.35rem 0 0; font-size: 0.72rem;
  }
}
.ui-cell-editor { position: absolute; left: 0; top: calc(100% + 2px); z-index: 3; }
.ui-cell-editor input { width: 6rem; }

/* ---- NumberField ---- */
.ui-number { display: inline-flex; flex-direction: column; gap: 0.15rem; font-size: 0.9rem; }
.ui-number input {
  font: inherit; color: var(--ui-ink); background: var(--ui-surface);
  width: 6rem; min-height: 32px; padding: 0 0.45rem;
  border: 1px solid var(--ui-line); border-radius: 6px;
  font-variant-numeric: tabular-nums;
}
.ui-number input[aria-invalid="true"] { border: 2px solid var(--ui-error); }
.ui-number input[readonly] { border-style: dashed; }
.ui-cell-editor .ui-number { background: var(--ui-surface); padding: 4px; border: 1px solid var(--ui-line); border-radius: 6px; box-shadow: 0 2px 6px color-mix(in oklab, var(--ui-ink) 25%, transparent); }

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
.ui-budget-labels { display: flex; margin-top: 4px; font-size: 0.78rem; min-height: 2.4em; }
.ui-budget-label { flex: var(--w, 0) 1 0; min-width: 0; overflow: hidden; text-align: center; line-height: 1.2; white-space: nowrap; }
.ui-budget-label b { display: block; font-weight: 600; overflow: hidden; text-overflow: ellipsis; }
.ui-budget-label.ui-current b { text-decoration: underline; text-underline-offset: 2px; }
.ui-budget-label.ui-rest { color: var(--ui-muted); font-style: italic; }
.ui-budget-foot { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; align-items: baseline; }
.ui-budget-total { font-size: 0.85rem; font-weight: 600; }

/* ---- StackedBars ---- */
.ui-stacked { display: block; max-width: 100%; height: auto; }
.ui-stacked .ui-axis { stroke: var(--ui-ink); stroke-width: 1; }
.ui-stacked .ui-part { fill: var(--part, var(--ui-hue, var(--ui-accent))); stroke: var(--ui-surface); stroke-width: 1; }
.ui-stacked .ui-total-mark { stroke: var(--ui-ink); stroke-width: 3; }
.ui-stacked text { fill: var(--ui-ink); font-size: 12px; font-family: inherit; }

/* ---- notation ---- */
.ui-sym var { font-style: italic; }
.ui-sym sub, .ui-sym sup, .ui-math sub, .ui-math sup { font-size: 0.72em; line-height: 0; }

@media (prefers-reduced-motion: no-preference) {
  .ui-cell { transition: background-color 120ms linear; }
  .ui-budget-seg, .ui-budget-label { transition: flex-grow 120ms ease-out; }
  .ui-budget.ui-dragging-now .ui-budget-seg, .ui-budget.ui-dragging-now .ui-budget-label { transition: none; }
}
`;

export const kitStyles = paletteCss() + components;

let sheet = null;
/** The kit's stylesheet as one shared constructable sheet. */
export function kitSheet() {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(kitStyles);
  }
  return sheet;
}

/** Adds the kit's sheet to a document or shadow root (once). */
export function adoptKitStyles(root) {
  const s = kitSheet();
  if (!root.adoptedStyleSheets.includes(s)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, s];
}
