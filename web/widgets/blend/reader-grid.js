// ReaderGrid: the downstream reader's answers over the world's sentence variants as a
// table (rows: the subject word, columns: the complement word). Each cell holds two
// marks, "who did the saying?" then "what was said?", each ✓ or ✗ (shape and words, not
// colour alone). The answers come from WorldReader (the core); this only draws them.
import { element } from '../shared/widget-base.js';

export class ReaderGrid {
  /** @param {{ w: object, title: string }} o */
  constructor({ w, title }) {
    this.w = w;
    this.title = title;
    this.count = element('p', { className: 'reader-count' });
    const head = element('tr', {}, [
      element('td', { className: 'corner' }),
      ...w.reader.complements.map((c) => element('th', { scope: 'col', className: 'col-word', textContent: c.word })),
    ]);
    // The lesson's own sentence is one of the variants: outlined, so the grid and the plane
    // (which shows that sentence) are visibly about the same thing.
    const own = (s, c) => s.word === w.tokens[w.subjectIndex] && c.word === w.tokens[w.complementIndex];
    this.cells = w.reader.subjects.map((s) => w.reader.complements.map((c) => element('td', { className: own(s, c) ? 'answer own' : 'answer' })));
    const rows = w.reader.subjects.map((s, i) => element('tr', {}, [
      element('th', { scope: 'row', textContent: s.word }), ...this.cells[i],
    ]));
    this.table = element('table', { className: 'reader' }, [
      element('caption', { className: 'ui-sr-only', textContent: `${title}: the reader’s answers for each sentence` }),
      element('thead', {}, [head]), element('tbody', {}, rows),
    ]);
    const legend = element('p', { className: 'reader-legend' }, ['Row: who said it; column: what was said (outlined: the sentence above). Each cell: ', element('b', { textContent: 'who?' }), ' then ', element('b', { textContent: 'what?' }), ', ✓ right, ✗ wrong.']);
    this.element = element('div', { className: 'reader-box' }, [this.count, legend, this.table]);
  }

  /** Shows one read: { variants, subjectCorrect, complementCorrect, total } from WorldReader. */
  show(read) {
    const { subjects, complements } = this.w.reader;
    for (const v of read.variants) {
      const who = v.whoAnswer === v.subject;
      const what = v.whatAnswer === v.complement;
      const mark = (right, kind, answer, list) => element('span', {
        className: `mark ${kind} ${right ? 'right' : 'wrong'}`,
        title: `${kind === 'who' ? 'Who did the saying' : 'What was said'}: the reader says “${list[answer]?.word ?? 'nothing'}”`,
      }, [
        element('span', { ariaHidden: 'true', textContent: right ? '✓' : '✗' }),
        element('span', { className: 'ui-sr-only', textContent: `${kind === 'who' ? 'who' : 'what'}: ${right ? 'right' : `wrong (reads “${list[answer]?.word ?? 'nothing'}”)`}` }),
      ]);
      const cell = this.cells[v.subject][v.complement];
      cell.replaceChildren(mark(who, 'who', v.whoAnswer, subjects), mark(what, 'what', v.whatAnswer, complements));
      if (cell.classList.contains('own')) cell.append(element('span', { className: 'ui-sr-only', textContent: ' (the sentence above)' }));
    }
    this.count.replaceChildren(
      element('b', { textContent: this.title }), ': ',
      element('span', { className: 'who-count', textContent: `who? ${read.subjectCorrect}/${read.total}` }), ' · ',
      element('span', { className: 'what-count', textContent: `what? ${read.complementCorrect}/${read.total}` }),
    );
  }
}
