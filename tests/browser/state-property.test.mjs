// The `state` property as frameworks use it: React 19 and Preact set a property, not an
// attribute, when the element has one (`<mha-blend state={json}>` becomes
// element.state = json before the element is in the page). Text is the starting state, as
// the attribute would be; an object after the widget is drawn is setState(), which refuses
// a bad state with an Error and keeps the last good one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newWatchedPage, useSiteAndBrowser } from './browser.mjs';

const session = useSiteAndBrowser();
const BUDGET = [0.3, 0.3, 0.1, 0, 0.1, 0, 0.1, 0.1, 0, 0, 0];

test('element.state = text before insertion starts the widget there; an object later sets it', async () => {
  const { page, problems } = await newWatchedPage(session.browser);
  await page.goto(`${session.server.url}embed.html?widget=layer`);
  await page.locator('mha-layer[ready]').waitFor();
  // As React 19 does: create, set the props as properties, then insert.
  await page.evaluate((budget) => {
    const blend = document.createElement('mha-blend');
    blend.setAttribute('state-key', 'framework');
    blend.state = JSON.stringify({ budget });
    document.querySelector('main').append(blend);
  }, BUDGET);
  await page.locator('mha-blend[ready]').waitFor();
  assert.deepEqual(await page.evaluate(() => document.querySelector('mha-blend').state), { budget: BUDGET });
  assert.equal(await page.evaluate(() => document.querySelector('mha-blend').getAttribute('state')), JSON.stringify({ budget: BUDGET }));

  await page.evaluate(() => { document.querySelector('mha-blend').state = { budget: null }; });
  assert.deepEqual(await page.evaluate(() => document.querySelector('mha-blend').state), { budget: null });

  const refused = await page.evaluate(() => {
    try {
      document.querySelector('mha-blend').state = { budget: 'half' };
      return null;
    } catch (error) {
      return error instanceof Error ? 'Error' : typeof error;
    }
  });
  assert.equal(refused, 'Error');
  assert.deepEqual(await page.evaluate(() => document.querySelector('mha-blend').state), { budget: null });
  assert.deepEqual(problems, []);
});
