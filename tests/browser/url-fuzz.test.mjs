// Fuzz of the URL state parser and the widgets' state checks: random and crafted addresses
// (MHA_URL_FUZZ_COUNT, default 10,000) in the current form (?mha.<key>=<JSON>#anchor), the
// old one (#<key>=<JSON>, #section=&<key>=<JSON>) and as noise are parsed in the lesson page
// exactly as on load (readLessonState, then each widget's sanitizeState, then setState for
// what passes); every 25th is also made the page's address and announced as a Back/Forward
// (popstate), which the widgets answer themselves. Every string must end in a state or a
// refusal with a message: no exception of another kind, no markup injected, no console
// error, and every widget still works afterwards.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildAllWidgets, newWatchedPage, useSiteAndBrowser } from './browser.mjs';
import { WIDGET_TAGS } from '../../web/widgets/registry.js';

const COUNT = Number(process.env.MHA_URL_FUZZ_COUNT ?? 10000);
const session = useSiteAndBrowser();

// Deterministic generator of hostile hashes, mutated from the widgets' real states.
function* hashes(validStates, count, seed = 12345) {
  let s = seed;
  const rand = () => ((s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const nasty = ['<img src=x onerror=alert(1)>', '</script><script>alert(1)</script>', '"><svg onload=alert(1)>',
    'javascript:alert(1)', '__proto__', 'constructor', 'NaN', 'Infinity', '-Infinity', '1e999', '-0', '0x10', '',
    '%', '%E0%A4%A', '&&&', '===', '#', '\u0000', '\u202e', '😀', 'null', 'true', '[]', '{}', '9'.repeat(400)];
  const values = [null, true, false, 0, -1, 1e308, -1e308, 1e-320, 3.5, 'x', [], {}, [1, 2], { a: 1 }, '<b>x</b>'];
  const mutate = (value, depth = 0) => {
    if (depth > 3 || rand() < 0.15) return pick(values.concat(nasty));
    if (Array.isArray(value)) {
      const copy = value.map((v) => (rand() < 0.1 ? mutate(v, depth + 1) : v));
      if (rand() < 0.2) copy.length = Math.floor(rand() * (copy.length + 3));
      return copy;
    }
    if (value && typeof value === 'object') {
      const copy = {};
      for (const [k, v] of Object.entries(value)) {
        if (rand() < 0.1) continue; // drop a key
        copy[rand() < 0.05 ? pick(nasty) : k] = rand() < 0.3 ? mutate(v, depth + 1) : v;
      }
      if (rand() < 0.1) copy[pick(['__proto__', 'extra', 'constructor'])] = mutate({}, depth + 1);
      return copy;
    }
    if (typeof value === 'number') return rand() < 0.5 ? value * pick([-1, 1e6, 1e-6, 0, 1e300]) : pick(values);
    return pick(values.concat(nasty));
  };
  const keys = Object.keys(validStates);
  const anchors = ['', '#the-question', '#heads-are-not-copies', `#${pick(nasty)}`, '#', '#%', '#a=b'];
  const noise = (first) => {
    let text = first;
    const n = Math.floor(rand() * 60);
    for (let j = 0; j < n; j++) text += String.fromCharCode(Math.floor(rand() * (rand() < 0.9 ? 128 : 0xffff)));
    return text;
  };
  for (let i = 0; i < count; i++) {
    const r = rand();
    const key = pick(keys);
    const text = JSON.stringify(mutate(validStates[key])) ?? 'undefined';
    const value = rand() < 0.7 ? encodeURIComponent(text) : text;
    if (r < 0.35) {
      // The current form, among a host's parameters, with an anchor.
      const host = rand() < 0.3 ? `id=${encodeURIComponent(pick(nasty))}&` : '';
      yield `?${host}mha.${rand() < 0.05 ? pick(nasty) : key}=${value}${rand() < 0.3 ? `&mha.${pick(keys)}=${encodeURIComponent(pick(nasty))}` : ''}${pick(anchors)}`;
    } else if (r < 0.6) {
      // The old form, with or without the old writer's leading anchor.
      yield `#${rand() < 0.3 ? `${pick(['the-question', pick(nasty)])}=&` : ''}${key}=${value}`;
    } else if (r < 0.8) {
      yield `${pick(['#', '?mha.'])}${pick(keys)}=${encodeURIComponent(pick(nasty))}${rand() < 0.5 ? `&${pick(keys)}=${pick(nasty)}` : ''}`;
    } else {
      yield noise(pick(['#', '?', '?mha.']));
    }
  }
}

test(`${COUNT} random and crafted URL states: a state or a refusal, never an exception or markup`, async () => {
  const { page, problems } = await newWatchedPage(session.browser);
  let dialogs = 0;
  page.on('dialog', (dialog) => { dialogs++; dialog.dismiss(); });
  await page.goto(session.server.url);
  await buildAllWidgets(page);
  const tags = WIDGET_TAGS;
  for (const tag of tags) await page.locator(`${tag}[ready]`).first().waitFor();
  const validStates = await page.evaluate((tags) => Object.fromEntries(tags.map((tag) => {
    const widget = document.querySelector(tag);
    return [widget.stateKey, widget.state];
  })), tags);

  const totals = { parsed: 0, accepted: 0, refused: 0, committed: 0, failures: [] };
  const batch = [];
  let navigations = 0;
  const flush = async () => {
    const result = await page.evaluate(async (list) => {
      const { readLessonState } = await import('./multiple-heads.js');
      const widgets = Object.fromEntries([...document.querySelectorAll('[ready]')].map((w) => [w.stateKey, w]));
      const out = { parsed: 0, accepted: 0, refused: 0, committed: 0, navigations: 0, failures: [] };
      for (const [index, hash] of list.entries()) {
        if (index % 25 === 0) {
          // As a Back/Forward to this address: the widgets read it themselves.
          let moved = false;
          try {
            history.pushState(null, '', hash);
            moved = true;
          } catch {
            // not an address this page may have (the browser refuses it)
          }
          try {
            if (moved) dispatchEvent(new PopStateEvent('popstate'));
            if (moved) out.navigations++;
          } catch (error) {
            out.failures.push(`popstate threw on ${hash.slice(0, 80)}: ${error}`);
          }
        }
        let parsed;
        try {
          parsed = readLessonState(hash);
          out.parsed++;
        } catch (error) {
          out.failures.push(`readLessonState threw on ${hash.slice(0, 80)}: ${error}`);
          continue;
        }
        for (const [key, value] of Object.entries(parsed.entries)) {
          const widget = widgets[key];
          if (!widget) continue;
          let clean;
          try {
            clean = widget.sanitizeState(value);
            out.accepted++;
          } catch (error) {
            if (!(error instanceof Error) || !error.message) out.failures.push(`sanitizeState threw a non-Error for ${hash.slice(0, 80)}`);
            out.refused++;
            continue;
          }
          try {
            widget.setState(clean);
            out.committed++;
          } catch (error) {
            if (!(error instanceof Error) || !error.message) out.failures.push(`setState threw a non-Error for ${hash.slice(0, 80)}`);
            out.refused++;
          }
        }
      }
      return out;
    }, batch.splice(0));
    for (const key of ['parsed', 'accepted', 'refused', 'committed']) totals[key] += result[key];
    navigations += result.navigations;
    totals.failures.push(...result.failures);
  };
  for (const hash of hashes(validStates, COUNT)) {
    batch.push(hash);
    if (batch.length === 500) await flush();
  }
  await flush();
  console.log(`URL fuzz: ${COUNT} strings, ${totals.parsed} parsed, ${totals.accepted} states accepted by a widget's check, ${totals.committed} committed, ${totals.refused} refused with a message; ${navigations} made the page's address (popstate)`);
  assert.deepEqual(totals.failures, []);
  assert.equal(totals.parsed, COUNT);
  assert.ok(navigations > COUNT / 50, `${navigations} navigations`);

  // Nothing was injected anywhere, and every widget still answers a real edit.
  const suspicious = await page.evaluate(() => {
    const roots = [document, ...[...document.querySelectorAll('*')].filter((e) => e.shadowRoot).map((e) => e.shadowRoot)];
    // (<b> is legitimate in widgets, e.g. budget labels: only a <b> holding the payload's "x" counts.)
    return roots.reduce((n, root) => n + root.querySelectorAll('img, svg[onload], script:not([src]), iframe:not([title])').length +
      [...root.querySelectorAll('b')].filter((b) => b.textContent === 'x').length, 0);
  });
  assert.equal(suspicious, 0);
  await page.locator('mha-blend').getByRole('button', { name: 'Reset' }).click();
  await page.locator('mha-blend').getByRole('slider', { name: 'One head: weight on “researcher”' }).press('PageUp');
  assert.match(await page.locator('mha-blend .headline').textContent(), /One head: who said it\? 12 of 16;/);
  assert.equal(dialogs, 0);
  assert.deepEqual(problems, []);
});
