// Light maths notation for the widget's text: "W_O^A" is shown as W with subscript O and
// superscript A, "head_i" as head with subscript i, "d_{model}" as d with subscript model.
// Accessible names and announcements use spoken() instead ("W O A"): screen readers would
// otherwise read the underscores aloud. (No imports: the tests use spoken() in Node.)

const SYMBOL = /([A-Za-z]+)_(?:\{([^}]*)\}|([A-Za-z0-9]+))(?:\^(?:\{([^}]*)\}|([A-Za-z0-9]+)))?/g;

/** `text` as DOM nodes, with each symbol's subscript and superscript set as such. */
export function notation(text) {
  const nodes = [];
  let last = 0;
  for (const match of text.matchAll(SYMBOL)) {
    const [whole, base, sub1, sub2, sup1, sup2] = match;
    if (match.index > last) nodes.push(text.slice(last, match.index));
    const sup = sup1 ?? sup2;
    const symbol = document.createElement('span');
    symbol.className = 'sym';
    symbol.append(
      textElement(base.length === 1 ? 'var' : 'span', base),
      textElement('sub', sub1 ?? sub2),
      ...(sup ? [textElement('sup', sup)] : []),
    );
    nodes.push(symbol);
    last = match.index + whole.length;
  }
  if (last < text.length) nodes.push(text.slice(last));
  return nodes;
}

function textElement(tag, content) {
  const node = document.createElement(tag);
  node.textContent = content;
  return node;
}

/** `text` for the ear: "W_O^A" becomes "W O A". */
export function spoken(text) {
  return text.replace(SYMBOL, (_, base, sub1, sub2, sup1, sup2) => [base, sub1 ?? sub2, sup1 ?? sup2].filter(Boolean).join(' '));
}
