// npm start: install what is missing, build the core and the page, serve dist/ on 127.0.0.1
// with the same strict Content-Security-Policy the tests use (STRICT_CSP), so that what a
// learner runs locally is what the tests check, and a page that breaks under the policy
// breaks here too.
import path from 'node:path';
import { bootstrap } from './lib/bootstrap.mjs';
import { ROOT } from './lib/run.mjs';
import { serveStatic, STRICT_CSP } from './lib/static-server.mjs';
import { buildWeb } from './build-web.mjs';

export const DEFAULT_PORT = 5173;

/**
 * Serves a built site (default dist/) under STRICT_CSP; resolves to { url, close() }. If
 * `port` is taken (another server, another `npm start`), any free port is used instead.
 */
export async function serveLesson({ root = path.join(ROOT, 'dist'), port = DEFAULT_PORT } = {}) {
  try {
    return await serveStatic(root, { csp: STRICT_CSP, port });
  } catch (error) {
    if (error.code !== 'EADDRINUSE') throw error;
    return serveStatic(root, { csp: STRICT_CSP, port: 0 });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  bootstrap('build');
  buildWeb();
  const { url } = await serveLesson({ port: Number(process.env.PORT ?? DEFAULT_PORT) });
  console.log(`\nServing the lesson at ${url} (Ctrl+C to stop)`);
  console.log(`The world editor, for your own example: ${url}world-editor.html`);
}
