// End-to-end test of lmrr on the page (issue 14): the lesson
// `lmrr-butterfly` opens paused on a butterfly small enough to draw node by
// node; stepping shows ghosts and end-of-stream markers (the snapshot's
// control kinds), edge queues, their legend entries, the phase by name and
// lmrr's claims evaluated live. Screenshots at 1280×800 and 390×844 go to
// $LMRR_SHOTS (default tests/e2e/screenshots/).
// Run: node --test tests/e2e/lmrr.test.mjs (after ./build.sh).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';

import { here, server, browser, openPage } from './harness.mjs';

const shots = process.env.LMRR_SHOTS ?? path.join(here, 'screenshots');
mkdirSync(shots, { recursive: true });

/** Opens the page at `query` (harness.mjs `openPage`). */
const open = (query, viewport) => openPage(query, viewport);

const role = (page, name) => page.locator(`[data-role="${name}"]`);

/** What the page shows of the current step, read through the page. */
const state = (page) => page.evaluate(() => {
  const s = window.routesim.sim.snapshot();
  const kinds = Array.from(s.control_kinds);
  return {
    step: s.step,
    ghosts: kinds.filter((k) => k === 1).length,
    eos: kinds.filter((k) => k === 2).length,
    controlLinks: s.control_links,
    heldInEdgeQueues: Array.from(s.edge_queues).reduce((a, b) => a + b, 0),
    mostInOneEdgeQueue: Math.max(0, ...s.edge_queues),
    cap: s.edge_queue_cap,
    marks: Array.from(window.routesim.sim.marks()),
    legend: [...document.querySelectorAll('#legend [data-mark]')].filter((e) => !e.hidden).map((e) => e.dataset.mark),
    mode: window.routesim.view?.mode,
  };
});

for (const [name, viewport] of [['lmrr-lesson-1280.png', { width: 1280, height: 800 }], ['lmrr-lesson-390.png', { width: 390, height: 844 }]]) {
  test(`the lmrr lesson draws ghosts, end-of-stream and edge queues and names its phase (${viewport.width} px)`, async () => {
    const { page, errors } = await open('?lesson=lmrr-butterfly&play=0', viewport);
    assert.equal(await role(page, 'step-count').innerText(), '0');
    assert.equal(await role(page, 'status').innerText(), 'paused');
    // The leveled phase is named before the first step.
    assert.equal(await role(page, 'phase').innerText(), 'route');
    let s = await state(page);
    assert.deepEqual(s.marks, ['ghost', 'end-of-stream', 'edge-queue']);
    assert.deepEqual(s.legend, ['ghost', 'end-of-stream', 'edge-queue']);
    assert.equal(s.cap, 2);
    assert.equal(s.mode, 'dots', 'butterfly:5 is drawn node by node, not as a heat map');
    for (let i = 0; i < 3; i++) await role(page, 'step-forward').click();
    await page.waitForFunction(() => document.querySelector('[data-role="step-count"]').textContent === '3');
    s = await state(page);
    assert.equal(s.step, 3);
    assert.ok(s.ghosts > 0, 'ghosts cross links in step 3');
    assert.ok(s.eos > 0, 'end-of-stream markers cross links in step 3');
    assert.equal(s.ghosts + s.eos, s.controlLinks, 'every control message of lmrr is a ghost or an EOS');
    assert.ok(s.heldInEdgeQueues > 0 && s.mostInOneEdgeQueue <= 2, JSON.stringify(s));
    assert.equal(await role(page, 'phase').innerText(), 'route');
    const explain = await role(page, 'explain').innerText();
    assert.match(explain, /leveled network is the butterfly itself/);
    assert.match(explain, /Theorem 2\.9: O\(c \+ L \+ log N\) steps = C·\d+/);
    assert.match(explain, /edge queues ≤ q = 2/);
    assert.match(explain, /Theorem 4\.2: log n \+ o\(log n\) steps, log n = 5/);
    const legend = await page.locator('#legend').innerText();
    assert.match(legend, /ghost/);
    assert.match(legend, /end-of-stream/);
    assert.match(legend, /edge queue/);
    await page.screenshot({ path: path.join(shots, name) });
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('other algorithms show no lmrr marks in the legend', async () => {
  const { page, errors } = await open('?topology=mesh:8x8&algorithm=greedy&workload=transpose&play=0', { width: 1280, height: 800 });
  const s = await state(page);
  assert.deepEqual(s.marks, []);
  assert.deepEqual(s.legend, []);
  assert.equal(s.cap, 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the q box says what q bounds: edge queues of 2 for lmrr and flashsort, as the run label does; unbounded node queues for greedy', async () => {
  const { page, errors } = await open('?topology=mesh:8x8&algorithm=lmrr&workload=random-permutation&play=0', { width: 1280, height: 800 });
  const q = page.locator('#q');
  const tooltip = () => q.evaluate((e) => e.closest('label').title);
  assert.equal(await q.inputValue(), '');
  assert.equal(await q.getAttribute('placeholder'), '2 (edge queues)');
  assert.match(await tooltip(), /incoming link's queue .* empty = 2/);
  assert.match(await role(page, 'run-values').innerText(), /edge queues q = 2/);
  // Another q is both the box's value and the label's.
  await q.fill('3');
  await q.press('Enter');
  await page.waitForFunction(() => document.getElementById('run-values').textContent.includes('edge queues q = 3'));
  assert.equal(await q.getAttribute('placeholder'), '2 (edge queues)');
  // Greedy bounds node queues, unbounded when the box is empty.
  await q.fill('');
  await page.selectOption('[data-role="algorithm"]', 'greedy');
  await page.waitForFunction(() => document.getElementById('run-values').textContent.includes('q unbounded'));
  assert.equal(await q.getAttribute('placeholder'), 'unbounded');
  assert.match(await tooltip(), /working queue; empty = unbounded/);
  // A sort by flashsort keeps lmrr's edge queues.
  await page.goto(page.url().replace(/\?.*/, '?lesson=bitonic-vs-flashsort&play=0'));
  await page.waitForSelector('body[data-ready="1"]');
  assert.equal(await page.locator('#q').getAttribute('placeholder'), '2 (edge queues)');
  assert.match(await role(page, 'run-values').innerText(), /edge queues q = 2/);
  assert.deepEqual(errors, []);
  await page.close();
});
