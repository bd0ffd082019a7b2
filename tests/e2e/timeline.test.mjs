// End-to-end tests of the page's timeline, keyboard, embedding API and
// address (issue 12, items 2, 7 and 10; SPEC §7), in headless Debian
// Chromium driven by playwright-core, like page.test.mjs.
// Run: node --test tests/e2e/*.test.mjs (after ./build.sh).

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { readFile } from 'node:fs/promises';
import { deflateRawSync } from 'node:zlib';
import path from 'node:path';

import { root, shots, server, browser, watchErrors, openPage, embedPage, sendMessage } from './harness.mjs';

/** Opens the page at `query` (1400 × 1000 unless told); waits until booted. */
const open = (query, viewport = { width: 1400, height: 1000 }) => openPage(query, viewport);

/** A hash of the network canvas's pixels, once the drawing is at rest. */
async function canvasHash(page) {
  await page.waitForFunction(() => !window.routesim.dirty, null, { timeout: 5000 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return page.evaluate(() => {
    const c = document.querySelector('[data-role="network"]');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let hash = 0;
    for (let i = 0; i < d.length; i += 4) hash = (hash * 31 + d[i] + 7 * d[i + 1] + 13 * d[i + 2]) | 0;
    return hash;
  });
}

const role = (page, name) => page.locator(`[data-role="${name}"]`);
const shownStep = async (page) => Number(await role(page, 'step-count').first().innerText());
const status = (page) => role(page, 'status').innerText();

/** Moves the scrubber to `step` as a user's drag does: sets its value and fires `input`. */
async function scrub(page, step) {
  await role(page, 'scrubber').evaluate((el, v) => {
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, step);
}

const MESH = '?topology=mesh:12x12&algorithm=greedy&workload=random-permutation&seed=5&play=0';
const PP = '?topology=mesh:16x16&algorithm=pp-rand&workload=random-lk&l=2&k=2&seed=2&play=0';

test('the scrubber spans the steps computed so far; step back and forward move it', async () => {
  const { page, errors } = await open(MESH);
  const scrubber = role(page, 'scrubber');
  assert.equal(await scrubber.getAttribute('type'), 'range');
  assert.equal(await scrubber.getAttribute('min'), '0');
  assert.equal(await scrubber.inputValue(), '0');
  assert.equal(await scrubber.getAttribute('max'), '0');
  await role(page, 'step-back').click();
  assert.equal(await shownStep(page), 0, 'a step back from step 0');
  for (let i = 0; i < 3; i++) await role(page, 'step-forward').click();
  assert.equal(await shownStep(page), 3);
  assert.equal(await scrubber.getAttribute('max'), '3');
  assert.equal(await scrubber.inputValue(), '3');
  await role(page, 'step-back').click();
  assert.equal(await shownStep(page), 2);
  assert.equal(await scrubber.inputValue(), '2');
  assert.equal(await scrubber.getAttribute('max'), '3', 'going back forgot the steps computed');
  assert.equal(await status(page), 'paused');
  await role(page, 'step-forward').click();
  assert.equal(await shownStep(page), 3);
  // Run to the end: max = the run's length.
  await page.click('#finish');
  await page.waitForFunction(() => document.querySelector('[data-role="status"]').textContent === 'finished', null, { timeout: 20000 });
  const steps = await shownStep(page);
  assert.equal(await scrubber.getAttribute('max'), String(steps));
  assert.equal(await scrubber.inputValue(), String(steps));
  // Scrub back: the counters follow, the run is paused, the chart still covers the whole run.
  await scrub(page, 5);
  assert.equal(await shownStep(page), 5);
  assert.equal(await status(page), 'paused');
  assert.equal(await scrubber.getAttribute('max'), String(steps));
  const points = await page.evaluate(() => window.routesim.charts.run.data[0].length);
  assert.equal(points, steps + 1, 'the run chart lost the steps after the shown one');
  assert.match(await role(page, 'delivered').innerText(), /^\d+ \/ 144/);
  // The phase bands and the lower-bound tick.
  assert.ok(await page.locator('#scrub-bands .band').count() >= 1, 'no phase band');
  assert.match(await page.locator('#scrub-bands .band').first().getAttribute('title'), /^route: steps 1–/);
  assert.equal(await page.locator('#scrub-bands .bound-tick').count(), 1, 'no lower-bound tick');
  // Step forward from the end does nothing; play from the end replays from 0.
  await scrub(page, steps);
  await role(page, 'step-forward').click();
  assert.equal(await shownStep(page), steps);
  assert.deepEqual(errors, []);
  await page.close();
});

test('phase bands name the phases of a multi-phase run', async () => {
  const { page, errors } = await open(PP);
  await page.click('#finish');
  await page.waitForFunction(() => document.querySelector('[data-role="status"]').textContent === 'finished', null, { timeout: 30000 });
  const phases = await page.evaluate(() => window.routesim.sim.phases());
  assert.ok(phases.length >= 4, JSON.stringify(phases));
  const titles = await page.locator('#scrub-bands .band').evaluateAll((els) => els.map((e) => e.title));
  assert.equal(titles.length, phases.filter((p) => p.steps > 0).length);
  assert.ok(titles.some((t) => t.startsWith(`${phases[0].name}:`)), titles.join(' | '));
  // Scrubbed into a phase, the counters name it.
  const mid = phases[2];
  await scrub(page, mid.start + 1);
  assert.equal(await role(page, 'phase').innerText(), mid.name);
  await page.locator('.stage').screenshot({ path: path.join(shots, 'timeline.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('keyboard: Space plays and pauses, → and ← step; not while typing in a text field', async () => {
  const { page, errors } = await open(MESH);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.equal(await shownStep(page), 2);
  await page.keyboard.press('ArrowLeft');
  assert.equal(await shownStep(page), 1);
  assert.equal(await status(page), 'paused');
  await page.keyboard.press(' ');
  assert.equal(await status(page), 'running');
  await page.keyboard.press(' ');
  assert.equal(await status(page), 'paused');
  const at = await shownStep(page);
  // In a text field the keys are the field's.
  await page.focus('[data-role="topology"]');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press(' ');
  assert.equal(await shownStep(page), at);
  assert.equal(await status(page), 'paused');
  await page.focus('#seed');
  await page.keyboard.press('ArrowRight');
  assert.equal(await shownStep(page), at);
  // A focused button keeps its own Space: the step button steps, it does not play.
  await page.focus('[data-role="step-forward"]');
  await page.keyboard.press(' ');
  assert.equal(await shownStep(page), at + 1);
  assert.equal(await status(page), 'paused');
  // A select keeps its keys too.
  await page.focus('[data-role="algorithm"]');
  await page.keyboard.press(' ');
  assert.equal(await status(page), 'paused');
  // A slider is neither: on the speed slider → steps (SPEC §7), ↑ is the slider's own.
  await page.focus('#speed');
  const speed = await page.inputValue('#speed');
  await page.keyboard.press('ArrowRight');
  assert.equal(await shownStep(page), at + 2);
  assert.equal(await page.inputValue('#speed'), speed, '→ changed the speed');
  await page.keyboard.press('ArrowUp');
  assert.equal(await shownStep(page), at + 2);
  assert.equal(Number(await page.inputValue('#speed')), Number(speed) + 1, '↑ did not change the speed');
  assert.deepEqual(errors, []);
  await page.close();
});

test('scrubbing back then forward gives identical canvas pixels at the same step', async () => {
  const { page, errors } = await open(PP);
  await page.click('#finish');
  await page.waitForFunction(() => document.querySelector('[data-role="status"]').textContent === 'finished', null, { timeout: 30000 });
  await scrub(page, 120);
  assert.equal(await shownStep(page), 120);
  const at120 = await canvasHash(page);
  await scrub(page, 37);
  assert.equal(await shownStep(page), 37);
  const at37 = await canvasHash(page);
  assert.notEqual(at37, at120, 'the canvas did not change');
  await scrub(page, 120);
  assert.equal(await canvasHash(page), at120, 'step 120 drawn differently the second time');
  await scrub(page, 37);
  assert.equal(await canvasHash(page), at37);
  // One step back and forward again (animated), and the keyboard.
  await scrub(page, 121);
  await role(page, 'step-back').click();
  assert.equal(await shownStep(page), 120);
  assert.equal(await canvasHash(page), at120);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowRight');
  assert.equal(await shownStep(page), 120);
  assert.equal(await canvasHash(page), at120);
  assert.deepEqual(errors, []);
  await page.close();
});

test('compare view: the timeline moves both runs; back then forward gives identical pixels on both canvases', async () => {
  // greedy ends at step 15, offline at 32: the scrubber spans the longer run.
  const { page, errors } = await open('?compare=offline&play=0');
  assert.equal(await role(page, 'network').count(), 2);
  const hashes = async () => {
    await canvasHash(page);
    return page.evaluate(() => [...document.querySelectorAll('[data-role="network"]')].map((c) => {
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let hash = 0;
      for (let i = 0; i < d.length; i += 4) hash = (hash * 31 + d[i] + 7 * d[i + 1] + 13 * d[i + 2]) | 0;
      return hash;
    }));
  };
  const captions = () => page.locator('.cmp-caption').evaluateAll((cs) => cs.map((c) => Number(c.dataset.step)));
  await page.click('#finish');
  await page.waitForFunction(() => document.querySelector('[data-role="status"]').textContent === 'finished', null, { timeout: 30000 });
  const [main, other] = await page.evaluate(() => [window.routesim.sim.report().steps, window.routesim.compare.sim.report().steps]);
  assert.ok(main < other, `greedy ${main}, offline ${other}`);
  assert.equal(await role(page, 'scrubber').getAttribute('max'), String(other));
  await scrub(page, 10);
  assert.equal(await shownStep(page), 10);
  assert.deepEqual(await captions(), [10, 10]);
  assert.deepEqual(await page.evaluate(() => [window.routesim.sim.summary().step, window.routesim.compare.sim.summary().step]), [10, 10]);
  const at10 = await hashes();
  await scrub(page, main + 5);
  assert.deepEqual(await page.evaluate(() => [window.routesim.sim.summary().step, window.routesim.compare.sim.summary().step]), [main, main + 5],
    'the run that ended stays on its last step');
  const later = await hashes();
  await scrub(page, 10);
  assert.deepEqual(await hashes(), at10, 'step 10 drawn differently the second time');
  await scrub(page, main + 5);
  assert.deepEqual(await hashes(), later);
  // One step back, one forward: both runs together.
  await role(page, 'step-back').click();
  assert.equal(await shownStep(page), main + 4);
  assert.deepEqual(await captions(), [main + 4, main + 4]);
  await role(page, 'step-forward').click();
  assert.equal(await shownStep(page), main + 5);
  assert.deepEqual(await hashes(), later);
  assert.equal(await status(page), 'paused');
  await page.waitForFunction((step) => new URL(location.href).searchParams.get('step') === String(step), main + 5, { timeout: 2000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a 64×64 (4,4) pp-rand run scrubs smoothly', async () => {
  const { page, errors } = await open('?topology=mesh:64x64&algorithm=pp-rand&workload=random-lk&l=4&k=4&seed=1&play=0');
  await page.click('#finish');
  await page.waitForFunction(() => document.querySelector('[data-role="status"]').textContent === 'finished', null, { timeout: 120000 });
  const steps = await shownStep(page);
  const times = await page.evaluate(async (n) => {
    const scrubber = document.querySelector('[data-role="scrubber"]');
    let seed = 12345;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const out = [];
    for (let i = 0; i < 10; i++) {
      const target = Math.floor(random() * n);
      const t0 = performance.now();
      scrubber.value = String(target);
      scrubber.dispatchEvent(new Event('input', { bubbles: true }));
      // Until the frame that draws it has been drawn.
      await new Promise((r) => requestAnimationFrame(() => r()));
      const shown = Number(document.querySelector('[data-role="step-count"]').textContent);
      out.push({ target, shown, ms: performance.now() - t0 });
    }
    return out;
  }, steps);
  console.log(`64×64 (4,4) pp-rand, ${steps} steps: scrub to 10 random steps took ${times.map((t) => t.ms.toFixed(0)).join(', ')} ms`);
  for (const t of times) {
    assert.equal(t.shown, t.target);
    assert.ok(t.ms < 250, `scrubbing to step ${t.target} took ${t.ms.toFixed(0)} ms`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('a hypercube:6 run does not end before it is seen, and stops on its last step', async () => {
  const { page, errors } = await open('?topology=hypercube:6');
  await page.waitForTimeout(2500);
  assert.equal(await status(page), 'running', 'the run was over within 2.5 s');
  await page.waitForFunction(() => document.querySelector('[data-role="status"]').textContent === 'finished', null, { timeout: 60000 });
  const steps = await shownStep(page);
  const report = await page.evaluate(() => window.routesim.sim.report());
  assert.equal(steps, report.steps);
  assert.equal(await role(page, 'scrubber').getAttribute('max'), String(steps));
  await page.waitForTimeout(600);
  assert.equal(await shownStep(page), steps, 'the view left the last step');
  assert.deepEqual(errors, []);
  await page.close();
});

/** A course page with the simulator in a 640 × 720 iframe; `window.states` records the state messages it receives. */
const host = (query) => embedPage(query, { width: 640, height: 720, viewport: { width: 900, height: 900 } });

const states = (page) => page.evaluate(() => window.states);
/** Sends `msg`; waits until `count` state messages came (or 300 ms when none should); returns those. */
const send = (page, msg, count) => sendMessage(page, msg, count, { list: 'states', settleMs: count ? 0 : 300 });

test('embedded: state messages after each shown step; commands move the run; a malformed command is reported', async () => {
  const { page, frame, errors } = await host('?embed=1&topology=mesh:8x8&algorithm=greedy&workload=random-permutation&play=0');
  await page.waitForFunction(() => window.states.length >= 1);
  const first = (await states(page))[0];
  assert.deepEqual(Object.keys(first).sort(), ['delivered', 'packets', 'phase', 'status', 'step', 'type']);
  assert.equal(first.step, 0);
  assert.equal(first.packets, 64);
  assert.equal(first.status, 'paused');
  // step ×3: one message per step.
  let got = [];
  for (let i = 0; i < 3; i++) got.push(...(await send(page, { type: 'routesim:command', command: 'step' }, 1)));
  assert.deepEqual(got.map((s) => s.step), [1, 2, 3]);
  assert.ok(got.every((s) => s.status === 'paused' && s.phase === 'route' && s.type === 'routesim:state'));
  assert.equal(Number(await frame.locator('[data-role="step-count"]').innerText()), 3);
  got = await send(page, { type: 'routesim:command', command: 'back' }, 1);
  assert.deepEqual(got.map((s) => s.step), [2]);
  // goto: one message, the target.
  got = await send(page, { type: 'routesim:command', command: 'goto', step: 7 }, 1);
  await page.waitForTimeout(200);
  got = (await states(page)).slice(-1);
  assert.equal(got[0].step, 7);
  assert.equal(Number(await frame.locator('[data-role="step-count"]').innerText()), 7);
  assert.equal(Number(await frame.locator('[data-role="scrubber"]').inputValue()), 7);
  // play: steps come, running; pause: they stop.
  got = await send(page, { type: 'routesim:command', command: 'play' }, 2);
  assert.ok(got.every((s) => s.status === 'running' || s.status === 'finished'), JSON.stringify(got));
  assert.ok(got[1].step > got[0].step);
  await send(page, { type: 'routesim:command', command: 'pause' });
  assert.equal(await frame.locator('[data-role="status"]').innerText(), 'paused');
  const paused = (await states(page)).length;
  await page.waitForTimeout(600);
  assert.equal((await states(page)).length, paused, 'messages after pause');
  // reset: back to step 0.
  got = await send(page, { type: 'routesim:command', command: 'reset' }, 1);
  assert.equal(got.at(-1).step, 0);
  assert.equal(Number(await frame.locator('[data-role="step-count"]').innerText()), 0);
  assert.equal(await frame.locator('[data-role="error"]').isVisible(), false);
  // Malformed commands: ignored, named in the error line.
  for (const bad of [
    { type: 'routesim:command', command: 'fly' },
    { type: 'routesim:command', command: 'goto', step: -3 },
    { type: 'routesim:command', command: 'goto' },
    { type: 'routesim:command' },
  ]) {
    got = await send(page, bad);
    assert.deepEqual(got, [], `${JSON.stringify(bad)} moved the run`);
    assert.ok(await frame.locator('[data-role="error"]').isVisible(), `${JSON.stringify(bad)} not reported`);
    assert.match(await frame.locator('[data-role="error"]').innerText(), /malformed routesim:command/);
  }
  assert.equal(Number(await frame.locator('[data-role="step-count"]').innerText()), 0);
  // A good command clears the line.
  await send(page, { type: 'routesim:command', command: 'step' }, 1);
  assert.equal(await frame.locator('[data-role="error"]').isVisible(), false);
  await page.screenshot({ path: path.join(shots, 'embed-host.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the address keeps play=0, step and the parameters the page does not own across changes', async () => {
  const { page, errors } = await open('?topology=mesh:8x8&algorithm=greedy&workload=random-permutation&play=0&step=4&lesson=greedy-bounds&compare=valiant');
  assert.equal(await shownStep(page), 4, 'step=4 did not open at step 4');
  assert.equal(await status(page), 'paused');
  assert.equal(await role(page, 'scrubber').inputValue(), '4');
  const params = () => new URL(page.url()).searchParams;
  await page.fill('#seed', '9');
  await page.locator('#seed').dispatchEvent('change');
  await page.waitForTimeout(300);
  assert.equal(params().get('seed'), '9');
  assert.equal(params().get('play'), '0', 'play=0 dropped after a change');
  assert.equal(params().get('step'), '4', 'step dropped after a change');
  assert.equal(params().get('lesson'), 'greedy-bounds');
  assert.equal(params().get('compare'), 'valiant');
  assert.equal(await shownStep(page), 4, 'the changed run does not open at the step');
  await page.selectOption('[data-role="algorithm"]', 'valiant');
  await page.waitForTimeout(300);
  assert.equal(params().get('algorithm'), 'valiant');
  assert.equal(params().get('play'), '0');
  assert.equal(params().get('step'), '4');
  // Moving the view while paused moves the address's step.
  await role(page, 'step-forward').click();
  await page.waitForTimeout(300);
  assert.equal(params().get('step'), '5');
  // Play drops play=0; pause brings it back.
  await role(page, 'play').click();
  await page.waitForTimeout(300);
  assert.equal(params().get('play'), null);
  await role(page, 'play').click();
  await page.waitForTimeout(300);
  assert.equal(params().get('play'), '0');
  assert.equal(params().get('lesson'), 'greedy-bounds');
  // Reopening the address shows the same step.
  const step = Number(params().get('step'));
  await page.goto(page.url());
  await page.waitForSelector('body[data-ready="1"]');
  assert.equal(await shownStep(page), step);
  assert.equal(await status(page), 'paused');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a loaded instance goes into the address, and the address restores it', async () => {
  const { page, errors } = await open('?play=0&speed=20&topology=mesh:8x8&algorithm=greedy&workload=random-permutation');
  const instance = '{"topology": "mesh:6x6", "name": "three", "packets": [[0, 35], [5, 30], [7, 7], [12, 1], [20, 21]]}';
  await page.click('#instance-box summary');
  await page.fill('#instance-text', instance);
  await page.click('#load-instance');
  await page.waitForFunction(() => new URL(location.href).searchParams.has('instance'), null, { timeout: 5000 });
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('play'), '0', 'loading an instance reset the other parameters');
  assert.equal(url.searchParams.get('speed'), '20');
  assert.ok(url.href.length <= 2000);
  const json = await page.evaluate(() => window.routesim.sim.instance_json());
  assert.equal(await role(page, 'topology').inputValue(), 'mesh:6x6');
  // Reopen the address in a fresh page: the same instance.
  const again = await open(url.search);
  assert.equal(await again.page.evaluate(() => window.routesim.sim.instance_json()), json);
  assert.equal(await role(again.page, 'topology').inputValue(), 'mesh:6x6');
  assert.match(await role(again.page, 'delivered').innerText(), /^1 \/ 5/);
  assert.equal(await again.page.locator('.msg.warning, .msg.error').count(), 0);
  await again.page.click('#finish');
  await again.page.waitForFunction(() => document.querySelector('[data-role="status"]').textContent === 'finished');
  assert.equal(await role(again.page, 'delivered').innerText(), '5 / 5');
  // An instance too large for an address: said in one line, and not written.
  const big = await page.evaluate(() => new window.routesim.sim.constructor({ topology: 'mesh:32x32', workload: 'random-permutation', algorithm: 'greedy', seed: 3 }).instance_json());
  await page.fill('#instance-text', big);
  await page.click('#load-instance');
  const note = page.locator('.msg > span', { hasText: 'cannot carry' });
  await note.waitFor({ timeout: 5000 });
  assert.ok(!(await note.innerText()).trim().includes('\n'));
  assert.equal(new URL(page.url()).searchParams.has('instance'), false, 'a stale instance stays in the address');
  assert.equal(new URL(page.url()).searchParams.get('play'), '0');
  assert.deepEqual([...errors, ...again.errors], []);
  await again.page.close();
  await page.close();
});

test('an address instance that inflates past the text limit is refused while it inflates', async () => {
  const limit = await (async () => {
    const { page } = await open('?play=0');
    const max = await page.evaluate(async () => (await import('./pkg/routesim.js')).limits().max_bytes);
    await page.close();
    return max;
  })();
  // About 65 KB of deflate that inflates to 1 KB past the limit.
  const bomb = deflateRawSync(Buffer.alloc(limit + 1024, 0x20)).toString('base64url');
  assert.ok(bomb.length < 100_000);
  const { page, errors } = await open(`?play=0&topology=mesh:8x8&instance=${bomb}`);
  const warnings = await page.locator('.msg.warning > span').allInnerTexts();
  assert.ok(
    warnings.includes(`URL parameter instance ignored: it inflates to more than ${limit} bytes, the page's limit for instance text.`),
    warnings.join(' | '),
  );
  // The page runs the rest of the address, without the instance.
  assert.equal(await role(page, 'topology').inputValue(), 'mesh:8x8');
  assert.equal(new URL(page.url()).searchParams.has('instance'), false);
  assert.deepEqual(errors, []);
  await page.close();
});

test("docs/page.md's course-page example narrates a run", async () => {
  const readme = await readFile(path.join(root, 'docs', 'page.md'), 'utf8');
  const snippet = readme.match(/```html\n(<iframe id="sim"[\s\S]*?)```/)[1].replace('https://YOUR-HOST/routesim/', server.url);
  assert.ok(snippet.trim().split('\n').length <= 12, 'the example is longer than about ten lines');
  const page = await browser.newPage({ viewport: { width: 900, height: 1000 } });
  const errors = watchErrors(page);
  await page.setContent(`<!doctype html><html><head><link rel="icon" href="data:,"></head><body>${snippet}</body></html>`);
  const frame = page.frames().find((f) => f !== page.mainFrame());
  await frame.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
  await page.waitForFunction(() => /Step 0: phase/.test(document.getElementById('story').textContent));
  // A jump into a later phase adds a sentence; Play moves the run.
  // (pp-rand routes this instance in about 300 steps: step 150 is in colour class 1.)
  await page.evaluate(() => send('goto', 150));
  await page.waitForFunction(() => /Step 150: phase/.test(document.getElementById('story').textContent));
  await page.click('text=Play');
  await frame.waitForFunction(() => Number(document.querySelector('[data-role="step-count"]').textContent) > 150);
  await page.click('text=Pause');
  await frame.waitForFunction(() => document.querySelector('[data-role="status"]').textContent === 'paused');
  assert.deepEqual(errors, []);
  await page.close();
});

test('an address step past the run\'s end shows the last step and says so; one within it says nothing', async () => {
  const { page, errors } = await open('?topology=mesh:8x8&workload=transpose&step=999999&play=0');
  const report = await page.evaluate(() => window.routesim.sim.report());
  assert.equal(await role(page, 'step-count').innerText(), String(report.steps));
  const infos = await page.locator('.msg.info > span').allInnerTexts();
  assert.ok(infos.includes(`step=999999 is past the run's end: showing its last step, ${report.steps}.`), infos.join(' | '));
  await page.goto(server.url + '?topology=mesh:8x8&workload=transpose&step=5&play=0');
  await page.waitForSelector('body[data-ready="1"]');
  assert.equal(await role(page, 'step-count').innerText(), '5');
  assert.ok(!(await page.locator('.msg.info > span').allInnerTexts()).some((m) => /past the run's end/.test(m)));
  assert.deepEqual(errors, []);
  await page.close();
});

test('a run changed after its end opens at step 0; one changed mid-run keeps the step and says when it ends before it', async () => {
  const { page, errors } = await open('?topology=mesh:12x12&algorithm=greedy&workload=random-permutation&seed=5&play=0');
  const infos = () => page.locator('.msg.info > span').allInnerTexts();
  await page.click('#finish');
  await page.waitForFunction(() => document.querySelector('[data-role="status"]').textContent === 'finished');
  const end = await shownStep(page);
  assert.ok(end > 11, `the 12×12 run ends at ${end}`);
  await page.fill('#topology', 'mesh:8x8');
  await page.locator('#topology').dispatchEvent('change');
  await page.waitForFunction(() => window.routesim.sim.report().topology === 'mesh:8x8');
  await page.waitForTimeout(300);
  // It opened at its start (it opened finished, at its own end, with a note
  // about a step= nobody typed).
  assert.equal(await shownStep(page), 0, 'the changed run did not open at step 0');
  assert.notEqual(await status(page), 'finished');
  assert.ok(!(await infos()).some((m) => /past the run's end|ends at step/.test(m)), (await infos()).join(' | '));
  // Paused (play=0) mid-run at step 5 of mesh:8x8, a 2×2 run ends earlier: its last step, said in the form's words.
  await page.goto(server.url + '?topology=mesh:8x8&algorithm=greedy&workload=random-permutation&seed=5&play=0&step=5');
  await page.waitForSelector('body[data-ready="1"]');
  assert.equal(await shownStep(page), 5);
  assert.equal(await status(page), 'paused');
  await page.fill('#topology', 'mesh:2x2');
  await page.locator('#topology').dispatchEvent('change');
  await page.waitForFunction(() => /changed run ends at step/.test([...document.querySelectorAll('.msg.info > span')].map((e) => e.textContent).join(' ')));
  const last = await page.evaluate(() => window.routesim.sim.report().steps);
  assert.equal(await shownStep(page), last);
  assert.ok((await infos()).includes(`The changed run ends at step ${last}, before step 5 shown last: showing its last step.`), (await infos()).join(' | '));
  assert.deepEqual(errors, []);
  await page.close();
});

test('a guess\'s result carries its measured value only at the run\'s end (not when scrubbed back, not from the last run)', async () => {
  const { page, errors } = await open('?lesson=greedy-worst');
  await role(page, 'predict').fill('5');
  await role(page, 'predict-submit').click();
  await page.click('#finish');
  await page.waitForFunction(() => document.querySelector('[data-role="status"]').textContent === 'finished', null, { timeout: 60000 });
  const result = role(page, 'predict-result');
  await page.waitForFunction(() => 'measured' in document.querySelector('[data-role="predict-result"]').dataset);
  assert.match(await result.getAttribute('data-measured'), /^\d+$/);
  await scrub(page, 2);
  await page.waitForFunction(() => /result comes at its end/.test(document.querySelector('[data-role="predict-result"]').textContent));
  assert.equal(await result.getAttribute('data-measured'), null, 'a measured value beside "the result comes at its end"');
  assert.equal(await result.getAttribute('data-difference'), null);
  assert.equal(await result.getAttribute('data-guess'), '5');
  assert.deepEqual(errors, []);
  await page.close();
});

test('scrubbed back while paused, the claims and the sort verdict follow the counters at once', async () => {
  const { page, errors } = await open('?topology=hypercube:4&algorithm=bitonic&workload=sort-random&play=0');
  await page.click('#finish');
  await page.waitForFunction(() => document.querySelector('[data-role="status"]').textContent === 'finished');
  await page.waitForFunction(() => /✓/.test(document.querySelector('[data-role="sort-verdict"]').textContent));
  // Read in the same task as the scrub: no timer may run in between.
  const seen = await role(page, 'scrubber').evaluate((el) => {
    el.value = '0';
    el.dispatchEvent(new Event('input', { bubbles: true }));
    return {
      step: document.querySelector('[data-role="step-count"]').textContent,
      verdict: document.querySelector('[data-role="sort-verdict"]').textContent,
    };
  });
  assert.equal(seen.step, '0');
  assert.ok(!/✓/.test(seen.verdict), `step 0 still says: ${seen.verdict}`);
  assert.deepEqual(errors, []);
  await page.close();
});
