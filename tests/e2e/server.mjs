// A small static file server for the end-to-end tests: serves www/ on a
// free port of 127.0.0.1 with the right MIME types (application/wasm).
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.png': 'image/png',
  '.ts': 'text/plain',
};

/**
 * An empty course page, `/course-host` (not a file of `root`): the
 * end-to-end tests open it at `localhost` and write an embed into it, so
 * the host is an http page of another origin than the frame it holds at
 * `127.0.0.1`, as a course page is (harness.mjs `embedPage`).
 */
const HOST = '<!doctype html><html><head><title>course</title><link rel="icon" href="data:,"></head><body></body></html>';

/** Starts serving `root`; resolves to {url, hostUrl, close()}. */
export function startServer(root) {
  const base = path.resolve(root);
  // Addresses up to Chromium's 2 MB (Node's default stops at 16 KB of headers).
  const server = http.createServer({ maxHeaderSize: 2 << 20 }, async (req, res) => {
    // A path the URL parser or the decoder refuses (`//`, a stray `%`) is a 400, not a crash.
    let url;
    let file;
    try {
      url = new URL(req.url, 'http://localhost');
      file = path.normalize(path.join(base, decodeURIComponent(url.pathname)));
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('bad request path');
      return;
    }
    if (url.pathname === '/course-host') {
      res.writeHead(200, { 'content-type': TYPES['.html'], 'cache-control': 'no-store' }).end(HOST);
      return;
    }
    if (!file.startsWith(base)) {
      res.writeHead(403).end();
      return;
    }
    if (url.pathname.endsWith('/')) file = path.join(file, 'index.html');
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({ url: `http://127.0.0.1:${port}/`, hostUrl: `http://localhost:${port}/course-host`, close: () => new Promise((r) => server.close(r)) });
    });
  });
}
