// SpectrumChart: singular values as a linear bar chart, largest first, drawn with the kit's
// svg(). Bars that are zero (beyond the core's count of non-zero values) are drawn as a short
// visible tick, and a marker after bar d_k says where "at most d_k" puts the ceiling, so the
// learner sees both the rank and the limit. Brackets under the bars name the non-zero and
// the zero runs in words, so neither colour nor bar height alone carries the meaning.
//
// Geometry only: the values, the count of non-zero values, d_k and every text shown come
// from the caller (the core's results).
import { messagesFor } from '../shared/i18n.js';
import { element } from '../../ui/dom.js';
import { svg } from '../../ui/svg.js';
import { mathText } from '../../ui/notation.js';

const SLOT = 10; // viewBox units per bar; the SVG stretches to the chart's width
const HEIGHT = 100;
const TICK = 3;

export class SpectrumChart {
  constructor({ label, messages = messagesFor('en') }) {
    this.m = messages;
    this.title = svg('title', {}, [label]);
    this.plot = svg('g');
    this.svg = svg('svg', { role: 'img', 'aria-label': label, class: 'spectrum-svg', preserveAspectRatio: 'none' }, [this.title, this.plot]);
    this.scaleLabel = element('p', { className: 'spectrum-scale num' });
    // The ceiling d_k: a line between bar d_k and bar d_k + 1, labelled above the plot.
    this.ceilingLabel = element('span', { className: 'ceiling-label' });
    this.ceiling = element('div', { className: 'ceiling', ariaHidden: 'true' }, [this.ceilingLabel]);
    // Brackets are bare lines; their words sit in a row below (non-zero left, zero right),
    // where they cannot collide however narrow a bracket is.
    this.nonZeroBracket = element('div', { className: 'bracket bracket-nonzero' });
    this.zeroBracket = element('div', { className: 'bracket bracket-zero' });
    this.nonZeroLabel = element('span', { className: 'bracket-label' });
    this.zeroLabel = element('span', { className: 'bracket-label' });
    this.firstIndex = element('span', { className: 'num' });
    this.lastIndex = element('span', { className: 'num' });
    this.element = element('figure', { className: 'spectrum-chart' }, [
      this.scaleLabel,
      element('div', { className: 'spectrum-plot' }, [this.svg, this.ceiling]),
      element('div', { className: 'brackets', ariaHidden: 'true' }, [this.nonZeroBracket, this.zeroBracket]),
      element('div', { className: 'bracket-labels', ariaHidden: 'true' }, [this.nonZeroLabel, this.zeroLabel]),
      element('div', { className: 'spectrum-axis', ariaHidden: 'true' }, [this.firstIndex, this.lastIndex]),
    ]);
  }

  /**
   * @param {number[]} values     singular values, largest first
   * @param {object} options
   * @param {number} options.nonZero   how many of them are non-zero (the core's count)
   * @param {number} options.dK        the head's width: at most this many can be non-zero
   * @param {string} options.scaleText text for the top of the scale (the largest value)
   * @param {string} options.description the chart's accessible description
   */
  draw(values, { nonZero, dK, scaleText, description }) {
    const n = values.length;
    const largest = values.reduce((m, v) => Math.max(m, v), 0) || 1;
    this.svg.setAttribute('viewBox', `0 0 ${n * SLOT} ${HEIGHT}`);
    this.title.textContent = description;
    this.svg.setAttribute('aria-label', description);
    const shapes = [svg('line', { x1: 0, x2: n * SLOT, y1: HEIGHT - 0.5, y2: HEIGHT - 0.5, class: 'baseline' })];
    values.forEach((v, i) => {
      const x = i * SLOT + SLOT * 0.15;
      const width = SLOT * 0.7;
      if (i < nonZero) {
        const h = Math.max(TICK, (v / largest) * (HEIGHT - 4));
        shapes.push(svg('rect', { x, y: HEIGHT - h, width, height: h, class: 'bar' }));
      } else {
        shapes.push(svg('rect', { x, y: HEIGHT - TICK, width, height: TICK, class: 'zero-tick' }));
      }
    });
    this.plot.replaceChildren(...shapes);
    this.scaleLabel.textContent = scaleText;
    // Positions as shares of the chart's width (CSSOM custom properties: CSP-safe).
    const share = (k) => String(k / n);
    this.ceiling.style.setProperty('--at', share(dK));
    this.ceiling.classList.toggle('at-end', dK === n);
    this.ceilingLabel.replaceChildren(...this.m.nodes('headSplitting.chart.ceiling', { dk: mathText('d_k'), value: dK }));
    this.nonZeroBracket.hidden = this.nonZeroLabel.hidden = nonZero === 0;
    this.zeroBracket.hidden = this.zeroLabel.hidden = nonZero === n;
    this.nonZeroBracket.style.setProperty('--w', share(nonZero));
    this.zeroBracket.style.setProperty('--at', share(nonZero));
    this.zeroBracket.style.setProperty('--w', share(n - nonZero));
    this.nonZeroLabel.textContent = this.m.t('headSplitting.chart.nonZero', { count: nonZero });
    this.zeroLabel.textContent = this.m.t('headSplitting.chart.zero', { count: n - nonZero });
    this.firstIndex.textContent = '1';
    this.lastIndex.textContent = String(n);
  }
}
