// What every widget gets from MhaWidget (web/widgets/shared/widget-base.js), tested through
// public behaviour only (state, URL hash, focus), so that restyled widgets keep passing:
//   * readonly is enforced for every control at once (issue 11, item 2): keys on every tab
//     stop, clicks and drags on every control and clickable or draggable element change
//     neither the state nor the address,
//     while setState() from the page's script still works;
//   * Undo does not drop focus to <body> when its last step disables it (item 6);
//   * state-key may be any name, 'constructor', 'toString' and '__proto__' included
//     (item 8): no false notice, and the state round-trips through the URL;
//   * a drag (many commits) is one undo step, in every widget that has something to drag
//     (the base's edit groups, issue 24).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pageTurns, useSiteAndBrowser } from './browser.mjs';
import { WIDGETS as REGISTRY } from '../../web/widgets/registry.js';

const session = useSiteAndBrowser();
const WIDGETS = Object.keys(REGISTRY);
// Widgets with an Undo button (training has none: its Reset drops the trained model).
const WITH_UNDO = new Set(['layer', 'blend', 'head-splitting', 'wo-mixing', 'heads-questions']);
const KEYS = ['ArrowUp', 'ArrowRight', 'PageUp', 'End', 'Enter', ' '];
// What a learner drags in each widget (the first visible match), and which way: [dx, dy] of
// the first drag; the second goes half as far back. Layer and training have nothing to drag.
const DRAGS = {
  blend: ['.one-head .ui-budget-handle', [60, 0]],
  'head-splitting': ['input.slider', [80, 0]],
  'wo-mixing': ['.ui-matrix.ui-editable .ui-cell', [0, -40]],
  'heads-questions': ['.wq-grid.ui-editable .ui-cell', [0, -40]],
};
const MAX_TAB_STOPS = 80;

// The tests take turns with one page (pageTurns): the embed page keeps a widget's state in its
// address only, so each new document starts as in a page of its own.
const embedTurn = pageTurns(() => session.browser);

/** The widget alone on the embed page (a new document), built; { page, problems }. */
async function openEmbed(widget, query = '', viewport = { width: 1000, height: 900 }) {
  const opened = await embedTurn(`${session.server.url}embed.html?widget=${widget}${query}`, viewport);
  await opened.page.locator(`mha-${widget}[ready]`).waitFor();
  return opened;
}

const stateOf = (page, widget) => page.$eval(`mha-${widget}`, (w) => JSON.stringify(w.state));
// The page's address: the widgets keep their state in its query (?mha.<key>=), anchors in its hash.
const addressOf = (page) => page.evaluate(() => location.href);

/** Tabs through the page; at each stop calls visit(), which returns true to stop early. */
async function eachTabStop(page, visit) {
  await page.evaluate(() => document.activeElement?.blur());
  for (let i = 0; i < MAX_TAB_STOPS; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement === document.body)) return false;
    if (await visit(i)) return true;
  }
  return false;
}

/** Resolves once the page has drawn two more frames (a move's commit lands on the next one). */
const twoFrames = (page) => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

/** A mouse drag of `target` by [dx, dy] in 8 moves two frames apart; returns the commits it made. */
async function dragBy(page, widget, target, [dx, dy]) {
  await page.$eval(`mha-${widget}`, (w) => {
    w.changes = 0;
    w.addEventListener('change', () => { w.changes++; });
  });
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++) {
    await page.mouse.move(x + (dx * i) / 8, y + (dy * i) / 8);
    await twoFrames(page);
  }
  await page.mouse.up();
  await twoFrames(page); // a commit a widget makes once a frame lands
  return page.$eval(`mha-${widget}`, (w) => w.changes);
}

/** The first keyboard edit a learner can make (ArrowUp on some tab stop): the new state. */
async function editByKeyboard(page, widget) {
  const start = await stateOf(page, widget);
  let edited = null;
  await eachTabStop(page, async () => {
    await page.keyboard.press('ArrowUp');
    const now = await stateOf(page, widget);
    if (now !== start) edited = now;
    return edited !== null;
  });
  return edited;
}

