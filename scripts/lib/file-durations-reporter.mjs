// A node:test reporter that writes how long each test file's tests took, as JSON
// ({ "tests/browser/x.test.mjs": ms }). The browser suite reads it on its next run to start
// the longest files first, so parallel workers finish together.
import path from 'node:path';
import { ROOT } from './run.mjs';

export default async function* fileDurations(source) {
  const durations = {};
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0 && event.data.file) {
      const file = path.relative(ROOT, event.data.file);
      durations[file] = Math.round((durations[file] ?? 0) + event.data.details.duration_ms);
    }
  }
  yield `${JSON.stringify(durations, null, 2)}\n`;
}
