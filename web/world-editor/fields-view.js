// The world's fields outside the table: its title, language, description and sentence; the
// tokens the widgets start from (query, subject, complement, chosen among the tokens); and,
// folded away as "advanced", the heads, head counts, reader and other fields as JSON.
// Each control is labelled, carries its target key (problems.js) and has a message line of
// its own under it for its problems.
import { element } from '../ui/dom.js';
import { JSON_SECTIONS, sectionValue } from './model.js';
import { splitSentence } from './sentence.js';
import { headRowsToFit } from './heads-fit.js';

const TEXT_FIELDS = [
  { field: 'title', label: 'Title', hint: 'a short name, shown to authors; the exported file is named after it' },
  { field: 'language', label: 'Language', hint: 'the sentence’s language tag, such as en or de' },
  { field: 'sentence', label: 'Sentence', hint: 'as a reader sees it; the table’s tokens are its pieces' },
  { field: 'description', label: 'Description', hint: 'what the world is and how it was made', multiline: true },
];
const ROLES = [
  { role: 'query', label: 'Query token', hint: 'the word whose attention the layer and the blend start from' },
  { role: 'subject', label: 'Subject token', hint: 'the word the blend’s reader looks for as “who”' },
  { role: 'complement', label: 'Complement token', hint: 'the word the blend’s reader looks for as “what”' },
];
const SECTIONS = {
  heads: { label: 'Heads', hint: 'each head’s id, name, colours, question and its W_Q, W_K, W_V rows by feature name; renaming or removing a feature in the table changes these rows too' },
  headCounts: { label: 'Head counts', hint: 'the numbers of heads h the widgets offer, such as [1, 2, 4]' },
  reader: { label: 'Reader', hint: 'the blend’s reader (candidate words and their meanings); leave empty for none' },
  other: { label: 'Other fields', hint: 'merged colours, outputProjection, headsNote' },
};

let nextId = 0;

/** A labelled control with a hint and a message line for its problems. */
function labelled(control, label, hint, key) {
  const id = `field-${nextId++}`;
  control.id = id;
  control.dataset.target = key;
  const hintLine = element('span', { className: 'hint', id: `${id}-hint`, textContent: hint });
  const message = element('p', { className: 'field-problem', id: `${id}-problem`, dataset: { problemFor: key } });
  control.setAttribute('aria-describedby', hintLine.id);
  return element('div', { className: 'field' }, [element('label', { htmlFor: id }, [label, ' ', hintLine]), control, message]);
}

export class FieldsView {
  #editor;
  #doc = null;

