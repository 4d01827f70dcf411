// npm run fuzz: the long fuzz runs. The core under ASan + UBSan for 2,000,000 iterations
// (three seeds), and the URL state parser with 100,000 strings (tests/browser/url-fuzz).
import { bootstrap } from './lib/bootstrap.mjs';
import { fuzzCore } from './lib/fuzz.mjs';
import { run, step, stepAsync } from './lib/run.mjs';

bootstrap('test');
for (const seed of [1, 2, 3]) step(`fuzz the core, seed ${seed}`, () => fuzzCore(700000, seed));
step('build the page', () => run('npx', ['vite', 'build', '--logLevel', 'warn']));
const { runBrowserTests } = await import('./lib/browser-suite.mjs');
await stepAsync('fuzz the URL state parser', () => runBrowserTests(['tests/browser/url-fuzz.test.mjs'],
  { env: { MHA_URL_FUZZ_COUNT: '100000' }, record: false }));
