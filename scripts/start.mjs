// npm start: install what is missing, build the core and the page, serve it on 127.0.0.1.
import { bootstrap } from './lib/bootstrap.mjs';
import { cmakeBuild } from './lib/cmake.mjs';
import { ROOT, run, step } from './lib/run.mjs';

bootstrap('build');
step('build the wasm modules', () =>
  cmakeBuild('wasm', ['multiple_heads_simd', 'multiple_heads_scalar']));
step('build the page', () => run('npx', ['vite', 'build', '--logLevel', 'warn']));
console.log('\nServing the lesson (Ctrl+C to stop):');
run('npx', ['vite', 'preview', '--host', '127.0.0.1', '--port', process.env.PORT ?? '5173'], { cwd: ROOT });
