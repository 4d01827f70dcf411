// An author's own world (docs/WORLDS.md) in real Chromium, under the strict CSP: each
// world the package ships (dist/worlds/) loaded into every widget on a course page, with
// no code change; worlds that are wrong, or that cannot show what a widget teaches, said
// in the widget by field; a drawn widget given another world draws that one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DIST_DIR, newWatchedPage, pageTurns, screenshot, useCourseSite } from './browser.mjs';
import { axeViolations } from './axe.mjs';
import { WIDGETS } from '../../web/widgets/registry.js';

// The registry's widgets, and the practice (which takes no world, and says so).
const TAGS = [...Object.values(WIDGETS).map((widget) => widget.tag), 'mha-practice'];
const WORLDS = readdirSync(path.join(DIST_DIR, 'worlds')).filter((name) => name.endsWith('.json'));
const worldData = (name) => JSON.parse(readFileSync(path.join(DIST_DIR, 'worlds', name), 'utf8'));
const SCRIPT = '<script type="module" src="course/attention/multiple-heads.js"></script>';
const page = (title, body, lang = 'en') => `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${title}</title><link rel="icon" href="data:,">${SCRIPT}</head><body><main><h1>${title}</h1><h2>The widgets</h2>${body}</main></body></html>`;

// A world that breaks one rule per widget, inline in the attribute (quotes escaped for HTML).
const broken = () => {
  const world = worldData('lesson.json');
  world.heads[1].query.verb = [0, 1];
  return world;
};
const withoutReader = () => {
  const world = worldData('lesson.json');
  delete world.reader;
  return world;
};
const attr = (world) => JSON.stringify(world).replaceAll('&', '&amp;').replaceAll("'", '&#39;');

const course = useCourseSite({
  mount: 'course/attention',
  prefix: 'mha-worlds-',
  files: () => ({
    ...Object.fromEntries(WORLDS.map((name) => [`${name}.html`, page(`World ${name}`,
      TAGS.map((tag) => `<${tag} world="course/attention/worlds/${name}" loading="eager"></${tag}>`).join('\n'),
      worldData(name).language ?? 'en')])),
    'long.html': page('A long sentence on a phone', '<mha-layer world="course/attention/worlds/german.json" loading="eager"></mha-layer>'),
    'wrong.html': page('Worlds that are wrong', [
      `<mha-layer id="not-json" state-key="not-json" world='{"formatVersion": 1, "sentence": oops}' loading="eager"></mha-layer>`,
      '<mha-layer id="missing" state-key="missing" world="course/attention/worlds/no-such-world.json" loading="eager"></mha-layer>',
      `<mha-layer id="short-row" state-key="short-row" world='${attr(broken())}' loading="eager"></mha-layer>`,
      `<mha-blend id="no-reader" state-key="no-reader" world='${attr(withoutReader())}' loading="eager"></mha-blend>`,
      `<mha-layer id="fine" state-key="fine" world='${attr(withoutReader())}' loading="eager"></mha-layer>`,
      `<mha-blend id="no-reader-de" state-key="no-reader-de" lang="de" world='${attr(withoutReader())}' loading="eager"></mha-blend>`,
      `<mha-wo-mixing id="mix-fine" state-key="mix-fine" world='${attr(withoutReader())}' loading="eager"></mha-wo-mixing>`,
    ].join('\n')),
  }),
});

/** Waits until every widget on the page is ready or shows why not; returns what each shows. */
async function settle(pageHandle) {
  await pageHandle.waitForFunction(() => [...document.querySelectorAll('main > *')].filter((el) => el.localName.startsWith('mha-'))
    .every((el) => el.hasAttribute('ready') || el.shadowRoot?.querySelector('.widget > .error, .widget > .cannot-show')), null, { timeout: 90000 });
  return pageHandle.evaluate(() => [...document.querySelectorAll('main > *')].filter((el) => el.localName.startsWith('mha-')).map((el) => ({
    tag: el.localName, id: el.id, ready: el.hasAttribute('ready'),
    text: el.shadowRoot.textContent.replace(/\s+/g, ' '),
    notice: el.shadowRoot.querySelector('.notice:not([hidden])')?.textContent ?? '',
    problem: el.shadowRoot.querySelector('.widget > .error, .widget > .cannot-show')?.textContent ?? '',
  })));
}

