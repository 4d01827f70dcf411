// Where a world comes from: a world the package ships (the lesson's, the German one, the
// trained one when the build has it), a file, or pasted JSON. Starting again discards the
// draft, so it asks first (a modal dialog that names what would be lost).
import { element } from '../ui/dom.js';
import { WORLD } from '../widgets/shared/world.js';
import { readWorldText } from './export.js';

// Every world of lessons/multiple-heads/worlds/ at build time, bundled with the page.
const FILES = import.meta.glob('../../lessons/multiple-heads/worlds/*.json', { eager: true, import: 'default' });

/** The worlds to start from: { id, title, world }, the lesson's first. */
export const SHIPPED = [
  { id: 'lesson', title: `${WORLD.title} (the lesson’s world)`, world: WORLD },
  ...Object.entries(FILES).sort(([a], [b]) => a.localeCompare(b))
    .map(([path, world]) => ({ id: path.replace(/^.*\/|\.json$/g, ''), title: world.title ?? path, world })),
];

export class StartView {
  #editor;

  constructor(editor) {
    this.#editor = editor;
    this.select = element('select', { id: 'start-world' }, SHIPPED.map((s) => element('option', { value: s.id, textContent: s.title })));
    const start = element('button', { type: 'button', textContent: 'Start again from this world' });
    start.addEventListener('click', () => this.#ask(SHIPPED.find((s) => s.id === this.select.value)));
    this.file = element('input', { type: 'file', id: 'import-file', accept: '.json,application/json' });
    this.file.addEventListener('change', () => this.#readFile());
    this.paste = element('textarea', { id: 'paste-json', rows: 4, spellcheck: false, className: 'json', placeholder: '{ "formatVersion": 1, "sentence": … }' });
    const usePaste = element('button', { type: 'button', textContent: 'Start from this JSON' });
    usePaste.addEventListener('click', () => this.#take(readWorldText(this.paste.value, 'the pasted text'), 'pasted JSON'));
    this.message = element('p', { className: 'import-message', role: 'alert', id: 'import-message' });
    this.dialog = this.#dialog();
    this.element = element('div', { className: 'start' }, [
      element('div', { className: 'field' }, [element('label', { htmlFor: 'start-world', textContent: 'A world the package ships' }), element('div', { className: 'row' }, [this.select, start])]),
      element('div', { className: 'field' }, [element('label', { htmlFor: 'import-file', textContent: 'Or import a world file (.json)' }), this.file]),
      element('div', { className: 'field' }, [element('label', { htmlFor: 'paste-json', textContent: 'Or paste a world’s JSON' }), this.paste, usePaste]),
      this.message, this.dialog,
    ]);
    this.paste.setAttribute('aria-describedby', 'import-message');
    this.file.setAttribute('aria-describedby', 'import-message');
  }

  async #readFile() {
    const [file] = this.file.files;
    if (!file) return;
    const text = await file.text();
    this.#take(readWorldText(text, `the file ${file.name}`), `the file ${file.name}`);
    this.file.value = '';
  }

  #take(read, what) {
    if (read.error) {
      this.message.textContent = read.error;
      return;
    }
    this.message.textContent = '';
    this.#ask({ id: 'import', title: what, world: read.world });
  }

  // Asks before the draft is discarded (when it holds edits); starts at once otherwise.
  #ask(source) {
    if (!this.#editor.hasEdits()) {
      this.#editor.startFrom(source);
      return;
    }
    this.pending = source;
    this.dialogText.textContent = `Your draft (${this.#editor.draftSummary()}) will be discarded, and the editor will start from ${source.id === 'import' ? source.title : `“${source.title}”`}. Export the draft first if you want to keep it.`;
    this.dialog.showModal();
  }

  #dialog() {
    this.dialogText = element('p', { id: 'discard-text' });
    const discard = element('button', { type: 'button', className: 'danger', textContent: 'Discard my draft and start again' });
    const keep = element('button', { type: 'button', textContent: 'Keep my draft' });
    const dialog = element('dialog', { className: 'confirm', ariaLabelledby: 'discard-heading', ariaDescribedby: 'discard-text' }, [
      element('h2', { id: 'discard-heading', textContent: 'Start again?' }), this.dialogText, element('div', { className: 'row' }, [keep, discard]),
    ]);
    discard.addEventListener('click', () => {
      dialog.close();
      this.#editor.startFrom(this.pending);
    });
    keep.addEventListener('click', () => dialog.close());
    dialog.addEventListener('close', () => { this.pending = null; });
    return dialog;
  }
}
