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
  for (const [name, value] of Object.entries(properties)) {
    if (name === 'dataset') Object.assign(node.dataset, value);
    else if (name === 'role' || /^aria[A-Z]/.test(name)) {
      if (value !== null && value !== undefined) node.setAttribute(name === 'role' ? 'role' : `aria-${name.slice(4).toLowerCase()}`, String(value));
    } else if (name in node) node[name] = value;
    else node.setAttribute(name, value);
  }
  node.append(...children);
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