for (const name of WORLDS) {
  test(`${name}: every widget draws it, from its URL, with no code change`, async () => {
    const world = worldData(name);
    const { page: tab, problems } = await newWatchedPage(course.browser, { width: 1100, height: 900 });
    tab.context().on('response', (response) => { if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`); });
    tab.context().on('requestfailed', (request) => problems.push(`failed ${request.url()}`));
    await tab.goto(`${course.url}${name}.html`);
    const shown = await settle(tab);
    assert.deepEqual(shown.filter((w) => !w.ready).map((w) => `${w.tag}: ${w.problem}`), [], 'every widget ready');
    const of = (tag) => shown.find((w) => w.tag === tag);
    // The world's own words and heads are what the widgets show.
    assert.ok(of('mha-layer').text.includes(world.tokens[1]), 'the layer lists the world\'s tokens');
    assert.ok(of('mha-heads-questions').text.includes(world.heads[0].name), 'the heads have the world\'s names');
    assert.ok(of('mha-blend').text.includes(world.reader.subjects[1].word), 'the blend reads the world\'s candidates');
    assert.ok(of('mha-wo-mixing').text.includes(world.heads[1].name), 'W_O\'s presets name the world\'s heads');
    // Training and practice do not use a world, and say so.
    assert.match(of('mha-training').notice, /world/);
    assert.match(of('mha-practice').text, /world attribute does not change them|Attribut world ändert sie nicht/);
    if (name !== 'lesson.json') assert.ok(!of('mha-layer').text.includes('researcher'), 'nothing of the lesson\'s sentence');
    await screenshot(tab, `world-${name.replace('.json', '')}`);
    assert.deepEqual(problems, []);
    await tab.close();
  });
}

// The tests from here take turns with one page (pageTurns): a new document each, nothing
// stored. (Those above keep pages of their own: they listen to the page's responses.)
const turn = pageTurns(() => course.browser);

test('wrong worlds are said in the widget by field and fix; a world without a reader is said to the blend only', async () => {
  const { page: tab, problems } = await turn(`${course.url}wrong.html`, { width: 1000, height: 900 });
  const shown = Object.fromEntries((await settle(tab)).map((w) => [w.id, w]));
  assert.match(shown['not-json'].problem, /cannot use its world: The world attribute is not valid JSON \(.*oops/);
  assert.match(shown.missing.problem, /could not be loaded: the server answered 404/);
  assert.match(shown['short-row'].problem, /heads\[1\]\.query\["verb"\]: expected 3 numbers, found 2/);
  assert.match(shown['no-reader'].problem, /cannot show its lesson with this world: the world has no "reader"/);
  assert.equal(shown.fine.ready, true, 'the layer needs no reader');
  // In the widget's language, naming the field.
  assert.match(shown['no-reader-de'].problem, /Mit dieser Welt kann dieses Widget seine Lektion nicht zeigen: Die Welt hat keinen „reader“/);
  // W_O mixing needs no reader: its try-it cell is the second head's first coordinate,
  // brought into the column of the first head's (the world's own "shared" preset).
  assert.equal(shown['mix-fine'].ready, true, 'W_O mixing needs no reader');
  const lesson = worldData('lesson.json');
  const dK = lesson.features.length / lesson.heads.length;
  assert.match(shown['mix-fine'].text, new RegExp(`cell in row ${dK + 1}, column 1 upwards`));
  assert.deepEqual(await axeViolations(tab, { within: 'main' }), []);
  // The 404 is the browser's console line for the failed fetch; nothing else.
  assert.deepEqual(problems.filter((p) => !/404/.test(p)), []);
});

test('a drawn widget given another world draws that one, from its start; so does one whose world was wrong', async () => {
  const other = WORLDS.find((name) => name !== 'lesson.json');
  const { page: tab, problems } = await turn(`${course.url}wrong.html`);
  await settle(tab);
  const layer = tab.locator('#fine');
  await layer.evaluate((el, url) => el.setAttribute('world', url), `course/attention/worlds/${other}`);
  const token = worldData(other).tokens[1];
  await tab.waitForFunction((word) => {
    const el = document.querySelector('#fine');
    return el.hasAttribute('ready') && el.shadowRoot.textContent.includes(word);
  }, token, { timeout: 60000 });
  // The widget that could not use its world draws the one it is given next.
  await tab.locator('#short-row').evaluate((el, url) => el.setAttribute('world', url), `course/attention/worlds/${other}`);
  await tab.waitForFunction((word) => {
    const el = document.querySelector('#short-row');
    return el.hasAttribute('ready') && el.shadowRoot.textContent.includes(word) && !el.shadowRoot.querySelector('.widget > .error');
  }, token, { timeout: 60000 });
  // A widget waiting far below the view (built when it comes near) whose world changes
  // meanwhile draws the new one when it is built.
  await tab.evaluate(() => {
    const spacer = Object.assign(document.createElement('div'), { style: 'height: 6000px' });
    const late = Object.assign(document.createElement('mha-layer'), { id: 'late' });
    late.setAttribute('state-key', 'late');
    late.setAttribute('world', 'course/attention/worlds/lesson.json');
    document.querySelector('main').append(spacer, late);
  });
  await tab.waitForTimeout(0);
  await tab.locator('#late').evaluate((el, url) => el.setAttribute('world', url), `course/attention/worlds/${other}`);
  await tab.locator('#late').scrollIntoViewIfNeeded();
  await tab.waitForFunction((word) => {
    const el = document.querySelector('#late');
    return el.hasAttribute('ready') && el.shadowRoot.textContent.includes(word);
  }, token, { timeout: 60000 });
  assert.deepEqual(problems.filter((p) => !/404/.test(p)), []);
});

test('a longer sentence on a phone: what scrolls sideways is reachable by keyboard (axe)', async () => {
  const { page: tab, problems } = await turn(`${course.url}long.html`, { width: 390, height: 800 });
  await settle(tab);
  const regions = await tab.locator('mha-layer').evaluate((el) => [...el.shadowRoot.querySelectorAll('.ui-scroll[role="region"]')]
    .map((box) => ({ name: box.getAttribute('aria-label'), tab: box.tabIndex, overflows: box.scrollWidth > box.clientWidth })));
  assert.ok(regions.length > 0, 'some picture is wider than the phone');
  assert.ok(regions.every((r) => r.tab === 0 && r.overflows && / \(scrolls sideways\)$/.test(r.name)), JSON.stringify(regions));
  assert.deepEqual(await axeViolations(tab, { within: 'mha-layer' }), []);
  assert.deepEqual(problems, []);
});
