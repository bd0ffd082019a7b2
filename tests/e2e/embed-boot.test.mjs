// End-to-end tests of what the page audit of 2026-11-30 found at the edges
// of booting and embedding: a seed past JavaScript's exact whole numbers in
// the address (it killed the page as it booted), commands a course page
// sends before the page has booted (they were lost), the first state
// message of an embed waiting to be scrolled into view (it said running
// beside a paused page), a compact view with no claim that applies (an
// empty box), and `step` read as the other numbers are.
// Run: node --test tests/e2e/embed-boot.test.mjs (after ./build.sh).

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { browser, server, openPage, embedPage, watchErrors, sendMessage } from './harness.mjs';

/** The error line's messages. */
const lines = (at) => at.evaluate(() => [...document.querySelectorAll('#messages .msg, [data-role="error"]')].map((m) => m.textContent).join('\n'));

/** A course page holding the simulator at `query` in a 400 × 600 frame `above` px down, that posts `early` from the frame's load event. */
async function course(query, { above = 0, early = [] } = {}) {
  const page = await browser.newPage({ viewport: { width: 440, height: 700 } });
  const errors = watchErrors(page);
  await page.setContent(`<!doctype html><html><head><title>course</title><link rel="icon" href="data:,"></head>
    <body style="margin:20px"><div style="height:${above}px"></div>
    <iframe id="sim" title="routesim" src="${server.url}${query}" width="400" height="600" style="border:0"></iframe>
    <script>
      window.states = [];
      window.addEventListener('message', (e) => { if (e.data && e.data.type === 'routesim:state') window.states.push(e.data); });
      const sim = document.getElementById('sim');
      sim.addEventListener('load', () => { for (const m of ${JSON.stringify(early)}) sim.contentWindow.postMessage(m, '*'); });
    </script></body></html>`);
  const frame = await (await page.waitForSelector('iframe')).contentFrame();
  await frame.waitForSelector('body[data-ready="1"]', { timeout: 20000, state: 'attached' });
  return { page, frame, errors };
}

test('a seed past 2^53 − 1 in the address is named and its default used; the page boots and runs', async () => {
  for (const seed of ['9007199254740993', '18446744073709551615']) {
    const { page, errors } = await openPage(`?topology=mesh:8x8&workload=random-permutation&seed=${seed}&play=0`);
    assert.equal(await page.evaluate(() => window.routesim.sim.config().seed), 1);
    assert.match(await lines(page), new RegExp(`seed="${seed}" ignored.*from 0 to 9007199254740991`, 's'));
    await page.locator('[data-role="step-forward"]').click();
    await page.waitForFunction(() => document.querySelector('[data-role="step-count"]').textContent.trim() === '1');
    // Typed into the form, it is refused beside the box by name.
    await page.fill('#seed', seed);
    await page.press('#seed', 'Enter');
    const note = page.locator('#seed-error');
    await note.waitFor();
    assert.match(await note.innerText(), new RegExp(`invalid seed '${seed}'.*9007199254740991`, 's'));
    assert.deepEqual(errors, []);
    await page.close();
  }
  const { page, frame, errors } = await embedPage('?embed=1&topology=mesh:8x8&workload=random-permutation&seed=9007199254740993&play=0');
  assert.ok(await frame.evaluate(() => document.body.classList.contains('embed')));
  assert.equal((await page.evaluate(() => window.states)).length, 1);
  assert.deepEqual(errors, []);
  await page.close();
});

test('commands sent from the frame\'s load event, before the page has booted, are obeyed in order', async () => {
  const early = [
    { type: 'routesim:command', command: 'goto', step: 5 },
    { type: 'routesim:command', command: 'step' },
  ];
  const { page, frame, errors } = await course('?embed=1&topology=mesh:8x8&workload=random-permutation&play=0', { early });
  await page.waitForFunction(() => window.states.length >= 3, null, { timeout: 10000 });
  await page.waitForTimeout(300);
  const states = await page.evaluate(() => window.states);
  assert.deepEqual(states.map((s) => s.step), [0, 5, 6], JSON.stringify(states));
  assert.equal(await frame.locator('[data-role="step-count"]').innerText(), '6');
  assert.deepEqual(errors, []);
  await page.close();
});

test('an embed waiting to be scrolled into view says paused in its first state message, as its status does', async () => {
  const { page, frame, errors } = await course('?embed=1&topology=mesh:8x8&workload=random-permutation', { above: 1500 });
  await page.waitForFunction(() => window.states.length >= 1);
  await page.waitForTimeout(300);
  const states = await page.evaluate(() => window.states);
  assert.equal(states.length, 1, JSON.stringify(states));
  assert.equal(await frame.locator('[data-role="status"]').innerText(), 'paused');
  assert.equal(states[0].status, 'paused');
  // Scrolled into view it plays.
  await page.evaluate(() => document.getElementById('sim').scrollIntoView());
  await frame.waitForFunction(() => document.querySelector('[data-role="status"]').textContent.trim() === 'running');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the compact view of a run no claim applies to says why, not an empty box', async () => {
  const { page, frame, errors } = await embedPage('?embed=1&topology=torus:8x8&algorithm=greedy&workload=random-permutation&play=0', { width: 400, height: 600 });
  const why = frame.locator('.explain .x-unclaimed');
  assert.ok(await why.isVisible(), 'the reason is shown');
  assert.match(await why.innerText(), /No paper in this collection bounds greedy on a torus/);
  const box = await why.boundingBox();
  assert.ok(box.height > 5 && box.height < 40, `at most two lines: ${box.height}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('step is read as the other numbers are: spaces around it ignored, up to the largest goto step', async () => {
  const { page, errors } = await openPage('?lesson=deadlock&step=%203');
  assert.equal(await page.locator('[data-role="step-count"]').innerText(), '3');
  assert.doesNotMatch(await lines(page), /step=/);
  await page.goto(`${server.url}?lesson=deadlock&step=4294967295`);
  await page.waitForSelector('body[data-ready="1"]', { state: 'attached' });
  await page.waitForFunction(() => document.querySelector('[data-role="status"]').textContent.trim() === 'stalled');
  assert.match(await lines(page), /past the run's end/);
  await page.goto(`${server.url}?lesson=deadlock&step=4294967296`);
  await page.waitForSelector('body[data-ready="1"]', { state: 'attached' });
  assert.match(await lines(page), /step="4294967296" ignored: expected a whole number from 0 to 4294967295/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('back at step 0 shows no step: no state message (one per step shown)', async () => {
  const { page, frame, errors } = await embedPage('?embed=1&topology=mesh:8x8&workload=random-permutation&play=0');
  assert.deepEqual(await sendMessage(page, { type: 'routesim:command', command: 'back' }, 0, { list: 'states' }), []);
  assert.equal(await frame.locator('[data-role="step-count"]').innerText(), '0');
  const got = await sendMessage(page, { type: 'routesim:command', command: 'step' }, 1, { list: 'states' });
  assert.deepEqual(got.map((s) => s.step), [1]);
  assert.deepEqual(errors, []);
  await page.close();
});
