// The widgets a page can use, with the attributes each accepts (for embed.html, which
// copies only these from its URL, and for docs/EMBEDDING.md).
import './all.js';

export const WIDGETS = {
  blend: { tag: 'mha-blend', title: 'One head, one average', attributes: ['query', 'state-key'] },
  'head-splitting': { tag: 'mha-head-splitting', title: 'Head splitting', attributes: ['state-key'] },
  'wo-mixing': { tag: 'mha-wo-mixing', title: 'What W_O is for', attributes: ['state-key'] },
  'heads-questions': { tag: 'mha-heads-questions', title: 'Heads ask different questions', attributes: ['state-key'] },
};
