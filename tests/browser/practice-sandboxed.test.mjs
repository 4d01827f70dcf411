// The learner's copy in a sandboxed frame (sandbox="allow-scripts", an opaque origin, where
// localStorage throws): the whole lesson in such a frame still marks answers, keeps them in
// memory for the visit, and says so in every practice block; export still works.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { buildAllWidgets, downloadedFile, newWatchedPage, useCourseSite } from './browser.mjs';
import { problemById, shownText } from '../../web/widgets/practice/practice-data.js';

const course = useCourseSite({ mount: 'lesson', prefix: 'mha-practice-frame-', files: {
  'frame.css': 'iframe { display: block; width: 100%; height: 2400px; border: 0; }',
  'course.html': `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>The lesson in a sandboxed frame</title>
<link rel="icon" href="data:,"><link rel="stylesheet" href="frame.css"></head>
<body><main><h1>A course page</h1>
<iframe id="lesson" title="Multiple heads" sandbox="allow-scripts allow-downloads" src="lesson/index.html"></iframe>
</main></body></html>`,
} });

test('in a sandboxed frame the copy lives in memory with a visible notice; answers are still marked and counted', async () => {
  const { page, problems } = await newWatchedPage(course.browser, { width: 1100, height: 900 });
  await page.goto(`${course.url}course.html`);
  const frame = page.frameLocator('#lesson');
  await buildAllWidgets(await (await page.locator('#lesson').elementHandle()).contentFrame());
  await frame.locator('mha-heads-questions[ready]').waitFor({ timeout: 60000 });
  const practice = frame.locator('mha-practice[idea="not-copies"]');
  await practice.locator('summary.practice-summary').click();
  const notice = practice.locator('p.notice');
  assert.ok(await notice.isVisible());
  assert.match(await notice.textContent(), /kept only until you leave the page/);
  assert.ok(await frame.locator('mha-practice:not([idea]) p.notice').isVisible());
  // The frame really cannot use storage (the reason for the notice).
  const blocked = await frame.locator('body').evaluate(() => { try { return typeof localStorage.getItem('x'); } catch (error) { return error.name; } });
  assert.equal(blocked, 'SecurityError');
  const question = problemById('copies-why');
  const right = question.options.find((o) => o.correct);
  const fieldset = practice.locator('fieldset[data-problem="copies-why"]');
  await fieldset.getByText(shownText(right.text)).click();
  await fieldset.getByRole('button', { name: 'Check' }).click();
  assert.equal(await fieldset.locator('p.feedback').textContent(), `Right. ${shownText(right.reason)}`);
  assert.equal(await practice.locator('summary.practice-summary').textContent(), 'Practice: 3 problems, 1 done');
  // A widget task on the widget in the frame, marked by the core in the frame.
  await practice.locator('fieldset[data-problem="tied-differ"]').getByRole('button', { name: 'It cannot be done' }).click();
  await frame.locator('fieldset[data-problem="tied-differ"] p.feedback.right').waitFor();
  // Export from the frame: the download carries the in-memory copy.
  const panel = frame.locator('mha-practice:not([idea])');
  await panel.locator('summary').click();
  const [download] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Export my copy' }).click()]);
  const copy = JSON.parse(readFileSync(await downloadedFile(download), 'utf8'));
  assert.deepEqual(Object.keys(copy.answers).sort(), ['copies-why', 'tied-differ']);
  assert.deepEqual(problems, []);
});
