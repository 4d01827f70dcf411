// npm run build: the core (wasm) and the page, bundled into dist/ with relative URLs:
//   dist/index.html             the lesson
//   dist/embed.html             one widget per page, for iframes
//   dist/multiple-heads.js      the widgets and the engine API, for <script type="module">
//   dist/widgets/<name>.js      one widget alone, with chunks it shares (vite.widgets.config.js)
//   dist/embed-resizer.js       sizes embed iframes on a course page
//   dist/examples/course.html   an example course page
//   dist/embed-check.js         embed.html's classic script: explains a frame that cannot load
//   dist/single/<widget>.html   one self-contained file per widget (scripts/build-single-file.mjs)
//   dist/scorm/*.zip            the practice as SCORM 1.2 and 2004 packages (scripts/build-scorm-package.mjs)
//   dist/assets/                hashed scripts, styles and the two wasm modules
import { bootstrap } from './lib/bootstrap.mjs';
import { WASM_MODULE_TARGETS, cmakeBuild } from './lib/cmake.mjs';
import { run, step } from './lib/run.mjs';

export function buildWeb() {
  step('build the wasm modules', () =>
    cmakeBuild('wasm', WASM_MODULE_TARGETS));
  step('build the page into dist/', () => run('npx', ['vite', 'build', '--logLevel', 'warn']));
  step('build the one-widget entries into dist/widgets/', () => run('npx', ['vite', 'build', '--config', 'vite.widgets.config.js', '--logLevel', 'warn']));
  step('build the single-file embeds into dist/single/', () => run('node', ['scripts/build-single-file.mjs']));
  step('build the SCORM packages of the practice into dist/scorm/', () => run('node', ['scripts/build-scorm-package.mjs']));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  bootstrap('build');
  buildWeb();
}