describe('widget base', () => {
  test('readonly="false" (React 18’s readonly={false}) is editable; readonly and readonly="" are not', async () => {
    for (const [query, editable] of [['&readonly=false', true], ['&readonly=FALSE', true], ['&readonly', false], ['&readonly=', false], ['&readonly=readonly', false]]) {
      const { page, problems } = await openEmbed('blend', query);
      assert.equal(await page.$eval('mha-blend', (w) => w.readOnly), !editable, query);
      const start = await stateOf(page, 'blend');
      await page.locator('mha-blend').getByRole('slider', { name: 'One head: weight on “researcher”' }).press('PageUp');
      assert.equal((await stateOf(page, 'blend')) !== start, editable, `${query}: ${editable ? 'a key edits' : 'a key changes nothing'}`);
      assert.deepEqual(problems, [], query);
    }
  });

  // What a widget says to a reader it lets edit, and must not say when read-only.
  const INSTRUCTION = /\b(drag|press|type|pick|click|tap|focus|try it)\b/i;
  test('read-only widgets do not tell the reader to drag, type, press or pick (what is visible, in English and German)', async () => {
    for (const widget of WIDGETS) {
      for (const lang of ['en', 'de']) {
        const { page, problems } = await openEmbed(widget, `&readonly${lang === 'de' ? '&lang=de' : ''}`);
        const visible = await page.$eval(`mha-${widget}`, (element) => {
          const texts = [];
          const walker = document.createTreeWalker(element.shadowRoot, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const text = node.textContent.trim();
            if (text && node.parentElement.checkVisibility({ visibilityProperty: true })) texts.push(text);
          }
          return texts.join(' | ');
        });
        const pattern = lang === 'de' ? /\b(ziehe|ziehen|drücke|tippe|wähle|klicke|fokussiere|probiere)\b/i : INSTRUCTION;
        const found = visible.split(' | ').filter((text) => pattern.test(text));
        assert.deepEqual(found, [], `${widget} (${lang}), read-only`);
        assert.deepEqual(problems, [], `${widget} (${lang})`);
      }
    }
  });

  for (const widget of WIDGETS) {
    test(`${widget}: readonly refuses every learner edit (keys on every tab stop, clicks and drags on controls); setState still works`, async () => {
      // A state a learner can reach, from an editable copy of the widget.
      const editable = await openEmbed(widget);
      const edited = await editByKeyboard(editable.page, widget);
      assert.ok(edited, 'the editable widget can be edited from the keyboard');

      const { page, problems } = await openEmbed(widget, '&readonly');
      const state = await stateOf(page, widget);
      const address = await addressOf(page);
      let plainStops = 0;
      await eachTabStop(page, async () => { plainStops++; return false; });
      let stops = 0;
      await eachTabStop(page, async () => {
        stops++;
        const stop = await page.evaluateHandle(() => {
          let focused = document.activeElement;
          while (focused?.shadowRoot?.activeElement) focused = focused.shadowRoot.activeElement;
          return focused;
        });
        for (const key of KEYS) await page.keyboard.press(key);
        await page.keyboard.press('Shift+ArrowUp');
        // Back to this stop, so that Tab goes on from it: Enter on the widget's first stop,
        // its skip link, moves the focus past the widget (without this the keys reached
        // that one stop only).
        await stop.evaluate((element) => element.focus());
        await stop.dispose();
        return false;
      });
      assert.ok(stops >= plainStops && plainStops >= 2, `keys pressed on ${stops} of the ${plainStops} tab stops a reader tabs through`);
      // Pointer: a click and an upward drag on every control and on everything the widget
      // marks as clickable or draggable by its cursor (cells, heatmap rows), up to 60 spread
      // over the widget.
      const points = await page.$eval(`mha-${widget}`, (element, limit) => {
        const candidates = [...element.shadowRoot.querySelectorAll('*')].filter((e) => {
          const cursor = getComputedStyle(e).cursor;
          return e.matches('input, select, button, textarea, summary, label, [tabindex]') ||
            !['auto', 'default', 'text'].includes(cursor);
        }).map((e) => e.getBoundingClientRect()).filter((r) => r.width >= 4 && r.height >= 4)
          .map((r) => ({ x: r.x + r.width / 2, y: r.y + r.height / 2 + window.scrollY }));
        const step = Math.max(1, candidates.length / limit);
        return Array.from({ length: Math.min(limit, candidates.length) }, (_, i) => candidates[Math.floor(i * step)]);
      }, 60);
      let pointerActions = 0;
      for (const point of points) {
        await page.evaluate((y) => window.scrollTo(0, Math.max(0, y - 300)), point.y);
        const y = point.y - await page.evaluate(() => window.scrollY);
        await page.mouse.click(point.x, y);
        await page.mouse.move(point.x, y);
        await page.mouse.down();
        await page.mouse.move(point.x, y - 30, { steps: 3 });
        await page.mouse.up();
        pointerActions += 2;
      }
      console.log(`${widget} readonly: ${stops} tab stops x ${KEYS.length + 1} keys, ${pointerActions} clicks and drags`);
      assert.equal(await stateOf(page, widget), state, 'the state did not change');
      assert.equal(await addressOf(page), address, 'the address was not rewritten');

      // The page's own script may still set the state of a read-only widget.
      await page.$eval(`mha-${widget}`, (w, s) => w.setState(JSON.parse(s)), edited);
      assert.equal(await stateOf(page, widget), edited);
      assert.deepEqual(problems, []);
    });

    test(`${widget}: Undo keeps the focus in the widget when its last step disables it`, { skip: !WITH_UNDO.has(widget) && 'no Undo button' }, async () => {
      const { page, problems } = await openEmbed(widget);
      const start = await stateOf(page, widget);
      assert.ok(await editByKeyboard(page, widget), 'one edit to undo');
      const undo = page.locator(`mha-${widget}`).getByRole('button', { name: 'Undo', exact: true });
      // Undo from the keyboard until nothing is left to undo (keyboard edits may record steps).
      await undo.focus();
      for (let i = 0; i < 20 && await undo.isEnabled(); i++) await page.keyboard.press('Enter');
      assert.equal(await undo.isEnabled(), false, 'everything undone');
      assert.equal(await stateOf(page, widget), start);
      const focus = await page.evaluate((tag) => {
        const widgetElement = document.querySelector(tag);
        const inner = widgetElement.shadowRoot.activeElement;
        return {
          body: document.activeElement === document.body,
          inWidget: document.activeElement === widgetElement,
          inner: inner ? `${inner.tagName} ${inner.textContent.trim().slice(0, 20)}` : null,
        };
      }, `mha-${widget}`);
      assert.equal(focus.body, false, 'focus did not fall to <body>');
      assert.ok(focus.inWidget && focus.inner, `focus stays in the widget (got ${JSON.stringify(focus)})`);
      // And the keyboard user can go on: Enter on the focused element (Reset) works.
      await page.keyboard.press('Enter');
      assert.equal(await stateOf(page, widget), start);
      assert.deepEqual(problems, []);
    });
  }

  for (const widget of WIDGETS) {
    test(`${widget}: a drag is one undo step, however many commits it makes`, { skip: !DRAGS[widget] && 'nothing to drag' }, async () => {
      const { page, problems } = await openEmbed(widget);
      const [selector, [dx, dy]] = DRAGS[widget];
      const target = () => page.locator(`mha-${widget} ${selector}`).filter({ visible: true }).first();
      const start = await stateOf(page, widget);
      const commits = await dragBy(page, widget, target(), [dx, dy]);
      const first = await stateOf(page, widget);
      assert.notEqual(first, start, 'the first drag changed the state');
      assert.ok(commits > 1, `the first drag made ${commits} commits (more than one, or this proves nothing)`);
      await dragBy(page, widget, target(), [-dx / 2, -dy / 2]);
      const second = await stateOf(page, widget);
      assert.notEqual(second, first, 'the second drag changed the state');
      const undo = page.locator(`mha-${widget}`).getByRole('button', { name: 'Undo', exact: true });
      await undo.click();
      assert.equal(await stateOf(page, widget), first, 'one Undo takes back the whole second drag');
      await undo.click();
      assert.equal(await stateOf(page, widget), start, 'a second Undo takes back the whole first drag');
      assert.equal(await undo.isEnabled(), false, 'nothing else to undo');
      console.log(`${widget}: first drag ${commits} commits, one undo step`);
      assert.deepEqual(problems, []);
    });
  }

  test('state-key may be constructor, toString or __proto__: no false notice, and the state round-trips', async () => {
    for (const key of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const { page, problems } = await openEmbed('wo-mixing', `&state-key=${key}`);
      const notice = () => page.$eval('mha-wo-mixing', (w) => {
        const box = w.shadowRoot.querySelector('.notice');
        return box && !box.hidden ? box.textContent : '';
      });
      assert.equal(await notice(), '', `${key}: no notice on a clean start`);
      const edited = await editByKeyboard(page, 'wo-mixing');
      assert.ok(edited, `${key}: an edit`);
      const address = new URL(await addressOf(page));
      assert.ok(address.searchParams.has(`mha.${key}`), `${key}: the address holds the state under its key (${address.search.slice(0, 60)})`);
      await page.reload();
      await page.locator('mha-wo-mixing[ready]').waitFor();
      assert.equal(await notice(), '', `${key}: no notice after reload`);
      assert.equal(await stateOf(page, 'wo-mixing'), edited, `${key}: the state came back from the link`);
      assert.deepEqual(problems, [], key);
    }
  });
});
