// SpectrumChart: singular values as a linear bar chart, largest first. Bars that are zero
// (below the caller's tolerance) are drawn as a short visible tick, and brackets under the
// bars label the non-zero and the zero runs in words, so neither colour nor bar height
// alone carries the meaning.
//
// Geometry only: the values, the count of non-zero values and every text shown come from
// the caller (the core's results).
import { element } from '../shared/widget-base.js';

const SVG = 'http://www.w3.org/2000/svg';
const SLOT = 10; // viewBox units per bar; the SVG stretches to the chart's width
const HEIGHT = 100;
const TICK = 3;

function svg(tag, attributes = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  return node;
}

export class SpectrumChart {
  constructor({ label }) {
    this.svg = svg('svg', { role: 'img', 'aria-label': label, class: 'spectrum-svg', preserveAspectRatio: 'none' });
    this.title = svg('title');
    this.svg.append(this.title);
    this.plot = svg('g');
    this.svg.append(this.plot);
    this.scaleLabel = element('p', { className: 'spectrum-scale num' });
    // Brackets are bare lines; their words sit in a row below (non-zero left, zero right),
    // where they cannot collide however narrow a bracket is.
    this.nonZeroBracket = element('div', { className: 'bracket bracket-nonzero' });
    this.zeroBracket = element('div', { className: 'bracket bracket-zero' });
    this.nonZeroLabel = element('span', { className: 'bracket-label', textContent: '◂ non-zero' });
    this.zeroLabel = element('span', { className: 'bracket-label', textContent: 'zero ▸' });
    this.firstIndex = element('span', { className: 'num' });
    this.lastIndex = element('span', { className: 'num' });
    this.element = element('figure', { className: 'spectrum-chart' }, [
      this.scaleLabel,
      element('div', { className: 'spectrum-plot' }, [this.svg]),
      element('div', { className: 'brackets', ariaHidden: 'true' }, [this.nonZeroBracket, this.zeroBracket]),
      element('div', { className: 'bracket-labels', ariaHidden: 'true' }, [this.nonZeroLabel, this.zeroLabel]),
      element('div', { className: 'spectrum-axis', ariaHidden: 'true' }, [this.firstIndex, this.lastIndex]),
    ]);
  }

  /**
   * @param {number[]} values     singular values, largest first
   * @param {object} options
   * @param {number} options.nonZero   how many of them count as non-zero (the first ones)
   * @param {string} options.className head colour class of the bars
   * @param {string} options.scaleText text for the top of the scale (the largest value)
   * @param {string} options.description the chart's accessible description
   */
  draw(values, { nonZero, className, scaleText, description }) {
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
        shapes.push(svg('rect', { x, y: HEIGHT - h, width, height: h, class: `bar ${className}` }));
      } else {
        shapes.push(svg('rect', { x, y: HEIGHT - TICK, width, height: TICK, class: 'zero-tick' }));
      }
    });
    this.plot.replaceChildren(...shapes);
    this.scaleLabel.textContent = scaleText;
    // Brackets: the first `nonZero` bars, then the rest, as shares of the chart's width.
    const share = (k) => `${(k / n) * 100}%`;
    this.nonZeroBracket.hidden = this.nonZeroLabel.hidden = nonZero === 0;
    this.zeroLabel.hidden = nonZero === n;
    this.nonZeroBracket.style.width = share(nonZero);
    this.zeroBracket.hidden = nonZero === n;
    this.zeroBracket.style.left = share(nonZero);
    this.zeroBracket.style.width = share(n - nonZero);
    this.firstIndex.textContent = '1';
    this.lastIndex.textContent = String(n);
  }
}
