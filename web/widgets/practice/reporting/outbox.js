// Statements waiting to be sent, kept where the learner's copy is kept (localStorage, or
// memory where the page may not keep data), and sent in order with retries: nothing the
// learner did is lost when the record store is unreachable, and nothing is sent twice under
// a new id (each statement keeps the id it was made with).
//
//   const outbox = new Outbox({ storage, key, send });   send(statements) -> HTTP status
//   outbox.state            { queue, seen, tallies } as kept (seen/tallies: see xapi-statements.js)
//   outbox.add(statements, { seen, tallies })   queued and written in one write, then sent
//   'status' events: outbox.status = { kind: 'idle' | 'sent' | 'sending' | 'waiting' | 'refused', code?, pending }
//
// Retries: after a failure, 1 s, 2 s, 4 s … up to 5 minutes, and at once when the browser
// says it is online again. A 409 (the store has a statement with that id) for a batch sends
// its statements one by one; for one statement it means the store has it: it is done.
const BATCH = 25;

function readState(storage, key) {
  try {
    const raw = JSON.parse(storage.getItem(key) ?? 'null');
    if (raw && Array.isArray(raw.queue) && typeof raw.seen === 'object' && typeof raw.tallies === 'object') return raw;
  } catch { /* unreadable: start again; the learner's copy still has every answer */ }
  return { queue: [], seen: {}, tallies: {} };
}

export class Outbox extends EventTarget {
  #sending = false;
  #timer = null;
  #failures = 0;
  #oneByOne = false;
  #writeFailed = false;

  constructor({ storage, key, send, baseDelay = 1000, maxDelay = 300_000, events = globalThis }) {
    super();
    Object.assign(this, { storage, key, send, baseDelay, maxDelay });
    this.state = readState(storage, key);
    this.status = { kind: this.state.queue.length ? 'waiting' : 'idle', pending: this.state.queue.length };
    events?.addEventListener?.('online', () => this.retryNow());
  }

  add(statements, { seen, tallies }) {
    this.sync();
    this.state = { queue: [...this.state.queue, ...statements], seen, tallies };
    this.#write();
    this.flush();
  }

  /**
   * Takes the kept state as it is now: another tab of the page shares the storage, and its
   * reporter may have queued, sent or covered attempts since (the learner's copy reaches
   * both tabs; what one reported the other must not report again). Where this tab's last
   * write failed, its own state is the only complete one and stays.
   */
  sync() {
    if (!this.#writeFailed) this.state = readState(this.storage, this.key);
  }

  /** Sends now if a retry is waiting (the browser is online again, or the learner acted). */
  retryNow() {
    if (this.#timer === null) return;
    clearTimeout(this.#timer);
    this.#timer = null;
    this.flush();
  }

  /** Sends everything queued; resolves when the queue is empty or a retry is scheduled. */
  async flush() {
    if (this.#sending || this.#timer !== null) return;
    this.#sending = true;
    let sent = false;
    try {
      while ((this.sync(), this.state.queue.length > 0)) {
        sent = true;
        const batch = this.state.queue.slice(0, this.#oneByOne ? 1 : BATCH);
        this.#setStatus({ kind: 'sending' });
        let code;
        try {
          code = await this.send(batch);
        } catch {
          code = 0; // no answer: offline, refused connection, closed, CORS
        }
        if (code === 409 && batch.length > 1) { this.#oneByOne = true; continue; }
        if ((code >= 200 && code < 300) || code === 409) {
          this.#done(batch);
          continue;
        }
        this.#retryLater(code);
        return;
      }
      this.#oneByOne = false;
      // "Sent" once something was; before the first answer there is nothing to say.
      if (sent || this.status.kind !== 'idle') this.#setStatus({ kind: 'sent' });
    } finally {
      this.#sending = false;
    }
  }

  #done(batch) {
    this.sync();
    const sent = new Set(batch.map((s) => s.id));
    this.state = { ...this.state, queue: this.state.queue.filter((s) => !sent.has(s.id)) };
    this.#failures = 0;
    this.#write();
  }

  #retryLater(code) {
    this.#failures += 1;
    const delay = Math.min(this.maxDelay, this.baseDelay * 2 ** (this.#failures - 1));
    this.#timer = setTimeout(() => { this.#timer = null; this.flush(); }, delay);
    // 4xx other than timeouts and rate limits: the store refused (auth, a bad address).
    const refused = code >= 400 && code < 500 && code !== 408 && code !== 429;
    this.#setStatus({ kind: refused ? 'refused' : 'waiting', code });
  }

  #setStatus(status) {
    this.status = { ...status, pending: this.state.queue.length };
    this.dispatchEvent(new Event('status'));
  }

  #write() {
    try {
      this.storage.setItem(this.key, JSON.stringify(this.state));
      this.#writeFailed = false;
    } catch {
      this.#writeFailed = true; // storage full or blocked: the queue lives in memory for this visit
    }
  }

  /** Stops retrying (the page is going away; what is queued stays kept for the next visit). */
  close() {
    clearTimeout(this.#timer);
    this.#timer = null;
  }
}
