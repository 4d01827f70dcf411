// The world editor page (dist/world-editor.html): an author edits a world's sentence,
// tokens and features in a table, sees the lesson's widgets draw it, and exports the JSON.
//
//   model.js        the document and its edits (pure)      table-view.js   the table of X
//   problems.js     checkWorld's paths -> controls (pure)  fields-view.js  the other fields
//   history.js      undo / redo (pure)                     problems-view.js the list, the marks
//   draft.js        the draft in localStorage              start-view.js   shipped, file, paste
//   export.js       the file's text and name (pure)        export-view.js  download, copy
//                                                           preview.js      the widgets
//
// Every edit goes through Editor.edit: the document changes, is checked (checkWorld, then the
// core once per head count), shown, saved as the draft, and, when it has no problems, given
// to the widgets after a short pause (typing does not rebuild them at every key).
import { adoptKitStyles } from '../ui/styles.js';
import { element } from '../ui/dom.js';
import { sharedEngine } from '../engine/engine.js';
import { checkWorld } from '../widgets/shared/world-check.js';
import { buildWorld } from '../widgets/shared/world.js';
import { checkWorldWithCore } from '../widgets/shared/world-source.js';
import { EditError, applyEdit, createDocument } from './model.js';
import { locateProblems } from './problems.js';
import { History } from './history.js';
import { loadDraft, saveDraft } from './draft.js';
import { SCHEMA_PATH } from './export.js';
import { TableView } from './table-view.js';
import { FieldsView } from './fields-view.js';
import { ProblemsView } from './problems-view.js';
import { SHIPPED, StartView } from './start-view.js';
import { ExportView } from './export-view.js';
import { Preview } from './preview.js';

// Reading localStorage throws where storage is off (a sandboxed frame, some privacy
// settings): the editor then works without a draft, and says so when it saves.
const STORAGE = (() => {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
})();

/** The pause after the last edit before the widgets are built again. */
export const PREVIEW_DELAY_MS = 300;

const SECTION_NAMES = { title: 'World: title and sentence', table: 'Tokens and features', roles: 'Where the widgets start', advanced: 'Heads and reader', export: 'Export' };

class Editor {
  #engine = null;
  #timer = 0;
  #located = [];

