// When the address is written (web/widgets/shared/lesson-state.js), in a tab simulated
// here so that every step is deterministic (no clock, no browser):
//   * a burst of edits is written once, WRITE_DELAY_MS after the last, and readLessonState
//     reads the states not yet written; a link click, the window's blur or the page hidden
//     writes them at once;
//   * a reload, or Back and Forward, a moment after an edit keeps it: with every write not
//     yet in the address a note (sessionStorage) says what the entry's address should be;
//     it is given back to that entry while its address is still the one it had, and to no
//     other (a fresh visit to the same address shows the link);
//   * without the Navigation API a reload is matched by its address and navigation type.
// The behaviour in Chromium itself is checked by tests/browser/url-anchors.test.mjs.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';

const MODULE = new URL('../../web/widgets/shared/lesson-state.js', import.meta.url).href;
const DELAY = 300;
const PAGE = 'https://course.example/notes/lesson.html?id=12#one-head';

// One browser tab: its history entries (key, url), its sessionStorage, and the document now
// loaded in it (listeners, timers, the module instance).
class Tab {
  entries = [];
  index = -1;
  session = new Map();
  replaced = 0;
  navigationApi = true;
  #keys = 0;

  get entry() { return this.entries[this.index]; }

  // A new document at `url`: 'navigate' makes a new entry, 'reload' and 'back_forward' reuse
  // the current one. Returns the module as this document loads it.
  async load(url, type = 'navigate') {
    if (type === 'navigate') {
      this.entries.splice(this.index + 1, Infinity, { key: `entry-${++this.#keys}`, url: new URL(url).href });
      this.index += 1;
    }
    this.doc = { listeners: new Map(), timers: new Map(), now: 0, nextTimer: 1, type };
    this.#install();
    this.module = await import(`${MODULE}?document=${++Tab.documents}`);
    return this.module;
  }

  fire(type, event = {}) {
    for (const listener of this.doc.listeners.get(type) ?? []) listener(event);
  }

  // Time passes in this document: due timers run.
  tick(ms) {
    this.doc.now += ms;
    for (const [id, timer] of [...this.doc.timers].sort((a, b) => a[1].at - b[1].at)) {
      if (timer.at > this.doc.now || !this.doc.timers.has(id)) continue;
      this.doc.timers.delete(id);
      timer.fn();
    }
  }

  // Back (-1) or Forward (+1) within the document: navigate (the Navigation API, before the
  // address changes), then popstate.
  traverse(delta) {
    if (this.navigationApi) this.fire('navigation:navigate', { navigationType: 'traverse' });
    this.index += delta;
    this.fire('popstate');
  }

  state(key) {
    const value = new URL(this.entry.url).searchParams.get(`mha.${key}`);
    return value === null ? null : JSON.parse(value);
  }

  #install() {
    const tab = this;
    const doc = this.doc;
    const on = (type) => (name, fn) => {
      const list = doc.listeners.get(`${type}${name}`) ?? [];
      doc.listeners.set(`${type}${name}`, [...list, fn]);
    };
    Object.assign(globalThis, {
      location: {
        get href() { return tab.entry.url; },
        get pathname() { return new URL(tab.entry.url).pathname; },
        get hash() { return new URL(tab.entry.url).hash; },
      },
      history: {
        state: null,
        replaceState(state, unused, url) {
          tab.replaced += 1;
          tab.entry.url = new URL(url, tab.entry.url).href;
        },
      },
      sessionStorage: {
        getItem: (k) => (tab.session.has(k) ? tab.session.get(k) : null),
        setItem: (k, v) => { tab.session.set(k, String(v)); },
        removeItem: (k) => { tab.session.delete(k); },
      },
      addEventListener: on(''),
      document: { visibilityState: 'visible', addEventListener: on('document:'), getElementById: () => null },
      setTimeout: (fn, ms) => { doc.timers.set(doc.nextTimer, { fn, at: doc.now + ms }); return doc.nextTimer++; },
      clearTimeout: (id) => { doc.timers.delete(id); },
    });
    globalThis.navigation = this.navigationApi
      ? { get currentEntry() { return { key: tab.entry.key }; }, addEventListener: on('navigation:') }
      : undefined;
    Object.defineProperty(globalThis, 'performance', {
      configurable: true, writable: true,
      value: { getEntriesByType: (kind) => (kind === 'navigation' ? [{ type: doc.type }] : []) },
    });
  }

  static documents = 0;
}

