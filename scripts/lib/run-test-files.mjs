// Runs test files in the order given, `workers` at a time:
//   node scripts/lib/run-test-files.mjs <workers> <durations file or -> <file>...
// `node --test a b c` sorts its files by name before it runs them (Node 20's
// createTestFileList), so the longest-first order browser-suite.mjs computes was lost and
// the longest file (widget-base) started near the end. node:test's run() takes the files
// as they are. Output: the spec reporter on stdout and, unless `-`, each file's duration
// in the durations file ({ "tests/browser/x.test.mjs": ms }, the sum of its top-level
// tests); the exit code is 1 when a test failed (a todo test's failure does not count).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { ROOT } from './run.mjs';

const [workers, durationsFile, ...files] = process.argv.slice(2);
const durations = {};
let failed = false;

// A file that takes longer than FILE_TIMEOUT_MS fails, named, instead of holding the run
// (and CI's 90 minutes) until it is killed: the longest browser file takes about 150 s on a
// loaded machine. A test that waits on the page without a limit of its own would otherwise
// never end.
const FILE_TIMEOUT_MS = 15 * 60 * 1000;
const stream = run({ files, concurrency: Number(workers), timeout: FILE_TIMEOUT_MS });
stream.on('data', ({ type, data }) => {
  if (type === 'test:fail' && !data.todo) failed = true;
  if ((type === 'test:pass' || type === 'test:fail') && data.nesting === 0 && data.file) {
    const file = path.relative(ROOT, data.file);
    durations[file] = Math.round((durations[file] ?? 0) + data.details.duration_ms);
  }
});
stream.on('end', () => {
  if (durationsFile !== '-') writeFileSync(durationsFile, `${JSON.stringify(durations, null, 2)}\n`);
  if (failed) process.exitCode = 1;
});
stream.pipe(new spec()).pipe(process.stdout);
