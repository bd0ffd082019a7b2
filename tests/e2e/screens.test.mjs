// End-to-end tests of the page by screen (issue #25, problems 3–6 and the
// run chart of 7): on narrow screens the run, then the lesson and claims,
// then Setup folded; every network canvas at its drawing's aspect ratio
// (single and compare, at 1280×800, 390×844 and in a 400 px frame), the
// compare canvases stacked when narrow; both runs counted and labelled in
// the compare view; embeds that teach (claims, fit to a 400×600 frame,
// start when scrolled into view, snippets that keep frames apart).
// Run: node --test tests/e2e/screens.test.mjs (after ./build.sh).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { root, shots, server, browser, openPage, embedPage, watchErrors } from './harness.mjs';
import { assertAccessible } from './axe.mjs';

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const SINGLE = '?topology=mesh:12x12&algorithm=greedy&workload=random-permutation&seed=5&play=0';
const COMPARE = '?topology=mesh:16x16&algorithm=greedy&workload=greedy-worst&compare=offline&play=0';
const VERDICTS = ['pending', 'met', 'not-met', 'measured', 'not-applicable'];

/** Every network canvas: its displayed box and its drawing's size. */
const canvases = (target) => target.locator('[data-role="network"]').evaluateAll((cs) => cs.map((c) => {
  const r = c.getBoundingClientRect();
  return { x: r.x, y: r.y, width: r.width, height: r.height, bottom: r.bottom, drawW: c.width, drawH: c.height };
}));

/** Asserts every network canvas is shown at its drawing's aspect ratio (within 2 %, SPEC §7). */
async function assertAspect(target, what) {
  const list = await canvases(target);
  assert.ok(list.length >= 1, `${what}: no network canvas`);
  for (const [i, c] of list.entries()) {
    const shown = c.width / c.height;
    const drawn = c.drawW / c.drawH;
    assert.ok(Math.abs(shown / drawn - 1) <= 0.02, `${what}: canvas ${i} shown ${c.width}×${c.height} for a ${c.drawW}×${c.drawH} drawing`);
  }
  return list;
}

/** The box of the first element matching `selector`. */
const box = (target, selector) => target.locator(selector).first().evaluate((el) => el.getBoundingClientRect().toJSON());

