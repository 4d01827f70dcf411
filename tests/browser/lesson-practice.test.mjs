// The practice questions: every choice is answered with its reason, by mouse or keyboard.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { SCREENSHOT_DIR, newWatchedPage, useSiteAndBrowser } from './browser.mjs';

const practice = JSON.parse(readFileSync(new URL('../../lessons/multiple-heads/practice.json', import.meta.url), 'utf8'));
const session = useSiteAndBrowser();

test('each choice gets its reason; right answers are marked right', async () => {
  const { page, problems } = await newWatchedPage(session.browser);
  await page.goto(session.server.url);
  const widget = page.locator('mha-practice[ready]');
  await widget.waitFor();
  for (const [q, question] of practice.questions.entries()) {
    const group = widget.locator('fieldset').nth(q);
    const feedback = group.locator('.feedback');
    await group.getByRole('button', { name: 'Check' }).click();
    assert.equal(await feedback.textContent(), 'Pick an answer first.');
    for (const [c, choice] of question.choices.entries()) {
      await group.getByRole('radio').nth(c).check();
      await group.getByRole('button', { name: 'Check' }).click();
      assert.equal(await feedback.textContent(), choice.correct ? choice.reason : `Not quite. ${choice.reason}`);
      assert.equal(await feedback.getAttribute('class'), `feedback ${choice.correct ? 'right' : 'wrong'}`);
    }
    assert.equal(question.choices.filter((c) => c.correct).length, 1, 'exactly one right answer');
  }
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await widget.screenshot({ path: path.join(SCREENSHOT_DIR, 'practice.png') });
  assert.deepEqual(problems, []);
});

test('keyboard alone: arrow keys choose, Enter on Check answers', async () => {
  const { page, problems } = await newWatchedPage(session.browser);
  await page.goto(session.server.url);
  const group = page.locator('mha-practice[ready] fieldset').first();
  await group.getByRole('radio').first().focus();
  await page.keyboard.press('ArrowDown'); // the second choice
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  assert.equal(await group.locator('.feedback').textContent(), `Not quite. ${practice.questions[0].choices[1].reason}`);
  assert.deepEqual(problems, []);
});
