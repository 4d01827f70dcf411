// Runs test files in the order given, `workers` at a time:
//   node scripts/lib/run-test-files.mjs <workers> <durations file or -> <file>...
// Each worker is one process that runs file after file (test-files-worker.mjs: a file in a
// process of its own cost about 1.4 CPU seconds to start, 38 times a run), taking the next
// file of the list when its last one ends: longest first, as browser-suite.mjs orders them,
// so the workers finish together. Output: the spec reporter on stdout (each file a suite
// named by its path) and, unless `-`, each file's duration in the durations file ({
// "tests/browser/x.test.mjs": ms }); the exit code is 1 when a test failed (a todo test's
// failure does not count).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
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

// The shared list the workers take files from, and one entry file per worker.
const queue = mkdtempSync(path.join(tmpdir(), 'mha-test-files-'));
writeFileSync(path.join(queue, 'files.json'), JSON.stringify(files.map((file) => path.relative(ROOT, path.resolve(file)))));
const worker = path.join(ROOT, 'scripts/lib/test-files-worker.mjs');
const entries = Array.from({ length: Math.min(Number(workers), files.length) }, (_, i) => {
  const entry = path.join(queue, `worker-${i + 1}.mjs`);
  writeFileSync(entry, `await import(${JSON.stringify(pathToFileURL(worker).href)});\n`);
  return entry;
});
process.env.MHA_TEST_FILES_QUEUE = queue;
process.env.MHA_TEST_FILE_TIMEOUT_MS = String(FILE_TIMEOUT_MS);
const stream = run({ files: entries, concurrency: entries.length });
stream.on('data', ({ type, data }) => {
  if (type === 'test:fail' && !data.todo) failed = true;
  // A file's suite is a top-level result named by the file's path.
  if ((type === 'test:pass' || type === 'test:fail') && data.nesting === 0 && data.name.endsWith('.test.mjs')) {
    durations[data.name] = Math.round((durations[data.name] ?? 0) + data.details.duration_ms);
  }
});
stream.on('end', () => {
  rmSync(queue, { recursive: true, force: true });
  if (durationsFile !== '-') writeFileSync(durationsFile, `${JSON.stringify(durations, null, 2)}\n`);
  if (failed) process.exitCode = 1;
});
stream.pipe(new spec()).pipe(process.stdout);
