// The practice questions: every choice is answered with its reason, by mouse or keyboard;
// the verdict is said once, the notation is typeset, and the right answer is not given
// away by its length or its place.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { SCREENSHOT_DIR, newWatchedPage, useSiteAndBrowser } from './browser.mjs';

const practice = JSON.parse(readFileSync(new URL('../../lessons/multiple-heads/practice.json', import.meta.url), 'utf8'));
const session = useSiteAndBrowser();

// The text a reader sees once notation is typeset: "d_{model}" shows as d with "model" below.
const shown = (text) => text.replace(/[_^]\{([^}]*)\}/g, '$1').replace(/[_^]/g, '');
const verdict = (choice) => (choice.correct ? 'Right. ' : 'Not quite. ');

test('each choice gets its verdict once and its reason; right answers are marked right', async () => {
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
      const text = await feedback.textContent();
      assert.equal(text, verdict(choice) + shown(choice.reason));
      // The audit found "Not quite. Not so: ...": the reason must not open with a verdict.
      assert.doesNotMatch(choice.reason, /^(Right|Not so|Not quite|Correct|Wrong)\b/);
      assert.equal(await feedback.getAttribute('class'), `feedback ${choice.correct ? 'right' : 'wrong'}`);
    }
    assert.equal(question.choices.filter((c) => c.correct).length, 1, 'exactly one right answer');
  }
  // Notation is typeset (subscripts), never raw "d_" or "W_" text.
  const raw = await widget.evaluate((el) => el.shadowRoot.textContent);
  assert.doesNotMatch(raw, /[A-Za-z]_[A-Za-z{]/);
  assert.ok(await widget.evaluate((el) => el.shadowRoot.querySelectorAll('legend sub').length) >= 2);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await widget.screenshot({ path: path.join(SCREENSHOT_DIR, 'practice.png') });
  assert.deepEqual(problems, []);
});

test('the right answer is not given away by being the longest or always in the same place', () => {
  const places = new Set();
  let longestIsRight = 0;
  for (const question of practice.questions) {
    const lengths = question.choices.map((c) => shown(c.text).length);
    const right = question.choices.findIndex((c) => c.correct);
    places.add(right);
    if (lengths[right] === Math.max(...lengths)) longestIsRight++;
    // Choices of one question within 25% of each other's length.
    assert.ok(Math.max(...lengths) <= 1.25 * Math.min(...lengths), `question ${question.id}: lengths ${lengths}`);
  }
  assert.ok(places.size > 1, 'the right answer is always in the same place');
  assert.ok(longestIsRight < practice.questions.length, 'the right answer is always the longest');
});

test('keyboard alone: arrow keys choose, Enter on Check answers', async () => {
  const { page, problems } = await newWatchedPage(session.browser);
  await page.goto(session.server.url);
  const group = page.locator('mha-practice[ready] fieldset').first();
  await group.getByRole('radio').first().focus();
  await page.keyboard.press('ArrowDown'); // the second choice
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  const second = practice.questions[0].choices[1];
  assert.equal(await group.locator('.feedback').textContent(), verdict(second) + shown(second.reason));
  assert.deepEqual(problems, []);
});
