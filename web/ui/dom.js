// The kit's DOM helpers: terse element building and text that is set only when it changes.
// Below every widget (web/widgets/ imports it, never the other way round).

/**
 * Sets a node's text only when it differs. Assigning the same text still replaces the text
 * node, which makes the browser lay it out again: on the lesson page every edit saves the
 * learner's copy (each practice block and the copy panel refresh their lines on that), and
 * a budget bar redraws its labels and readout on every step of a drag.
 */
export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

/**
 * document.createElement with properties and children, for terse DOM building. `role` and
 * aria* names (ariaLabel, ariaHidden, ariaValueText…) are set as attributes (role,
 * aria-label, aria-hidden, aria-valuetext): every browser reads those, while the reflected
 * properties are newer; null or undefined sets nothing. `dataset` is merged; other names are
 * properties where the element has them, else attributes.
 */
export function element(tag, properties = {}, children = []) {
  const node = document.createElement(tag);
  // The names used most are tested first, by name: the generic `name in node` walks the
  // element's prototype chain (hundreds of names), and Object.entries and a regular
  // expression per name allocated. 2,160 table elements built as the layer's map builds
  // them, cold in a fresh page: 47 ms so, 20 ms this way (bench/README.md, "Elements built").
  for (const name in properties) {
    const value = properties[name];
    if (name === 'className') node.className = value;
    else if (name === 'textContent') node.textContent = value;
    else if (name === 'dataset') {
      // As the DOMStringMap would name them (row -> data-row, fooBar -> data-foo-bar).
      for (const key in value) node.setAttribute(`data-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`, value[key]);
    } else if (name === 'role' || (name.length > 4 && name.startsWith('aria') && name[4] >= 'A' && name[4] <= 'Z')) {
      if (value !== null && value !== undefined) node.setAttribute(name === 'role' ? 'role' : `aria-${name.slice(4).toLowerCase()}`, String(value));
    } else if (name in node) node[name] = value;
    else node.setAttribute(name, value);
  }
  if (children.length !== 0) node.append(...children);
  return node;
}

/**
 * Makes `parent`'s children those of `nodes` (new, detached nodes or strings), keeping the
 * children already there wherever they match: an element of the same tag keeps its place and
 * takes the new one's attributes and children (the same way down), a text node takes the new
 * text; anything else is replaced. For the parts a widget builds afresh on every edit (labels
 * with numbers in them, rows of counts): the browser then styles and lays out again only what
 * changed, not every element of the part. Only for nodes without listeners or state of their
 * own: a new node's listeners and properties are not carried over, only its attributes.
 */
export function morphChildren(parent, given) {
  // A fragment stands for its children (each then has a place of its own).
  const nodes = given.flatMap((n) => (n?.nodeType === Node.DOCUMENT_FRAGMENT_NODE ? [...n.childNodes] : [n]));
  const existing = parent.childNodes; // live: replaceWith keeps each place
  nodes.forEach((item, i) => {
    const node = typeof item === 'string' ? document.createTextNode(item) : item;
    const old = existing[i];
    if (!old) parent.append(node);
    else if (old.nodeType !== node.nodeType || old.nodeName !== node.nodeName) old.replaceWith(node);
    else if (node.nodeType === Node.ELEMENT_NODE) morphElement(old, node);
    else if (old.nodeValue !== node.nodeValue) old.nodeValue = node.nodeValue;
  });
  while (existing.length > nodes.length) existing[nodes.length].remove();
}

function morphElement(old, node) {
  for (const name of old.getAttributeNames()) if (!node.hasAttribute(name)) old.removeAttribute(name);
  for (const name of node.getAttributeNames()) {
    const value = node.getAttribute(name);
    if (old.getAttribute(name) === value) continue;
    // Through the CSSOM: a strict CSP (style-src 'self') refuses a style attribute set from script.
    if (name === 'style') old.style.cssText = node.style.cssText;
    else old.setAttribute(name, value);
  }
  morphChildren(old, [...node.childNodes]);
}
