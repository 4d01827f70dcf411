// What a course author relies on: the example course page (two inline widgets and one in a
// sandboxed iframe), dist/ served from a sub-path, state that round-trips through a URL,
// hostile URLs, and widgets moved around a page.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildAllWidgets, newWatchedPage, pageTurns, screenshot, useCourseSite } from './browser.mjs';
import { WIDGET_TAGS } from '../../web/widgets/registry.js';

const SUB_PATH = 'course/attention/';
// A site whose course lives under /course/attention/ (dist/ mounted there), with a host
// page at the root that embeds a widget in a sandboxed iframe.
const course = useCourseSite({ mount: SUB_PATH.slice(0, -1), prefix: 'mha-site-', files: { 'sandboxed.html': `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sandboxed embed</title>
<link rel="icon" href="data:,">
<script type="module" src="${SUB_PATH}embed-resizer.js"></script></head>
<body><main><h1>Sandboxed</h1>
<iframe id="frame" title="One head, one average" sandbox="allow-scripts"
  src="${SUB_PATH}embed.html?widget=blend"></iframe></main></body></html>` } });

const readout = (scope) => scope.locator('mha-blend .headline').textContent();
// One edit of the blend: a step up of the one head's weight on “researcher” (its budget bar).
const stepSubject = (scope) => scope.locator('mha-blend').getByRole('slider', { name: 'One head: weight on “researcher”' }).press('PageUp');

// The tests take turns with one page (pageTurns): a new document each, nothing stored.
// (Those with two pages at once, or a listener of their own, keep a page of their own.)
const turn = pageTurns(() => course.browser);

