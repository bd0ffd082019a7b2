// The pictures of the page in README.md and docs/, taken in headless Chromium
// (playwright-core, as the end-to-end tests): the default page at
// 1280×800, a 390×844 phone, the compact view in a 400 px iframe of a
// course page (the README's embed snippet), the load panel and the lesson
// valiant-load's load curve.
//   ./build.sh && node scripts/screenshots.mjs      → docs/screenshots/*.png
//   node scripts/screenshots.mjs load-1280.png       → only the pictures named

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../tests/e2e/server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'docs/screenshots');
/** The README's embed snippet: its URL and frame size. */
export const EMBED = { query: '?embed=1&topology=mesh:8x8&algorithm=greedy&workload=transpose&speed=2', width: 400, height: 600 };

mkdirSync(out, { recursive: true });
const server = await startServer(path.join(root, 'www'));
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
});

const only = process.argv.slice(2);

async function shoot(name, viewport, load, waitMs) {
  if (only.length && !only.includes(name)) return;
  const page = await browser.newPage({ viewport, deviceScaleFactor: 1 });
  page.on('pageerror', (e) => console.error(`${name}: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && console.error(`${name}: ${m.text()}`));
  await load(page);
  await page.waitForTimeout(waitMs);
  await page.screenshot({ path: path.join(out, name) });
  await page.close();
  console.log(`docs/screenshots/${name}`);
}

const ready = (target) => target.waitForSelector('body[data-ready="1"]', { timeout: 20000 });

await shoot('page-1280.png', { width: 1280, height: 800 }, async (page) => {
  await page.goto(server.url);
  await ready(page);
}, 6000);

await shoot('phone-390.png', { width: 390, height: 844 }, async (page) => {
  await page.goto(server.url);
  await ready(page);
}, 6000);

await shoot('embed-400.png', { width: EMBED.width + 40, height: EMBED.height + 40 }, async (page) => {
  await page.setContent(`<!doctype html><body style="margin:20px;background:#e5e7eb">
    <iframe src="${server.url}${EMBED.query}" width="${EMBED.width}" height="${EMBED.height}" style="border:0;background:#fff" title="routesim: greedy routing of a transpose"></iframe></body>`);
  await ready(await (await page.waitForSelector('iframe')).contentFrame());
}, 3500);

// The load panel (latency against offered load) after a run of its defaults on the default mesh.
await shoot('load-1280.png', { width: 1280, height: 800 }, async (page) => {
  await page.goto(`${server.url}?play=0`);
  await ready(page);
  await page.click('#load-details summary');
  await page.click('#load-run');
  await page.waitForFunction(() => /^done/.test(document.getElementById('load-status').textContent), null, { timeout: 120000 });
  await page.locator('#load-details summary').evaluate((el) => el.scrollIntoView({ block: 'start' }));
}, 300);

// The lesson valiant-load: its load curve, run by the lesson itself, and the panel next to the run.
await shoot('lesson-valiant-load-1280.png', { width: 1280, height: 800 }, async (page) => {
  await page.goto(`${server.url}?lesson=valiant-load`);
  await ready(page);
  await page.waitForFunction(() => /^done/.test(document.getElementById('load-status').textContent), null, { timeout: 120000 });
  await page.locator('#load-details summary').evaluate((el) => el.scrollIntoView({ block: 'start' }));
}, 300);

await browser.close();
await server.close();
