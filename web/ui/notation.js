// The one renderer of small maths notation in widget text: "W_O^A" is W with subscript O
// and superscript A, "d_{model}" d with subscript model, "h · L^2 · d_k" with a superscript
// 2 and a subscript k, "K^T" / "Kᵀ". `_x` and `^x` take the letters or digits (or ᵀ) that
// follow; braces group ("W_{Q}^{i}"). Single-letter bases are italic variables (<var>).
// Accessible names and announcements use spoken(): "W_O^A" -> "W O A" (screen readers
// would otherwise read underscores aloud).
//
// parseNotation() is pure (tested in Node); notation() / mathText() build DOM.

const GROUP = String.raw`(?:\{([^}]*)\}|([A-Za-z0-9ᵀ]+))`;
const SYMBOL = new RegExp(String.raw`([A-Za-z]*)(?:_${GROUP})?(?:\^${GROUP})?`, 'g');

/** Pieces of `text`: plain strings and { base, sub?, sup? } symbols. */
export function parseNotation(text) {
  const source = String(text);
  const pieces = [];
  let last = 0;
  for (const match of source.matchAll(SYMBOL)) {
    const [whole, base, sub1, sub2, sup1, sup2] = match;
    const sub = sub1 ?? sub2;
    const sup = sup1 ?? sup2;
    if (sub === undefined && sup === undefined) continue; // a plain word
    if (match.index > last) pieces.push(source.slice(last, match.index));
    pieces.push({ base, ...(sub !== undefined ? { sub } : {}), ...(sup !== undefined ? { sup } : {}) });
    last = match.index + whole.length;
  }
  if (last < source.length) pieces.push(source.slice(last));
  return pieces;
}

/** `text` for the ear: "W_O^A" -> "W O A", "d_{model}" -> "d model", "L^2" -> "L 2". */
export function spoken(text) {
  return parseNotation(text).map((piece) => (typeof piece === 'string' ? piece
    : [piece.base, piece.sub, piece.sup].filter(Boolean).join(' '))).join('');
}

function textElement(tag, content) {
  const node = document.createElement(tag);
  node.textContent = content;
  return node;
}

/** `text` as DOM nodes (strings and span.ui-sym elements), to append anywhere. */
export function notation(text) {
  return parseNotation(text).map((piece) => {
    if (typeof piece === 'string') return piece;
    const symbol = document.createElement('span');
    symbol.className = 'ui-sym';
    if (piece.base) symbol.append(textElement(piece.base.length === 1 ? 'var' : 'span', piece.base));
    if (piece.sub !== undefined) symbol.append(textElement('sub', piece.sub));
    if (piece.sup !== undefined) symbol.append(textElement('sup', piece.sup));
    return symbol;
  });
}

/** `text` in one span (class `className`), e.g. for a label or a heading. */
export function mathText(text, className = 'ui-math') {
  const span = document.createElement('span');
  span.className = className;
  span.append(...notation(text));
  return span;
}
