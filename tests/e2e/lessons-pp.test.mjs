// The lesson `pp-det-colouring` (Pietracaprina–Pucci §4): pp-det beside
// pp-rand on a 16×16 worst-case (4,4) instance. The student guesses
// pp-det's steps; during the colouring every pp-det packet is in one class
// while pp-rand's four are drawn from step 0; after it pp-det's legend has
// the same four; the check (both runs' claims, pp-det needs more steps)
// is decided, in the runs' own numbers.
// Run: node --test tests/e2e/lessons-pp.test.mjs (after ./build.sh).

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { openPage } from './harness.mjs';

const role = (page, name) => page.locator(`[data-role="${name}"]`);
/** The legend's classes of run `run` (0: pp-det, 1: pp-rand), as the page names them. */
const legend = (page, run) => page.evaluate((r) => [...document.querySelectorAll('[data-role="legend"] [data-role="legend-class"]')]
  .filter((e) => e.dataset.run === r).map((e) => e.textContent.trim()), String(run));

test('lesson pp-det-colouring: one class while the counters run, then four; the check decided in the runs\' numbers', async () => {
  const { page, errors } = await openPage('?lesson=pp-det-colouring');
  assert.equal(await role(page, 'lesson').inputValue(), 'pp-det-colouring');
  assert.equal(await role(page, 'algorithm').inputValue(), 'pp-det');
  assert.equal(await role(page, 'topology').inputValue(), 'mesh:16x16');
  assert.equal(await role(page, 'network').count(), 2);
  // It asks first, paused, at the colouring.
  assert.equal(await role(page, 'status').innerText(), 'paused');
  assert.match(await page.locator('#predict-question').innerText(), /pp-rand, the second run, needs 564 steps here/);
  assert.equal(await role(page, 'lesson-check').getAttribute('data-verdict'), 'pending');
  assert.equal((await role(page, 'phase').first().innerText()).trim(), 'colouring');
  await page.waitForFunction(() => document.querySelectorAll('[data-role="legend-class"][data-run="1"]').length > 0);
  assert.deepEqual(await legend(page, 0), ['blue: colour class 0']);
  assert.deepEqual(await legend(page, 1), ['blue: colour class 0', 'green: colour class 1', 'sky blue: colour class 2', 'grey: colour class 3']);
  await role(page, 'predict').fill('600');
  await role(page, 'predict-submit').click();
  await page.waitForFunction(() => document.querySelector('[data-role="status"]').textContent.trim() === 'running');
  // Past the colouring (48 steps): pp-det's packets are in their four classes.
  await page.waitForFunction(() => Number(document.querySelector('[data-role="step-count"]').textContent) > 60, null, { timeout: 30000 });
  await page.waitForFunction(() => document.querySelectorAll('[data-role="legend-class"][data-run="0"]').length === 4, null, { timeout: 10000 });
  await role(page, 'finish').click();
  await page.waitForFunction(() => document.querySelector('[data-role="status"]').textContent === 'finished', null, { timeout: 60000 });
  const [det, rand] = await page.evaluate(() => [window.routesim.sim.report(), window.routesim.compare.sim.report()]);
  assert.deepEqual([det.steps, rand.steps], [677, 564]);
  assert.equal(det.phases[0].name, 'colouring');
  assert.equal(det.phases[0].steps, 48);
  assert.deepEqual(det.phases.filter((p) => p.name.endsWith('stripe-balance')).map((p) => p.steps), [16, 16, 16, 16]);
  // Decided: both runs' O(√(ℓkN)) measured, their queues within the bound, and pp-det slower.
  await page.waitForFunction(() => document.querySelector('[data-role="lesson-check"]')?.dataset.verdict === 'measured', null, { timeout: 10000 });
  const checks = await role(page, 'lesson-check').locator('li').evaluateAll((lis) => lis.map((li) => [li.dataset.verdict, li.innerText]));
  assert.ok(checks.every(([v]) => v === 'met' || v === 'measured'), JSON.stringify(checks));
  assert.ok(checks.some(([v, t]) => v === 'met' && t.includes('pp-det needs more steps than pp-rand: 677 > 564')), JSON.stringify(checks));
  assert.match(await role(page, 'predict-result').innerText(), /^Your guess 600 · measured 677 steps: 77 too low/);
  assert.deepEqual(errors, []);
  await page.close();
});