test('390×844: the run first, then the lesson and claims (explain), then Setup folded to a line naming the run', async () => {
  for (const query of ['', '?lesson=greedy-bounds', SINGLE]) {
    const { page, errors } = await openPage(query, PHONE, { isMobile: true, hasTouch: true });
    const canvas = await box(page, '[data-role="network"]');
    const counters = await box(page, '[data-role="step-count"]');
    const explain = await box(page, '[data-role="explain"]');
    const setup = await box(page, '[data-role="setup"]');
    assert.ok(canvas.y < explain.y && counters.y < explain.y, `${query}: the canvas and counters do not come before the explain panel`);
    assert.ok(explain.bottom <= setup.y, `${query}: explain (${explain.y}…${explain.bottom}) is not above setup (${setup.y})`);
    assert.equal(await page.locator('#setup-fold').evaluate((d) => d.open), false, `${query}: Setup is not folded`);
    assert.equal(await page.locator('[data-role="algorithm"]').isVisible(), false, `${query}: the folded form shows`);
    const summary = await page.locator('#setup-fold > summary').innerText();
    const title = await page.locator('#run-title').innerText();
    assert.ok(summary.includes(title), `${query}: the folded Setup says "${summary}", not the run "${title}"`);
    // Unfolded, the form is there to use.
    await page.locator('#setup-fold > summary').click();
    assert.ok(await page.locator('[data-role="algorithm"]').isVisible());
    if (query === '?lesson=greedy-bounds') {
      const lesson = await box(page, '.x-lesson');
      assert.ok(lesson.y < setup.y, 'the lesson is below Setup');
    }
    if (!query) {
      await page.screenshot({ path: path.join(shots, 'screens-phone.png'), fullPage: true });
      await assertAccessible(page, 'the 390 px page, Setup unfolded');
    }
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('1280×800: Setup open beside the run, and the run chart on the first screen', async () => {
  for (const query of ['', SINGLE, '?lesson=ks-wrap-torus&play=0']) {
    const { page, errors } = await openPage(query, DESKTOP);
    assert.equal(await page.locator('#setup-fold').evaluate((d) => d.open), true, `${query}: Setup folded on a wide screen`);
    assert.ok(await page.locator('[data-role="algorithm"]').isVisible());
    const chart = await box(page, '[data-chart="run"]');
    assert.ok(chart.height > 100, `${query}: the run chart is ${chart.height} px high`);
    assert.ok(chart.y >= 0 && chart.bottom <= DESKTOP.height, `${query}: the run chart at ${chart.y}…${chart.bottom} is not on the first screen`);
    if (!query) await page.screenshot({ path: path.join(shots, 'screens-1280.png') });
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('every network canvas keeps its aspect ratio at 1280×800, 390×844 and in a 400 px frame; narrow, the compare canvases stack', async () => {
  for (const query of [SINGLE, COMPARE, '?topology=linear:32&algorithm=greedy&workload=random-permutation&compare=offline&play=0', '?lesson=lmrr-butterfly&play=0']) {
    for (const viewport of [DESKTOP, PHONE]) {
      const { page, errors } = await openPage(query, viewport);
      const list = await assertAspect(page, `${query} at ${viewport.width}`);
      if (list.length === 2) {
        const [a, b] = list;
        if (viewport.width < 600) assert.ok(b.y >= a.bottom, `${query}: at ${viewport.width} px the compare canvases are not stacked (${a.y}…${a.bottom}, ${b.y})`);
        else assert.ok(Math.abs(a.y - b.y) < 2 && b.x > a.x, `${query}: at ${viewport.width} px the compare canvases are not side by side`);
      }
      // A resize keeps the shape.
      await page.setViewportSize({ width: viewport.width === 390 ? 700 : 1000, height: 800 });
      await page.waitForTimeout(200);
      await assertAspect(page, `${query} resized from ${viewport.width}`);
      assert.deepEqual(errors, []);
      await page.close();
    }
    const { page, frame, errors } = await embedPage(`?embed=1&${query.slice(1)}`, { width: 400, height: 760 });
    const list = await assertAspect(frame, `${query} in a 400 px frame`);
    // A frame is short: the two runs stay side by side there, each twice the size it would be stacked.
    if (list.length === 2) assert.ok(Math.abs(list[0].y - list[1].y) < 2 && list[1].x > list[0].x, `${query}: the compare canvases are not side by side in a 400 px frame`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('compare view: each run has its own counters (data-run 0 and 1), labelled with its algorithm; max-queue is each run\'s own', async () => {
  const { page, errors } = await openPage(COMPARE, DESKTOP);
  const run = (i, role) => page.locator(`[data-run="${i}"] [data-role="${role}"]`);
  for (const i of [0, 1]) {
    for (const role of ['step-count', 'delivered', 'max-queue']) assert.equal(await run(i, role).count(), 1, `run ${i}: ${role}`);
  }
  assert.match(await page.locator('[data-run="0"]').first().innerText(), /greedy/);
  assert.match(await page.locator('[data-run="1"]').first().innerText(), /offline/);
  // The single-run hooks: the first step-count is the shown step.
  assert.equal(await page.locator('[data-role="step-count"]').first().getAttribute('id'), 'c-step');
  await page.click('#finish');
  await page.waitForFunction(() => document.querySelector('[data-role="status"]').textContent === 'finished', null, { timeout: 30000 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const core = await page.evaluate(() => [window.routesim.sim.report(), window.routesim.compare.sim.report()]);
  for (const i of [0, 1]) {
    assert.equal(Number(await run(i, 'max-queue').innerText()), core[i].max_queue, `run ${i}: max queue`);
    assert.equal(Number(await run(i, 'step-count').innerText()), core[i].steps, `run ${i}: its own last step`);
    assert.equal(await run(i, 'delivered').innerText(), `${core[i].packets} / ${core[i].packets}`, `run ${i}: delivered`);
  }
  assert.notEqual(core[0].max_queue, core[1].max_queue, 'the instance should tell the two runs apart');
  await page.close();
  // The second run alone, as the core runs it: the same largest queue.
  const alone = await openPage(COMPARE.replace('algorithm=greedy', 'algorithm=offline').replace('&compare=offline', ''), DESKTOP);
  await alone.page.click('#finish');
  await alone.page.waitForFunction(() => document.querySelector('[data-role="status"]').textContent === 'finished', null, { timeout: 30000 });
  await alone.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  assert.equal(Number(await alone.page.locator('[data-role="max-queue"]').innerText()), core[1].max_queue);
  assert.deepEqual([...errors, ...alone.errors], []);
  await alone.page.close();
});

/** Asserts the frame does not scroll, and its canvases and claims lie inside its viewport. */
async function assertFits(frame, height, what) {
  const fit = await frame.evaluate(() => ({
    scroll: document.documentElement.scrollHeight,
    inner: window.innerHeight,
    claims: [...document.querySelectorAll('[data-role="claim"]')].map((c) => ({ ...c.getBoundingClientRect().toJSON(), verdict: c.dataset.verdict, shown: c.checkVisibility() })),
  }));
  assert.ok(fit.scroll <= height, `${what}: the frame scrolls (${fit.scroll} > ${height})`);
  for (const c of await canvases(frame)) assert.ok(c.y >= 0 && c.bottom <= height && c.height >= 90, `${what}: canvas at ${c.y}…${c.bottom}`);
  const shown = fit.claims.filter((c) => c.shown);
  assert.ok(shown.length >= 1, `${what}: no claim line`);
  for (const c of shown) {
    assert.ok(VERDICTS.includes(c.verdict), `${what}: verdict ${c.verdict}`);
    assert.ok(c.top >= 0 && c.bottom <= height, `${what}: a claim at ${c.top}…${c.bottom}`);
  }
}

test('a 400×600 embed fits its frame: the canvas and the claim lines (with verdicts) in view, a link to the full page', async () => {
  const readme = await readFile(path.join(root, 'README.md'), 'utf8');
  const [, query, width, height] = readme.match(/<iframe src="[^"]*(\?embed=1[^"]*)"\s+width="(\d+)" height="(\d+)"/);
  assert.deepEqual([Number(width), Number(height)], [400, 600], "the README's frame");
  for (const q of [query, '?embed=1', '?embed=1&lesson=greedy-bounds', '?embed=1&lesson=ks-wrap-torus', '?embed=1&topology=hypercube:6&algorithm=bit-fixing&workload=transpose']) {
    const { page, frame, errors } = await embedPage(q, { width: 400, height: 600 });
    await assertFits(frame, 600, q);
    assert.ok(await frame.locator('#open-full').isVisible(), `${q}: no link to the full simulator`);
    await frame.click('#finish');
    await frame.waitForFunction(() => document.querySelector('[data-role="status"]').textContent === 'finished', null, { timeout: 30000 });
    await page.waitForTimeout(400);
    await assertFits(frame, 600, `${q}, finished`);
    const verdicts = await frame.locator('[data-role="claim"]').evaluateAll((cs) => cs.map((c) => c.dataset.verdict));
    assert.ok(verdicts.some((v) => v !== 'pending'), `${q}: no verdict once finished (${verdicts})`);
    if (q === '?embed=1') {
      await page.screenshot({ path: path.join(shots, 'screens-embed-400x600.png') });
      await assertAccessible(frame, 'the 400 × 600 embed');
    }
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('an embed below the fold waits, paused with its Play button, until scrolled into view', async () => {
  const page = await browser.newPage({ viewport: { width: 800, height: 700 } });
  const errors = watchErrors(page);
  await page.setContent(`<!doctype html><html><head><title>course</title></head><body style="margin:0">
    <div style="height:1600px">Lecture notes…</div>
    <iframe id="sim" title="routesim" src="${server.url}?embed=1&topology=mesh:8x8&algorithm=greedy&workload=transpose&speed=20" width="400" height="600"></iframe></body></html>`);
  const frame = await (await page.waitForSelector('iframe')).contentFrame();
  await frame.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
  await page.waitForTimeout(1500);
  assert.equal(await frame.locator('[data-role="step-count"]').first().innerText(), '0', 'the run played out of view');
  assert.equal(await frame.locator('[data-role="status"]').innerText(), 'paused');
  assert.equal(await frame.locator('[data-role="play"]').innerText(), 'Play');
  await page.locator('#sim').scrollIntoViewIfNeeded();
  await frame.waitForFunction(() => Number(document.querySelector('[data-role="step-count"]').textContent) > 0, null, { timeout: 5000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test("three embeds on one page: docs/page.md's narration snippet keeps to its own frame's messages", async () => {
  const doc = await readFile(path.join(root, 'docs', 'page.md'), 'utf8');
  const snippet = doc.match(/```html\n(<iframe id="sim"[\s\S]*?)```/)[1].replace('https://YOUR-HOST/routesim/', server.url);
  assert.match(snippet, /source !== sim\.contentWindow/);
  // The README's embed snippet listens the same way.
  assert.match(await readFile(path.join(root, 'README.md'), 'utf8'), /event\.source !== sim\.contentWindow/);
  // Two more frames, playing other runs (64 packets each) beside the narrated one.
  const others = ['greedy&workload=transpose', 'valiant&workload=random-permutation']
    .map((a) => `<iframe title="other" src="${server.url}?embed=1&topology=mesh:8x8&algorithm=${a}&speed=40" width="400" height="600"></iframe>`).join('');
  const page = await browser.newPage({ viewport: { width: 1500, height: 900 } });
  const errors = watchErrors(page);
  await page.setContent(`<!doctype html><html><head><link rel="icon" href="data:,"></head><body>${others}${snippet}</body></html>`);
  const frames = page.frames().filter((f) => f !== page.mainFrame());
  for (const f of frames) await f.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
  await page.waitForFunction(() => /Step 0: phase/.test(document.getElementById('story').textContent));
  // The other frames post many steps meanwhile.
  await page.waitForTimeout(2500);
  const story = await page.locator('#story').innerText();
  assert.doesNotMatch(story, /of 64 packets/, `the story mixes in another frame's run: ${story}`);
  assert.match(story, /of 512 packets/);
  assert.deepEqual(errors, []);
  await page.close();
});
