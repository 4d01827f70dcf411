// npm start: install what is missing, build the core and the page, serve it on 127.0.0.1.
import { bootstrap } from './lib/bootstrap.mjs';
import { ROOT, run } from './lib/run.mjs';
import { buildWeb } from './build-web.mjs';

bootstrap('build');
buildWeb();
console.log('\nServing the lesson (Ctrl+C to stop):');
run('npx', ['vite', 'preview', '--host', '127.0.0.1', '--port', process.env.PORT ?? '5173'], { cwd: ROOT });
