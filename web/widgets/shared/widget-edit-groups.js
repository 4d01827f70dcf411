// Edit groups, for MhaWidget (widget-base.js): one undo step per drag. A drag commits on
// every move, and an exact value typed in a field commits on every character; the commits
// of one edit group make one undo step (the first records the state before the group, the
// others replace the state without recording).
//
// A widget names its draggable controls (a grid, a budget bar, a slider with its field)
// with groupEdits(control). A press on such a control opens a group, and so does focusing a
// text field inside one (typing a value). The group ends with a press elsewhere (a press on
// a control opens a new one), a click outside the controls, a wheel turn, a key that is not
// typing in such a field, and any commit outside it (undo, reset, another control, the
// page's script, Back): a commit in a group that the last commit was not in records again.
// A widget whose gesture the base cannot see opens and ends groups itself
// (beginEditGroup(), endEditGroup()).

const isTextField = (target) => target?.tagName === 'TEXTAREA' || (target?.tagName === 'INPUT' && target.type === 'text');

export class EditGroups {
  #open = null; // the open group (a token), or null
  #last = null; // the group of the last commit that took effect, or null
  #controls = new WeakSet();

  /** The open group, the `group` of a learner's commit by default; null when none is open. */
  get open() {
    return this.#open;
  }

  begin() {
    this.#open = {};
    return this.#open;
  }

  end() {
    this.#open = null;
  }

  /** Presses on `control`, and typing in its text fields, open groups. */
  add(control) {
    this.#controls.add(control);
  }

  /** A commit in `group` (null: in none) took effect; returns whether it is a new undo step. */
  committed(group) {
    const newStep = group === null || group !== this.#last;
    this.#last = group;
    return newStep;
  }

  /** Opens and ends groups from what happens in the widget's shadow root. */
  listen(root) {
    const inControl = (event) => event.composedPath().some((target) => this.#controls.has(target));
    const typing = (event) => isTextField(event.composedPath()[0]) && inControl(event);
    root.addEventListener('pointerdown', (event) => (inControl(event) ? this.begin() : this.end()), { capture: true });
    // A click without a press (a screen reader's) on another control ends the group too.
    root.addEventListener('click', (event) => { if (!inControl(event)) this.end(); }, { capture: true });
    root.addEventListener('wheel', () => this.end(), { capture: true, passive: true });
    root.addEventListener('keydown', (event) => { if (!typing(event)) this.end(); }, { capture: true });
    root.addEventListener('focusin', (event) => { if (typing(event)) this.begin(); });
  }
}
