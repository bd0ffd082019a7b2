// End-to-end tests of the page's pace and "predict, then watch" (issue #25,
// problems 7 and 8; SPEC §7 `data-speed`, `next-phase`, `computed`,
// `predict`, `predict-submit`, `predict-result`), at 1280×800, 390×844 and
// in a 400 px iframe. They read `data-speed` rather than wait for runs to
// play out; a run's length comes from the core (a fresh Simulation run to
// its end), not from the page's counters.
// Run: node --test tests/e2e/pace.test.mjs (after ./build.sh).

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { openPage, embedPage } from './harness.mjs';

const SHORT = '?topology=mesh:8x8&algorithm=greedy&workload=random-permutation';
const LONG = '?topology=mesh:32x32&algorithm=ks-nowrap&workload=point-reflection&k=8';
const LONG_TORUS = '?topology=torus:32x32&algorithm=ks-nowrap&workload=point-reflection&k=8';
const VIEWPORTS = [{ width: 1280, height: 800 }, { width: 390, height: 844 }];

const role = (page, name) => page.locator(`[data-role="${name}"]`);

/** The run's length by the core: the page's config run to its end in a fresh Simulation. */
function coreLength(frame) {
  return frame.evaluate(async () => {
    const wasm = await import('./pkg/routesim.js');
    const sim = new wasm.Simulation(window.routesim.sim.config());
    const steps = sim.run_to_end(1e7).step;
    sim.free();
    return steps;
  });
}

/** `data-speed` once the core knows the run's length (the computed band says so). */
async function speedOnceKnown(frame) {
  await frame.waitForFunction(() => document.querySelector('[data-role="computed"]').dataset.known === 'true', null, { timeout: 20000 });
  const speed = Number(await frame.locator('[data-role="play"]').getAttribute('data-speed'));
  assert.ok(speed > 0, `data-speed ${speed}`);
  return speed;
}

async function assertPaced(frame, what) {
  const [speed, steps] = [await speedOnceKnown(frame), await coreLength(frame)];
  const seconds = steps / speed;
  assert.ok(seconds >= 20 && seconds <= 40, `${what}: ${steps} steps at ${speed} steps/s = ${seconds.toFixed(1)} s`);
  return { speed, steps };
}

