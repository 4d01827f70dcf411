// A small static file server for tests: serves a folder on 127.0.0.1 with the right MIME
// types (application/wasm matters for streaming compilation) and, by default, the strict
// Content-Security-Policy many course platforms impose.
import { createReadStream, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';

export const STRICT_CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; " +
  "img-src 'self' data:; font-src 'self'; object-src 'none'; base-uri 'none'";

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/** Serves `root` and resolves to { url, close() }. `port` 0 picks a free port. */
export function serveStatic(root, { csp = STRICT_CSP, port = 0, cors = true } = {}) {
  const base = path.resolve(root);
  const server = http.createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url, 'http://x').pathname);
    let file = path.join(base, pathname);
    if (!file.startsWith(base)) {
      response.writeHead(403).end();
      return;
    }
    try {
      if (statSync(file).isDirectory()) file = path.join(file, 'index.html');
      statSync(file);
    } catch {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    const headers = { 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream' };
    if (csp) headers['Content-Security-Policy'] = csp;
    // A sandboxed iframe (no allow-same-origin) has an opaque origin: its module scripts
    // and wasm fetches are cross-origin and need this header (GitHub Pages sends it too).
    if (cors) headers['Access-Control-Allow-Origin'] = '*';
    response.writeHead(200, headers);
    createReadStream(file).pipe(response);
  });
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}/`,
        close: () => new Promise((done) => server.close(done)),
      });
    });
  });
}
