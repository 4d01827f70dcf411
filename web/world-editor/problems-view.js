// The problems of the world, at the top of the editor and at their controls. The list: one
// button per problem that brings its control into view and focuses it (a section's heading
// for a problem without a control). Each control with a problem gets aria-invalid="true",
// a visible mark (the class has-problem on it and its cell) and aria-describedby pointing
// at its message: the line under a field, or, for the table's cells, which have no room
// for one, the problem's item in the list (the line under the table repeats the message of
// the cell that has focus).
import { element } from '../ui/dom.js';

/** How many problems world-check.js lists at most. */
const MAX_SHOWN = 20;

export class ProblemsView {
  constructor(root) {
    this.root = root;
    this.heading = element('h2', { id: 'problems-heading', tabIndex: -1 });
    this.summary = element('p', { className: 'problems-summary', role: 'status' });
    this.list = element('ol', { className: 'problems-list' });
    this.element = element('section', { className: 'problems', ariaLabelledby: 'problems-heading' }, [this.heading, this.summary, this.list]);
    this.list.addEventListener('click', (event) => {
      const button = event.target.closest('button[data-key]');
      if (button) this.focusTarget(button.dataset.key);
    });
  }

  /** Shows `located` (problems.js locateProblems) in the list and at the controls. */
  render(located) {
    this.element.dataset.count = String(located.length);
    // The checker lists the first MAX_SHOWN problems (the first are what to fix first).
    const capped = located.length >= MAX_SHOWN;
    this.heading.textContent = located.length ? `${capped ? `At least ${MAX_SHOWN} problems` : located.length === 1 ? '1 problem' : `${located.length} problems`} to fix` : 'No problems';
    this.summary.textContent = located.length
      ? `The widgets keep the last good world until ${located.length === 1 ? 'it is' : 'these are'} fixed; export waits too. Each item takes you to its place.${capped ? ' These are the first; more may show once they are fixed.' : ''}`
      : 'The world is complete: the widgets show it, and it is ready to export.';
    this.list.replaceChildren(...located.map((problem, k) => element('li', {}, [
      element('button', { type: 'button', id: `problem-${k}`, className: 'problem-link', dataset: { key: problem.key }, textContent: problem.text }),
    ])));
    this.#mark(located);
  }

  #mark(located) {
    const byKey = new Map();
    located.forEach((problem, k) => byKey.set(problem.key, [...(byKey.get(problem.key) ?? []), { ...problem, id: `problem-${k}` }]));
    for (const control of this.root.querySelectorAll('[data-target]')) {
      const own = byKey.get(control.dataset.target);
      const line = this.root.querySelector(`[data-problem-for="${CSS.escape(control.dataset.target)}"]`);
      if (line) line.textContent = own ? own.map((p) => p.message).join(' ') : '';
      const base = (control.getAttribute('aria-describedby') ?? '').split(' ').filter((id) => id && !id.startsWith('problem-') && id !== line?.id);
      const described = own ? [...base, ...(line ? [line.id] : own.map((p) => p.id))] : base;
      if (!control.hasAttribute('data-refused')) {
        if (own) control.setAttribute('aria-invalid', 'true');
        else control.removeAttribute('aria-invalid');
      }
      control.classList.toggle('has-problem', Boolean(own));
      control.closest('td, th')?.classList.toggle('has-problem', Boolean(own));
      if (described.length) control.setAttribute('aria-describedby', described.join(' '));
      else control.removeAttribute('aria-describedby');
    }
  }

  /** Focuses the control of a target key (opening the advanced part if it is there). */
  focusTarget(key) {
    let control = this.root.querySelector(`[data-target="${CSS.escape(key)}"]`);
    if (!control && key.startsWith('section:')) control = this.root.querySelector(`#section-${key.slice(8)} h2`);
    if (!control) return;
    const details = control.closest('details');
    if (details) details.open = true;
    control.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    control.focus();
  }
}
