// The pictures of the page in README.md and docs/, taken in headless Chromium
// (playwright-core, as the end-to-end tests): the default view, a ks lesson,
// a compare view and the compact embed at 1280×800, 390×844 and in a 400 px
// iframe (docs/page.md "Screenshots"); the README's picture (the default
// page at 1280×800), a 390×844 phone, the README's embed snippet, the load
// panel and the lesson valiant-load's load curve.
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

/**
 * The four views of issue #25 at the three sizes: the default view, a ks
 * lesson, a compare view and the compact embed, each at 1280×800, on a
 * 390×844 phone and in a 400 × 600 iframe of a course page. Each opens
 * paused at a step where packets are on the move (`play=0&step=…`), so
 * the picture is the same on every machine.
 */
const VIEWS = {
  default: '?play=0&step=6',
  'ks-lesson': '?lesson=ks-wrap-torus&play=0&step=60',
  compare: '?topology=mesh:8x8&algorithm=greedy&compare=offline&workload=transpose&play=0&step=5',
  embed: '?embed=1&play=0&step=6',
};
const SIZES = {
  1280: { width: 1280, height: 800 },
  390: { width: 390, height: 844 },
};

for (const [view, query] of Object.entries(VIEWS)) {
  for (const [size, viewport] of Object.entries(SIZES)) {
    await shoot(`${view}-${size}.png`, viewport, async (page) => {
      await page.goto(`${server.url}${query}`);
      await ready(page);
    }, 2500);
  }
  await shoot(`${view}-iframe-400.png`, { width: EMBED.width + 40, height: EMBED.height + 40 }, async (page) => {
    // The full page (or the compact view) in the README's frame.
    const src = query.startsWith('?embed=1') ? query : `?embed=1&${query.slice(1)}`;
    await page.setContent(`<!doctype html><body style="margin:20px;background:#e5e7eb">
      <iframe src="${server.url}${src}" width="${EMBED.width}" height="${EMBED.height}" style="border:0;background:#fff" title="routesim in a course page"></iframe></body>`);
    await ready(await (await page.waitForSelector('iframe')).contentFrame());
  }, 2500);
}

// The README's picture: the default view as a student first sees it (playing).
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
}, 6000);

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
