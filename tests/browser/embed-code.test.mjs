// Issue 14, item 5: "Copy embed code" on the lesson page (web/widgets/shared/embed-code.js).
//   * every widget offers one Embed button: the page's, just before the widget (the widget
//     keeps at most 15 tab stops of its own), no page length at 1280, 1100, 390 or 320 px,
//     a 44 px square beside the widget where the page is wide, a 24 px tab on its top edge
//     where it is not;
//   * its dialog gives the inline element and the iframe with the widget's current state;
//     Copy puts the text on the clipboard and says so; without clipboard access the text
//     is selected and the learner told what happened;
//   * pasted into a fresh page with the package script, the inline element shows the same
//     state; so does the pasted iframe (with the resizer sizing it);
//   * axe finds nothing with the dialog open, light and dark.
import assert from 'node:assert/strict';
import { roundedNumbers } from '../../web/widgets/shared/rounded-numbers.js';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { buildAllWidgets, newWatchedPage, pageTurns, screenshot, useCourseSite, watchedPageAt } from './browser.mjs';
import { WIDGETS } from '../../web/widgets/registry.js';
import { axeViolations } from './axe.mjs';

// The lesson site under /lesson/, and the course author's own pages beside it.
const course = useCourseSite({ mount: 'lesson', prefix: 'mha-embed-code-' });

const LESSON = () => `${course.url}lesson/`;

// The tests take turns with one page (pageTurns): a new document each, nothing stored.
// `own`: a page of its own, with the clipboard granted (a permission the shared page's
// context would keep), for tests that copy, or a page a later test goes on with.
const turn = pageTurns(() => course.browser);
async function openLesson(viewport = { width: 1280, height: 800 }, scheme = 'light', { own = false } = {}) {
  const media = { colorScheme: scheme };
  const { page, problems } = own ? await watchedPageAt(course.browser, LESSON(), viewport, media) : await turn(LESSON(), viewport, media);
  // (Checked when the page copies, not when it loads.)
  if (own) await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: course.url });
  await buildAllWidgets(page);
  // The lesson's widgets: the registry's that are on the page.
  const tags = await page.evaluate((all) => all.filter((tag) => document.querySelector(tag)), Object.values(WIDGETS).map((w) => w.tag));
  for (const tag of tags) await page.locator(`${tag}[ready]`).first().waitFor();
  return { page, problems, tags };
}

// A widget's title as its Embed button names it: with its panels where the lesson cuts it
// into panels (lesson.md; the first element of the tag, the one these tests use).
const LESSON_MD = readFileSync(new URL('../../lessons/multiple-heads/lesson.md', import.meta.url), 'utf8');
const titleOf = (tag) => {
  const title = Object.values(WIDGETS).find((w) => w.tag === tag).title;
  const panels = new RegExp(`<${tag}(?: [^>]*)?>`).exec(LESSON_MD)?.[0].match(/panels="([^"]*)"/)?.[1];
  return panels ? `${title}: ${new Intl.ListFormat('en', { type: 'conjunction' }).format(panels.split(' '))}` : title;
};
// The button is the page's, just before the widget (not one of the widget's tab stops).
const embedButton = (page, tag) => page.getByRole('button', { name: `Embed code for the widget “${titleOf(tag)}”`, exact: true });
const dialogOf = (page, tag) => page.getByRole('dialog', { name: `Embed “${titleOf(tag)}” as it is now` });

// Elements reachable with Tab inside a widget's shadow root (as in one-screen.test.mjs).
const TAB_STOPS = `(root) => [...root.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]')]
  .filter((el) => el.tabIndex >= 0 && !el.disabled && !el.closest('[hidden], details:not([open]) > :not(summary)')
    && (el.getClientRects().length > 0 || el.classList.contains('skip-widget')))`;

async function pageLength(page, tags, shown) {
  await page.evaluate(([tags, shown]) => {
    for (const tag of tags) document.querySelector(tag).parentElement.querySelector('.embed-open').hidden = !shown;
  }, [tags, shown]);
  return page.evaluate(() => document.documentElement.scrollHeight);
}

