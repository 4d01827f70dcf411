// MatrixGrid (and Heatmap, which draws with it)'s rules, a module of their own so that only a page that loads the component
// carries them: matrix-grid.js adds them to the kit's sheet (addKitStyles, styles.js) as it
// loads; kit-styles.js puts every component's rules into kitStyles.
export const MATRIX_STYLES = `
/* ---- MatrixGrid (and Heatmap) ---- */
.ui-matrix { --cell: 28px; max-width: 100%; }
.ui-matrix.ui-compact { --cell: 14px; }
.ui-grid { border-collapse: separate; border-spacing: 1px; margin: 0; }
.ui-grid th, .ui-grid td { padding: 0; }
.ui-grid .ui-cell {
  width: var(--cell); min-width: var(--cell); height: var(--cell);
  border-radius: 2px;
  text-align: center;
  font-size: 0.75rem;
  line-height: 1;
  cursor: default;
}
/* A painted row (paintRows, painted-rows.js): one cell spanning the row, its values drawn
   as colour bands (--ui-row-paint, from script) under the columns' 1 px gaps in the surface
   colour. At least cols x (cell + gap) - gap wide, as the separate cells were; wider when
   the column labels widen the columns, as they did the cells. */
.ui-grid .ui-cell-row {
  --ui-pitch: calc(var(--cell) + 1px);
  width: calc(var(--ui-pitch) * var(--ui-cols) - 1px); min-width: calc(var(--ui-pitch) * var(--ui-cols) - 1px);
  height: var(--cell); box-sizing: border-box;
  /* Every layer is one gap wider than the row (its last gap), so with cols equal columns
     band c starts at c / cols of it, at its column, however wide the column labels made the
     columns; the gaps are the last 1 px of each band's share, in the surface colour. */
  background-image: repeating-linear-gradient(to right, transparent 0 calc(100% / var(--ui-cols) - 1px), var(--ui-surface) calc(100% / var(--ui-cols) - 1px) calc(100% / var(--ui-cols))),
    var(--ui-row-ring, none), var(--ui-row-ring, none), var(--ui-row-paint, none);
  background-size: calc(100% + 1px) 100%, calc(100% + 1px) 1px, calc(100% + 1px) 1px, calc(100% + 1px) 100%;
  background-position: 0 0, 0 0, 0 100%, 0 0;
  background-repeat: no-repeat;
  /* The palette under short names for the images (painted-rows.js). */
  --pz: var(--ui-diverging-zero); --pn: var(--ui-diverging-negative); --pp: var(--ui-diverging-positive);
  --pq: var(--ui-sequential-zero); --ph: var(--ui-hue, var(--ui-accent)); --ps: var(--ui-surface);
  --pd: var(--ui-paint-dim, 72%); --pk: var(--ui-paint-dark, 0); --pr: color-mix(in oklab, var(--ui-ink) 50%, transparent);
}
.ui-matrix.ui-pickable .ui-cell-row { cursor: pointer; }
.ui-grid tr.ui-selected .ui-cell-row { box-shadow: 0 0 0 2px var(--ui-ink) inset; }
@media (prefers-color-scheme: dark) { .ui-matrix { --ui-paint-dark: 1; } }
/* Positioned only while it needs to be: focused (its outline drawn over its neighbours) or
   holding the value editor (placed under it). A positioned element gets a paint layer of its
   own, and a page of maps has thousands of cells: every cell positioned, a blend step spent
   about twice the time in paint (issue 25). */
.ui-grid .ui-cell:focus, .ui-grid .ui-cell:has(> .ui-cell-editor) { position: relative; }
.ui-grid .ui-cell:focus { outline-offset: -1px; z-index: 1; }
.ui-matrix.ui-editable .ui-cell { cursor: ns-resize; touch-action: none; }
.ui-matrix.ui-pickable .ui-cell, .ui-matrix.ui-pickable .ui-row-label { cursor: pointer; }
.ui-values .ui-cell { width: 3.3em; min-width: 3.3em; height: 28px; }
.ui-cell .ui-cell-text { pointer-events: none; }
.ui-matrix:not(.ui-values) .ui-cell-text { display: none; }
.ui-grid .ui-row-label, .ui-grid .ui-col-label {
  font-weight: 400; font-size: 0.85rem; color: var(--ui-ink); white-space: nowrap;
}
.ui-grid .ui-row-label { text-align: right; padding-right: 0.4rem; min-height: 24px; }
.ui-grid .ui-col-label { text-align: center; padding-bottom: 0.15rem; font-size: 0.75rem; }
.ui-compact .ui-col-label, .ui-rotated .ui-col-label { writing-mode: vertical-rl; transform: rotate(180deg); font-size: 0.65rem; }
.ui-grid .ui-band-label { font-size: 0.65rem; font-weight: 700; color: var(--ui-ink); text-align: center; padding: 0 1px 2px; white-space: nowrap; vertical-align: bottom; }
.ui-grid .ui-band-bar { display: block; height: 6px; margin-top: 1px; border-radius: 3px; background: var(--band); }
.ui-grid .ui-row-band-label { position: relative; font-size: 0.65rem; font-weight: 700; text-align: right; padding: 0 14px 0 2px; white-space: nowrap; }
.ui-grid .ui-band-bar-v { position: absolute; right: 3px; top: 1px; bottom: 1px; width: 6px; height: auto; margin: 0; }
/* Dimmed: the colour as if at opacity 0.28 over the surface (see --dim in styles.js); a
   number in it (values mode) in the muted ink, which stays legible (4.5:1) on every dimmed
   colour. (Under opacity the number faded with its cell, below that contrast.) */
.ui-dimmed .ui-cell:not(.ui-lit) { --dim: 72%; color: var(--ui-muted); }
.ui-dimmed .ui-row-label:not(.ui-lit), .ui-dimmed .ui-col-label:not(.ui-lit) { color: var(--ui-muted); }
/* The picked row's word underlined close under its letters (an offset in em, skipping
   descenders), so in a compact grid the line never touches the word of the next row. */
.ui-grid tr.ui-selected .ui-row-label { font-weight: 700; text-decoration: underline; text-decoration-thickness: 1px; text-underline-offset: 0.12em; text-decoration-skip-ink: auto; }
.ui-grid tr.ui-selected .ui-cell { box-shadow: 0 2px 0 0 var(--ui-ink) inset, 0 -2px 0 0 var(--ui-ink) inset; }
.ui-grid tr.ui-selected .ui-cell:first-of-type { box-shadow: 0 2px 0 0 var(--ui-ink) inset, 0 -2px 0 0 var(--ui-ink) inset, 2px 0 0 0 var(--ui-ink) inset; }
.ui-grid tr.ui-selected .ui-cell:last-child { box-shadow: 0 2px 0 0 var(--ui-ink) inset, 0 -2px 0 0 var(--ui-ink) inset, -2px 0 0 0 var(--ui-ink) inset; }
.ui-grid .ui-cell.ui-key { box-shadow: 0 0 0 3px var(--ui-ink) inset, 0 0 0 4px var(--ui-surface) inset; }
.ui-grid .ui-cell[aria-invalid="true"] { box-shadow: 0 0 0 2px var(--ui-error) inset; }
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
    min-height: 0; padding: 0 0 0.2rem; font-size: 0.65rem;
  }
  .ui-transpose-narrow .ui-grid .ui-col-label {
    writing-mode: horizontal-tb; transform: none; text-align: right; padding: 0 0.35rem 0 0; font-size: 0.75rem;
  }
}
.ui-cell-editor { position: absolute; left: 0; top: calc(100% + 2px); z-index: 3; }
.ui-cell-editor input { width: 6rem; }

.ui-cell-editor .ui-number { background: var(--ui-surface); padding: 4px; border: 1px solid var(--ui-line); border-radius: 6px; box-shadow: 0 2px 6px color-mix(in oklab, var(--ui-ink) 25%, transparent); }
`;
