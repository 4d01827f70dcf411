// Small helpers for writing symbols like d_model, W_Q^i or L^2 as HTML (subscripts and
// superscripts), and for the widget's selects. DOM only; no numbers are computed here.
import { element } from '../shared/widget-base.js';

/**
 * "h · L^2 · d_k" -> h · L<sup>2</sup> · d<sub>k</sub>. `_x` and `^x` take the letters,
 * digits or ᵀ that follow; `{...}` groups ("W_{Q}^{i}"). Everything else is text.
 */
export function mathText(text, className = 'math') {
  const span = element('span', { className });
  const pattern = /([_^])(\{[^}]*\}|[A-Za-z0-9ᵀ]+)/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    span.append(text.slice(last, match.index));
    const body = match[2].startsWith('{') ? match[2].slice(1, -1) : match[2];
    span.append(element(match[1] === '_' ? 'sub' : 'sup', { textContent: body }));
    last = match.index + match[0].length;
  }
  span.append(text.slice(last));
  return span;
}

/** A <select> labelled by visible text (with math) and by an accessible name. */
export function labelledSelect(visible, accessibleName, onChange) {
  const select = element('select', { ariaLabel: accessibleName });
  select.addEventListener('change', () => onChange(Number(select.value)));
  const field = element('label', { className: 'field' }, [mathText(visible, 'field-label'), select]);
  return { select, field };
}

/** Replaces a select's options only when the list changed (keeps focus and scroll). */
export function setOptions(select, values, label = String) {
  const key = values.join(',');
  if (select.dataset.options !== key) {
    select.replaceChildren(...values.map((v) => element('option', { value: String(v), textContent: label(v) })));
    select.dataset.options = key;
  }
}
