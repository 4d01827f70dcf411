// One worker of run-test-files.mjs: runs test files one after another in this one process,
// each as a suite named by its path, taking the next file of the shared list when the last
// one ends (longest first, as the list is ordered), so the workers finish together.
//
// Why one process for many files: a test file in a process of its own starts a node, the
// test runner and Playwright's client again, about 1.4 CPU seconds apiece on this machine
// (a file with one empty test, measured beside five), 38 times a run (issue 24). A file's
// `before` / `after` hooks and its tests, made at its top level when it is imported inside
// the suite, belong to that suite, so a file runs here as it does alone.
//
// The list and the claims: $MHA_TEST_FILES_QUEUE is a folder holding `files.json` (the
// files in order); a worker claims file i by creating `claim-i` there (exclusive create, so
// exactly one worker gets each). $MHA_TEST_FILE_TIMEOUT_MS bounds each file.
import { openSync, closeSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe } from 'node:test';

const queue = process.env.MHA_TEST_FILES_QUEUE;
const files = JSON.parse(readFileSync(path.join(queue, 'files.json'), 'utf8'));
const timeout = Number(process.env.MHA_TEST_FILE_TIMEOUT_MS) || Infinity;

/** The next file no worker has taken, claimed for this one; null when none is left. */
function claimNext() {
  for (let i = 0; i < files.length; i++) {
    try {
      closeSync(openSync(path.join(queue, `claim-${i}`), 'wx'));
      return files[i];
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
  }
  return null;
}

for (let file = claimNext(); file !== null; file = claimNext()) {
  // Resolves once the file's suite has ended (its tests and its after hooks).
  await describe(file, { timeout }, async () => {
    await import(pathToFileURL(path.resolve(file)).href);
  });
}
