// Issue 14, item 4: the widgets' state in the address respects a page's anchors. Tested on
// a course author's page built like a static-site generator's (MkDocs and the like): a
// table of contents of #section links, "¶" permalinks, a script that rewrites the hash
// while the reader scrolls (history.replaceState('#id'), as Material for MkDocs does) and
// no scroll anchoring (overflow-anchor: none, as in Safari); and on the lesson page.
//   * an edit keeps the section links working, a table-of-contents click keeps the state,
//     and a reload shows both;
//   * Back and Forward restore the state each history entry was left with;
//   * a page opened at a section lands there although the widgets above it load late
//     (the wasm is delayed), their height reserved while they load; old links
//     (#blend=…, #section=&blend=…) still work;
//   * several same-kind widgets: separate keys (blend, blend-2, …) and a console warning,
//     url-state="off" keeps a widget out of the address.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildAllWidgets, newWatchedPage, pageTurns, screenshot, useCourseSite } from './browser.mjs';
import { WIDGETS } from '../../web/widgets/registry.js';

const SECTIONS = [['intro', 'Introduction'], ['one-head', 'One head'], ['more', 'More heads'], ['mixing', 'Mixing'], ['end', 'Where to go next']];
const PROSE = 'Attention lets each word gather what it needs from the others; the widgets below compute every number live. '.repeat(6);

