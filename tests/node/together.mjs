// The node test files in one process, as `npm test` runs them (scripts/test.mjs). Each file
// in a process of its own (`node --test tests/node/`, which still works) costs about 0.4 CPU
// seconds to start a node and load the modules and the core again: for its 47 files, about 19
// of the lane's 46 CPU seconds, taken from the Chromium tests beside it on two cores (issue 24;
// docs/TEST-SUITE-SPEED.md). Here every file is imported in turn, each registering its tests;
// node:test runs them one after another in this process.
// The files named in alone.mjs run in processes of their own beside this one.
// A file that fails to load is a failing test of its own; the other files still run.
import { readdirSync } from 'node:fs';
import { test } from 'node:test';
import { ALONE } from './alone.mjs';

const here = new URL('./', import.meta.url);
for (const name of readdirSync(here).filter((file) => file.endsWith('.test.mjs') && !ALONE.includes(file)).sort()) {
  try {
    await import(new URL(name, here));
  } catch (error) {
    test(`${name} loads`, () => { throw error; });
  }
}
