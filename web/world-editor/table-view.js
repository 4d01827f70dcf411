// The table of X: one column per token (the header holds the token's text), one row per
// feature (its name and what it means, then one number per token). A real <table> with
// <th scope> headers; every input has a name that says what it is ("Value of feature
// “verb” for token 4 “wrote”"). Arrow keys move between cells as in a spreadsheet (left and
// right when the caret is at the text's end), Enter goes down.
//
// The table is built again only when its shape changes (a token or a feature added or
// removed); otherwise render() updates texts and names in place, and never the text of the
// input being typed in.
import { element } from '../ui/dom.js';
import { cellLabel, featureWords, tokenWords } from './problems.js';
import { cellText } from './model.js';

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

export class TableView {
  #editor;
  #shape = '';
  #doc = null;

  constructor(editor) {
    this.#editor = editor;
    this.table = element('table', { className: 'world-table' });
    this.note = element('p', { className: 'table-note', id: 'table-note', role: 'status' });
    this.addFeature = element('button', { type: 'button', className: 'add-feature', textContent: '+ Add a feature' });
    this.addFeature.addEventListener('click', () => this.#structural({ type: 'insertFeature' }, () => this.#focus(`name:${this.#features().length - 1}`)));
    const box = element('div', { className: 'table-box ui-scroll' }, [this.table]);
    this.element = element('div', { className: 'table-part' }, [box, this.note, this.addFeature]);
    this.table.addEventListener('input', (event) => this.#typed(event.target));
    this.table.addEventListener('focusout', (event) => this.#blur(event.target));
    this.table.addEventListener('focusin', (event) => {
      if (event.target.dataset?.kind === 'name') event.target.dataset.before = event.target.value;
      this.#editor.showFocusedProblem();
    });
    this.table.addEventListener('keydown', (event) => this.#key(event));
  }

  #features() {
    return Array.isArray(this.#doc?.world.features) ? this.#doc.world.features : [];
  }

  #tokens() {
    return Array.isArray(this.#doc?.world.tokens) ? this.#doc.world.tokens : [];
  }

  render(doc) {
    this.#doc = doc;
    const shape = `${this.#tokens().length}x${this.#features().length}`;
    if (shape !== this.#shape) {
      const focused = this.table.contains(document.activeElement) ? document.activeElement.dataset.target : null;
      this.#build();
      this.#shape = shape;
      if (focused) this.#focus(focused);
    }
    this.#update();
  }

  #build() {
    const tokens = this.#tokens();
    const head = element('tr', {}, [
      element('th', { scope: 'col', className: 'feature-head' }, ['Feature', element('span', { className: 'sub' }, [' (name, what it means)'])]),
      ...tokens.map((_, t) => this.#tokenHeader(t)),
      element('td', { className: 'end' }, [this.#button('+', 'add-token', () => this.#structural({ type: 'insertToken', index: tokens.length, text: 'new' }, () => this.#focus(`token:${tokens.length}`)))]),
    ]);
    const rows = this.#features().map((_, f) => element('tr', {}, [
      this.#featureHeader(f),
      ...tokens.map((__, t) => element('td', {}, [this.#input({ kind: 'value', f, t, className: 'value-input', inputMode: 'decimal' })])),
      element('td', { className: 'end' }, [this.#button('✕', `remove-feature-${f}`, () => this.#structural({ type: 'removeFeature', index: f }, () => this.#focus(`name:${Math.min(f, this.#features().length - 1)}`)))]),
    ]));
    this.table.replaceChildren(
      element('caption', { className: 'ui-sr-only', textContent: 'X: one column per token, one row per feature' }),
      element('thead', {}, [head]), element('tbody', {}, rows),
    );
  }

  #tokenHeader(t) {
    return element('th', { scope: 'col', className: 'token-head' }, [
      element('span', { className: 'ui-sr-only', dataset: { part: 'token-number' } }, [`Token ${t + 1}`]),
      this.#input({ kind: 'token', t, className: 'token-input' }),
      element('span', { className: 'column-actions' }, [
        this.#button('+', `insert-token-${t}`, () => this.#structural({ type: 'insertToken', index: t + 1, text: 'new' }, () => this.#focus(`token:${t + 1}`))),
        this.#button('✕', `remove-token-${t}`, () => this.#structural({ type: 'removeToken', index: t }, () => this.#focus(`token:${Math.min(t, this.#tokens().length - 1)}`))),
      ]),
    ]);
  }

  #featureHeader(f) {
    return element('th', { scope: 'row', className: 'feature-cell' }, [
      element('span', { className: 'ui-sr-only', dataset: { part: 'feature-number' } }, [`Feature ${f + 1}`]),
      this.#input({ kind: 'name', f, className: 'name-input' }),
      this.#input({ kind: 'about', f, className: 'about-input' }),
    ]);
  }

  #input({ kind, f = -1, t = -1, className, inputMode = 'text' }) {
    const target = kind === 'value' ? `value:${f}:${t}` : kind === 'token' ? `token:${t}` : `${kind}:${f}`;
    return element('input', {
      type: 'text', className, inputMode, autocomplete: 'off', spellcheck: false,
      dataset: { target, kind, f: String(f), t: String(t) },
    });
  }

  #button(text, action, onClick) {
    const button = element('button', { type: 'button', className: 'icon-button', textContent: text, dataset: { action } });
    button.addEventListener('click', onClick);
    return button;
  }

  // Texts, names and the buttons' names, from the document.
  #update() {
    const world = this.#doc.world;
    for (const input of this.table.querySelectorAll('input')) {
      const f = Number(input.dataset.f);
      const t = Number(input.dataset.t);
      const feature = this.#features()[f];
      const { kind } = input.dataset;
      const text = kind === 'token' ? String(this.#tokens()[t] ?? '')
        : kind === 'value' ? cellText(isObject(feature) && Array.isArray(feature.values) ? feature.values[t] : '')
          : String((isObject(feature) ? feature[kind] : '') ?? '');
      if (input !== document.activeElement && input.value !== text && !input.hasAttribute('data-refused')) input.value = text;
      const label = kind === 'value' ? cellLabel(world, f, t) : kind === 'token' ? `Token ${t + 1}`
        : kind === 'name' ? `Name of feature ${f + 1}` : `What ${featureWords(world, f)} means`;
      if (input.getAttribute('aria-label') !== label) input.setAttribute('aria-label', label);
      if (kind === 'about') input.placeholder = 'what it means';
    }
    for (const button of this.table.querySelectorAll('button[data-action]')) {
      const [, what, index] = /^(insert-token|remove-token|remove-feature|add-token)-?(\d*)$/.exec(button.dataset.action) ?? [];
      const n = Number(index);
      const label = what === 'insert-token' ? `Add a token after ${tokenWords(world, n)}` : what === 'remove-token' ? `Remove ${tokenWords(world, n)}`
        : what === 'remove-feature' ? `Remove ${featureWords(world, n)}` : 'Add a token at the end';
      if (button.getAttribute('aria-label') !== label) button.setAttribute('aria-label', label);
      button.title = label;
    }
  }

  #typed(input) {
    const { kind } = input.dataset;
    const f = Number(input.dataset.f);
    const t = Number(input.dataset.t);
    const group = input.dataset.target;
    const edit = kind === 'value' ? { type: 'value', feature: f, token: t, text: input.value }
      : kind === 'token' ? { type: 'renameToken', index: t, text: input.value }
        : kind === 'name' ? { type: 'renameFeature', feature: f, name: input.value }
          : { type: 'about', feature: f, text: input.value };
    const refusal = this.#editor.edit(edit, group);
    // A refused edit (a name another feature has) stays typed, marked, with the reason.
    if (refusal) this.#refuse(input, refusal);
    else if (input.hasAttribute('data-refused')) this.#unrefuse(input);
  }

  #refuse(input, message) {
    input.dataset.refused = '';
    input.setAttribute('aria-invalid', 'true');
    const ids = (input.getAttribute('aria-describedby') ?? '').split(' ').filter((id) => id && id !== this.note.id);
    input.setAttribute('aria-describedby', [...ids, this.note.id].join(' '));
    this.note.textContent = message;
  }

  #unrefuse(input) {
    delete input.dataset.refused;
    input.removeAttribute('aria-invalid');
    const ids = (input.getAttribute('aria-describedby') ?? '').split(' ').filter((id) => id && id !== this.note.id);
    if (ids.length) input.setAttribute('aria-describedby', ids.join(' '));
    else input.removeAttribute('aria-describedby');
    this.#editor.refresh();
  }

  #blur(input) {
    if (!(input instanceof HTMLInputElement)) return;
    // What was refused is not kept, nor the letters typed on the way to it: the feature
    // gets back the name it had when the author came to the field.
    if (input.hasAttribute('data-refused')) {
      const before = input.dataset.before;
      if (before !== undefined) this.#editor.edit({ type: 'renameFeature', feature: Number(input.dataset.f), name: before }, input.dataset.target);
      this.#unrefuse(input);
    }
    this.#editor.seal();
  }

