// StackedBars: an SVG chart of a vector drawn as the stacked sum of its parts. For each
// coordinate j, the parts p_1[j], p_2[j], ... stack upwards (positive) and downwards
// (negative) from zero, so the net height is the coordinate's value. Used for "the output
// is a weighted sum of value vectors" and "the output is a sum of head contributions".
//
// Geometry only: every number shown as text comes from the caller (the core's results).
// Colours: each part has a class (e.g. 'head-a') and/or a CSS colour (`colour`), which is
// set as the custom property --part (CSP-safe) and used by the kit's stylesheet.
import { morphChildren } from './dom.js';
import { svg } from './svg.js';
import { STACKED_STYLES } from './styles-stacked.js';
import { addKitStyles } from './styles.js';

// Its rules join the kit's sheet as it loads: a widget that does not use it does not carry them.
addKitStyles(STACKED_STYLES);

const COLUMN_WIDTH = 44;
const GAP = 10;
const TOP = 14;
const BOTTOM = 30;

/** The extent (largest stack up or down over the columns); 1 when everything is 0. */
export function stackExtent(parts, columns) {
  let extent = 0;
  for (let j = 0; j < columns; j++) {
    let up = 0;
    let down = 0;
    for (const part of parts) {
      const v = part.values[j];
      if (!Number.isFinite(v)) continue;
      if (v > 0) up += v; else down -= v;
    }
    extent = Math.max(extent, up, down);
  }
  return extent > 0 ? extent : 1;
}

export class StackedBars {
  /**
   * @param {{ label: string, columnLabels: string[], height?: number, columnWidth?: number, gap?: number }} options
   *   columnWidth and gap in SVG units (default 44 and 10): narrow for many columns, wide for long labels
   */
  constructor({ label, columnLabels, height = 160, columnWidth = COLUMN_WIDTH, gap = GAP }) {
    this.columnLabels = columnLabels;
    this.height = height;
    this.columnWidth = columnWidth;
    this.gap = gap;
    this.title = svg('title', {}, [label]);
    this.plot = svg('g');
    this.element = svg('svg', { role: 'img', 'aria-label': label, class: 'ui-stacked' }, [this.title, this.plot]);
  }

  /**
   * @param {{ values: number[], className?: string, colour?: string }[]} parts  one entry per part
   * @param {{ scale?: number, totals?: number[], columnClasses?: string[], description?: string }} [options]
   */
  draw(parts, { scale, totals, columnClasses = [], description } = {}) {
    const columns = this.columnLabels.length;
    const { columnWidth, gap } = this;
    const width = columns * (columnWidth + gap) + gap;
    const plotHeight = this.height - TOP - BOTTOM;
    const extent = scale > 0 ? scale : stackExtent(parts, columns);
    const zero = TOP + plotHeight / 2;
    const unit = plotHeight / 2 / extent;
    this.element.setAttribute('viewBox', `0 0 ${width} ${this.height}`);
    this.element.setAttribute('width', String(width));
    this.element.setAttribute('height', String(this.height));
    if (description) {
      this.title.textContent = description;
      this.element.setAttribute('aria-label', description);
    }
    const shapes = [svg('line', { x1: 0, x2: width, y1: zero, y2: zero, class: 'ui-axis' })];
    for (let j = 0; j < columns; j++) {
      const x = gap + j * (columnWidth + gap);
      let up = 0;
      let down = 0;
      for (const part of parts) {
        const v = part.values[j];
        if (!Number.isFinite(v) || v === 0) continue;
        const h = Math.abs(v) * unit;
        const y = v > 0 ? zero - (up + v) * unit : zero + down * unit;
        if (v > 0) up += v; else down -= v;
        const rect = svg('rect', { x, y, width: columnWidth, height: Math.max(h, 0.5), class: `ui-part ${part.className ?? ''}` });
        if (part.colour) rect.style.setProperty('--part', part.colour);
        shapes.push(rect);
      }
      if (totals && Number.isFinite(totals[j])) {
        const y = zero - totals[j] * unit;
        shapes.push(svg('line', { x1: x - 3, x2: x + columnWidth + 3, y1: y, y2: y, class: 'ui-total-mark' }));
      }
      shapes.push(svg('text', { x: x + columnWidth / 2, y: this.height - 10, 'text-anchor': 'middle', class: `ui-column-label ${columnClasses[j] ?? ''}` }, [this.columnLabels[j]]));
    }
    // Drawn over the last drawing (dom.js): the shapes already in place move, rather than
    // every bar, mark and label being made, styled and laid out again on each redraw (W_O
    // mixing redraws its charts on every step of a cell).
    morphChildren(this.plot, shapes);
  }
}
