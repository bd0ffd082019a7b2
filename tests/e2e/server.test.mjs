// The test server itself: a request path the URL parser or the decoder
// refuses is answered 400, and the server keeps serving afterwards.
import test from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { startServer } from './server.mjs';

const status = (port, path) =>
  new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path }, (res) => { res.resume(); resolve(res.statusCode); }).on('error', reject);
  });

test('the test server answers malformed paths with 400 and keeps serving', { timeout: 10_000 }, async () => {
  const server = await startServer(new URL('../../www', import.meta.url).pathname);
  try {
    const port = new URL(server.url).port;
    assert.equal(await status(port, '//'), 400);
    assert.equal(await status(port, '/%zz'), 400);
    assert.equal(await status(port, '/index.html'), 200);
    assert.equal(await status(port, '/no-such-file.js'), 404);
  } finally {
    await server.close();
  }
});
