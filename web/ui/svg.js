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

/**
 * Makes `parent`'s children the shapes `specs` describes, in order: each
 * { tag, attributes, text?, properties? } (properties: custom properties, set with
 * style.setProperty). A child already in that place with the same tag is kept, and only its
 * attributes, text and properties that differ are written; others are made, and extra
 * children removed. A chart redrawn on every edit (W_O mixing's contributions, on each step
 * of a cell) then moves a few shapes instead of making all of them again, each new element
 * styled and laid out from nothing.
 */
export function drawSvgChildren(parent, specs) {
  const children = parent.children; // live: replaceWith keeps each place
  specs.forEach((spec, i) => {
    const old = children[i];
    if (old?.localName !== spec.tag) {
      const node = svg(spec.tag, spec.attributes, spec.text === undefined ? [] : [spec.text]);
      for (const [name, value] of Object.entries(spec.properties ?? {})) node.style.setProperty(name, value);
      if (old) old.replaceWith(node);
      else parent.append(node);
      return;
    }
    updateAttributes(old, spec.attributes);
    if (spec.text !== undefined && old.textContent !== spec.text) old.textContent = spec.text;
    updateProperties(old, spec.properties ?? {});
  });
  while (children.length > specs.length) children[specs.length].remove();
}

// The attributes of `node` made those of `attributes` (as svg() sets them); `style` is kept.
function updateAttributes(node, attributes) {
  const wanted = new Map();
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === 'style') throw new Error('svg(): inline style is refused by the CSP; use a class or style.setProperty');
    wanted.set(name, String(value));
  }
  for (const name of node.getAttributeNames()) if (name !== 'style' && !wanted.has(name)) node.removeAttribute(name);
  for (const [name, text] of wanted) if (node.getAttribute(name) !== text) node.setAttribute(name, text);
}

// The custom properties of `node` made those of `properties`.
function updateProperties(node, properties) {
  for (let k = node.style.length - 1; k >= 0; k--) {
    const name = node.style[k];
    if (name.startsWith('--') && !(name in properties)) node.style.removeProperty(name);
  }
  for (const [name, value] of Object.entries(properties)) if (node.style.getPropertyValue(name) !== value) node.style.setProperty(name, value);
  if (node.style.length === 0 && node.hasAttribute('style')) node.removeAttribute('style');
}
