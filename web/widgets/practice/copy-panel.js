// "Your copy": the progress summary (done and left, per idea) and the copy's controls:
// export (a JSON file), import (strictly checked; a bad file changes nothing and says why;
// a good one can be taken back), start over (asks first). Shown by <mha-practice> without
// an `idea` attribute.
import { element, setText } from '../../ui/dom.js';
import { messagesFor } from '../shared/i18n.js';
import { MAX_FILE_BYTES } from '../shared/learner-copy.js';
import { notation } from '../../ui/notation.js';
import { IDEAS, PROBLEM_IDS, ideaTitle, practiceLanguage, problemsFor } from './practice-data.js';

// UI strings of this file: practice.copy.* in the message files (lessons/multiple-heads/locales/),
// in the language of the <mha-practice> element that shows the panel.
function textFor(m) {
  const t = (key, params) => m.t(`practice.copy.${key}`, params);
  return {
    about: t('about'),
    total: (done, total) => t('total', { done, total }),
    // An idea's title is the lesson's text: in the UI's language where translated, else
    // English marked as such.
    idea: (title, done, total) => m.nodes('practice.copy.idea', {
      title: practiceLanguage(m.locale) === m.locale ? notation(title) : element('span', { lang: practiceLanguage(m.locale) }, notation(title)), done, total,
    }),
    left: (numbers) => t('left', { count: numbers.length, numbers: numbers.join(', ') }),
    export: t('export'),
    import: t('import'),
    startOver: t('startOver'),
    confirm: t('confirm'),
    yes: t('yes'),
    no: t('no'),
    cleared: t('cleared'),
    kept: t('kept'),
    imported: (done, total) => t('imported', { done, total }),
    undoImport: t('undoImport'),
    undone: t('undone'),
    fileName: FILE_NAME,
    exported: t('exported', { file: FILE_NAME }),
    exportAside: (count) => t('exportAside', { count }),
    exportedAside: (names) => t('exportedAside', { count: names.length, file: m.list(names) }),
    unreadableFile: (why) => t('unreadableFile', { why }),
    tooBig: (kb) => t('tooBig', { kb, max: MAX_FILE_BYTES / 1024 }),
    refused: (message) => t('refused', { message }),
  };
}
const FILE_NAME = 'multiple-heads-my-copy.json';
// The newest copy kept aside, then the older ones (-2, -3).
const asideFileName = (k) => `multiple-heads-copy-kept-aside${k === 0 ? '' : `-${k + 1}`}.json`;

export function copyPanel(session, m = messagesFor('en')) {
  const TEXT = textFor(m);
  const { copy } = session;
  const ui = copyElements(TEXT);
  const say = (text) => { ui.message.textContent = text; };
  const refresh = progressRefresher(copy, ui, TEXT, m);
  wireExport(copy, ui, TEXT, say);
  wireImport(session, ui, TEXT, say, m);
  wireStartOver(session, ui, TEXT, say);
  copy.addEventListener('change', refresh);
  copy.addEventListener('message', (event) => say(event.detail));
  refresh();

  // One line until opened, like the practice blocks (a phone's page must not grow); the
  // notice that nothing is kept stays outside, always visible.
  const details = element('details', { className: 'practice copy-panel' }, [
    element('summary', { className: 'practice-summary' }, [ui.total]),
    element('p', { className: 'about', textContent: TEXT.about }),
    ui.list,
    element('div', { className: 'toolbar' }, [ui.exportButton, ui.importButton, ui.startOver, ui.undo]),
    ui.file, ui.confirm, ui.message,
  ]);
  return element('section', { className: 'copy' }, [ui.notice, details]);
}

/** The panel's elements, not yet wired (copyPanel puts them in place). */
function copyElements(TEXT) {
  const noticeText = element('span');
  // The copy kept aside (a saved copy that could not be read whole) can be taken as a file
  // from the notice itself: nothing the learner did is out of their reach.
  const asideButton = element('button', { type: 'button', className: 'secondary', hidden: true });
  const notice = element('p', { className: 'notice', role: 'status', hidden: true }, [noticeText, ' ', asideButton]);
  const total = element('span', { className: 'progress-total' });
  const list = element('ul', { className: 'progress-list' });
  const message = element('p', { className: 'feedback message', role: 'status' });
  const exportButton = element('button', { type: 'button', textContent: TEXT.export });
  const file = element('input', { type: 'file', accept: 'application/json,.json', hidden: true, tabIndex: -1 });
  file.setAttribute('aria-label', TEXT.import);
  const importButton = element('button', { type: 'button', className: 'secondary', textContent: TEXT.import });
  const startOver = element('button', { type: 'button', className: 'secondary', textContent: TEXT.startOver });
  const undo = element('button', { type: 'button', className: 'secondary', textContent: TEXT.undoImport, hidden: true });
  const yes = element('button', { type: 'button', textContent: TEXT.yes });
  const no = element('button', { type: 'button', className: 'secondary', textContent: TEXT.no });
  const confirm = element('div', { className: 'confirm', role: 'group', hidden: true }, [element('p', { textContent: TEXT.confirm }), element('div', { className: 'toolbar' }, [yes, no])]);
  confirm.setAttribute('aria-label', TEXT.startOver);
  return { noticeText, asideButton, notice, total, list, message, exportButton, file, importButton, startOver, undo, yes, no, confirm };
}

