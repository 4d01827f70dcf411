// The kit's stylesheet: the palette for light and dark, the shared rules, and the rules of
// each component the page has loaded (styles-<component>.js; kitStyles in kit-styles.js is
// all of them, for a page that wants the whole kit). Widgets adopt it in their shadow root after their own base sheet:
//   root.adoptedStyleSheets = [...root.adoptedStyleSheets, kitSheet()];
// A plain page adopts it on the document: adoptKitStyles(document).
import { paletteCss, SEQUENTIAL_DARK_CSS, shadeStepsCss, VALUES_MODE_STRENGTH } from './colour-scale.js';

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
.ui-error { color: var(--ui-error); font-weight: 700; font-size: 0.85rem; margin: 0.2rem 0 0; min-height: 1.2em; }
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

/* ---- colour cells: a class sets --t (the shade step, colour-scale.js), the rule mixes the theme's colours ---- */
${shadeStepsCss()}
/* --cell-colour is the value's colour; --dim (0% unless the cell is dimmed) mixes it toward
   the surface, which is what opacity over the surface would show. Not opacity itself: each
   element with opacity below 1 is an effect of its own for the compositor, and a dimmed map
   has about a thousand cells, which every frame of the page then paid for (issue 25). */
.ui-cell {
  --k: 1;
  --pos: calc(max(0, var(--t, 0)) * var(--k) * 100%);
  --neg: calc(max(0, 0 - var(--t, 0)) * var(--k) * 100%);
  --cell-colour: color-mix(in oklab,
    color-mix(in oklab, var(--ui-diverging-zero), var(--ui-diverging-negative) var(--neg)),
    var(--ui-diverging-positive) var(--pos));
  background-color: color-mix(in srgb, var(--cell-colour), var(--ui-surface) var(--dim, 0%));
}
.ui-sequential .ui-cell {
  --cell-colour: color-mix(in oklab, var(--ui-sequential-zero), var(--ui-hue, var(--ui-accent)) calc(var(--t, 0) * var(--k) * 100%));
}
/* On a dark surface a weak weight (0.05) took 2% of the hue and vanished into the cell's
   grey: the dark theme shows sqrt(weight), so 0.05 takes 22% (OKLab distance from zero
   about 0.1) and the order of weights is kept. */
@media (prefers-color-scheme: dark) {
  .ui-sequential .ui-cell {
    --cell-colour: color-mix(in oklab, var(--ui-sequential-zero), var(--ui-hue, var(--ui-accent)) calc(${SEQUENTIAL_DARK_CSS} * var(--k) * 100%));
  }
}
.ui-values .ui-cell { --k: ${VALUES_MODE_STRENGTH}; }

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
/* ---- NumberField ---- */
.ui-number { display: inline-flex; flex-direction: column; gap: 0.15rem; font-size: 0.85rem; }
.ui-number input {
  font: inherit; color: var(--ui-ink); background: var(--ui-surface);
  width: 6rem; min-height: 32px; padding: 0 0.45rem;
  border: 1px solid var(--ui-line); border-radius: 6px;
  font-variant-numeric: tabular-nums;
}
.ui-number input[aria-invalid="true"] { border: 2px solid var(--ui-error); }
.ui-number input[readonly] { border-style: dashed; }

/* ---- notation ---- */
.ui-sym var { font-style: italic; }
.ui-sym sub, .ui-sym sup, .ui-math sub, .ui-math sup { font-size: 0.72em; line-height: 0; }

/* A cell the learner edits eases to its new colour. Only editable grids' cells: a read-only
   map recoloured whole (a tie, a new h: hundreds of cells at once) would restyle and repaint
   every one of them in each frame of the transition, about 120 ms of frames per edit on a
   slow phone (issue 25). Not after a small step or a drag (ui-instant, matrix-grid.js):
   they come many a second, and each ease kept the page drawing 10 frames instead of 3
   (about 25 ms of a 4x-throttled main thread per W_O step); a big step, a typed value, Undo
   and Reset still ease. */
@media (prefers-reduced-motion: no-preference) {
  .ui-editable .ui-cell { transition: background-color 120ms linear; }
  .ui-editable.ui-instant .ui-cell { transition: none; }
}
`;

/** The palette and the rules every component shares (kit-styles.js adds the components'). */
export const sharedKitStyles = () => paletteCss() + components;

// The rules the components loaded so far added (addKitStyles), in the order they came.
const added = [];
let sheet = null;
const sheetText = () => sharedKitStyles() + added.join('');

/**
 * A component's own rules (component-styles.js), added to the kit's sheet by its module as
 * it loads; a component loaded after the sheet was made (a lazy chunk) updates the sheet,
 * and so every root that adopted it.
 */
export function addKitStyles(css) {
  if (added.includes(css)) return;
  added.push(css);
  sheet?.replaceSync(sheetText());
}

/** The kit's stylesheet as one shared constructable sheet: the shared rules and those of the components loaded. */
export function kitSheet() {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(sheetText());
  }
  return sheet;
}

/** Adds the kit's sheet to a document or shadow root (once). */
export function adoptKitStyles(root) {
  const s = kitSheet();
  if (!root.adoptedStyleSheets.includes(s)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, s];
}
