// End-to-end tests of stalls explained (issue 25, problem 10: "stalled"
// with queue capacity 1 was never explained): a q = 1 stall shows
// `data-role="deadlock"` naming exactly the node ids of the core's report
// (read from a fresh wasm run of the same config in the page), `status`
// reads `stalled`, the canvas draws the cycle, and the lesson `deadlock`
// opens and shows it — at 1280×800, 390×844 and in a 400 px iframe.
// Run: node --test tests/e2e/deadlock.test.mjs (after ./build.sh).

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { openPage, embedPage } from './harness.mjs';
import { assertAccessible } from './axe.mjs';

const STALL = '?topology=mesh:4x4&algorithm=greedy&workload=random-permutation&seed=4&q=1&play=0&step=1000';
const LESSON = '?lesson=deadlock&play=0&step=1000';

/** The integers of a text, in order. */
const integers = (text) => (text.match(/\d+/g) ?? []).map(Number);

/** The core's report of the page's config, run to its end in a fresh wasm Simulation. */
const coreCycle = (frame) => frame.evaluate(async () => {
  const wasm = await import('./pkg/routesim.js');
  const sim = new wasm.Simulation(window.routesim.config);
  sim.run_to_end(100000);
  const report = sim.report();
  return { stalled: report.stalled, deadlock: report.deadlock ?? null, steps: report.steps };
});

/** Waits for the stall, then checks the hook against the core's report. */
async function checkStall(frame, expectIds) {
  await frame.waitForFunction(() => document.querySelector('[data-role="status"]').textContent === 'stalled', null, { timeout: 30000 });
  const core = await coreCycle(frame);
  assert.equal(core.stalled, true);
  assert.ok(Array.isArray(core.deadlock) && core.deadlock.length >= 2, JSON.stringify(core));
  if (expectIds) assert.deepEqual(core.deadlock, expectIds);
  const hook = frame.locator('[data-role="deadlock"]');
  await frame.waitForFunction(() => !document.querySelector('[data-role="deadlock"]').hidden, null, { timeout: 5000 });
  assert.equal(await hook.isVisible(), true);
  const text = await hook.innerText();
  // Its only numbers are the cycle's ids, in wait-for order.
  assert.deepEqual(integers(text), core.deadlock, text);
  assert.match(text, /queues of one/);
  assert.match(text, /wait for the next/);
  // The explanation beside it names each node's place.
  // (The compact embed keeps the one line and leaves the longer text out.)
  const embed = await frame.evaluate(() => document.body.classList.contains('embed'));
  if (!embed) assert.match(await frame.locator('#deadlock-why').innerText(), /\(row \d+, col \d+\)/);
  // The canvas draws the cycle in its dark red (#7f1d1d) around the first node.
  const red = await frame.evaluate(() => {
    const c = document.querySelector('[data-role="network"]');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - 0x7f) < 12 && Math.abs(d[i + 1] - 0x1d) < 12 && Math.abs(d[i + 2] - 0x1d) < 12) n++;
    return n;
  });
  assert.ok(red > 50, `the cycle is not drawn (${red} dark red pixels)`);
  return core;
}

for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  test(`a q = 1 stall names its wait-for cycle at ${viewport.width}×${viewport.height}`, async () => {
    const { page, errors } = await openPage(STALL, viewport);
    // Before the stall (step 0) nothing is shown.
    const fresh = await openPage(STALL.replace('step=1000', 'step=0'), viewport);
    assert.equal(await fresh.page.locator('[data-role="deadlock"]').isVisible(), false);
    await fresh.page.close();
    await checkStall(page, [5, 9, 10, 6]);
    // Back one step: running again, the hook hides; forward: it returns.
    await page.click('[data-role="step-back"]');
    await page.waitForFunction(() => document.querySelector('[data-role="status"]').textContent !== 'stalled');
    await page.waitForFunction(() => document.querySelector('[data-role="deadlock"]').hidden, null, { timeout: 5000 });
    await page.click('[data-role="step-forward"]');
    await checkStall(page, [5, 9, 10, 6]);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test(`the lesson deadlock opens and shows its cycle at ${viewport.width}×${viewport.height}`, async () => {
    const { page, errors } = await openPage(LESSON, viewport);
    assert.equal(await page.locator('[data-role="lesson"]').inputValue(), 'deadlock');
    await checkStall(page, [14, 20, 21, 15]);
    await page.waitForSelector('[data-role="lesson-check"][data-verdict="met"]', { timeout: 10000 });
    assert.match(await page.locator('[data-role="lesson-check"]').innerText(), /stalls on a cycle of full nodes/);
    const check = page.locator('[data-role="lesson-check"] li').first();
    assert.match(await check.innerText(), /nodes 14 → 20 → 21 → 15 ✓/);
    assert.match(await page.locator('[data-role="explain"]').innerText(), /Pietracaprina and Pucci/);
    await assertAccessible(page, `the stalled lesson at ${viewport.width} px`);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('in a 400 px iframe the stall and the lesson show their cycles', async () => {
  for (const [query, ids] of [[STALL, [5, 9, 10, 6]], [LESSON, [14, 20, 21, 15]], [`${LESSON}&embed=1`, [14, 20, 21, 15]]]) {
    const { page, frame, errors } = await embedPage(query, { width: 400, height: 760 });
    await checkStall(frame, ids);
    assert.deepEqual(errors, [], query);
    await page.close();
  }
});

test('the lesson, opened and run to the end with the button, stalls on the core\'s cycle', async () => {
  const { page, errors } = await openPage('?lesson=deadlock&play=0');
  assert.equal(await page.locator('[data-role="deadlock"]').isVisible(), false);
  await page.click('[data-role="finish"]');
  const core = await checkStall(page, null);
  assert.equal(Number(await page.locator('[data-role="step-count"]').innerText()), core.steps + 1);
  assert.deepEqual(errors, []);
  await page.close();
});