// Runs on every change of the copy, which includes every widget edit: the list is
// rebuilt only when some idea's progress moved.
function progressRefresher(copy, ui, TEXT, m) {
  let shownProgress = '';
  return () => {
    ui.notice.hidden = !copy.notice;
    setText(ui.noticeText, copy.noticeIn(m) ?? '');
    const asides = copy.asideTexts().length;
    ui.asideButton.hidden = asides === 0;
    if (asides) setText(ui.asideButton, TEXT.exportAside(asides));
    const progress = copy.progress(PROBLEM_IDS);
    setText(ui.total, TEXT.total(progress.done, progress.total));
    const perIdea = IDEAS.map((idea) => copy.progress(problemsFor(idea.id).map((p) => p.id)));
    const signature = JSON.stringify(perIdea.map((p) => [p.done, p.left]));
    if (signature !== shownProgress) {
      shownProgress = signature;
      ui.list.replaceChildren(...IDEAS.map((idea, k) => {
        const ids = problemsFor(idea.id).map((p) => p.id);
        const p = perIdea[k];
        // Problems are named by their numbers in the idea's block ("1. …").
        const left = p.left.length && p.left.length < ids.length ? TEXT.left(p.left.map((id) => ids.indexOf(id) + 1)) : '';
        return element('li', { className: p.done === p.total ? 'all-done' : '' }, [...TEXT.idea(ideaTitle(idea.id, m.locale), p.done, p.total), left]);
      }));
    }
    ui.undo.hidden = !copy.canUndoImport;
  };
}

function download(text, name) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = element('a', { href: url, download: name });
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

// Export: the copy as a file; from the notice, the copies kept aside, one file each.
function wireExport(copy, ui, TEXT, say) {
  ui.exportButton.addEventListener('click', () => {
    download(copy.exportText(), TEXT.fileName);
    say(TEXT.exported);
  });
  ui.asideButton.addEventListener('click', () => {
    const texts = copy.asideTexts();
    if (texts.length === 0) return;
    texts.forEach((text, k) => download(text, asideFileName(k)));
    say(TEXT.exportedAside(texts.map((text, k) => asideFileName(k))));
  });
}

// Import: a file checked strictly (a bad one changes nothing and says why), and taking a
// good one back.
function wireImport(session, ui, TEXT, say, m) {
  const { copy } = session;
  const { file } = ui;
  ui.importButton.addEventListener('click', () => file.click());
  file.addEventListener('change', async () => {
    const chosen = file.files?.[0];
    file.value = '';
    if (!chosen) return;
    let text;
    try {
      // A file larger than any copy is refused unread.
      if (chosen.size > MAX_FILE_BYTES) {
        say(TEXT.refused(TEXT.tooBig(Math.ceil(chosen.size / 1024))));
        return;
      }
      text = await chosen.text();
    } catch (error) {
      say(TEXT.unreadableFile(error.message));
      return;
    }
    const result = copy.importText(text, m);
    if (!result.ok) {
      say(TEXT.refused(result.message));
      return;
    }
    session.widgets.apply();
    const p = copy.progress(PROBLEM_IDS);
    say(TEXT.imported(p.done, p.total));
  });
  ui.undo.addEventListener('click', () => {
    copy.undoImport();
    session.widgets.apply();
    say(TEXT.undone);
    ui.startOver.focus();
  });
}

// Start over asks first; "no" keeps the copy.
function wireStartOver(session, ui, TEXT, say) {
  const { startOver, confirm, yes, no } = ui;
  startOver.addEventListener('click', () => {
    confirm.hidden = false;
    no.focus();
  });
  no.addEventListener('click', () => {
    confirm.hidden = true;
    say(TEXT.kept);
    startOver.focus();
  });
  yes.addEventListener('click', () => {
    confirm.hidden = true;
    session.copy.startOver();
    session.widgets.reset();
    say(TEXT.cleared);
    startOver.focus();
  });
}
