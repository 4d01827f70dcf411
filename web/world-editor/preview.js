// The preview: the lesson's widgets, each given the world being edited through its `world`
// attribute (inline JSON, docs/WORLDS.md), so an author sees exactly what a page with that
// world would show. The widget base builds a widget again when the attribute changes, also
// while it waits to be built or is being built (it then builds the newest world). Only a
// world without problems is given; otherwise the widgets keep the last good one, and the
// status says so.
import '../widgets/layer/index.js';
import '../widgets/blend/index.js';
import '../widgets/heads-questions/index.js';
import '../widgets/wo-mixing/index.js';
import '../widgets/head-splitting/index.js';
import { element } from '../ui/dom.js';

export const PREVIEW_TAGS = ['mha-layer', 'mha-blend', 'mha-heads-questions', 'mha-wo-mixing', 'mha-head-splitting'];

export class Preview {
  #widgets;
  #shown = null;

  constructor(container, status) {
    this.status = status;
    this.container = container;
    this.#widgets = PREVIEW_TAGS.map((tag) => {
      // Not in the address: a state belongs to one world, and the world changes here.
      const widget = element(tag, { dataset: { preview: '' } });
      widget.setAttribute('url-state', 'off');
      widget.addEventListener('ready', () => this.#built(widget));
      return widget;
    });
  }

  /** Shows `world` (a good world) in every widget. */
  show(world) {
    const text = JSON.stringify(world);
    if (text === this.#shown) return;
    const first = this.#shown === null;
    this.#shown = text;
    this.#widgets.forEach((widget) => {
      // The box keeps its height while the widget is built again, so the page does not jump.
      const item = widget.parentElement;
      if (item && widget.hasAttribute('ready')) {
        item.style.setProperty('--held', `${item.offsetHeight}px`);
        item.classList.add('holding');
      }
      widget.setAttribute('world', text);
    });
    // The widgets join the page with their first world: without one they would start
    // building the lesson's world, only to be built again.
    if (first) this.container.replaceChildren(...this.#widgets.map((widget) => element('div', { className: 'preview-item' }, [widget])));
  }

  /** Says what the widgets show: `state` is current, stale (problems), none or updating. */
  say(state, message) {
    this.status.dataset.state = state;
    if (this.status.textContent !== message) this.status.textContent = message;
  }

  #built(widget) {
    widget.parentElement?.classList.remove('holding');
  }
}