describe('embedding', () => {
  test('the example course page: two inline widgets and a sandboxed iframe, together', async () => {
    const { page, problems } = await turn(`${course.url}${SUB_PATH}examples/course.html`);
    await buildAllWidgets(page);
    await page.locator('mha-blend[ready]').waitFor();
    await page.locator('mha-wo-mixing[ready]').waitFor();
    const frame = page.frameLocator('iframe');
    await frame.locator('mha-head-splitting[ready]').waitFor();
    // The frame reported its height and the resizer applied it.
    await page.waitForFunction(() => document.querySelector('iframe').getBoundingClientRect().height > 650);
    // The inline widgets share one engine: editing one leaves the other working.
    await stepSubject(page);
    assert.match(await readout(page), /One head: who said it\? 12 of 16;/);
    await screenshot(page, 'embedding-course-page');
    assert.deepEqual(problems, []);
  });

  test('dist/ works from a sub-path: lesson page and embed page', async () => {
    const { page, problems } = await turn(`${course.url}${SUB_PATH}`);
    await buildAllWidgets(page);
    for (const tag of WIDGET_TAGS) {
      await page.locator(`${tag}[ready]`).first().waitFor();
    }
    await page.goto(`${course.url}${SUB_PATH}embed.html?widget=wo-mixing`);
    await page.locator('mha-wo-mixing[ready]').waitFor();
    assert.deepEqual(problems, []);
  });

  test('a widget in <iframe sandbox="allow-scripts"> works and sizes its frame', async () => {
    const { page, problems } = await turn(`${course.url}sandboxed.html`);
    const frame = page.frameLocator('#frame');
    await frame.locator('mha-blend[ready]').waitFor();
    await stepSubject(frame);
    assert.match(await readout(frame), /One head: who said it\? 12 of 16;/);
    // The frame grows from its default 150 px to the widget's own height (within the
    // resizer's rounding), told by the frame's page through postMessage.
    const inner = await frame.locator('body').evaluate(() => document.documentElement.scrollHeight);
    assert.ok(inner > 600, `the blend inside the frame is ${inner} px tall`);
    await page.waitForFunction((h) => Math.abs(document.getElementById('frame').getBoundingClientRect().height - h) <= 4, inner);
    assert.deepEqual(problems, []);
  });

  test('state round-trips through the URL', async () => {
    const { page, problems } = await newWatchedPage(course.browser);
    await page.goto(`${course.url}${SUB_PATH}embed.html?widget=blend`);
    await page.locator('mha-blend[ready]').waitFor();
    await stepSubject(page);
    const shown = await readout(page);
    const state = await page.locator('mha-blend').evaluate((el) => el.state);
    const url = page.url();
    assert.match(url, /[?&]mha\.blend=/, 'the state is in the address (lesson-state.js)');
    const other = await newWatchedPage(course.browser);
    await other.page.goto(url);
    await other.page.locator('mha-blend[ready]').waitFor();
    assert.equal(await readout(other.page), shown, 'the shared link shows exactly the same');
    assert.deepEqual(await other.page.locator('mha-blend').evaluate((el) => el.state), state);
    assert.equal(state.budget[1], 0.57);
    assert.deepEqual([...problems, ...other.problems], []);
  });

  test('hostile or malformed URLs give defaults and a notice, never markup or errors', async () => {
    const { page, problems } = await newWatchedPage(course.browser);
    let dialogs = 0;
    page.on('dialog', (dialog) => { dialogs++; dialog.dismiss(); });
    const base = `${course.url}${SUB_PATH}embed.html`;
    const cases = [
      ['?widget=<img src=x onerror=alert(1)>', /Unknown widget/],
      ['?widget=__proto__', /Unknown widget/],
      ['?widget=blend&onload=alert(1)&query=said', /Ignored unknown parameters: onload/],
      ['?widget=blend#blend=not-json', /not valid JSON/],
      ['?widget=blend#blend={"query":99}', /ignored \(unknown field “query”/],
      ['?widget=blend#blend={"budget":[1,0,0]}', /ignored \(budget: expected 11 weights/],
      ['?widget=blend&config={"valueWidth":0}', /Ignored “config”/],
      ['?widget=blend#blend={"__proto__":{"x":1},"query":6}', /ignored/],
      [`?widget=blend#blend=${'9'.repeat(30000)}`, /too long/],
      ['?widget=blend&state={"mode":"<b>x</b>"}', /state attribute was ignored/],
      ['?widget=blend&sentence=<script>alert(1)</script>&query=said', /Ignored unknown parameters: sentence, query/],
    ];
    for (const [suffix, expected] of cases) {
      await page.goto('about:blank'); // a fresh document each time, not a fragment change
      await page.goto(base + suffix);
      const text = await page.waitForFunction(() => {
        const root = document.getElementById('embed-root');
        const widget = [...root.children].find((e) => e.shadowRoot)?.shadowRoot;
        const inWidget = widget?.querySelector('.notice:not([hidden]), .error')?.textContent;
        const own = root.querySelector('.embed-error')?.textContent;
        return inWidget || own || null;
      }, null, { timeout: 5000 }).then((handle) => handle.jsonValue());
      assert.match(text, expected, suffix.slice(0, 60));
      const injected = await page.evaluate(() => document.querySelectorAll('img, script:not([src])').length
        + [...document.querySelectorAll('*')].filter((e) => e.shadowRoot).reduce(
          (n, e) => n + e.shadowRoot.querySelectorAll('img, script').length
            + [...e.shadowRoot.querySelectorAll('b')].filter((b) => b.textContent === 'x').length, 0));
      assert.equal(injected, 0, `no markup injected by ${suffix.slice(0, 60)}`);
    }
    await screenshot(page, 'embedding-hostile-url');
    assert.equal(dialogs, 0);
    assert.deepEqual(problems, []);
  });

  test('a widget removed and put back keeps working and frees its models', async () => {
    const { page, problems } = await turn(`${course.url}${SUB_PATH}examples/course.html`);
    await buildAllWidgets(page);
    await page.locator('mha-blend[ready]').waitFor();
    const live = () => page.evaluate(async () => (await import('../multiple-heads.js')).sharedEngine().then((e) => e.liveModels));
    const before = await live();
    await page.evaluate(() => {
      const blend = document.querySelector('mha-blend');
      const parent = blend.parentElement;
      blend.remove();
      window.detached = blend;
      return parent.tagName;
    });
    await page.waitForFunction(() => !window.detached.hasAttribute('ready'));
    assert.ok((await live()) < before, 'removing a widget deletes its models');
    await page.evaluate(() => document.querySelector('main').append(window.detached));
    await buildAllWidgets(page);
    await page.locator('mha-blend[ready]').waitFor();
    assert.equal(await live(), before);
    await stepSubject(page);
    assert.match(await readout(page), /One head: who said it\? 12 of 16;/);
    assert.deepEqual(problems, []);
  });

  test('panels and readonly: an author shows one panel of each widget, with nothing editable', async () => {
    const { page, problems } = await turn('about:blank'); // (each case loads its own below)
    for (const [widget, tag, panel] of [['blend', 'mha-blend', 'two-heads'], ['head-splitting', 'mha-head-splitting', 'counts'],
      ['wo-mixing', 'mha-wo-mixing', 'output'], ['heads-questions', 'mha-heads-questions', 'heatmaps']]) {
      await page.goto('about:blank');
      await page.goto(`${course.url}${SUB_PATH}embed.html?widget=${widget}&panels=${panel}&readonly`);
      await page.locator(`${tag}[ready]`).first().waitFor();
      const seen = await page.evaluate((tag) => {
        const root = document.querySelector(tag).shadowRoot;
        const visible = (el) => el.getClientRects().length > 0;
        return {
          // Several elements may share one panel name (the heads-questions maps do).
          panels: [...new Set([...root.querySelectorAll('[data-panel]')].filter(visible).map((el) => el.dataset.panel))],
          editable: [...root.querySelectorAll('input, select, button, textarea')]
            .filter((el) => visible(el) && !el.disabled && !el.readOnly).map((el) => el.outerHTML.slice(0, 80)),
        };
      }, tag);
      assert.deepEqual(seen.panels, [panel], `${widget}: only the ${panel} panel`);
      assert.deepEqual(seen.editable, [], `${widget}: nothing editable`);
    }
    assert.deepEqual(problems, []);
  });
});