  constructor(root) {
    this.root = root;
    this.problems = new ProblemsView(root);
    this.start = new StartView(this);
    this.fields = new FieldsView(this);
    this.table = new TableView(this);
    this.exporter = new ExportView(this);
    this.preview = new Preview(document.getElementById('preview-widgets'), document.getElementById('preview-status'));
    this.#layout();
    const draft = loadDraft(STORAGE);
    if (draft) {
      this.origin = draft.origin ?? { id: 'draft', title: 'your draft', world: draft.doc.world };
      this.history = new History(draft.doc);
      this.lastGood = draft.lastGood;
      if (this.lastGood) this.preview.show(this.lastGood);
      this.say(`Your draft is back, as you left it${draft.savedAt ? ` at ${new Date(draft.savedAt).toLocaleTimeString()}` : ''}.`);
    } else {
      const lesson = SHIPPED[0];
      this.origin = { id: lesson.id, title: lesson.title };
      this.history = new History(createDocument(withSchema(lesson.world)));
      this.lastGood = null;
    }
    this.changed();
    sharedEngine().then((engine) => { this.#engine = engine; this.changed(); }, (error) => this.say(`The widgets' core could not be loaded (${error.message}): the world is checked by field only.`));
  }

  #layout() {
    this.undoButton = element('button', { type: 'button', textContent: 'Undo edit' });
    this.redoButton = element('button', { type: 'button', textContent: 'Redo edit' });
    this.undoButton.addEventListener('click', () => this.#step('undo'));
    this.redoButton.addEventListener('click', () => this.#step('redo'));
    this.status = element('p', { className: 'editor-status', role: 'status' });
    const section = (id, title, children) => element('section', { id: `section-${id}`, ariaLabelledby: `heading-${id}` }, [
      element('h2', { id: `heading-${id}`, tabIndex: -1, textContent: title }), ...children,
    ]);
    this.root.append(
      element('div', { className: 'toolbar' }, [this.undoButton, this.redoButton, this.status,
        // One column (narrow screens): the widgets are below the whole editor.
        element('a', { className: 'to-preview', href: '#preview-heading', textContent: 'See the preview' })]),
      this.problems.element,
      section('start', 'Start from', [this.start.element]),
      section('about', SECTION_NAMES.title, [this.fields.about]),
      section('table', SECTION_NAMES.table, [
        element('p', { className: 'hint', textContent: 'Each column is a token of the sentence, each row a feature: a column of X, one number per token. Arrow keys and Enter move between cells; + adds a token after a column, ✕ removes it.' }),
        this.table.element,
        element('h3', { textContent: SECTION_NAMES.roles }), this.fields.roles,
      ]),
      section('advanced', SECTION_NAMES.advanced, [this.fields.advanced]),
      section('export', SECTION_NAMES.export, [this.exporter.element]),
    );
  }

  /** The document being edited. */
  get doc() {
    return this.history.doc;
  }

  world() {
    return this.doc.world;
  }

  /** Applies an edit: null when done, else the reason it was refused. */
  edit(edit, group = null) {
    let next;
    try {
      next = applyEdit(this.doc, edit);
    } catch (error) {
      if (error instanceof EditError) return error.message;
      throw error;
    }
    this.history.push(next, group);
    this.changed();
    return null;
  }

  seal() {
    this.history.seal();
  }

  #step(direction) {
    const doc = direction === 'undo' ? this.history.undo() : this.history.redo();
    if (!doc) return;
    this.changed();
    this.say(direction === 'undo' ? 'Undone.' : 'Done again.');
  }

  startFrom(source) {
    this.origin = { id: source.id, title: source.title, ...(source.id === 'import' ? { world: source.world } : {}) };
    this.history.reset(createDocument(source.id === 'import' ? source.world : withSchema(source.world)));
    this.changed();
    this.say(`Started from ${source.id === 'import' ? source.title : `“${source.title}”`}.`);
    document.getElementById('heading-about').focus();
  }

  /** Whether the draft differs from where it started (then starting again asks first). */
  hasEdits() {
    const origin = this.origin.world ?? SHIPPED.find((s) => s.id === this.origin.id)?.world;
    return !origin || JSON.stringify(withSchema(origin)) !== JSON.stringify(withSchema(this.world()));
  }

  draftSummary() {
    const w = this.world();
    const count = (list, one) => `${Array.isArray(list) ? list.length : 0} ${one}${Array.isArray(list) && list.length === 1 ? '' : 's'}`;
    return `“${w.title ?? w.sentence ?? 'untitled'}”, ${count(w.tokens, 'token')} and ${count(w.features, 'feature')}`;
  }

  problemCount() {
    return this.#located.length;
  }

  say(text) {
    this.status.textContent = text;
  }

  /** Shows the focused table cell's problems in the line under the table. */
  showFocusedProblem() {
    const key = document.activeElement?.dataset?.target;
    const own = this.#located.filter((p) => p.key === key);
    if (!document.activeElement?.hasAttribute('data-refused')) this.table.note.textContent = own.map((p) => p.text).join(' ');
  }

  refresh() {
    this.#render();
  }

  #check(doc) {
    const found = checkWorld(doc.world);
    for (const [section, { error }] of Object.entries(doc.texts)) found.push({ path: section, message: error });
    if (found.length === 0 && this.#engine) {
      try {
        checkWorldWithCore(this.#engine, buildWorld(doc.world));
      } catch (error) {
        found.push(...(error.problems ?? [{ path: 'world', message: error.message }]));
      }
    }
    return locateProblems(found, doc.world);
  }

  #render() {
    this.table.render(this.doc);
    this.fields.render(this.doc);
    this.exporter.render(this.world());
    this.problems.render(this.#located);
    this.showFocusedProblem();
    this.undoButton.disabled = !this.history.canUndo;
    this.redoButton.disabled = !this.history.canRedo;
  }

  changed() {
    this.#located = this.#check(this.doc);
    this.#render();
    this.#save();
    clearTimeout(this.#timer);
    if (this.#located.length) {
      const count = this.#located.length === 1 ? 'the problem' : `the ${this.#located.length} problems`;
      this.preview.say('stale', this.lastGood ? `The widgets keep the last good world: fix ${count} listed in the editor to see this one.` : `The widgets wait for a world without problems: fix ${count} listed in the editor.`);
      return;
    }
    const show = () => {
      this.lastGood = structuredClone(this.world());
      this.preview.show(this.lastGood);
      this.preview.say('current', 'The widgets show your world as it is now.');
      this.#save();
    };
    // The first good world at once; later ones after a pause in the typing.
    if (this.lastGood === null) show();
    else {
      this.preview.say('updating', 'Updating the widgets…');
      this.#timer = setTimeout(show, PREVIEW_DELAY_MS);
    }
  }

  #save() {
    if (!saveDraft(STORAGE, { doc: this.doc, lastGood: this.lastGood, origin: this.origin })) {
      this.say('This browser does not let the editor keep a draft: export your world before you leave the page.');
    }
  }
}

// Shipped worlds point at the schema from beside it; an export is saved in worlds/.
function withSchema(world) {
  return { ...world, $schema: SCHEMA_PATH };
}

adoptKitStyles(document);
window.worldEditor = new Editor(document.getElementById('editor'));
