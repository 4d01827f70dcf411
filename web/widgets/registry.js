// The widgets a page can use, with the attributes each accepts (for embed.html, which
// copies only these from its URL, and for docs/EMBEDDING.md). Pure data, so Node tests and
// scripts read their tag lists from here too; all.js registers the elements.

// Understood by every widget (MhaWidget): starting state, read-only, panels, URL key, config.
const COMMON = ['state', 'readonly', 'panels', 'state-key', 'config', 'heading-level'];

export const WIDGETS = {
  layer: {
    tag: 'mha-layer', title: 'The layer at a glance',
    attributes: [...COMMON, 'heads', 'token', 'head'],
  },
  blend: {
    tag: 'mha-blend', title: 'One head, one average',
    attributes: [...COMMON],
  },
  'head-splitting': { tag: 'mha-head-splitting', title: 'Head splitting', attributes: [...COMMON] },
  'wo-mixing': { tag: 'mha-wo-mixing', title: 'What W_O is for', attributes: [...COMMON, 'heads', 'token'] },
  'heads-questions': { tag: 'mha-heads-questions', title: 'Heads ask different questions', attributes: [...COMMON, 'query'] },
};

/** Every widget's tag, in lesson order: the one list tests, styles and benches use. */
export const WIDGET_TAGS = Object.values(WIDGETS).map((widget) => widget.tag);
