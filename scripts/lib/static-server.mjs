// A small static file server for tests and `npm start`: serves a folder on 127.0.0.1 with
// the right MIME types (application/wasm matters for streaming compilation) and, by
// default, the strict Content-Security-Policy many course platforms impose.
import { createReadStream, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';

export const STRICT_CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; " +
  "img-src 'self' data:; font-src 'self'; object-src 'none'; base-uri 'none'";

/** The Content-Type of each served extension (application/wasm matters for streaming compilation). */
export const TYPES = {
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

/**
 * Serves `root` and resolves to { url, close() }. `port` 0 picks a free port. Rejects if it
 * cannot listen (e.g. the port is taken). Requests that cannot be decoded get 400, paths
 * outside `root` 403.
 */
export function serveStatic(root, { csp = STRICT_CSP, port = 0, cors = true } = {}) {
  const base = path.resolve(root);
  const server = http.createServer((request, response) => {
    const file = fileFor(base, request.url);
    if (file === null) {
      response.writeHead(400, { 'Content-Type': 'text/plain' }).end('bad request');
      return;
    }
    if (!isInside(base, file)) {
      response.writeHead(403).end();
      return;
    }
    serveFile(file, response, { csp, cors });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject); // e.g. EADDRINUSE: the caller decides what to do
    server.listen(port, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}/`,
        // Every connection ends with the server: a page still open (a test's, a keep-alive
        // socket of the browser's with a request under way) must not keep close() waiting.
        close: () => new Promise((done) => {
          server.close(done);
          server.closeAllConnections();
        }),
      });
    });
  });
}

/** The file a request URL names under `base`, or null if its path cannot be decoded. */
export function fileFor(base, requestUrl) {
  let pathname;
  try {
    // "/%" or "/%E0%A4" are not valid percent-encoding: decodeURIComponent throws a
    // URIError, which would otherwise end the whole server.
    pathname = decodeURIComponent(new URL(requestUrl, 'http://x').pathname);
  } catch {
    return null;
  }
  return path.join(base, pathname);
}

/**
 * Whether `file` is `base` or inside it. Compared with a separator after base: a bare
 * startsWith(base) would let "/..%2fdist-secret/x" out of dist into its sibling dist-secret.
 */
export function isInside(base, file) {
  return file === base || file.startsWith(base.endsWith(path.sep) ? base : base + path.sep);
}

// Vite names every file in assets/ by its content (name-<8 character hash>.ext): such a file
// never changes, so browsers may keep it for a year without asking. Every other file (the
// pages, multiple-heads.js, embed-resizer.js, embed-check.js) keeps its name across
// releases and is revalidated on each use. docs/EMBEDDING.md recommends the same to hosts.
const HASHED_ASSET = /(^|[\\/])assets[\\/][^\\/]+-[\w-]{8}\.[a-z0-9]+$/i;

/** The Cache-Control header for `file`: a year and immutable for hashed assets, else no-cache. */
export function cacheControl(file) {
  return HASHED_ASSET.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

function serveFile(requested, response, { csp, cors }) {
  let file = requested;
  try {
    if (statSync(file).isDirectory()) file = path.join(file, 'index.html');
    statSync(file);
  } catch {
    response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
    return;
  }
  const headers = { 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'Cache-Control': cacheControl(file) };
  // `csp` is one policy for every file, or a function of the file's path (null: none).
  const policy = typeof csp === 'function' ? csp(file) : csp;
  if (policy) headers['Content-Security-Policy'] = policy;
  // A sandboxed iframe (no allow-same-origin) has an opaque origin: its module scripts
  // and wasm fetches are cross-origin and need this header (GitHub Pages sends it too).
  if (cors) headers['Access-Control-Allow-Origin'] = '*';
  response.writeHead(200, headers);
  createReadStream(file).pipe(response);
}
