// StackedBars: an SVG chart of a vector drawn as the stacked sum of its parts. For each
// coordinate j, the parts p_1[j], p_2[j], ... stack upwards (positive) and downwards
// (negative) from zero, so the net height is the coordinate's value. Used for "the output
// is a weighted sum of value vectors" and "the output is a sum of head contributions".
//
// Geometry only: every number shown as text comes from the caller (the core's results).
const SVG = 'http://www.w3.org/2000/svg';

function svg(tag, attributes = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  return node;
}

export class StackedBars {
  /**
   * @param {{ label: string, columnLabels: string[], height?: number }} options
   */
  constructor({ label, columnLabels, height = 160 }) {
    this.columnLabels = columnLabels;
    this.height = height;
    this.element = svg('svg', { role: 'img', 'aria-label': label, class: 'stacked-bars' });
    this.title = svg('title');
    this.title.textContent = label;
    this.element.append(this.title);
    this.plot = svg('g');
    this.element.append(this.plot);
  }

  /**
   * @param {{ values: number[], className: string }[]} parts  one entry per part
   * @param {{ scale?: number, totals?: number[], columnClasses?: string[], description?: string }} [options]
   */
  draw(parts, { scale, totals, columnClasses = [], description } = {}) {
    const columns = this.columnLabels.length;
    const columnWidth = 44;
    const gap = 10;
    const width = columns * (columnWidth + gap) + gap;
    const top = 14;
    const bottom = 30;
    const plotHeight = this.height - top - bottom;
    // Scale: the largest stack (up or down) fills half the plot on each side of zero.
    let extent = scale ?? 0;
    if (!scale) {
      for (let j = 0; j < columns; j++) {
        let up = 0, down = 0;
        for (const part of parts) {
          const v = part.values[j];
          if (v > 0) up += v; else down -= v;
        }
        extent = Math.max(extent, up, down);
      }
    }
    extent = extent > 0 ? extent : 1;
    const zero = top + plotHeight / 2;
    const unit = plotHeight / 2 / extent;
    this.element.setAttribute('viewBox', `0 0 ${width} ${this.height}`);
    this.element.setAttribute('width', String(width));
    this.element.setAttribute('height', String(this.height));
    if (description) this.title.textContent = description;
    this.plot.replaceChildren(svg('line', { x1: 0, x2: width, y1: zero, y2: zero, class: 'axis' }));
    for (let j = 0; j < columns; j++) {
      const x = gap + j * (columnWidth + gap);
      let up = 0, down = 0;
      for (const part of parts) {
        const v = part.values[j];
        if (!Number.isFinite(v) || v === 0) continue;
        const h = Math.abs(v) * unit;
        const y = v > 0 ? zero - (up + v) * unit : zero + down * unit;
        if (v > 0) up += v; else down -= v;
        this.plot.append(svg('rect', { x, y, width: columnWidth, height: Math.max(h, 0.5), class: `part ${part.className}` }));
      }
      if (totals) {
        const y = zero - totals[j] * unit;
        this.plot.append(svg('line', { x1: x - 3, x2: x + columnWidth + 3, y1: y, y2: y, class: 'total-mark' }));
      }
      const text = svg('text', { x: x + columnWidth / 2, y: this.height - 10, 'text-anchor': 'middle', class: `column-label ${columnClasses[j] ?? ''}` });
      text.textContent = this.columnLabels[j];
      this.plot.append(text);
    }
  }
}