function ssgPage() {
  const section = ([id, title]) => {
    const widget = { 'one-head': '<mha-blend></mha-blend>', mixing: '<mha-wo-mixing></mha-wo-mixing>' }[id] ?? '';
    return `<h2 id="${id}">${title} <a class="headerlink" href="#${id}" title="Permanent link">¶</a></h2>
<p>${PROSE}</p>${widget}<p>${PROSE}</p>`;
  };
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Attention: course notes</title>
<link rel="icon" href="data:,"><link rel="stylesheet" href="ssg.css">
<script type="module" src="../mha/multiple-heads.js"></script>
<script src="ssg.js" defer></script></head>
<body><nav class="toc" aria-label="Table of contents"><ul>
${SECTIONS.map(([id, title]) => `<li><a href="#${id}">${title}</a></li>`).join('\n')}
</ul></nav>
<main><h1>Course notes</h1>${SECTIONS.map(section).join('\n')}<p>${PROSE.repeat(4)}</p></main></body></html>`;
}

// Material for MkDocs' "anchor tracking": the hash follows the section being read.
const SSG_SCRIPT = `addEventListener('scroll', () => {
  const headings = [...document.querySelectorAll('h2[id]')].filter((h) => h.getBoundingClientRect().top <= 1);
  const id = headings.at(-1)?.id;
  if (id && location.hash !== '#' + id) history.replaceState(history.state, '', '#' + id);
}, { passive: true });`;

const SSG_CSS = `html { overflow-anchor: none; }
body { font: 16px/1.5 system-ui, sans-serif; margin: 0 1rem; }
.toc { position: fixed; top: 0; right: 0; width: 12rem; background: #fff; }
main { max-width: 46rem; }
mha-blend, mha-wo-mixing { display: block; margin: 1.5rem 0; }`;

const course = useCourseSite({ mount: 'mha', prefix: 'mha-anchors-', files: {
  'docs/attention.html': ssgPage(),
  'docs/ssg.js': SSG_SCRIPT,
  'docs/ssg.css': SSG_CSS,
  'docs/several.html': `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Several blends</title><link rel="icon" href="data:,">
<script type="module" src="../mha/multiple-heads.js"></script></head>
<body><main><h1>Several blends</h1>
<mha-blend id="b1"></mha-blend><mha-blend id="b2"></mha-blend><mha-blend id="b3"></mha-blend>
<mha-blend id="off" url-state="off"></mha-blend><mha-blend id="own" state-key="own"></mha-blend>
</main></body></html>`,
} });

const PAGE = () => `${course.url}docs/attention.html`;
const slider = (page, scope = 'mha-blend') => page.locator(scope).getByRole('slider', { name: 'One head: weight on “researcher”' });
const stateOf = (page, selector = 'mha-blend') => page.$eval(selector, (w) => JSON.stringify(w.state));
const stateInAddress = (page, key = 'blend') => page.evaluate((key) => new URL(location.href).searchParams.get(`mha.${key}`), key);
const headingTop = (page, id) => page.$eval(`#${id}`, (h) => h.getBoundingClientRect().top);

// (Only the blend, which the tests edit: widgets are built when they come near the view, and
// scrolling to the others would make the page's scroll tracker rewrite the hash.)
async function ready(page, tags = ['mha-blend']) {
  for (const tag of tags) await page.locator(`${tag}[ready]`).first().waitFor();
}

// The tests take turns with one page (pageTurns): a new document each, nothing stored.
// Those with two pages at once, a delayed wasm (a route) or the hold counter (an init
// script) keep a page of their own.
const turn = pageTurns(() => course.browser);

/** A page that counts the ends of its anchor hold (the `mha-anchor-hold-end` event), per load. */
async function watchedForHold(browser, viewport) {
  const watched = await newWatchedPage(browser, viewport);
  await watched.page.addInitScript(() => {
    window.holdEnds = 0;
    document.addEventListener('mha-anchor-hold-end', () => { window.holdEnds += 1; });
  });
  return watched;
}
/** Resolves once the page's anchor hold has ended: from then on nothing moves the page. */
const holdEnded = (page) => page.waitForFunction(() => window.holdEnds > 0);

/** A page whose wasm arrives late, as on a slow connection: widgets grow after the page is shown. */
async function slowWasm(page, ms = 1500) {
  await page.route('**/*.wasm', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route.continue();
  });
}

describe('URL state and anchors', () => {
  test('an edit keeps section links working; a table-of-contents click keeps the state; a reload shows both', async () => {
    const { page, problems } = await newWatchedPage(course.browser);
    await page.goto(PAGE());
    await ready(page);
    await slider(page).press('PageUp');
    const edited = await stateOf(page);
    await page.waitForFunction(() => location.search.includes('mha.blend'));
    assert.equal(JSON.stringify(JSON.parse(await stateInAddress(page))), edited, 'the state is in the address');
    assert.ok(!(await page.evaluate(() => location.hash)).includes('='), 'and the hash holds no state (it is free for anchors)');

    // A click in the table of contents: the section is shown and the state stays.
    await page.getByRole('navigation', { name: 'Table of contents' }).getByRole('link', { name: 'Mixing' }).click();
    assert.equal(await page.evaluate(() => location.hash), '#mixing');
    assert.ok(Math.abs(await headingTop(page, 'mixing')) <= 2, 'the section is at the top of the window');
    assert.equal(JSON.stringify(JSON.parse(await stateInAddress(page))), edited, 'the state survived the click');
    // A "¶" permalink too, and the scroll tracker's rewrites of the hash.
    await page.locator('#more .headerlink').click();
    assert.equal(await page.evaluate(() => location.hash), '#more');
    await page.mouse.wheel(0, 1500);
    await page.waitForFunction(() => location.hash !== '#more');
    assert.equal(JSON.stringify(JSON.parse(await stateInAddress(page))), edited, 'the state survived the scroll tracker');

    // What a shared link shows: the same section and the same state.
    const link = page.url();
    const other = await watchedForHold(course.browser);
    await other.page.goto(link);
    await ready(other.page);
    assert.equal(await stateOf(other.page), edited);
    const id = new URL(link).hash.slice(1);
    await holdEnded(other.page);
    assert.ok(Math.abs(await headingTop(other.page, id)) <= 2, `the shared link lands at #${id}`);
    assert.deepEqual([...problems, ...other.problems], []);
    await page.close();
    await other.page.close();
  });

  test('Back and Forward restore the state each entry was left with', async () => {
    const { page, problems } = await turn(PAGE());
    await ready(page);
    const start = await stateOf(page);
    await slider(page).press('PageUp');
    const first = await stateOf(page);
    await page.getByRole('link', { name: 'More heads' }).click();
    await slider(page).press('PageUp');
    await slider(page).press('PageUp');
    const second = await stateOf(page);
    assert.notEqual(first, start);
    assert.notEqual(second, first);

    await page.goBack();
    await page.waitForFunction((s) => JSON.stringify(document.querySelector('mha-blend').state) === s, first, { timeout: 5000 });
    await page.goForward();
    await page.waitForFunction((s) => JSON.stringify(document.querySelector('mha-blend').state) === s, second, { timeout: 5000 });
    // Undo takes back what Back did (nothing a learner made is lost).
    await page.goBack();
    await page.waitForFunction((s) => JSON.stringify(document.querySelector('mha-blend').state) === s, first, { timeout: 5000 });
    await page.locator('mha-blend').getByRole('button', { name: 'Undo', exact: true }).click();
    assert.equal(await stateOf(page), second);
    // The page's own history entry before any edit: the starting state.
    await page.goto(`${PAGE()}#intro`);
    await ready(page);
    await slider(page).press('PageUp');
    await page.getByRole('link', { name: 'Introduction' }).click(); // same hash: no new entry
    await page.getByRole('link', { name: 'Mixing' }).click();
    await slider(page).press('PageDown');
    await page.goBack();
    await page.waitForFunction(() => location.hash === '#intro');
    assert.equal(JSON.stringify(JSON.parse(await stateInAddress(page))), await stateOf(page));
    assert.deepEqual(problems, []);
  });

  test('a reload at once after a burst of edits keeps the last one; the burst makes no history entry', async () => {
    const { page, problems } = await turn(PAGE());
    await ready(page);
    // Three steps and a reload at once, twice (the address is written with each edit).
    for (let round = 0; round < 2; round += 1) {
      for (let step = 0; step < 3; step += 1) await slider(page).press('PageUp');
      const edited = await stateOf(page);
      await page.reload();
      await ready(page);
      assert.equal(await stateOf(page), edited, `round ${round + 1}: the reloaded page shows the last edit`);
      assert.equal(JSON.stringify(JSON.parse(await stateInAddress(page))), edited, 'and its address holds it');
    }
    // The address follows the edits without a new history entry.
    const length = await page.evaluate(() => history.length);
    for (let step = 0; step < 4; step += 1) await slider(page).press('PageDown');
    const edited = await stateOf(page);
    await page.waitForFunction((s) => JSON.stringify(JSON.parse(new URL(location.href).searchParams.get('mha.blend'))) === s, edited, { timeout: 5000 });
    assert.equal(await page.evaluate(() => history.length), length);
    assert.deepEqual(problems, []);
  });

  test('opened at a section below late widgets, the page lands there; old links still work', async () => {
    const { page, problems } = await watchedForHold(course.browser);
    await slowWasm(page);
    const state = { budget: [0.3, 0.3, 0.1, 0, 0.1, 0, 0.1, 0.1, 0, 0, 0] };
    const cases = [
      [`${PAGE()}?mha.blend=${encodeURIComponent(JSON.stringify(state))}#end`, 'end'],
      // The old format, and the old writer's mangled anchor.
      [`${PAGE()}#blend=${encodeURIComponent(JSON.stringify(state))}`, null],
      [`${PAGE()}#mixing=&blend=${encodeURIComponent(JSON.stringify(state))}`, 'mixing'],
    ];
    for (const [address, anchor] of cases) {
      await page.goto('about:blank');
      await page.goto(address);
      if (anchor) assert.ok(Math.abs(await headingTop(page, anchor)) <= 2, `at first the browser shows #${anchor}`);
      await ready(page);
      if (anchor) await holdEnded(page); // the widgets are drawn, the page is where it stays
      assert.deepEqual(JSON.parse(await stateOf(page)), state, address.slice(-60));
      if (anchor) {
        const top = await headingTop(page, anchor);
        assert.ok(Math.abs(top) <= 2, `#${anchor} is at the top of the window after the widgets grew (${top})`);
      }
      const url = new URL(page.url());
      assert.deepEqual(JSON.parse(url.searchParams.get('mha.blend')), state, 'the address is in the current form');
      assert.equal(url.hash, anchor ? `#${anchor}` : '');
    }
    await screenshot(page, 'url-anchors-landed', { fullPage: false }); // where the page landed
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('a host page’s own key=value hash is left alone, before and after an edit', async () => {
    // (The page without a scroll tracker: the generator's would rewrite the hash itself.)
    const { page, problems } = await turn(`${course.url}docs/several.html#tab=2&view=notes`);
    await buildAllWidgets(page);
    await page.locator('#own[ready]').waitFor();
    assert.equal(await page.evaluate(() => location.hash), '#tab=2&view=notes');
    await slider(page, '#own').press('PageUp');
    await page.waitForFunction(() => location.search.includes('mha.own'));
    assert.equal(await page.evaluate(() => location.hash), '#tab=2&view=notes');
    // (several.html's two numbered keys warn, as the last test checks.)
    assert.deepEqual(problems.filter((p) => !p.includes('URL state key')), []);
  });

  test('the reader who scrolls while widgets load keeps their place', async () => {
    const { page, problems } = await watchedForHold(course.browser);
    await slowWasm(page, 2000);
    await page.goto(`${PAGE()}#end`);
    await page.mouse.move(300, 300);
    const landed = await page.evaluate(() => scrollY);
    await page.mouse.wheel(0, -600);
    await page.waitForFunction((y) => scrollY !== y, landed);
    const scrolled = await page.evaluate(() => scrollY);
    // The core has arrived and the widgets in view are built (those far away wait for the
    // reader to come near, at their reserved height).
    await page.waitForFunction(() => {
      const widgets = [...document.querySelectorAll('mha-blend, mha-wo-mixing')];
      const inView = (el) => { const box = el.getBoundingClientRect(); return box.bottom > 0 && box.top < innerHeight; };
      return widgets.every((el) => el.engine) && widgets.filter(inView).every((el) => el.hasAttribute('ready'));
    });
    // Those still waiting say so: the core is here, they are being prepared, not loading it.
    const waiting = await page.evaluate(() => [...document.querySelectorAll('mha-blend, mha-wo-mixing')]
      .filter((el) => !el.hasAttribute('ready')).map((el) => el.shadowRoot.querySelector('.loading')?.textContent));
    assert.ok(waiting.length > 0, 'a widget far from the view waits');
    assert.deepEqual(waiting, waiting.map(() => 'Preparing the widget…'));
    await holdEnded(page); // (by the wheel; a hold that missed it would end after the widgets settle)
    // No jump back to #end (the page may still move by what grew or shrank around the reader).
    const top = await headingTop(page, 'end');
    assert.ok(Math.abs(top) > 50, `not pulled back to the anchor (#end at ${top} px)`);
    assert.ok(scrolled > 0);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('several same-kind widgets: separate keys and a warning; url-state="off" stays out of the address', async () => {
    const { page, problems } = await turn(`${course.url}docs/several.html`);
    await buildAllWidgets(page);
    await page.locator('#own[ready]').waitFor();
    for (const id of ['b1', 'b2', 'b3', 'off']) await page.locator(`#${id}[ready]`).waitFor();
    const keys = await page.$$eval('mha-blend', (all) => all.map((w) => `${w.id}:${w.getAttribute('url-state') === 'off' ? '-' : w.stateKey}`));
    assert.deepEqual(keys, ['b1:blend', 'b2:blend-2', 'b3:blend-3', 'off:-', 'own:own']);
    const warnings = problems.filter((p) => p.startsWith('console warning'));
    assert.equal(warnings.length, 2, warnings.join('\n'));
    assert.match(warnings[0], /URL state key “blend”; this <mha-blend> uses “blend-2”.*state-key/);
    assert.match(warnings[1], /uses “blend-3”/);
    assert.deepEqual(problems.filter((p) => !p.startsWith('console warning')), []);

    // Edit the second widget only: only its key is written.
    const start = await stateOf(page, '#b1');
    await slider(page, '#b2').press('PageUp');
    const edited = await stateOf(page, '#b2');
    await page.waitForFunction(() => location.search.includes('mha.blend-2'));
    const names = await page.evaluate(() => [...new URL(location.href).searchParams.keys()]);
    assert.deepEqual(names, ['mha.blend-2']);
    // The url-state="off" widget changes, the address does not: after an edit of it and then
    // one of the second widget, the address has the second's new state and still no other key.
    await slider(page, '#off').press('PageUp');
    assert.notEqual(await stateOf(page, '#off'), start);
    await slider(page, '#b2').press('PageUp');
    const second = await stateOf(page, '#b2');
    assert.notEqual(second, edited);
    await page.waitForFunction((s) => JSON.stringify(JSON.parse(new URL(location.href).searchParams.get('mha.blend-2'))) === s, second);
    assert.deepEqual(await page.evaluate(() => [...new URL(location.href).searchParams.keys()]), ['mha.blend-2']);

    await page.reload();
    await buildAllWidgets(page);
    for (const id of ['b1', 'b2', 'b3', 'off', 'own']) await page.locator(`#${id}[ready]`).waitFor();
    assert.equal(await stateOf(page, '#b2'), second, 'the second keeps its own state');
    for (const id of ['b1', 'b3', 'off', 'own']) assert.equal(await stateOf(page, `#${id}`), start, `${id} shows the start`);
  });

  test('the lesson page: heights reserved while the core loads; opened at a section, it lands there', async () => {
    for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
      const { page, problems } = await watchedForHold(course.browser, viewport);
      await slowWasm(page, 2000);
      await page.goto(`${course.url}mha/#heads-are-not-copies`);
      // The registry's widgets that the lesson shows (each must say its loadingHeight).
      const tags = await page.evaluate((tags) => tags.filter((t) => document.querySelector(t)), Object.values(WIDGETS).map((w) => w.tag));
      assert.ok(tags.length >= 5, tags.join());
      for (const tag of tags) assert.ok(Object.values(WIDGETS).find((w) => w.tag === tag).loadingHeight, `${tag}: loadingHeight in registry.js`);
      const loading = await page.evaluate((tags) => tags.map((t) => document.querySelector(t).getBoundingClientRect().height), tags);
      await buildAllWidgets(page);
      for (const tag of tags) await page.locator(`${tag}[ready]`).first().waitFor();
      await holdEnded(page);
      const built = await page.evaluate((tags) => tags.map((t) => document.querySelector(t).getBoundingClientRect().height), tags);
      tags.forEach((tag, i) => {
        const ratio = loading[i] / built[i];
        assert.ok(ratio > 0.6 && ratio < 1.6, `${tag} at ${viewport.width} px: ${Math.round(loading[i])} px reserved, ${Math.round(built[i])} px built (update loadingHeight in web/widgets/registry.js)`);
      });
      const top = await headingTop(page, 'heads-are-not-copies');
      assert.ok(Math.abs(top) <= 2, `the section is at the top (${top})`);
      assert.deepEqual(problems, []);
      await page.close();
    }
  });
});
