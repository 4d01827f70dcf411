// MatrixGrid: a rows x cols matrix drawn as a grid of coloured cells (a <table role=grid>).
// Diverging scale (signed entries) by default, or sequential in one hue (Heatmap uses that).
// Optional row / column labels, coloured bands over groups of columns or rows, highlight,
// a "values" mode with the numbers in the cells. setData() recolours in place.
//
// Keyboard: one tab stop (roving tabindex). Arrows / Home / End / Ctrl+Home / Ctrl+End move.
//   Read-only: Enter picks (onPick). Editable: + / - step, Shift (or Alt) for a finer step,
//   PageUp / PageDown a bigger one; Enter or F2 or a digit opens a text field for an exact
//   value (Enter closes it, Escape cancels the edit).
// Pointer (editable): drag a cell up / down to change it; the wheel changes the focused cell.
// The grid never changes a value itself: it proposes through onPropose(row, col, value),
// which returns null (accepted: the widget calls setData) or a message (shown beside).
// An edited cell eases to its new colour (styles.js), except after a small step (+ / -,
// Shift + Up / Down, the wheel) or a drag: those come many a second, as the budget bar's
// small steps do, and each ease would redraw the page for 120 ms (issue 25).
import { element } from './dom.js';
import { messagesFor } from './messages.js';
import { scaleMax, shadeClass, shadeStep, signedFraction, unitFraction } from './colour-scale.js';
import { NumberField } from './number-field.js';
import { columnAt, paintedRingImage, paintedRowImage } from './painted-rows.js';
import { MATRIX_STYLES } from './styles-matrix.js';
import { addKitStyles } from './styles.js';

// Its rules join the kit's sheet as it loads: a widget that does not use it does not carry them.
addKitStyles(MATRIX_STYLES);

const MOVES = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
const DRAG_THRESHOLD = 3;
// A cell's shade step before its first setData (no step: steps run from -100 to 100, colour-scale.js).
const NO_SHADE = 0x7fff;

export class MatrixGrid {
  // The next setData() shows its colours at once (ui-instant): a small step or a drag was proposed.
  #instantNext = false;

  /**
   * @param {object} o  see web/ui/README.md for every option
   */
  constructor(o) {
    const m = o.messages ?? messagesFor('en');
    this.m = m;
    this.o = {
      label: m.t('ui.grid.matrix'), scale: 'diverging', hue: null, max: null, rowLabels: null, colLabels: null,
      rowGroups: [], columnGroups: [], compact: false, readonly: false, onPropose: null, onPick: null,
      limits: { min: -10, max: 10 }, step: 0.1, bigStep: 1, fineStep: 0.01, dragPerPixel: 0.01,
      decimals: 2, valuesMode: false, rowName: null, colName: null, focusable: true, controls: null,
      transposeWhenNarrow: false, paintRows: false, ...o,
    };
    // paintRows: each row one cell painted with the row's colours (painted-rows.js), for
    // compact static overviews; only where nothing is focused or edited cell by cell.
    this.painted = Boolean(this.o.paintRows) && !this.o.focusable && !this.o.onPropose;
    this.rows = 0;
    this.cols = 0;
    this.data = new Float32Array(0);
    this.active = 0;
    this.editor = null;
    // focusable: false makes a static picture (a plain table read in browse mode, no tab stop),
    // for overviews whose values are available elsewhere; it cannot be edited.
    this.table = element('table', { className: 'ui-grid', role: this.o.focusable ? 'grid' : 'table' });
    this.table.setAttribute('aria-label', this.o.label);
    this.readout = element('p', { className: 'ui-readout ui-num', ariaHidden: 'true' });
    this.error = element('p', { className: 'ui-error', role: 'alert' });
    this.live = element('p', { className: 'ui-sr-only', ariaLive: 'polite' });
    this.scroll = element('div', { className: 'ui-scroll' }, [this.table]);
    this.element = element('div', { className: 'ui-kit ui-matrix' }, [this.scroll, this.readout, this.error, this.live]);
    if (this.o.hue) this.element.style.setProperty('--ui-hue', this.o.hue);
    this.element.classList.toggle('ui-sequential', this.o.scale === 'sequential');
    this.element.classList.toggle('ui-compact', this.o.compact);
    // A tall, narrow matrix (12 x 3) lies on its side in a narrow container: the kit's CSS
    // lays the same table out column by column (see styles.js), so a phone shows 3 rows of
    // 12 cells instead of 12 rows of 3. Only the picture turns; rows, columns, names and the
    // accessible grid stay those of the matrix. Not with bands (their spans would not turn).
    this.element.classList.toggle('ui-transpose-narrow', Boolean(this.o.transposeWhenNarrow)
      && !this.o.rowGroups.length && !this.o.columnGroups.length);
    // Long column labels would widen their columns: they are written upwards instead.
    this.element.classList.toggle('ui-rotated', Boolean(this.o.colLabels?.some((t) => String(t).length > 3)));
    this.setReadonly(this.o.readonly);
    this.setValuesMode(this.o.valuesMode);
    if (!this.o.focusable) this.#keepScrollReachable();
    this.#listen();
    if (this.o.data) this.setData(this.o.data, this.o.rows, this.o.cols);
  }

