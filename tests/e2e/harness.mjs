// The setup every end-to-end test file shares: one static server for www/
// and one headless Debian Chromium (playwright-core, no browser download),
// started before the file's tests and closed after them. Importing this
// module registers the hooks; `server` and `browser` are live bindings.

import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from './server.mjs';

export const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, '../..');
export const shots = path.join(here, 'screenshots');
export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
];

export let server;
export let browser;

before(async () => {
  assert.ok(existsSync(path.join(root, 'www/pkg/routesim_bg.wasm')), 'www/pkg is missing: run ./build.sh first');
  mkdirSync(shots, { recursive: true });
  server = await startServer(path.join(root, 'www'));
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** Collects `page`'s errors (uncaught exceptions and console errors) into the returned array. */
export function watchErrors(page) {
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return errors;
}

/**
 * Opens the page at `query` in a tab of `viewport`; collects the page's
 * errors (uncaught exceptions and console errors) into `errors`; waits until
 * the page has booted (`body[data-ready="1"]`). `options`: more of
 * `newPage`'s (`reducedMotion`, `hasTouch`, …).
 */
export async function openPage(query, viewport = { width: 1280, height: 800 }, options = {}) {
  const page = await takePage(viewport, options);
  const errors = watchErrors(page);
  await page.goto(server.url + query);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
  return { page, errors };
}

// Tabs are reused. A new tab costs Debian's Chromium about 1.2 CPU-seconds
// more than loading the page again in a tab already open (2.1 against 0.9
// per page booted; docs/testing.md, "How long it takes"), and the suite is
// CPU-bound on tabs. `page.close()` of a tab from `takePage` hands it back
// instead: its listeners are removed, its mouse is moved to the corner, its
// viewport restored, and it is sent to `about:blank`, which stops whatever
// the page was doing; the next `openPage` or `embedPage` of the same file
// with the same viewport and options gets it. The page keeps no state of
// its own between documents (no storage: `www/` writes none), and the
// `after` hook closes the browser with every tab.
const idle = new Map();

async function takePage(viewport, options) {
  const key = JSON.stringify({ viewport, ...options });
  const spare = idle.get(key) ?? [];
  idle.set(key, spare);
  while (spare.length) {
    const page = spare.pop();
    if (!page.isClosed()) return page;
  }
  const page = await browser.newPage({ viewport, ...options });
  const closeTab = page.close.bind(page);
  page.close = async () => {
    if (page.isClosed() || spare.includes(page)) return;
    page.removeAllListeners('pageerror');
    page.removeAllListeners('console');
    try {
      await page.mouse.move(0, 0);
      const size = page.viewportSize();
      if (size?.width !== viewport.width || size?.height !== viewport.height) await page.setViewportSize(viewport);
      await page.goto('about:blank', { timeout: 10000 });
      spare.push(page);
    } catch {
      await closeTab();
    }
  };
  return page;
}

/**
 * A course page with the simulator at `query` in a `width` × `height` px
 * iframe, as an instructor embeds it — an http page of another origin
 * (`localhost`) than the frame (`127.0.0.1`), as on a course site (a page
 * written into `about:blank` has an opaque origin, and Chromium's
 * local-network checks block its frame's load from 127.0.0.1). It records
 * every message it receives (`window.got`), the state messages among them
 * (`window.states`), and sends with `window.send`. Waits until the frame
 * has booted.
 */
export async function embedPage(query, { width = 400, height = 760, viewport = { width: width + 40, height: height + 40 } } = {}) {
  const page = await takePage(viewport, {});
  const errors = watchErrors(page);
  await page.goto(server.hostUrl);
  await page.setContent(`<!doctype html><html><head><title>course</title><link rel="icon" href="data:,"></head>
    <body style="margin:20px"><iframe id="sim" title="routesim" src="${server.url}${query}" width="${width}" height="${height}" style="border:0"></iframe>
    <script>
      window.got = [];
      window.states = [];
      window.addEventListener('message', (e) => {
        window.got.push(e.data);
        if (e.data && e.data.type === 'routesim:state') window.states.push(e.data);
      });
      window.send = (msg) => document.getElementById('sim').contentWindow.postMessage(msg, '*');
    </script></body></html>`);
  const frame = await (await page.waitForSelector('iframe')).contentFrame();
  await frame.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
  return { page, frame, errors };
}

/** A hash of the network canvas's pixels, and how many are not white. */
export function canvasInfo(page) {
  return page.evaluate(() => {
    const c = document.getElementById('network');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let hash = 0;
    let ink = 0;
    for (let i = 0; i < d.length; i += 4) {
      hash = (hash * 31 + d[i] + 7 * d[i + 1] + 13 * d[i + 2]) | 0;
      if (d[i] < 250 || d[i + 1] < 250 || d[i + 2] < 250) ink++;
    }
    return { hash, ink };
  });
}

/**
 * Sends `msg` from an `embedPage` host to the frame; waits until `count`
 * more messages are in the host's list `list` (`got`: every message,
 * `states`: the state messages), then `settleMs` more; returns the new ones.
 */
export async function sendMessage(page, msg, count, { list = 'got', settleMs = count ? 250 : 400 } = {}) {
  const read = () => page.evaluate((l) => window[l], list);
  const before = (await read()).length;
  await page.evaluate((m) => window.send(m), msg);
  if (count) await page.waitForFunction(([l, n]) => window[l].length >= n, [list, before + count], { timeout: 5000 });
  if (settleMs) await page.waitForTimeout(settleMs);
  return (await read()).slice(before);
}