const saved = Object.fromEntries(['location', 'history', 'sessionStorage', 'addEventListener', 'document', 'setTimeout', 'clearTimeout', 'navigation', 'performance']
  .map((name) => [name, Object.getOwnPropertyDescriptor(globalThis, name)]));
afterEach(() => {
  for (const [name, descriptor] of Object.entries(saved)) {
    if (descriptor) Object.defineProperty(globalThis, name, descriptor);
    else delete globalThis[name];
  }
});

// A widget on the page: its key claimed, and what navigations told it.
function widget(module, key = 'blend') {
  const told = [];
  module.claimStateKey({ localName: 'mha-blend' }, key, (entry) => told.push(entry));
  return told;
}

describe('when the address is written', () => {
  test('a burst of edits is written once, after it pauses; until then the reader sees it', async () => {
    const tab = new Tab();
    const m = await tab.load(PAGE);
    widget(m);
    for (let step = 1; step <= 5; step += 1) {
      m.writeLessonState('blend', { budget: step });
      tab.tick(DELAY / 3);
    }
    assert.equal(tab.replaced, 0, 'nothing written while the edits go on');
    assert.equal(tab.state('blend'), null);
    assert.deepEqual(m.readLessonState().entries.blend, { budget: 5 }, 'the reader sees the states not yet written');
    tab.tick(DELAY);
    assert.equal(tab.replaced, 1, 'one write for the burst');
    assert.deepEqual(tab.state('blend'), { budget: 5 });
    assert.equal(new URL(tab.entry.url).searchParams.get('id'), '12', 'the host’s parameter is kept');
    assert.equal(new URL(tab.entry.url).hash, '#one-head', 'and the anchor');
  });

  for (const [what, act] of [
    ['a link clicked', (tab) => tab.fire('click', { composedPath: () => [{ localName: 'a', hasAttribute: () => true }] })],
    ['the window left (the address bar)', (tab) => tab.fire('blur')],
    ['the page hidden', (tab) => { globalThis.document.visibilityState = 'hidden'; tab.fire('document:visibilitychange'); }],
  ]) {
    test(`${what}: the address is written at once`, async () => {
      const tab = new Tab();
      const m = await tab.load(PAGE);
      widget(m);
      m.writeLessonState('blend', { budget: 1 });
      act(tab);
      assert.deepEqual(tab.state('blend'), { budget: 1 });
    });
  }

  test('a click that is not on a link writes nothing early', async () => {
    const tab = new Tab();
    const m = await tab.load(PAGE);
    widget(m);
    m.writeLessonState('blend', { budget: 1 });
    tab.fire('click', { composedPath: () => [{ localName: 'button', hasAttribute: () => false }] });
    assert.equal(tab.replaced, 0);
  });

  // A page with an edit not yet in the address, left: the browser goes on from the entry's
  // address as it was when the move began; the page's pagehide comes after (its write does
  // not reach that move). Returns the tab and that address.
  async function editedAndLeft(api) {
    const tab = new Tab();
    tab.navigationApi = api;
    widget(await tab.load(PAGE));
    tab.module.writeLessonState('blend', { budget: 7 });
    const before = tab.entry.url;
    tab.fire('pagehide');
    tab.entry.url = before;
    return { tab, before };
  }

  for (const api of [true, false]) {
    test(`a reload at once after an edit keeps it${api ? '' : ' (no Navigation API: matched by address)'}`, async () => {
      const { tab, before } = await editedAndLeft(api);
      const m = await tab.load(before, 'reload');
      assert.deepEqual(tab.state('blend'), { budget: 7 }, 'the reloaded page has the last edit in its address');
      assert.deepEqual(m.readLessonState().entries.blend, { budget: 7 });
      assert.equal(tab.session.size, 0, 'taken once');
    });

    test(`a fresh visit to the same address shows what the link says${api ? '' : ' (no Navigation API)'}`, async () => {
      const { tab } = await editedAndLeft(api);
      await tab.load(PAGE, 'navigate');
      assert.equal(tab.state('blend'), null);
    });
  }

  test('Back and Forward a moment after an edit: the entry left gets it back on return', async () => {
    const tab = new Tab();
    const m = await tab.load(PAGE);
    const told = widget(m);
    m.writeLessonState('blend', { budget: 1 });
    tab.tick(DELAY);
    // A section link: a new entry of this document with the same query.
    tab.entries.push({ key: 'entry-section', url: tab.entry.url.replace('#one-head', '#more') });
    tab.index += 1;
    m.writeLessonState('blend', { budget: 2 });
    tab.traverse(-1);
    assert.deepEqual(told.at(-1), { present: true, value: { budget: 1 }, problem: undefined }, 'Back shows the first entry’s state');
    tab.tick(DELAY);
    assert.deepEqual(tab.state('blend'), { budget: 1 }, 'and nothing is written into it');
    tab.traverse(+1);
    assert.deepEqual(tab.state('blend'), { budget: 2 }, 'Forward: the entry has the edit it was left with');
    assert.deepEqual(told.at(-1).value, { budget: 2 }, 'and the widget shows it');
  });

  test('Back and Forward without the Navigation API: the entry is found by its address', async () => {
    const tab = new Tab();
    tab.navigationApi = false;
    const m = await tab.load(PAGE);
    const told = widget(m);
    tab.entries.push({ key: 'entry-section', url: tab.entry.url.replace('#one-head', '#more') });
    tab.index += 1;
    m.writeLessonState('blend', { budget: 2 });
    tab.traverse(-1);
    tab.tick(DELAY);
    assert.equal(tab.state('blend'), null, 'the entry Back reached is not written over');
    assert.equal(told.at(-1).present, false, 'the widget is told (an undoable step)');
    tab.traverse(+1);
    assert.deepEqual(tab.state('blend'), { budget: 2 }, 'Forward: the entry has its edit back');
  });

  test('a reload whose old page hears pagehide only after the new page has run keeps the edit', async () => {
    const tab = new Tab();
    const old = await tab.load(PAGE);
    widget(old);
    old.writeLessonState('blend', { budget: 5 });
    const before = tab.entry.url;
    const oldDocument = tab.doc;
    await tab.load(before, 'reload');
    assert.deepEqual(tab.state('blend'), { budget: 5 }, 'the note was there before the reload began');
    // The old page's pagehide, late: nothing of it reaches the new page's entry.
    for (const listener of oldDocument.listeners.get('pagehide') ?? []) listener({});
    assert.deepEqual(tab.state('blend'), { budget: 5 });
    assert.equal(tab.session.size, 0, 'no note left behind');
  });

  test('a note whose entry has moved on since (its address is no longer `from`) is not taken', async () => {
    const tab = new Tab();
    const m = await tab.load(PAGE);
    widget(m);
    m.writeLessonState('blend', { budget: 1 });
    globalThis.document.visibilityState = 'hidden';
    tab.fire('document:visibilitychange'); // written, and the note kept for a reload
    assert.deepEqual(tab.state('blend'), { budget: 1 });
    // The host's scroll tracker rewrites the anchor (history.replaceState('#end')).
    const moved = tab.entry.url.replace('#one-head', '#end');
    tab.entry.url = moved;
    await tab.load(moved, 'reload');
    assert.equal(tab.entry.url, moved, 'the address is the entry’s own, not the note’s');
    assert.equal(tab.session.size, 0, 'the note is dropped');
    const again = tab.module;
    widget(again);
    again.writeLessonState('blend', { budget: 9 });
    assert.equal(tab.session.size, 1, 'a note while the write waits');
    tab.tick(DELAY);
    assert.equal(tab.session.size, 0, 'a write that reached the address leaves no note');
  });

  test('a host setting location.hash a moment after an edit: the new entry keeps the edit', async () => {
    const tab = new Tab();
    const m = await tab.load(PAGE);
    const told = widget(m);
    m.writeLessonState('blend', { budget: 3 });
    const oldURL = tab.entry.url;
    tab.entries.push({ key: 'entry-hash', url: oldURL.replace('#one-head', '#tab=2') });
    tab.index += 1;
    tab.fire('hashchange', { oldURL, newURL: tab.entry.url });
    assert.deepEqual(tab.state('blend'), { budget: 3 });
    assert.equal(told.length, 0, 'the widget was not moved');
  });
});
