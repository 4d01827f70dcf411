// TrainingLoop: drives one TrainingSession in short slices and reports what it sees. The same
// loop runs in the worker (training-worker.js, slices of a whole report's steps, since
// nothing waits on the worker's thread) and on the page where no worker can be made
// (training-runner.js: slices of ~12 ms, so no task on the page's thread comes near 50 ms).
// Between slices it yields to the event loop, so pause, resume and stop arrive in time.
//
// Messages it posts (`post(message)`):
//   { type: 'look', look }                  every STEPS_PER_REPORT steps (and at the start)
//   { type: 'look', look, paused: true }    where a pause stopped it (the last look until resume)
//   { type: 'done', look, analysis }        the run's end: importance ranking, pruning curve
//   { type: 'off-look', look, requestId }   the answer to setOff() after training
//   { type: 'error', message }
import { STEPS_PER_REPORT } from './training-model.js';

export class TrainingLoop {
  #session;
  #post;
  #sliceMs;
  #paused = false;
  #stopped = false;
  #timer = 0;
  #analysis = null; // the generator while the analysis runs, then its result
  #losses = [];

  /** sliceMs: how long one slice may train before it yields (Infinity: a whole report). */
  constructor(session, post, { sliceMs = Infinity } = {}) {
    this.#session = session;
    this.#post = post;
    this.#sliceMs = sliceMs;
  }

  get paused() {
    return this.#paused;
  }

  start() {
    this.#report('look');
    this.#schedule();
  }

  /** Stops between two slices; a look shows exactly where it stopped. */
  pause() {
    if (this.#paused || this.#stopped) return;
    this.#paused = true;
    clearTimeout(this.#timer);
    try {
      if (!this.#session.done) this.#report('look', { paused: true });
    } catch (error) {
      this.#fail(error);
    }
  }

  resume() {
    if (!this.#paused || this.#stopped) return;
    this.#paused = false;
    this.#schedule();
  }

  stop() {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#session.dispose();
  }

  /** After training: switch heads off and look (answered with 'off-look'). */
  setOff(off, requestId) {
    try {
      this.#post({ type: 'off-look', requestId, look: this.#session.setOff(off) });
    } catch (error) {
      this.#post({ type: 'error', message: error.message });
    }
  }

  #schedule() {
    if (this.#paused || this.#stopped) return;
    this.#timer = setTimeout(() => this.#slice(), 0);
  }

  #slice() {
    if (this.#paused || this.#stopped) return;
    try {
      const session = this.#session;
      if (session.done) {
        this.#analyseSlice();
        return;
      }
      const started = performance.now();
      // Train up to the next report boundary, one step at a time while the slice has time
      // (a step at the demo's size takes 1 to 4 ms).
      do {
        this.#losses.push(session.step(1));
      } while (session.stepsDone % STEPS_PER_REPORT !== 0 && !session.done && performance.now() - started < this.#sliceMs);
      if (session.stepsDone % STEPS_PER_REPORT === 0 || session.done) {
        // The look (an evaluation of 256 sequences, a few ms) gets a slice of its own on the page.
        if (Number.isFinite(this.#sliceMs)) this.#timer = setTimeout(() => this.#lookSlice(), 0);
        else this.#lookSlice();
        return;
      }
      this.#schedule();
    } catch (error) {
      this.#fail(error);
    }
  }

  #lookSlice() {
    if (this.#stopped) return;
    try {
      this.#report('look');
      this.#schedule();
    } catch (error) {
      this.#fail(error);
    }
  }

  #report(type, extra = {}) {
    const losses = this.#losses.filter((l) => l !== null);
    this.#losses = [];
    const look = this.#session.look();
    look.trainingLoss = losses.length ? losses.reduce((a, b) => a + b, 0) / losses.length : null;
    this.#post({ type, look, ...extra });
  }

  #analyseSlice() {
    this.#analysis ??= this.#session.analysisSteps();
    // In the worker the whole analysis runs at once; on the page one core call per slice.
    for (;;) {
      const { value, done } = this.#analysis.next();
      if (done) {
        this.#stopped = true; // nothing more to schedule; the session stays for setOff()
        this.#report('done', { analysis: value });
        return;
      }
      if (Number.isFinite(this.#sliceMs)) break;
    }
    this.#schedule();
  }

  #fail(error) {
    this.#stopped = true;
    this.#post({ type: 'error', message: error?.message ?? String(error) });
  }
}
