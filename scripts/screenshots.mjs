// npm run screenshots [test files...]: the browser tests with their pictures taken, for a
// person to look at: test-results/screenshots/<name>.png (what each test is about, in the
// states it drives; nothing compares them). `npm test` runs the same tests without taking
// them (tests/browser/browser.mjs, screenshot()). With no files, every browser test file.
//   npm run screenshots -- tests/browser/lesson-layer.test.mjs
import path from 'node:path';
import { bootstrap } from './lib/bootstrap.mjs';
import { buildWeb } from './build-web.mjs';
import { ROOT, stepAsync } from './lib/run.mjs';

bootstrap('test');
buildWeb();
// Imported only now: they need playwright-core, which the bootstrap may just have installed.
const { browserTestFiles, runBrowserTests } = await import('./lib/browser-suite.mjs');
const { SCREENSHOT_DIR } = await import('../tests/browser/browser.mjs');
const asked = process.argv.slice(2).map((file) => path.relative(ROOT, path.resolve(file)));
const files = asked.length > 0 ? asked : browserTestFiles();
await stepAsync('browser tests, pictures taken', () => runBrowserTests(files, { env: { MHA_SCREENSHOTS: '1' }, record: false }));
console.log(`pictures: ${SCREENSHOT_DIR}`);