  constructor(editor) {
    this.#editor = editor;
    this.inputs = {};
    this.about = element('div', { className: 'fields' }, TEXT_FIELDS.map(({ field, label, hint, multiline }) => {
      const input = multiline ? element('textarea', { rows: 3 }) : element('input', { type: 'text', autocomplete: 'off' });
      if (field === 'language') input.spellcheck = false;
      input.addEventListener('input', () => editor.edit({ type: 'field', field, value: input.value }, `field:${field}`));
      input.addEventListener('blur', () => editor.seal());
      this.inputs[field] = input;
      return labelled(input, label, hint, `field:${field}`);
    }));
    // The sentence's words as the table's columns, in one step (numbers kept where a word stays).
    this.splitButton = element('button', { type: 'button', textContent: 'Use the sentence’s words as the tokens' });
    this.splitNote = element('span', { className: 'hint', id: 'split-note' });
    this.splitButton.setAttribute('aria-describedby', 'split-note');
    this.splitButton.addEventListener('click', () => {
      const refusal = editor.edit({ type: 'tokensFromSentence' });
      this.splitNote.textContent = refusal ?? 'The tokens are now the sentence’s words; words that stayed kept their numbers.';
    });
    this.inputs.sentence.closest('.field').after(element('div', { className: 'row split' }, [this.splitButton, this.splitNote]));
    this.selects = {};
    this.roles = element('div', { className: 'fields roles' }, ROLES.map(({ role, label, hint }) => {
      const select = element('select');
      select.addEventListener('change', () => {
        if (select.value !== 'stale') editor.edit({ type: 'role', role, index: select.value === '' ? null : Number(select.value) });
      });
      this.selects[role] = select;
      return labelled(select, label, hint, `role:${role}`);
    }));
    this.areas = {};
    this.advanced = element('details', { className: 'advanced', id: 'advanced' }, [
      element('summary', {}, ['Heads, head counts and reader (advanced: JSON)']),
      element('p', { className: 'hint', textContent: 'These parts of the world are edited as JSON. While a text is not JSON, the world keeps what it had, and the editor says so here.' }),
      ...JSON_SECTIONS.map((section) => {
        const area = element('textarea', { rows: section === 'headCounts' ? 1 : 10, spellcheck: false, className: 'json' });
        area.addEventListener('input', () => editor.edit({ type: 'json', section, text: area.value }, `json:${section}`));
        area.addEventListener('blur', () => { editor.seal(); this.render(this.#doc); });
        this.areas[section] = area;
        return labelled(area, `${SECTIONS[section].label} (JSON)`, SECTIONS[section].hint, `json:${section}`);
      }),
    ]);
    // After features are added or removed: every head's rows to the new d_k in one step.
    this.fitButton = element('button', { type: 'button', hidden: true });
    this.fitButton.addEventListener('click', () => editor.edit({ type: 'fitHeads' }));
    this.areas.heads.closest('.field').append(this.fitButton);
  }

  render(doc) {
    this.#doc = doc;
    const { world } = doc;
    for (const [field, input] of Object.entries(this.inputs)) {
      const text = typeof world[field] === 'string' ? world[field] : '';
      if (input !== document.activeElement && input.value !== text) input.value = text;
    }
    this.#renderSplit(world);
    const fit = headRowsToFit(world);
    this.fitButton.hidden = !fit || Boolean(doc.texts.heads);
    if (fit) this.fitButton.textContent = `Fit the heads’ rows to d_k = ${fit.dK} (${fit.rows} ${fit.rows === 1 ? 'row' : 'rows'}: zeros added at the end, or numbers cut)`;
    this.#renderRoles(world);
    for (const [section, area] of Object.entries(this.areas)) {
      const value = sectionValue(world, section);
      const text = doc.texts[section]?.text ?? (value === undefined ? '' : pretty(section, value));
      if (area !== document.activeElement && area.value !== text) area.value = text;
    }
  }

  #renderSplit(world) {
    const words = splitSentence(world.sentence);
    const same = Array.isArray(world.tokens) && words.join('\u0000') === world.tokens.join('\u0000');
    this.splitButton.disabled = same;
    if (same || document.activeElement !== this.splitButton) {
      this.splitNote.textContent = same ? 'The tokens are the sentence’s words.' : `The table’s tokens differ from the sentence’s ${words.length} words and marks.`;
    }
  }

  // One option per token (numbered: tokens may repeat); a role's old name that is no token
  // any more stays chosen, marked, until the author picks another.
  #renderRoles(world) {
    const tokens = Array.isArray(world.tokens) ? world.tokens : [];
    for (const { role } of ROLES) {
      const select = this.selects[role];
      const anchor = this.#doc.anchors[role];
      const options = tokens.map((token, t) => ({ value: String(t), text: `${t + 1}: ${token}` }));
      if (role !== 'query') options.unshift({ value: '', text: '(none)' });
      let chosen = anchor === null || anchor === undefined ? '' : String(anchor);
      if (chosen === '' && (typeof world[role] === 'string' || role === 'query')) {
        options.unshift({ value: 'stale', text: typeof world[role] === 'string' ? `“${world[role]}” (no single token has this text)` : '(choose a token)' });
        chosen = 'stale';
      }
      const signature = options.map((o) => `${o.value}=${o.text}`).join('\n');
      if (select.dataset.options !== signature) {
        select.replaceChildren(...options.map((o) => element('option', { value: o.value, textContent: o.text })));
        select.dataset.options = signature;
      }
      select.value = chosen;
    }
  }
}

// JSON as an author reads it: one head or candidate per block, short number lists on one line.
function pretty(section, value) {
  if (Array.isArray(value) && value.every((v) => typeof v === 'number')) return `[${value.join(', ')}]`;
  return JSON.stringify(value, null, 2).replace(/\[\s+([-\d.,\s e+]+?)\s+\]/g, (_, inner) => `[${inner.split(/,\s*/).map((v) => v.trim()).join(', ')}]`);
}
