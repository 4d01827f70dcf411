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