for (const viewport of VIEWPORTS) {
  const size = `${viewport.width}×${viewport.height}`;
  test(`${size}: a short and a long run both play in 20–40 s; a form edit re-chooses the speed`, async () => {
    const { page, errors } = await openPage(SHORT, viewport);
    const short = await assertPaced(page, 'greedy 8×8');
    assert.ok(short.speed < 2, `a ${short.steps}-step run is slowed (${short.speed} steps/s)`);
    // A form edit: a new run, a new speed (not the old one sticking).
    await page.evaluate(() => {
      const set = (id, v) => {
        const el = document.getElementById(id);
        el.value = v;
        el.dispatchEvent(new Event('change', { bubbles: true }));
      };
      set('topology', 'mesh:32x32');
      set('algorithm', 'ks-nowrap');
      set('workload', 'point-reflection');
      set('k', '8');
    });
    await page.waitForFunction(() => window.routesim.config.k === 8 || window.routesim.config.k === '8');
    const long = await assertPaced(page, 'ks-nowrap mesh 32×32 after a form edit');
    assert.ok(long.speed > 3 * short.speed, `the speed was re-chosen: ${short.speed} → ${long.speed}`);
    assert.equal(new URL(page.url()).searchParams.get('speed'), null, 'no user speed in the address');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test(`${size}: the user's speed wins (URL and the speed control)`, async () => {
    const { page, errors } = await openPage(`${LONG}&speed=50`, viewport);
    assert.equal(await role(page, 'play').getAttribute('data-speed'), '50');
    await page.evaluate(() => {
      const el = document.getElementById('speed');
      el.value = '50'; // 10^(50/25 − 1) = 10 steps/s
      el.dispatchEvent(new Event('input', { bubbles: true }));
    });
    assert.equal(await role(page, 'play').getAttribute('data-speed'), '10');
    assert.equal(new URL(page.url()).searchParams.get('speed'), '10');
    // A form edit keeps the user's speed.
    await page.evaluate(() => {
      const el = document.getElementById('seed');
      el.value = '2';
      el.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await page.waitForFunction(() => String(window.routesim.config.seed) === '2');
    assert.equal(await role(page, 'play').getAttribute('data-speed'), '10');
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('400 px iframe: a short and a long (torus) run both play in 20–40 s', async () => {
  for (const query of [SHORT, LONG_TORUS]) {
    const { page, frame, errors } = await embedPage(`?embed=1&${query.slice(1)}`, { width: 400, height: 760 });
    await assertPaced(frame, `embed ${query}`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('next-phase lands step-count on the first step of each phase in turn, then is disabled', async () => {
  const { page, errors } = await openPage(`${LONG}&play=0`, { width: 1280, height: 800 });
  const next = role(page, 'next-phase');
  await page.waitForFunction(() => !document.querySelector('[data-role="next-phase"]').disabled, null, { timeout: 20000 });
  // The core's phases of the whole run: the report of a fresh run to its end.
  const phases = await page.evaluate(async () => {
    const wasm = await import('./pkg/routesim.js');
    const sim = new wasm.Simulation(window.routesim.sim.config());
    sim.run_to_end(1e7);
    const out = sim.report().phases.map((p) => ({ name: p.name, steps: p.steps }));
    sim.free();
    return out;
  });
  assert.ok(phases.length >= 3, JSON.stringify(phases));
  let boundary = 0;
  for (const phase of phases.slice(0, -1)) {
    boundary += phase.steps;
    const nextName = phases[phases.indexOf(phase) + 1].name;
    await next.focus();
    await page.keyboard.press('Enter'); // keyboard access, as every button
    await page.waitForFunction((s) => document.querySelector('[data-role="step-count"]').textContent === String(s), boundary + 1, { timeout: 20000 });
    assert.equal(await role(page, 'phase').innerText(), nextName, `at step ${boundary + 1}`);
    assert.equal(await role(page, 'status').innerText(), 'paused');
  }
  assert.ok(await next.isDisabled(), 'no phase after the last');
  // N does the same from anywhere but a text field: back to step 0, then N.
  await role(page, 'reset').click();
  await page.locator('body').press('n');
  await page.waitForFunction((s) => document.querySelector('[data-role="step-count"]').textContent === String(s), phases[0].steps + 1, { timeout: 20000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the computed band exists, grows while the run plays, and spans the run once it is over', async () => {
  const { page, errors } = await openPage(LONG, { width: 1280, height: 800 });
  const band = role(page, 'computed');
  const read = () => band.evaluate((el) => ({ computed: Number(el.dataset.computed), steps: Number(el.dataset.steps), width: el.getBoundingClientRect().width, track: el.parentElement.getBoundingClientRect().width }));
  await page.waitForFunction(() => Number(document.querySelector('[data-role="computed"]').dataset.computed) >= 2, null, { timeout: 20000 });
  const first = await read();
  await page.waitForFunction((c) => Number(document.querySelector('[data-role="computed"]').dataset.computed) >= c + 4, first.computed, { timeout: 20000 });
  const later = await read();
  assert.ok(later.computed > first.computed && later.width > first.width, `${JSON.stringify(first)} → ${JSON.stringify(later)}`);
  assert.ok(later.width < later.track, 'the run is not computed to its end yet: the band is not full');
  assert.equal(later.steps, await coreLength(page), 'the band spans the run length the core measured');
  // The scrubber spans the steps computed (SPEC §7), a share of the track.
  const scrub = await role(page, 'scrubber').evaluate((el) => ({ max: Number(el.max), width: el.getBoundingClientRect().width, full: el.parentElement.getBoundingClientRect().width }));
  assert.ok(scrub.width < scrub.full, `the scrubber does not look full while playing: ${JSON.stringify(scrub)}`);
  await page.click('#finish');
  await page.waitForFunction(() => document.querySelector('[data-role="status"]').textContent === 'finished', null, { timeout: 20000 });
  const end = await read();
  assert.equal(end.computed, end.steps);
  assert.ok(Math.abs(end.width - end.track) < 1, JSON.stringify(end));
  assert.deepEqual(errors, []);
  await page.close();
});

const PREDICTIONS = [
  { lesson: 'greedy-worst', field: 'max_queue', guess: '5' },
  { lesson: 'lemma2-linear', field: 'steps', guess: '40' },
  { lesson: 'bitfix-vs-valiant', field: 'steps', guess: '30' },
];

for (const { lesson, field, guess } of PREDICTIONS) {
  test(`predict, then watch: ${lesson} sets the guess beside the measured ${field}`, async () => {
    const { page, errors } = await openPage(`?lesson=${lesson}`, { width: 1280, height: 800 });
    assert.equal(await role(page, 'status').innerText(), 'paused', 'a prediction lesson opens paused');
    assert.equal(await role(page, 'step-count').first().innerText(), '0');
    const input = role(page, 'predict');
    assert.ok(await input.isVisible());
    // Not a number: a clear message beside the input, nothing plays.
    await input.fill('lots');
    await role(page, 'predict-submit').click();
    const error = page.locator('#predict-error');
    assert.match(await error.innerText(), /predict.*lots.*expected a number/);
    const [ib, eb] = [await input.boundingBox(), await error.boundingBox()];
    assert.ok(Math.abs(eb.y - (ib.y + ib.height)) < 80, 'the message is beside the input');
    assert.equal(await role(page, 'status').innerText(), 'paused');
    // A guess: the run plays; run to the end; the result.
    await input.fill(guess);
    await role(page, 'predict-submit').click();
    assert.equal(await error.isVisible(), false);
    assert.equal(await role(page, 'status').innerText(), 'running');
    await page.click('#finish');
    await page.waitForFunction(() => document.querySelector('[data-role="status"]').textContent === 'finished', null, { timeout: 60000 });
    const result = role(page, 'predict-result');
    await page.waitForFunction(() => /measured/.test(document.querySelector('[data-role="predict-result"]').textContent));
    const measured = await page.evaluate((f) => window.routesim.sim.report()[f], field);
    const text = await result.innerText();
    const diff = Number(guess) - measured;
    assert.ok(text.includes(`guess ${guess}`), text);
    assert.ok(text.includes(`measured ${measured}`), text);
    assert.ok(diff === 0 ? /exactly right/.test(text) : text.includes(`${Math.abs(diff)} too ${diff > 0 ? 'high' : 'low'}`), text);
    assert.equal(Number(await result.getAttribute('data-difference')), diff);
    assert.equal(Number(await result.getAttribute('data-measured')), measured);
    assert.deepEqual(errors, []);
    await page.close();
  });
}
