// PlaneView: the one head's output as a point among the tokens' meanings. The plane and
// every coordinate come from the core (engine.principalPlane in BlendModel.compute); this
// only maps them to pixels, with the same scale on both axes so distances are honest.
// The frame is fixed by the token points: every output is a weighted average of them, so
// it always falls inside (the projection of a convex combination is a convex combination).
import { svg } from '../../ui/svg.js';
import { element, morphChildren } from '../../ui/dom.js';
import { messagesFor } from '../shared/i18n.js';
import { headClass } from '../shared/world.js';

const WIDTH = 340;
const PAD = { left: 14, right: 84, top: 14, bottom: 14 }; // right: room for word labels

export class PlaneView {
  constructor({ w, oneHead, subjectHead, complementHead, messages = messagesFor('en'), readOnly = false }) {
    const m = messages;
    this.m = m;
    this.w = w;
    this.frame = null;
    this.classes = { one: headClass(oneHead), subject: headClass(subjectHead), complement: headClass(complementHead) };
    this.names = { subject: m.headName(subjectHead), complement: m.headName(complementHead) };
    this.svg = svg('svg', { class: 'plane', role: 'img', width: WIDTH });
    this.tokenLayer = svg('g', { class: 'tokens' });
    this.pointLayer = svg('g', { class: 'points' });
    // The words above the points: a head's output lands near its word (0.9 of the way there)
    // and would cover the word's first letters; each label has a halo of the paper's colour.
    this.labelLayer = svg('g', { class: 'token-labels' });
    this.svg.append(this.tokenLayer, this.pointLayer, this.labelLayer);
    this.explained = element('p', { className: 'sub plane-note' });
    const key = (cls, shape, text) => element('li', {}, [
      svg('svg', { class: `key ${cls}`, width: 22, height: 22, viewBox: '-11 -11 22 22', 'aria-hidden': 'true' }, [shape()]),
      text,
    ]);
    this.legend = element('ul', { className: 'plane-legend' }, [
      key(`one-point ${this.classes.one}`, () => svg('rect', { x: -6, y: -6, width: 12, height: 12, transform: 'rotate(45)' }), m.t(readOnly ? 'blend.plane.oneKeyReadOnly' : 'blend.plane.oneKey')),
      key(`head-point ${this.classes.subject}`, () => svg('circle', { r: 6 }), this.names.subject),
      key(`head-point ${this.classes.complement}`, () => svg('circle', { r: 6 }), this.names.complement),
      key('alt-point', () => svg('circle', { r: 8 }), m.t('blend.plane.altKey')),
    ]);
    this.element = element('figure', { className: 'plane-figure' }, [this.svg, this.legend, this.explained]);
  }

  #layout(tokens) {
    const xs = tokens.map((p) => p[0]);
    const ys = tokens.map((p) => p[1]);
    const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    const scale = (WIDTH - PAD.left - PAD.right) / Math.max(maxX - minX, 1e-6);
    const height = Math.round((maxY - minY) * scale + PAD.top + PAD.bottom);
    this.svg.setAttribute('viewBox', `0 0 ${WIDTH} ${height}`);
    this.svg.setAttribute('height', String(height));
    // y up, as in a maths plot.
    this.frame = { toX: (x) => PAD.left + (x - minX) * scale, toY: (y) => PAD.top + (maxY - y) * scale };
  }

  show(view) {
    const { w } = this;
    const p = view.plane;
    if (!this.frame) {
      this.#layout(p.tokens);
      const { toX, toY } = this.frame;
      const key = new Set([w.subjectIndex, w.complementIndex]);
      const kind = (t) => `token${key.has(t) ? ' key-token' : ''}`;
      this.tokenLayer.replaceChildren(...p.tokens.map(([x, y], t) => svg('g', { class: kind(t), 'data-token': t }, [
        svg('circle', { cx: toX(x), cy: toY(y), r: key.has(t) ? 5 : 3.5 }),
      ])));
      this.labelLayer.replaceChildren(...p.tokens.map(([x, y], t) => svg('g', { class: kind(t) }, [
        svg('text', { x: toX(x) + 7, y: toY(y) + 4 }, [w.tokens[t]]),
      ])));
    }
    const { toX, toY } = this.frame;
    const at = ([x, y]) => `translate(${toX(x).toFixed(2)} ${toY(y).toFixed(2)})`;
    const points = [
      svg('circle', { class: `head-point ${this.classes.subject}`, r: 6, transform: at(p.subject), 'data-point': 'subject' }),
      svg('circle', { class: `head-point ${this.classes.complement}`, r: 6, transform: at(p.complement), 'data-point': 'complement' }),
      svg('g', { class: `one-point ${this.classes.one}`, transform: at(p.one), 'data-point': 'one' }, [
        svg('rect', { x: -7, y: -7, width: 14, height: 14, transform: 'rotate(45)' }),
      ]),
    ];
    if (p.alternative) points.push(svg('circle', { class: 'alt-point', r: 11, transform: at(p.alternative), 'data-point': 'alternative' }));
    morphChildren(this.pointLayer, points); // the points move; their elements stay
    const { m } = this;
    // Coordinates are separated by "; " where the decimal separator is a comma.
    const xy = ([x, y]) => `(${m.number(x)}${m.decimalSeparator === ',' ? '; ' : ', '}${m.number(y)})`;
    this.svg.setAttribute('aria-label', m.t(p.alternative ? 'blend.plane.labelAlt' : 'blend.plane.label', {
      subject: w.tokens[w.subjectIndex], subjectAt: xy(p.tokens[w.subjectIndex]),
      complement: w.tokens[w.complementIndex], complementAt: xy(p.tokens[w.complementIndex]),
      said: w.tokens[w.queryIndex], oneAt: xy(p.one),
      subjectHead: this.names.subject, subjectHeadAt: xy(p.subject), complementHead: this.names.complement, complementHeadAt: xy(p.complement),
    }));
    this.explained.textContent = m.t('blend.plane.explained', { share: m.percent(Math.round(p.explained * 100) / 100, 0) });
  }
}
