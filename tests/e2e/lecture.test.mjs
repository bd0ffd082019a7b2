// End-to-end tests of the lectures' claims on the page (issue #28, items
// 5–7): the delay histogram the explain panel draws (the core's counts,
// checked here against the delays recomputed from the run's arrivals), at
// 1280 px and 390 px; the greedy-average lesson decided; the tracked
// packet's |S| line under bit fixing (its |S| counted here independently),
// undecided until the packet arrives.
// Run: node --test tests/e2e/lecture.test.mjs (after ./build.sh).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';

import { shots, server, browser, openPage } from './harness.mjs';
import { assertAccessible } from './axe.mjs';

mkdirSync(shots, { recursive: true });
const role = (page, name) => page.locator(`[data-role="${name}"]`);
const finished = (page) => page.waitForFunction(
  () => document.querySelector('[data-role="status"]').textContent === 'finished', null, { timeout: 60000 },
);

/** The delays of the delivered packets recomputed from the page's run: delivery step − mesh distance. */
const recomputed = (page, side) => page.evaluate((n) => {
  const s = window.routesim;
  const counts = [];
  for (let p = 0; p < s.sources.length; p++) {
    const at = s.snapshot.delivered_at[p];
    if (at === 0xffffffff) continue;
    const [a, b] = [s.sources[p], s.destinations[p]];
    const d = Math.abs(Math.floor(a / n) - Math.floor(b / n)) + Math.abs((a % n) - (b % n));
    counts[at - d] = (counts[at - d] ?? 0) + 1;
  }
  return Array.from(counts, (c) => c ?? 0);
}, side);

for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  test(`greedy-average at ${viewport.width} px: the delay histogram is the run's, and the lesson is decided`, async () => {
    const { page, errors } = await openPage('?lesson=greedy-average', viewport);
    assert.equal(await role(page, 'lesson-check').getAttribute('data-verdict'), 'pending');
    // Mid-way: the histogram counts the packets delivered so far.
    for (let i = 0; i < 20; i++) await page.click('#step');
    await page.waitForFunction(() => /^step 20:/.test(document.querySelector('.x-progress')?.textContent ?? ''));
    const mid = (await role(page, 'delay-histogram').getAttribute('data-counts')).split(',').map(Number);
    assert.deepEqual(mid, await recomputed(page, 32));
    await page.click('#finish');
    await finished(page);
    await page.waitForFunction(() => document.querySelector('[data-role="lesson-check"]')?.dataset.verdict === 'measured');
    const check = await role(page, 'lesson-check').innerText();
    assert.match(check, /the average case: every packet within its distance \+ O\(log₂ n\) = c·5 steps/);
    assert.match(check, /largest delay \d+ = \d\.\d·log₂ n/);
    const figure = role(page, 'delay-histogram');
    await page.waitForFunction(() => {
      const counts = document.querySelector('[data-role="delay-histogram"]').dataset.counts.split(',').map(Number);
      return counts.reduce((a, b) => a + b, 0) === 1024;
    });
    const counts = (await figure.getAttribute('data-counts')).split(',').map(Number);
    assert.deepEqual(counts, await recomputed(page, 32));
    assert.equal(await figure.locator('rect').count(), counts.length);
    assert.match(await figure.innerText(), /over the 1024 \/ 1024 packets delivered: mean \d\.\d\d, largest \d+/);
    await figure.scrollIntoViewIfNeeded();
    const box = await figure.boundingBox();
    assert.ok(box.width > 200 && box.x >= 0 && box.x + box.width <= viewport.width, JSON.stringify(box));
    await page.screenshot({ path: path.join(shots, `lecture-histogram-${viewport.width}.png`) });
    await assertAccessible(page, `the delay histogram at ${viewport.width} px`);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

/** |S| of packet `p` under bit fixing on hypercube:D, most significant differing bit first, counted here. */
const routesMet = (page, p, dim) => page.evaluate(([q, D]) => {
  const s = window.routesim;
  const route = (a, b) => {
    const links = [];
    let at = a;
    for (let bit = D - 1; bit >= 0; bit--) {
      if (((at ^ b) >> bit) & 1) {
        links.push(`${at}:${bit}`);
        at ^= 1 << bit;
      }
    }
    return links;
  };
  const mine = new Set(route(s.sources[q], s.destinations[q]));
  let met = 0;
  for (let o = 0; o < s.sources.length; o++) {
    if (o !== q && route(s.sources[o], s.destinations[o]).some((l) => mine.has(l))) met++;
  }
  return met;
}, [p, dim]);

test('bit fixing: the tracked packet shows its |S| and, once arrived, its delay against it', async () => {
  const { page, errors } = await openPage('?topology=hypercube:6&algorithm=bit-fixing&workload=transpose&play=0');
  await page.click('#step');
  await page.waitForTimeout(300);
  const box = await page.locator('#network').boundingBox();
  // A packet still on its way, with the longest route.
  const target = await page.evaluate(() => {
    const s = window.routesim;
    let best = null;
    for (let p = 0; p < s.dots.length / 2; p++) {
      const hops = (s.sources[p] ^ s.destinations[p]).toString(2).replace(/0/g, '').length;
      if (!Number.isNaN(s.dots[2 * p]) && s.snapshot.delivered_at[p] === 0xffffffff && (!best || hops > best.hops)) {
        best = { x: s.dots[2 * p], y: s.dots[2 * p + 1], p, hops };
      }
    }
    return best;
  });
  assert.ok(target, 'no packet drawn');
  await page.mouse.click(box.x + target.x, box.y + target.y);
  await page.waitForFunction(() => /Packet #\d+/.test(document.getElementById('watch-info').innerText));
  const p = await page.evaluate(() => window.routesim.watched);
  const met = await routesMet(page, p, 6);
  const line = role(page, 'watch-claim');
  assert.match(await line.innerText(), new RegExp(`^the delay theorem: \\|S\\| = ${met} .*decided when it arrives$`));
  await page.click('#finish');
  await finished(page);
  await page.waitForFunction(() => /✓$/.test(document.querySelector('[data-role="watch-claim"]')?.textContent ?? ''));
  const delay = await page.evaluate((q) => {
    const s = window.routesim;
    return s.snapshot.delivered_at[q] - (s.sources[q] ^ s.destinations[q]).toString(2).replace(/0/g, '').length;
  }, p);
  assert.match(await line.innerText(), new RegExp(`\\|S\\| = ${met} .*delay ${delay} = arrival step \\d+ − distance \\d+ ≤ ${met} ✓$`));
  // The panel judges every packet: met, with the histogram of all 64.
  assert.match(await role(page, 'explain').innerText(), /the delay theorem: every packet's delay ≤ its \|S\|[^]*all 64 packets were delayed at most their \|S\|/);
  await page.screenshot({ path: path.join(shots, 'lecture-bit-fixing-s.png') });
  await assertAccessible(page, 'the tracked packet\'s |S| line');
  assert.deepEqual(errors, []);
  await page.close();
});