describe('copy embed code', () => {
  // The first test's lesson at 1280 x 800, left as it was loaded, for the dialog test.
  let at1280 = null;

  test('one Embed button per widget: one tab stop, no page length on phones, 44 px beside wide widgets', async () => {
    for (const viewport of [{ width: 1280, height: 800 }, { width: 1100, height: 800 }, { width: 390, height: 844 }, { width: 320, height: 700 }]) {
      // (At 1280 px a page of its own: the dialog test goes on with it.)
      const { page, problems, tags } = await openLesson(viewport, 'light', { own: viewport.width === 1280 });
      assert.ok(tags.length >= 5);
      for (const tag of tags) {
        assert.equal(await embedButton(page, tag).count(), 1, `${tag} has one Embed button`);
        const stops = await page.evaluate(`(${TAB_STOPS})(document.querySelector('${tag}').shadowRoot).length`);
        assert.ok(stops <= 15, `${tag} at ${viewport.width} px: ${stops} tab stops`);
        const box = await embedButton(page, tag).boundingBox();
        const widget = await page.locator(tag).first().boundingBox();
        if (viewport.width >= 900) {
          assert.ok(box.width >= 44 && box.height >= 44, `${tag}: ${box.width} x ${box.height}`);
          assert.ok(box.x >= widget.x + widget.width && box.x + box.width <= viewport.width, `${tag}: beside the widget, on the page`);
        } else {
          assert.ok(box.height >= 24 && box.width >= 44, `${tag}: ${box.width} x ${box.height}`);
          assert.ok(box.x + box.width <= widget.x + widget.width, `${tag}: within the widget's width`);
        }
      }
      const withButtons = await pageLength(page, tags, true);
      const without = await pageLength(page, tags, false);
      assert.equal(withButtons, without, `at ${viewport.width} px the Embed buttons add no page length`);
      await pageLength(page, tags, true);
      if (viewport.width === 390) {
        await page.locator('mha-layer').evaluate((w) => { w.scrollIntoView(); scrollBy(0, -40); });
        await screenshot(page, 'embed-code-button-390', { fullPage: false });
      }
      assert.deepEqual(problems, []);
      if (viewport.width === 1280) at1280 = { page, problems, tags };
    }
  });

  test('the dialog: the current state in both snippets; Copy says it copied; Escape returns focus', async () => {
    const { page, problems, tags } = at1280 ?? await openLesson(undefined, 'light', { own: true });
    await page.locator('mha-blend').getByRole('slider', { name: 'One head: weight on “researcher”' }).press('PageUp');
    const exact = await page.$eval('mha-blend', (w) => w.state);
    // The snippet's numbers: six significant digits (a PageUp leaves float noise in the budget).
    const state = roundedNumbers(exact);
    assert.ok(JSON.stringify(exact).length > JSON.stringify(state).length, `the state has long numbers to round: ${JSON.stringify(exact)}`);
    // The dialogs are made when first asked for (issue 25: made for every widget at load, they
    // cost the page's first second 70 ms), so the page has none before this click.
    assert.equal(await page.locator('dialog.embed-dialog').count(), 0, 'no dialog made before an Embed button is pressed');
    await embedButton(page, 'mha-blend').click();
    const dialog = dialogOf(page, 'mha-blend');
    await dialog.waitFor();
    assert.equal(await page.locator('dialog.embed-dialog').count(), 1, 'one dialog: the pressed button’s');
    const inline = await dialog.getByRole('textbox', { name: 'Inline element' }).inputValue();
    const iframe = await dialog.getByRole('textbox', { name: 'Iframe' }).inputValue();
    assert.match(inline, new RegExp(`^<script type="module" src="${LESSON()}multiple-heads\\.js"></script>\\n<mha-blend state='[^']+'></mha-blend>$`));
    assert.deepEqual(JSON.parse(/state='([^']+)'/.exec(inline)[1].replaceAll('&#39;', "'").replaceAll('&amp;', '&')), state);
    assert.match(iframe, new RegExp(`^<script type="module" src="${LESSON()}embed-resizer\\.js"></script>\\n<iframe title="One head, one average" src="${LESSON()}embed\\.html\\?widget=blend&amp;state=[^"]+" width="100%" height="\\d+"></iframe>$`));
    const src = new URL(/src="([^"]+embed\.html[^"]+)"/.exec(iframe)[1].replaceAll('&amp;', '&'));
    assert.deepEqual(JSON.parse(src.searchParams.get('state')), state);

    await dialog.getByRole('button', { name: 'Copy the inline element' }).click();
    await assert.doesNotReject(dialog.getByText('Copied the inline element to the clipboard.').waitFor());
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), inline);
    await screenshot(page, 'embed-code-dialog', { fullPage: false });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('embed-open')), true, 'focus is back on the Embed button');

    // Every widget's inline code carries its own state.
    for (const tag of tags) {
      await embedButton(page, tag).click();
      const code = await dialogOf(page, tag).getByRole('textbox', { name: 'Inline element' }).inputValue();
      const expected = roundedNumbers(await page.$eval(tag, (w) => w.state));
      assert.deepEqual(JSON.parse(new RegExp(`<${tag}[^>]* state='([^']+)'>`).exec(code)[1].replaceAll('&#39;', "'").replaceAll('&amp;', '&')), expected, tag);
      await dialogOf(page, tag).getByRole('button', { name: 'Close' }).click();
    }
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('without clipboard access the code is selected and the learner told so', async () => {
    const { page, problems } = await openLesson();
    await page.evaluate(() => {
      Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.reject(new Error('denied')) } });
    });
    await embedButton(page, 'mha-wo-mixing').click();
    const dialog = dialogOf(page, 'mha-wo-mixing');
    await dialog.getByRole('button', { name: 'Copy the iframe' }).click();
    const status = dialog.getByRole('status');
    await page.waitForFunction((tag) => document.querySelector(tag).parentElement.querySelector('.embed-status').textContent !== '', 'mha-wo-mixing');
    assert.match(await status.textContent(), /^(Copied the iframe to the clipboard\.|The iframe is selected: press Ctrl\+C)/);
    const selection = await page.$eval('mha-wo-mixing', (w) => {
      const area = w.parentElement.querySelector('textarea[id$="-iframe"]');
      return { all: area.selectionStart === 0 && area.selectionEnd === area.value.length, focused: document.activeElement === area };
    });
    assert.deepEqual(selection, { all: true, focused: true });
    assert.deepEqual(problems, []);
  });

  test('pasted into a fresh page, the inline element and the iframe show the same state', async () => {
    const { page, problems } = await openLesson(undefined, 'light', { own: true });
    await page.locator('mha-blend').getByRole('slider', { name: 'One head: weight on “researcher”' }).press('PageUp');
    await page.locator('mha-blend').getByRole('slider', { name: 'One head: weight on “researcher”' }).press('PageUp');
    const state = roundedNumbers(await page.$eval('mha-blend', (w) => w.state));
    const headline = await page.locator('mha-blend .headline').textContent();
    await embedButton(page, 'mha-blend').click();
    const dialog = dialogOf(page, 'mha-blend');
    // The author's course is on the lesson's own site: addresses from the site's root.
    await dialog.getByRole('radio', { name: /^On a page of this site/ }).check();
    const pasted = {};
    for (const kind of ['inline element', 'iframe']) {
      await dialog.getByRole('button', { name: `Copy the ${kind}` }).click();
      await dialog.getByText(`Copied the ${kind} to the clipboard.`).waitFor();
      pasted[kind] = await page.evaluate(() => navigator.clipboard.readText());
    }
    const author = (name, snippet) => course.write(name, `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>My course</title><link rel="icon" href="data:,"></head>
<body><main><h1>My course</h1><p>Some prose of mine.</p>
${snippet}
</main></body></html>`);
    assert.match(pasted['inline element'], /^<script type="module" src="\/lesson\/multiple-heads\.js"><\/script>\n<mha-blend /);
    assert.match(pasted.iframe, /^<script type="module" src="\/lesson\/embed-resizer\.js"><\/script>\n<iframe [^>]*src="\/lesson\/embed\.html\?widget=blend&amp;/);
    author('inline.html', pasted['inline element']);
    author('framed.html', pasted.iframe);

    const fresh = await newWatchedPage(course.browser);
    await fresh.page.goto(`${course.url}inline.html`);
    await fresh.page.locator('mha-blend[ready]').waitFor();
    assert.deepEqual(await fresh.page.$eval('mha-blend', (w) => w.state), state, 'inline: the same state');
    assert.equal(await fresh.page.locator('mha-blend .headline').textContent(), headline);

    await fresh.page.goto(`${course.url}framed.html`);
    const frame = fresh.page.frameLocator('iframe');
    await frame.locator('mha-blend[ready]').waitFor();
    assert.deepEqual(await frame.locator('mha-blend').evaluate((w) => w.state), state, 'iframe: the same state');
    assert.equal(await frame.locator('mha-blend .headline').textContent(), headline);
    // The resizer gives the frame the widget's height, and the frame is as wide as the column.
    await fresh.page.waitForFunction(() => {
      const frameElement = document.querySelector('iframe');
      // (width 100% is the content box; the frame's default 2 px border comes on top.)
      return Math.abs(frameElement.clientWidth - document.querySelector('main').clientWidth) < 1
        && frameElement.getBoundingClientRect().height > 500;
    });
    await screenshot(fresh.page, 'embed-code-pasted-iframe');
    assert.deepEqual([...problems, ...fresh.problems], []);
    await page.close();
    await fresh.page.close();
  });

  for (const scheme of ['light', 'dark']) {
    test(`axe: no violations with an Embed dialog open (${scheme})`, async () => {
      const { page, problems } = await openLesson({ width: 1280, height: 800 }, scheme);
      await embedButton(page, 'mha-heads-questions').click();
      await dialogOf(page, 'mha-heads-questions').waitFor();
      const found = await axeViolations(page);
      assert.deepEqual(found, []);
      if (scheme === 'dark') await screenshot(page, 'embed-code-dialog-dark', { fullPage: false });
      assert.deepEqual(problems, []);
    });
  }
});
