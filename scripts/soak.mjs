// npm run soak: the long random runs in Chromium that `npm test` runs short.
//   10,000 random edits across every widget (tests/browser/soak.test.mjs; npm test: 200);
//   200 random sequences of learner actions, each followed by a reload and an export ->
//   import (tests/browser/copy-property.test.mjs; npm test: 15).
// MHA_SOAK_EDITS and MHA_COPY_SEQUENCES override the counts.
import { bootstrap } from './lib/bootstrap.mjs';
import { buildWeb } from './build-web.mjs';
import { stepAsync } from './lib/run.mjs';

bootstrap('test');
buildWeb();
const { runBrowserTests } = await import('./lib/browser-suite.mjs');
await stepAsync('soak: random edits and learner sequences', () => runBrowserTests(
  ['tests/browser/soak.test.mjs', 'tests/browser/copy-property.test.mjs'],
  { env: { MHA_SOAK_EDITS: process.env.MHA_SOAK_EDITS ?? '10000', MHA_COPY_SEQUENCES: process.env.MHA_COPY_SEQUENCES ?? '200' }, record: false },
));
