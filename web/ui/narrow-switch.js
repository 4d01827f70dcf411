// NarrowSwitch: on a narrow container (a phone), a widget shows its secondary panels one at
// a time, chosen with a row of choices (a ChoiceGroup: role=radiogroup, one tab stop, arrow
// keys). Wider than 34rem every panel is shown and the switch is not (CSS in
// web/widgets/shared/widget-base.css: `.narrow-switch` and `.narrow-off` live inside
// `@container (max-width: 34rem)`), so wide layouts are untouched.
//
//   const sw = new NarrowSwitch({ label: 'Shown below', options: [
//     { value: 'reader', content: 'Who / what', panels: [readerElement] },
//     { value: 'plane', content: 'Where it lands', panels: [planeElement] },
//   ], value: 'reader' });
//   someColumn.append(sw.element);
//
// A panel may belong to several options (list it in each). Switching is a view choice, not
// lesson state: it stays usable in read-only widgets and is not written to the URL.
import { messagesFor } from './messages.js';
import { element } from './dom.js';
import { ChoiceGroup } from './choice-group.js';

export class NarrowSwitch {
  /**
   * @param {object} o
   * @param {string} o.label     accessible name of the group (also shown, short, before it)
   * @param {{ value: string, content: any, panels: Element[], label?: string }[]} o.options
   * @param {string} [o.value]   the option shown first (default: the first)
   * @param {string} [o.prefix]  visible text before the choices (default 'Show', in o.messages' language)
   * @param {import('../text/i18n.js').Messages} [o.messages]
   * @param {(value: string) => void} [o.onChange]
   */
  constructor({ label, options, value = options[0].value, prefix, onChange = null, messages = messagesFor('en') }) {
    prefix ??= messages.t('ui.narrow.show');
    this.options = options;
    this.onChange = onChange;
    const ids = options.flatMap((o) => o.panels.map((p) => p.id)).filter(Boolean);
    this.group = new ChoiceGroup({
      label, className: 'narrow-choices', controls: ids.length ? [...new Set(ids)].join(' ') : null,
      onChoose: (v) => this.show(v),
    });
    this.group.setOptions(options.map(({ value: v, content, label: l }) => ({ value: v, content, label: l })));
    this.element = element('div', { className: 'narrow-switch' }, [
      element('span', { className: 'narrow-switch-label', ariaHidden: 'true', textContent: prefix }),
      this.group.element,
    ]);
    this.element.narrowSwitch = this; // found by a widget's panels="…" (keepShownPanels)
    this.show(value, { silent: true });
  }

  /**
   * After a widget's panels="…" hid some panels: an option whose panels are all hidden is
   * dropped (it would show nothing), and with one option left the switch goes and that
   * option's panels show (a widget cut down to its rank panel has nothing to switch).
   */
  keepShownPanels() {
    const kept = this.options.filter((o) => o.panels.some((panel) => !panel.hidden));
    if (kept.length === this.options.length || kept.length === 0) return;
    const value = kept.some((o) => o.value === this.value) ? this.value : kept[0].value;
    this.options = kept;
    this.group.setOptions(kept.map(({ value: v, content, label: l }) => ({ value: v, content, label: l })));
    this.element.hidden = kept.length === 1;
    this.show(value, { silent: true });
  }

  get value() {
    return this.group.value;
  }

  show(value, { silent = false } = {}) {
    const chosen = this.options.find((o) => o.value === value) ?? this.options[0];
    const on = new Set(chosen.panels);
    for (const o of this.options) for (const panel of o.panels) panel.classList.toggle('narrow-off', !on.has(panel));
    this.group.setValue(chosen.value);
    if (!silent) this.onChange?.(chosen.value);
  }
}