  #structural(edit, focus) {
    const refusal = this.#editor.edit(edit);
    if (refusal) this.note.textContent = refusal;
    else focus();
  }

  /** Focuses a control by its target key (and brings it into view inside the table's box). */
  #focus(key) {
    const input = this.table.querySelector(`[data-target="${CSS.escape(key)}"]`);
    input?.focus();
    input?.select();
  }

  // Spreadsheet keys: up and down by row, left and right across cells at the text's ends.
  #key(event) {
    const input = event.target;
    if (!(input instanceof HTMLInputElement) || event.altKey || event.ctrlKey || event.metaKey) return;
    const up = event.key === 'ArrowUp' || (event.key === 'Enter' && event.shiftKey);
    const down = event.key === 'ArrowDown' || (event.key === 'Enter' && !event.shiftKey);
    let key = null;
    if (up || down) key = verticalNeighbour(input.dataset, up ? -1 : 1);
    else if (event.key === 'ArrowLeft' && input.selectionStart === 0 && input.selectionEnd === 0) key = this.#sideways(input, -1);
    else if (event.key === 'ArrowRight' && input.selectionStart === input.value.length) key = this.#sideways(input, 1);
    const next = key && this.table.querySelector(`[data-target="${CSS.escape(key)}"]`);
    if (!next) return;
    event.preventDefault();
    next.focus();
    next.select();
  }

  #sideways(input, step) {
    const inputs = [...this.table.querySelectorAll('input')];
    return inputs[inputs.indexOf(input) + step]?.dataset.target ?? null;
  }
}

// The control above (-1) or below (1): values by column (the token above the first row),
// a feature's name and what it means in turn.
function verticalNeighbour({ kind, f, t }, step) {
  const row = Number(f);
  if (kind === 'token') return step > 0 ? `value:0:${t}` : null;
  if (kind === 'value') return row + step < 0 ? `token:${t}` : `value:${row + step}:${t}`;
  if (kind === 'name') return step > 0 ? `about:${row}` : `about:${row - 1}`;
  return step > 0 ? `name:${row + 1}` : `name:${row}`;
}
