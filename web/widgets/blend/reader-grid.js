// ReaderGrid: the downstream reader's answers over the world's sentence variants as a
// table (rows: the subject word, columns: the complement word). Each cell holds two
// marks, "who said it?" then "what was said?", each ✓, ✗ or = for a tie (the reader finds
// two words equally similar, so it has no answer: neither right nor wrong), in shape and
// words, not colour alone. The answers come from WorldReader (the core); this only draws them.
import { element } from '../../ui/dom.js';
import { messagesFor } from '../shared/i18n.js';

export class ReaderGrid {
  /** @param {{ w: object, title: string, messages?: import('../shared/i18n.js').Messages }} o */
  constructor({ w, title, messages = messagesFor('en') }) {
    const m = messages;
    this.m = m;
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
      element('caption', { className: 'ui-sr-only', textContent: m.t('blend.reader.caption', { title }) }),
      element('thead', {}, [head]), element('tbody', {}, rows),
    ]);
    const legend = element('p', { className: 'reader-legend' }, m.nodes('blend.reader.legend', {
      who: element('b', { textContent: m.t('blend.reader.who') }), what: element('b', { textContent: m.t('blend.reader.what') }),
    }));
    this.element = element('div', { className: 'reader-box' }, [this.count, legend, this.table]);
    this.shown = new Map(); // "subject complement" -> the answers its cell shows
  }

  /** Shows one read: { variants, subjectCorrect, complementCorrect, total } from WorldReader. */
  show(read) {
    const { subjects, complements } = this.w.reader;
    const { m } = this;
    // Only the cells whose answers changed are rebuilt: a drag on a budget bar calls this
    // on every move, and most moves change no answer (tables are laid out as a whole, so
    // untouched cells also keep the layout cheap).
    for (const v of read.variants) {
      const key = `${v.whoAnswer} ${v.whatAnswer} ${v.whoTie} ${v.whatTie}`;
      const at = `${v.subject} ${v.complement}`;
      if (this.shown.get(at) === key) continue;
      this.shown.set(at, key);
      const mark = (kind, answer, tie, truth, list) => {
        if (tie) {
          const words = m.list(tie.map((j) => `“${list[j].word}”`));
          return element('span', { className: `mark ${kind} tie`, title: m.t(`blend.reader.${kind}TieTitle`, { words }) }, [
            element('span', { ariaHidden: 'true', textContent: '=' }),
            element('span', { className: 'ui-sr-only', textContent: m.t(`blend.reader.${kind}Tie`, { words }) }),
          ]);
        }
        const right = answer === truth;
        const word = list[answer]?.word ?? m.t('blend.reader.nothing');
        return element('span', {
          className: `mark ${kind} ${right ? 'right' : 'wrong'}`,
          title: m.t(`blend.reader.${kind}Title`, { word }),
        }, [
          element('span', { ariaHidden: 'true', textContent: right ? '✓' : '✗' }),
          element('span', { className: 'ui-sr-only', textContent: m.t(right ? `blend.reader.${kind}Right` : `blend.reader.${kind}Wrong`, { word }) }),
        ]);
      };
      const cell = this.cells[v.subject][v.complement];
      cell.replaceChildren(mark('who', v.whoAnswer, v.whoTie, v.subject, subjects), mark('what', v.whatAnswer, v.whatTie, v.complement, complements));
      if (cell.classList.contains('own')) cell.append(element('span', { className: 'ui-sr-only', textContent: m.t('blend.reader.own') }));
    }
    const counts = `${read.subjectCorrect} ${read.complementCorrect} ${read.subjectTies} ${read.complementTies} ${read.total}`;
    if (this.count.dataset.counts === counts) return;
    this.count.dataset.counts = counts;
    // Ties are counted apart: neither among the right answers nor among the wrong ones.
    const count = (kind, right, ties) => m.t(ties ? `blend.reader.${kind}CountTies` : `blend.reader.${kind}Count`, { count: right, total: read.total, ties });
    this.count.replaceChildren(
      element('b', { textContent: this.title }), ': ',
      element('span', { className: 'who-count', textContent: count('who', read.subjectCorrect, read.subjectTies) }), ' · ',
      element('span', { className: 'what-count', textContent: count('what', read.complementCorrect, read.complementTies) }),
    );
  }
}
