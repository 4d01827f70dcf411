// Costs drawn as blocks whose areas are the core's counts. A block row is as long as its
// count divided by the largest count in its figure, at one height, so equal counts give
// equal areas; it is cut into one piece per head (each head does the same work: its count
// is the row's count divided by h). Geometry only: the counts come from the core.
import { element, morphChildren } from '../../ui/dom.js';

export class BlockRow {
  /**
   * @param {object} options
   * @param {string} options.className  e.g. 'one-head', 'many-heads', 'exp-row'
   * @param {string} options.kind       what the row stands for ('multiply-adds' or 'exp')
   */
  constructor({ className, kind }) {
    this.label = element('p', { className: 'block-label' });
    this.blocks = element('div', { className: 'blocks', role: 'img' });
    this.element = element('div', { className: `block-row ${className}`, dataset: { kind } }, [this.label, this.blocks]);
  }

  /**
   * @param {object} options
   * @param {number} options.pieces  how many heads (pieces) the row is cut into
   * @param {number} options.share   count / the figure's largest count, in (0, 1]
   * @param {(Node|string)[]} options.label  the visible label (numbers from the core)
   * @param {string} options.description   the row's accessible description, in words
   */
  draw({ pieces, share, label, description }) {
    this.blocks.style.setProperty('--share', String(Math.min(1, Math.max(0, share))));
    const kids = this.blocks.children;
    while (kids.length > pieces) kids[kids.length - 1].remove();
    while (kids.length < pieces) this.blocks.append(element('span', { className: 'block' }));
    this.blocks.dataset.pieces = String(pieces);
    this.blocks.setAttribute('aria-label', description);
    morphChildren(this.label, label);
  }
}
