// A floor under an element's height: hold() keeps it at least as tall as it was last laid
// out (it may grow, it does not shrink), release() lets it go. The height is the one a
// ResizeObserver reported after the last layout, so holding reads no layout.
//
// Why the layer holds its height while the learner switches h (issue 25): each h has a map
// of another height (1,333, 1,354 and 1,572 px at 1000 px) and a heads row of 1, 2 or 4
// chips, so every switch moved the whole lesson below the layer. Moving it is costly for
// the browser: Chromium updates the paint offset of every layout object below and paints
// them again (traced at 4x CPU, 8 switches: pre-paint per switch 38 ms with the lesson
// below, 7 without it; with this floor 26.9 / 25.5 -> 16.1 / 19.8 ms, bench/README.md), and
// a reader looking further down saw the page jump. Held, the lesson below moves only when a
// switch makes the layer taller than it has been; a shorter map leaves blank space under
// it, inside the widget.
export class HeightFloor {
  #element;
  #observer = null;
  #height = 0;
  #width = 0;

  constructor(element) {
    this.#element = element;
    if (typeof ResizeObserver !== 'function') return;
    this.#observer = new ResizeObserver(([entry]) => {
      const box = entry.borderBoxSize?.[0];
      const [width, height] = box ? [box.inlineSize, box.blockSize] : [entry.contentRect.width, entry.contentRect.height];
      if (width === 0 && height === 0) return; // not displayed (hidden, or out of the page)
      // Another width (a turned phone, a resized window, zoom) wraps everything anew: the
      // height held at the old width means nothing now.
      if (this.#width && Math.abs(width - this.#width) > 0.5) this.release();
      this.#width = width;
      this.#height = height;
    });
    this.#observer.observe(element);
  }

  /** From now on the element keeps at least the height it was last laid out at. */
  hold() {
    if (this.#height > 0) this.#element.style.minHeight = `${Math.ceil(this.#height)}px`;
  }

  /** The element takes its own height again. */
  release() {
    this.#element.style.minHeight = '';
  }

  disconnect() {
    this.#observer?.disconnect();
    this.release();
  }
}
