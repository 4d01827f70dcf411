// npm run soak: 10,000 random edits across every widget in Chromium (tests/browser/soak.test.mjs).
import { bootstrap } from './lib/bootstrap.mjs';
import { buildWeb } from './build-web.mjs';
import { run, step } from './lib/run.mjs';

bootstrap('test');
buildWeb();
step('soak: 10,000 edits', () => run('node', ['--test', '--test-reporter=spec', 'tests/browser/soak.test.mjs'], {
  env: { MHA_SOAK_EDITS: process.env.MHA_SOAK_EDITS ?? '10000' },
}));