  // A static picture has no tab stop, but when it is wider than its box (a long sentence on a
  // phone) a keyboard user must still reach what is hidden: the box that scrolls becomes a
  // tab stop of its own (a named region; arrow keys scroll it) for as long as it overflows.
  #keepScrollReachable() {
    if (typeof ResizeObserver !== 'function') return;
    const update = () => {
      const overflows = this.scroll.scrollWidth > this.scroll.clientWidth + 1;
      if (overflows === (this.scroll.tabIndex === 0)) return;
      if (overflows) {
        this.scroll.tabIndex = 0;
        this.scroll.setAttribute('role', 'region');
        this.scroll.setAttribute('aria-label', this.m.t('ui.grid.scrollRegion', { label: this.o.label }));
      } else {
        this.scroll.removeAttribute('tabindex');
        this.scroll.removeAttribute('role');
        this.scroll.removeAttribute('aria-label');
      }
    };
    const observer = new ResizeObserver(update);
    observer.observe(this.scroll);
    observer.observe(this.table);
  }

  get editable() {
    return Boolean(this.o.onPropose) && !this.o.readonly && this.o.focusable;
  }

  setReadonly(readonly) {
    this.o.readonly = readonly;
    this.element.classList.toggle('ui-editable', this.editable);
    this.element.classList.toggle('ui-pickable', Boolean(this.o.onPick));
    if (this.o.focusable) this.table.setAttribute('aria-readonly', String(!this.editable));
    if (!this.editable) this.#closeEditor(false);
  }

  setValuesMode(on) {
    this.o.valuesMode = on;
    this.element.classList.toggle('ui-values', on);
    if (on) this.cells?.forEach((cell, k) => this.#showText(cell, k));
  }

  // The number in a cell, shown in values mode: a span made the first time it is shown (and
  // kept). Out of values mode the cell's colour and its aria-label carry the value; a page of
  // maps has thousands of cells, and a hidden span in each was a quarter of the lesson's
  // elements, each built, styled and walked by every query of the page (issue 25).
  #showText(cell, k) {
    if (this.texts[k]) return;
    this.texts[k] = element('span', { className: 'ui-cell-text ui-num', ariaHidden: 'true', textContent: cell.getAttribute('aria-label') ?? '' });
    cell.prepend(this.texts[k]);
  }

  /** New values; the same shape recolours in place (no rebuild, no layout shift). */
  setData(data, rows = this.rows, cols = this.cols) {
    if (data.length !== rows * cols) throw new Error(`MatrixGrid.setData: ${data.length} values for ${rows} x ${cols}`);
    if (rows !== this.rows || cols !== this.cols) this.#build(rows, cols);
    this.data = Float32Array.from(data);
    this.element.classList.toggle('ui-instant', this.#instantNext);
    this.#instantNext = false;
    const max = this.o.max ?? (this.o.scale === 'sequential' ? 1 : scaleMax(this.data));
    if (this.painted) {
      // In double precision, as a cell's: a fraction rounded to float32 could fall on the
      // other side of half a shade step and be drawn one step from the same value's cell.
      this.fractions = Float64Array.from(this.data, (v) => (this.o.scale === 'sequential' ? unitFraction(v / max) : signedFraction(v, max)));
      this.#paintRows(true);
      return;
    }
    // Each cell's shade is a class (colour-scale.js: cells of one shade share one computed
    // style); this.steps keeps the step each cell shows.
    this.cells.forEach((cell, k) => {
      const v = this.data[k];
      const step = shadeStep(this.o.scale === 'sequential' ? unitFraction(v / max) : signedFraction(v, max));
      if (this.steps[k] !== step) {
        if (this.steps[k] === NO_SHADE) cell.classList.add(shadeClass(step));
        else cell.classList.replace(shadeClass(this.steps[k]), shadeClass(step));
        this.steps[k] = step;
      }
      const text = this.m.number(v, this.o.decimals);
      if (cell.getAttribute('aria-label') !== text) {
        cell.setAttribute('aria-label', text);
        if (this.texts[k]) this.texts[k].textContent = text;
      }
    });
    this.editor?.field.setValue(this.data[this.editor.k]);
    this.#updateReadout();
  }

  /** Dims everything but the given rows, columns and [row, col] cells; null clears. */
  highlight(spec) {
    const { rows = [], cols = [], cells = [] } = spec ?? {};
    const on = Boolean(spec) && (rows.length + cols.length + cells.length > 0);
    this.table.classList.toggle('ui-dimmed', on);
    const lit = new Set(cells.map(([r, c]) => r * this.cols + c));
    if (this.painted) {
      this.lit = on ? (r, c) => rows.includes(r) || cols.includes(c) || lit.has(r * this.cols + c) : null;
      this.ringed = on && lit.size ? (r, c) => lit.has(r * this.cols + c) : null;
      this.#paintRows();
    }
    this.cells.forEach((cell, k) => {
      const r = Math.floor(k / this.cols);
      const c = k % this.cols;
      cell.classList.toggle('ui-lit', on && (rows.includes(r) || cols.includes(c) || lit.has(k)));
    });
    this.rowHeaders.forEach((th, r) => th?.classList.toggle('ui-lit', on && rows.includes(r)));
    this.colHeaders.forEach((th, c) => th?.classList.toggle('ui-lit', on && cols.includes(c)));
  }

  /**
   * The matrix cell under a pointer event ({ row, col }), or null: a cell, or a painted row
   * (the column from where the pointer is along it). For widgets that pick or explain what
   * is under the pointer in a static overview.
   */
  cellAt(event) {
    const target = event.target?.closest?.('.ui-cell, .ui-cell-row');
    if (!target || !this.table.contains(target)) return null;
    const row = Number(target.dataset.row);
    if (!target.classList.contains('ui-cell-row')) return { row, col: Number(target.dataset.col) };
    const box = target.getBoundingClientRect();
    const col = columnAt(event.clientX - box.left, box.width, this.cols);
    return col === null ? null : { row, col };
  }

  // Painted rows: each row's background from its values and the highlight, written only
  // where it changed; the row cell's name lists the row's values (a cell's aria-label, in
  // one), and data-lit the lit columns (what the dimming shows, for tests and tools).
  // A row's images depend on its values and on which of its columns are dimmed and ringed;
  // its name on its values alone. A highlight (a new word or head in the layer: seven grids
  // at once) leaves the values as they are, so only the rows whose dimming or rings changed
  // are drawn again, and no name is formatted again (`newData`: setData's call).
  #paintRows(newData = false) {
    if (!this.fractions) return;
    const { cols } = this;
    const sequential = this.o.scale === 'sequential';
    const each = (test, r) => (test ? Array.from({ length: cols }, (_, c) => test(r, c)) : null);
    if (newData) this.looks = [];
    this.rowPaints.forEach((td, r) => {
      const lit = each(this.lit, r); // null: nothing dimmed
      const rings = each(this.ringed, r)?.includes(true) ? each(this.ringed, r) : null;
      const litText = lit ? lit.flatMap((on, c) => (on ? [String(c)] : [])).join(' ') : 'all';
      const look = `${litText}|${rings ? rings.map(Number).join('') : ''}`;
      if (this.looks[r] !== look) {
        this.looks[r] = look;
        const image = paintedRowImage(this.fractions.subarray(r * cols, (r + 1) * cols), {
          sequential, dimmed: (c) => Boolean(lit) && !lit[c], ringed: (c) => Boolean(rings?.[c]),
        });
        if (this.images[r] !== image) {
          this.images[r] = image;
          td.style.setProperty('--ui-row-paint', image);
        }
        const ring = rings ? paintedRingImage(cols, (c) => rings[c]) : 'none';
        if (this.rings[r] !== ring) {
          this.rings[r] = ring;
          td.style.setProperty('--ui-row-ring', ring);
        }
        if (td.dataset.lit !== litText) td.dataset.lit = litText;
      }
      if (!newData) return;
      const label = Array.from(this.data.subarray(r * cols, (r + 1) * cols), (v) => this.m.number(v, this.o.decimals)).join('; ');
      if (td.getAttribute('aria-label') !== label) td.setAttribute('aria-label', label);
    });
  }

  /** Moves the tab stop (and focus, if asked) to a cell. */
  focusCell(r, c, focus = true) {
    if (!this.o.focusable) return;
    const k = Math.max(0, Math.min(this.rows - 1, r)) * this.cols + Math.max(0, Math.min(this.cols - 1, c));
    this.cells[this.active].tabIndex = -1;
    this.active = k;
    this.cells[k].tabIndex = 0;
    if (focus) this.cells[k].focus();
    this.#updateReadout();
  }

  /** Shows (or clears, with '') a message beside the grid. */
  showError(message) {
    this.error.textContent = message ?? '';
  }

  /** The words for a cell: "row “it”, column 2". */
  cellName(r, c) {
    const { m } = this;
    const row = this.o.rowName?.(r) ?? (this.o.rowLabels ? m.t('ui.grid.rowToken', { label: this.o.rowLabels[r] }) : m.t('ui.grid.rowNumber', { number: r + 1 }));
    const column = this.o.colName?.(c) ?? (this.o.colLabels ? m.t('ui.grid.columnToken', { label: this.o.colLabels[c] }) : m.t('ui.grid.columnNumber', { number: c + 1 }));
    return m.t('ui.grid.cellName', { row, column });
  }

  // ---- building ------------------------------------------------------------------------

  #build(rows, cols) {
    this.#closeEditor(false);
    this.rows = rows;
    this.cols = cols;
    const { rowLabels, colLabels, rowGroups, columnGroups } = this.o;
    const lead = (rowGroups.length ? 1 : 0) + (rowLabels ? 1 : 0);
    const spacer = () => element('td', { className: 'ui-spacer' });
    const head = [];
    if (columnGroups.length) {
      const cellsOfBand = [];
      for (let c = 0; c < cols;) {
        const group = columnGroups.find((g) => g.start === c);
        if (group) {
          const th = element('th', { scope: 'colgroup', colSpan: group.end - group.start, className: 'ui-band-label' }, [
            group.label ?? '', element('span', { className: 'ui-band-bar' }),
          ]);
          th.lastChild.style.setProperty('--band', group.colour);
          cellsOfBand.push(th);
          c = group.end;
        } else {
          cellsOfBand.push(spacer());
          c += 1;
        }
      }
      head.push(element('tr', { className: 'ui-band-row' }, [...Array.from({ length: lead }, spacer), ...cellsOfBand]));
    }
    this.colHeaders = [];
    if (colLabels) {
      this.colHeaders = colLabels.map((text) => element('th', { scope: 'col', className: 'ui-col-label', textContent: text }));
      head.push(element('tr', {}, [...Array.from({ length: lead }, spacer), ...this.colHeaders]));
    }
    this.cells = [];
    this.texts = []; // each cell's number, once shown (#showText)
    this.rowHeaders = [];
    this.rowElements = [];
    this.rowPaints = [];
    this.images = []; // each painted row's background and ring, as last written
    this.rings = [];
    this.looks = []; // each painted row's dimmed and ringed columns, as last drawn
    const body = Array.from({ length: rows }, (_, r) => {
      const tr = element('tr', { dataset: { row: String(r) } });
      if (rowGroups.length) {
        const group = rowGroups.find((g) => g.start === r);
        const inside = rowGroups.some((g) => r > g.start && r < g.end);
        if (group) {
          const th = element('th', { scope: 'rowgroup', rowSpan: group.end - group.start, className: 'ui-row-band-label' }, [
            element('span', { className: 'ui-row-band-text', textContent: group.label ?? '' }),
            element('span', { className: 'ui-band-bar ui-band-bar-v' }),
          ]);
          th.lastChild.style.setProperty('--band', group.colour);
          tr.append(th);
        } else if (!inside) tr.append(spacer());
      }
      if (rowLabels) {
        const th = element('th', { scope: 'row', className: 'ui-row-label', textContent: rowLabels[r], dataset: { row: String(r) } });
        this.rowHeaders.push(th);
        tr.append(th);
      }
      this.#appendValues(tr, r, cols);
      this.rowElements.push(tr);
      return tr;
    });
    this.table.replaceChildren(...(head.length ? [element('thead', {}, head)] : []), element('tbody', {}, body));
    this.steps = new Int16Array(this.cells.length).fill(NO_SHADE); // each cell's shade step, as drawn
    // Turned on its side, the table becomes a grid filled column by column: one grid row per
    // matrix column, plus one for the column labels.
    this.table.style.setProperty('--ui-turned-rows', String(cols + (colLabels ? 1 : 0)));
    this.table.style.setProperty('--ui-cols', String(cols)); // a painted row's bands (styles-matrix.js)
    this.active = Math.min(this.active, rows * cols - 1);
    if (this.o.focusable) this.cells[this.active].tabIndex = 0;
  }

  // Row r's values: one cell each, or one painted cell for the row (paintRows).
  #appendValues(tr, r, cols) {
    if (this.painted) {
      const td = element('td', { className: 'ui-cell-row', colSpan: cols, dataset: { row: String(r) } });
      this.rowPaints.push(td);
      tr.append(td);
      return;
    }
    for (let c = 0; c < cols; c++) {
      const cell = element('td', { className: 'ui-cell', ...(this.o.focusable ? { tabIndex: -1 } : {}), dataset: { row: String(r), col: String(c) } });
      // The figures an edit or a pick changes (ids in the same root), for the widget.
      if (this.o.controls) cell.setAttribute('aria-controls', this.o.controls);
      this.cells.push(cell);
      if (this.o.valuesMode) this.#showText(cell, this.cells.length - 1);
      tr.append(cell);
    }
  }

  /** True while the narrow-container CSS shows the matrix on its side. */
  #turned() {
    return this.element.classList.contains('ui-transpose-narrow') && getComputedStyle(this.table).display === 'grid';
  }

  #updateReadout() {
    const k = this.active;
    if (!this.cells?.[k]) return;
    const r = Math.floor(k / this.cols);
    const c = k % this.cols;
    this.readout.textContent = this.m.t('ui.grid.readout', { cell: this.cellName(r, c), value: this.m.number(this.data[k], this.o.decimals) });
  }

  // ---- interaction -----------------------------------------------------------------------

  #cellOf(target) {
    const cell = target?.closest?.('.ui-cell');
    return cell && this.table.contains(cell) ? cell : null;
  }

  #listen() {
    this.table.addEventListener('focusin', (event) => {
      const cell = this.#cellOf(event.target);
      if (cell && cell === event.target) this.focusCell(Number(cell.dataset.row), Number(cell.dataset.col), false);
    });
    this.table.addEventListener('keydown', (event) => this.#key(event));
    this.table.addEventListener('wheel', (event) => {
      const cell = this.#cellOf(event.target);
      if (!this.editable || !cell || !cell.matches(':focus')) return;
      event.preventDefault();
      this.#step(Number(cell.dataset.row), Number(cell.dataset.col), (event.deltaY < 0 ? 1 : -1) * (event.shiftKey ? this.o.fineStep : this.o.step));
    }, { passive: false });
    this.table.addEventListener('click', (event) => {
      const label = event.target.closest?.('.ui-row-label');
      if (!label || !this.o.onPick) return;
      const r = Number(label.dataset.row);
      this.focusCell(r, this.active % this.cols); // the keys carry on from the picked row
      this.o.onPick(r, null);
    });
    let drag = null;
    this.table.addEventListener('pointerdown', (event) => {
      const cell = this.#cellOf(event.target);
      if (!cell || (event.pointerType === 'mouse' && event.button !== 0)) return;
      const r = Number(cell.dataset.row);
      const c = Number(cell.dataset.col);
      this.focusCell(r, c, false);
      if (this.o.focusable) cell.focus({ preventScroll: true });
      if (!this.editable) {
        drag = { cell, r, c, moved: false, pick: true };
        return;
      }
      event.preventDefault(); // no text selection, no focus loss
      cell.setPointerCapture(event.pointerId);
      drag = { cell, r, c, y: event.clientY, start: this.data[r * this.cols + c], moved: false, id: event.pointerId };
    });
    this.table.addEventListener('pointermove', (event) => {
      if (!drag || drag.pick || event.pointerId !== drag.id) return;
      const dy = event.clientY - drag.y;
      if (!drag.moved && Math.abs(dy) < DRAG_THRESHOLD) return;
      drag.moved = true;
      const value = drag.start - dy * this.o.dragPerPixel;
      drag.error = this.#propose(drag.r, drag.c, value, false, { instant: true });
    });
    const end = (event) => {
      if (!drag) return;
      const { r, c, moved, pick } = drag;
      drag = null;
      if (event.type === 'pointercancel') return;
      if (moved) this.#announce(r, c);
      else if (this.o.onPick && (pick || !moved)) this.o.onPick(r, c);
    };
    this.table.addEventListener('pointerup', end);
    this.table.addEventListener('pointercancel', end);
  }

  #key(event) {
    if (this.editor && this.editor.host.contains(event.target)) return; // the field handles its keys
    const cell = this.#cellOf(event.target);
    if (!cell) return;
    const r = Number(cell.dataset.row);
    const c = Number(cell.dataset.col);
    const move = MOVES[event.key];
    const fine = event.altKey || (event.shiftKey && event.key !== '+');
    if (move && !(event.shiftKey && this.editable && move[1] === 0)) {
      event.preventDefault();
      // Arrows follow the picture: on its side, Right moves down the matrix, Down along it.
      const [dr, dc] = this.#turned() ? [move[1], move[0]] : move;
      this.focusCell(r + dr, c + dc);
      return;
    }
    let delta = null;
    if (event.key === 'Home') return this.#go(event, event.ctrlKey ? 0 : r, 0);
    if (event.key === 'End') return this.#go(event, event.ctrlKey ? this.rows - 1 : r, this.cols - 1);
    if (event.key === 'Enter' && !this.editable) {
      if (this.o.onPick) { event.preventDefault(); this.o.onPick(r, c); }
      return;
    }
    if (!this.editable) return;
    if (['+', '='].includes(event.key) || event.code === 'NumpadAdd') delta = fine ? this.o.fineStep : this.o.step;
    else if (['-', '_'].includes(event.key) || event.code === 'NumpadSubtract') delta = -(fine ? this.o.fineStep : this.o.step);
    else if (event.key === 'PageUp') delta = this.o.bigStep;
    else if (event.key === 'PageDown') delta = -this.o.bigStep;
    else if (move && event.shiftKey) delta = -move[0] * this.o.fineStep; // Shift + Up / Down
    if (delta !== null) {
      event.preventDefault();
      this.#step(r, c, delta);
      return;
    }
    if (event.key === 'Enter' || event.key === 'F2') {
      event.preventDefault();
      this.#openEditor(r, c, null);
    } else if ((/^[0-9.]$/.test(event.key) || event.key === this.m.decimalSeparator) && !event.ctrlKey && !event.metaKey && !event.altKey) {
      // A point opens the field in every language (in German it then says to use a comma).
      event.preventDefault();
      this.#openEditor(r, c, event.key);
    }
  }

  #go(event, r, c) {
    event.preventDefault();
    this.focusCell(r, c);
  }

  // A key or wheel step: shown at once unless it is a big one (PageUp / PageDown).
  #step(r, c, delta) {
    this.#propose(r, c, this.data[r * this.cols + c] + delta, true, { instant: Math.abs(delta) < this.o.bigStep });
  }

  /** Rounds to the fine step, clamps to the limits, proposes; returns the refusal or null. */
  #propose(r, c, raw, announce, { instant = false } = {}) {
    const { limits, fineStep } = this.o;
    let value = Math.round(raw / fineStep) * fineStep;
    value = Math.round(value * 1e6) / 1e6;
    value = Math.max(limits.min, Math.min(limits.max, Object.is(value, -0) ? 0 : value));
    this.#instantNext = instant;
    const refusal = this.#proposeExact(r, c, value, announce);
    if (refusal) this.#instantNext = false; // nothing was committed: the next setData is another edit's
    return refusal;
  }

  #proposeExact(r, c, value, announce) {
    const refusal = this.o.onPropose(r, c, value) ?? null;
    const cell = this.cells[r * this.cols + c];
    if (refusal) {
      cell.setAttribute('aria-invalid', 'true');
      this.showError(refusal);
    } else {
      cell.removeAttribute('aria-invalid');
      this.showError('');
      if (announce) this.#announce(r, c);
    }
    this.#updateReadout();
    return refusal;
  }

  #announce(r, c) {
    this.live.textContent = this.m.t('ui.grid.isNow', { cell: this.cellName(r, c), value: this.m.number(this.data[r * this.cols + c], this.o.decimals) });
  }

  #openEditor(r, c, typed) {
    this.#closeEditor(false);
    const k = r * this.cols + c;
    const original = this.data[k];
    const { limits, decimals } = this.o;
    const field = new NumberField({
      label: this.m.t('ui.grid.exactLabel', { cell: this.cellName(r, c) }), hideLabel: true, value: original, messages: this.m,
      min: limits.min, max: limits.max, decimals: Math.max(decimals, 2),
      onPropose: (v) => this.#proposeExact(r, c, v, false),
      onEnter: () => { this.#announce(r, c); this.#closeEditor(true); },
      onEscape: () => {
        if (this.data[k] !== original) this.#proposeExact(r, c, original, true);
        this.#closeEditor(true);
      },
    });
    const host = element('div', { className: 'ui-cell-editor' }, [field.element]);
    this.cells[k].append(host);
    this.editor = { k, field, host };
    host.addEventListener('focusout', (event) => {
      if (!host.contains(event.relatedTarget)) queueMicrotask(() => this.editor?.host === host && this.#closeEditor(false));
    });
    field.focus(typed === null);
    if (typed !== null) field.type(typed);
  }

  #closeEditor(refocus) {
    if (!this.editor) return;
    const { k, host } = this.editor;
    this.editor = null;
    host.remove();
    if (refocus) this.cells[k]?.focus();
  }
}
