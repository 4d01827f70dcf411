// CurveChart: a few lines over one x axis (training steps, or heads removed), drawn with the
// kit's svg(). y runs from 0 to yMax (accuracy: 0 to 1, shown as percentages; loss: 0 to the
// largest loss seen). Each series is a polyline coloured through a CSS custom property
// (--line), set with style.setProperty, which a strict CSP allows; points can be marked.
// The chart's accessible name is its description, which the widget writes from the numbers.
import { messagesFor } from '../shared/i18n.js';
import { svg } from '../../ui/svg.js';

const WIDTH = 320;
const HEIGHT = 150;
const PAD = { left: 40, right: 18, top: 10, bottom: 30 };

export class CurveChart {
  /** xLabel: the x axis's words; percent: y as 0-100 %; dots: a dot at every point. */
  constructor({ title, xLabel, percent = false, dots = false, messages = messagesFor('en') }) {
    this.m = messages;
    this.percent = percent;
    this.dots = dots;
    this.titleNode = svg('title', {}, [title]);
    this.lines = svg('g', { class: 'curve-lines' });
    this.axes = svg('g', { class: 'curve-axes' });
    this.element = svg('svg', {
      viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', class: 'curve-chart', 'aria-label': title,
    }, [this.titleNode, this.axes, this.lines]);
    this.xLabel = xLabel;
    this.clear();
  }

  clear(xMax = 1) {
    this.draw([], { xMax, yMax: 1 });
  }

  /**
   * series: [{ points: [[x, y], …], className, colour (CSS) }]; xMax, yMax: the axes' ends;
   * xTicks: the x values to label (default the two ends); marker: an x to draw a rule at.
   */
  draw(series, { xMax, yMax, xTicks = [0, xMax], marker = null, description = null }) {
    const plotW = WIDTH - PAD.left - PAD.right;
    const plotH = HEIGHT - PAD.top - PAD.bottom;
    const x = (v) => PAD.left + (xMax > 0 ? (v / xMax) * plotW : 0);
    const y = (v) => PAD.top + plotH - (yMax > 0 ? Math.min(1, Math.max(0, v / yMax)) * plotH : 0);
    const yTicks = [0, yMax / 2, yMax];
    const yText = (v) => (this.percent ? this.m.percent(Math.round(v * 100) / 100, 0) : this.m.number(v, yMax < 3 ? 1 : 0));
    // The axes change rarely (a new run, a new scale): rebuilt only then, so that a redraw
    // while training restyles a few polylines, not the whole chart.
    const axesKey = JSON.stringify([xMax, yMax, xTicks, marker, this.xLabel]);
    if (axesKey !== this.axesKey) {
      this.axesKey = axesKey;
      this.#drawAxes({ x, y, yTicks, yText, xTicks, marker, plotW });
    }
    this.#drawLines(series, x, y);
    if (description) {
      this.titleNode.textContent = description;
      this.element.setAttribute('aria-label', description);
    }
  }

  #drawAxes({ x, y, yTicks, yText, xTicks, marker, plotW }) {
    this.axes.replaceChildren(
      ...yTicks.map((v) => svg('line', { class: 'curve-grid', x1: PAD.left, x2: WIDTH - PAD.right, y1: y(v), y2: y(v) })),
      ...yTicks.map((v) => svg('text', { class: 'curve-tick', x: PAD.left - 4, y: y(v) + 4, 'text-anchor': 'end' }, [yText(v)])),
      ...xTicks.map((v) => svg('text', { class: 'curve-tick', x: x(v), y: HEIGHT - PAD.bottom + 14, 'text-anchor': 'middle' }, [this.m.count(v)])),
      svg('text', { class: 'curve-axis-label', x: PAD.left + plotW / 2, y: HEIGHT - 3, 'text-anchor': 'middle' }, [this.xLabel]),
      svg('line', { class: 'curve-axis', x1: PAD.left, x2: WIDTH - PAD.right, y1: y(0), y2: y(0) }),
      ...(marker === null ? [] : [svg('line', { class: 'curve-marker', x1: x(marker), x2: x(marker), y1: PAD.top, y2: y(0) })]),
    );
  }

  #drawLines(series, x, y) {
    this.lines.replaceChildren(...series.map(({ points, className = '', colour }) => {
      const group = svg('g', { class: `curve ${className}`.trim() });
      if (colour) group.style.setProperty('--line', colour);
      if (points.length > 1) {
        group.append(svg('polyline', { points: points.map(([px, py]) => `${x(px).toFixed(1)},${y(py).toFixed(1)}`).join(' ') }));
      }
      if (this.dots || points.length === 1) {
        for (const [px, py] of points) group.append(svg('circle', { cx: x(px).toFixed(1), cy: y(py).toFixed(1), r: 3.5 }));
      }
      return group;
    }));
  }
}
