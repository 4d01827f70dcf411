// svg(): the kit's one helper for building SVG elements.
//
//   svg('rect', { x: 0, y: 0, width: 10, height: 4, class: 'part' })
//   svg('g', { class: 'axis' }, [svg('line', {...}), 'a text node'])
//
// Attributes are set with setAttribute (presentation attributes like fill are fine under
// a strict CSP; inline `style` is not, so `style` is refused). null / undefined / false
// skip the attribute. Children may be nodes or strings (text nodes).
export const SVG_NS = 'http://www.w3.org/2000/svg';

export function svg(tag, attributes = {}, children = []) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === 'style') throw new Error('svg(): inline style is refused by the CSP; use a class or style.setProperty');
    node.setAttribute(name, String(value));
  }
  node.append(...children);
  return node;
}
