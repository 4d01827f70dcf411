// The widgets a page can use, with the attributes each accepts (for embed.html, which
// copies only these from its URL, and for docs/EMBEDDING.md). Pure data, so Node tests and
// scripts read their tag lists from here too; all.js registers the elements.

// Understood by every widget (MhaWidget): starting state, read-only, panels, URL key, keeping
// the state out of the address (url-state="off"), config, lang (the language of its UI
// text: lessons/multiple-heads/locales/<lang>.json; see web/widgets/shared/i18n.js), and
// world (the example it shows: docs/WORLDS.md).
/** The names in a `panels="…"` (or `kinds="…"`) attribute: words split at spaces or commas. */
export const attributeWords = (value) => String(value ?? '').trim().split(/[\s,]+/).filter(Boolean);

const COMMON = ['state', 'readonly', 'panels', 'state-key', 'url-state', 'config', 'heading-level', 'lang', 'world'];

// loadingHeight: the widget's height in CSS px on the lesson page, in a wide container (1280
// px window) and a narrow one (390 px phone), reserved while the core loads so that the page
// does not jump when the widget appears (checked by tests/browser/url-anchors.test.mjs).
// panelsLoadingHeight: the same for the panels="…" values the lesson uses (its height depends
// on the panels shown), by the attribute's exact value.
// zoomsInto: the stage of the layer at a glance (<mha-layer>: project, attend or mix) this
// widget looks at closely; the layer's map links to it under that stage.

export const WIDGETS = {
  layer: {
    tag: 'mha-layer', title: 'The layer at a glance', loadingHeight: { wide: 1160, narrow: 840 },
    attributes: [...COMMON, 'heads', 'token', 'head'],
  },
  blend: {
    tag: 'mha-blend', title: 'One head, one average', zoomsInto: 'attend', loadingHeight: { wide: 915, narrow: 790 },
    attributes: [...COMMON],
  },
  'head-splitting': {
    tag: 'mha-head-splitting', title: 'Head splitting', zoomsInto: 'project', loadingHeight: { wide: 1440, narrow: 740 },
    panelsLoadingHeight: { 'controls counts configurations': { wide: 990, narrow: 740 }, spectrum: { wide: 470, narrow: 570 } },
    attributes: [...COMMON],
  },
  'wo-mixing': {
    tag: 'mha-wo-mixing', title: 'What W_O is for', zoomsInto: 'mix', loadingHeight: { wide: 1345, narrow: 945 },
    attributes: [...COMMON, 'heads', 'token'],
  },
  'heads-questions': {
    tag: 'mha-heads-questions', title: 'Heads ask different questions', zoomsInto: 'attend', loadingHeight: { wide: 925, narrow: 1045 },
    attributes: [...COMMON, 'query'],
  },
  training: {
    tag: 'mha-training', title: 'Train and prune heads', loadingHeight: { wide: 675, narrow: 480 },
    attributes: [...COMMON],
  },
};

/** Every widget's tag, in lesson order: the one list tests, styles and benches use. */
export const WIDGET_TAGS = Object.values(WIDGETS).map((widget) => widget.tag);

/**
 * The package's one-widget entry points, `import 'multiple-heads/<name>'` (built as
 * dist/widgets/<name>.js by vite.widgets.config.js, listed in package.json's exports): every widget
 * above, and the practice problems (<mha-practice>, a widget of its own that embed.html does
 * not offer, so not in WIDGETS).
 */
export const WIDGET_ENTRIES = [...Object.keys(WIDGETS), 'practice'];
