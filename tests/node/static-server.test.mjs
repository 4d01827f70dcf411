// The static server that the tests and `npm start` use (issue 11, item 5): a path that is not
// valid percent-encoding gets 400 instead of ending the process, the root check does not
// let a request out into a sibling folder whose name starts like the root's, and
// `npm start` serves with the strict CSP the tests check the page under.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { serveStatic, STRICT_CSP } from '../../scripts/lib/static-server.mjs';
import { serveLesson } from '../../scripts/start.mjs';

let site;
before(() => {
  // site/dist (served) and its sibling site/dist-secret (must stay out of reach).
  site = mkdtempSync(path.join(tmpdir(), 'mha-server-'));
  mkdirSync(path.join(site, 'dist'));
  mkdirSync(path.join(site, 'dist-secret'));
  writeFileSync(path.join(site, 'dist/index.html'), '<!doctype html><title>lesson</title>');
  writeFileSync(path.join(site, 'dist-secret/secret.txt'), 'secret');
  writeFileSync(path.join(site, 'outside.txt'), 'outside');
});
after(() => rmSync(site, { recursive: true, force: true }));

/** GET with the path sent exactly as written (fetch would normalise it). */
function get(url, rawPath) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    http.get({ hostname, port, path: rawPath }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => { body += chunk; });
      response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, body }));
    }).on('error', reject);
  });
}

describe('static server', () => {
  test('a path that is not valid percent-encoding gets 400, and the server keeps serving', async () => {
    const server = await serveStatic(path.join(site, 'dist'));
    try {
      for (const bad of ['/%', '/%E0%A4', '/a%zz', '/%%']) {
        assert.equal((await get(server.url, bad)).status, 400, bad);
      }
      const page = await get(server.url, '/');
      assert.equal(page.status, 200);
      assert.match(page.body, /lesson/);
    } finally {
      await server.close();
    }
  });

  test('no way out of the root: not into a sibling folder sharing its name prefix, nor above it', async () => {
    const server = await serveStatic(path.join(site, 'dist'));
    try {
      for (const escape of ['/..%2fdist-secret/secret.txt', '/..%2f..%2fdist-secret%2fsecret.txt',
        '/..%2foutside.txt', '/%2e%2e/dist-secret/secret.txt', '/..%5cdist-secret%5csecret.txt']) {
        const response = await get(server.url, escape);
        assert.notEqual(response.status, 200, escape);
        assert.doesNotMatch(response.body, /secret|outside/, escape);
      }
    } finally {
      await server.close();
    }
  });

  test('npm start serves the site with the strict CSP the tests use', async () => {
    const server = await serveLesson({ root: path.join(site, 'dist'), port: 0 });
    try {
      const page = await get(server.url, '/');
      assert.equal(page.status, 200);
      assert.equal(page.headers['content-security-policy'], STRICT_CSP);
      assert.equal((await get(server.url, '/%')).status, 400);
    } finally {
      await server.close();
    }
  });

  test('npm start picks a free port when the usual one is taken', async () => {
    const taken = await serveStatic(path.join(site, 'dist'));
    const port = Number(new URL(taken.url).port);
    try {
      const server = await serveLesson({ root: path.join(site, 'dist'), port });
      try {
        assert.notEqual(Number(new URL(server.url).port), port);
        assert.equal((await get(server.url, '/')).status, 200);
      } finally {
        await server.close();
      }
    } finally {
      await taken.close();
    }
  });

  test('hashed files in assets/ may be cached for a year; pages and stable-named scripts are revalidated', async () => {
    mkdirSync(path.join(site, 'dist/assets'), { recursive: true });
    writeFileSync(path.join(site, 'dist/assets/multiple_heads_simd-DuEBPQ6h.wasm'), 'wasm');
    writeFileSync(path.join(site, 'dist/multiple-heads.js'), 'export {};');
    const server = await serveStatic(path.join(site, 'dist'));
    try {
      const hashed = await get(server.url, '/assets/multiple_heads_simd-DuEBPQ6h.wasm');
      assert.equal(hashed.headers['cache-control'], 'public, max-age=31536000, immutable');
      assert.equal(hashed.headers['content-type'], 'application/wasm');
      for (const stable of ['/', '/multiple-heads.js']) {
        assert.equal((await get(server.url, stable)).headers['cache-control'], 'no-cache', stable);
      }
    } finally {
      await server.close();
    }
  });
});
