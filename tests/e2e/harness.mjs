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
 * Opens the page at `query` in a new tab of `viewport`; collects the page's
 * errors (uncaught exceptions and console errors) into `errors`; waits until
 * the page has booted (`body[data-ready="1"]`). `options`: more of
 * `newPage`'s (`reducedMotion`, `hasTouch`, …).
 */
export async function openPage(query, viewport = { width: 1280, height: 800 }, options = {}) {
  const page = await browser.newPage({ viewport, ...options });
  const errors = watchErrors(page);
  await page.goto(server.url + query);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
  return { page, errors };
}

/**
 * A course page with the simulator at `query` in a `width` × `height` px
 * iframe, as an instructor embeds it: it records every message it receives
 * (`window.got`), the state messages among them (`window.states`), and
 * sends with `window.send`. Waits until the frame has booted.
 */
export async function embedPage(query, { width = 400, height = 760, viewport = { width: width + 40, height: height + 40 } } = {}) {
  const page = await browser.newPage({ viewport });
  const errors = watchErrors(page);
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
