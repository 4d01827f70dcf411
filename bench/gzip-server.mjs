// The throttled page bench's static server: the built site as a production host serves it,
// gzip-compressed (Content-Encoding: gzip at zlib's default level, 6) for the text types
// and the wasm, with the same strict CSP, Cache-Control and CORS headers as
// scripts/lib/static-server.mjs (which serves the tests uncompressed). Over a throttled
// network the bytes on the wire are what matter, so they should be the bytes a learner
// would download. Every file is compressed once, before the first request (the first
// load would otherwise wait for the compression).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { STRICT_CSP, TYPES, cacheControl, fileFor, isInside } from '../scripts/lib/static-server.mjs';

// Already compressed formats are sent as they are.
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.wasm', '.json', '.svg']);
export const GZIP_LEVEL = 6;

function filesUnder(dir) {
  // statSync follows links: a test's site links dist/ in (tests/browser/widget-bytes.test.mjs).
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

/**
 * Serves `root` gzip-compressed on 127.0.0.1; resolves to { url, close() }. Files are read
 * and compressed when the server starts (the built site is a few MB).
 */
export function serveGzipped(root) {
  const base = path.resolve(root);
  const bodies = new Map();
  for (const file of filesUnder(base)) {
    const raw = readFileSync(file);
    const compress = COMPRESSIBLE.has(path.extname(file));
    bodies.set(file, { raw, gzip: compress ? gzipSync(raw, { level: GZIP_LEVEL }) : null });
  }
  const server = http.createServer((request, response) => {
    let file = fileFor(base, request.url);
    if (file === null || !isInside(base, file)) {
      response.writeHead(file === null ? 400 : 403).end();
      return;
    }
    try {
      if (statSync(file).isDirectory()) file = path.join(file, 'index.html');
    } catch { /* not found below */ }
    const body = bodies.get(file);
    if (!body) {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    const headers = {
      'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'Cache-Control': cacheControl(file),
      'Content-Security-Policy': STRICT_CSP,
      'Access-Control-Allow-Origin': '*',
      Vary: 'Accept-Encoding',
    };
    const gzip = body.gzip && /\bgzip\b/.test(request.headers['accept-encoding'] ?? '');
    if (gzip) headers['Content-Encoding'] = 'gzip';
    const bytes = gzip ? body.gzip : body.raw;
    headers['Content-Length'] = String(bytes.length);
    response.writeHead(200, headers);
    response.end(bytes);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve({
      url: `http://127.0.0.1:${server.address().port}/`,
      close: () => new Promise((done) => {
        server.close(done);
        server.closeAllConnections();
      }),
    }));
  });
}
