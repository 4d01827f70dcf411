// StackedBars's rules, a module of their own so that only a page that loads the component
// carries them: stacked-bars.js adds them to the kit's sheet (addKitStyles, styles.js) as it
// loads; kit-styles.js puts every component's rules into kitStyles.
export const STACKED_STYLES = `
/* ---- StackedBars ---- */
.ui-stacked { display: block; max-width: 100%; height: auto; }
.ui-stacked .ui-axis { stroke: var(--ui-ink); stroke-width: 1; }
.ui-stacked .ui-part { fill: var(--part, var(--ui-hue, var(--ui-accent))); stroke: var(--ui-surface); stroke-width: 1; }
.ui-stacked .ui-total-mark { stroke: var(--ui-ink); stroke-width: 3; }
.ui-stacked text { fill: var(--ui-ink); font-size: 12px; font-family: inherit; }
`;
