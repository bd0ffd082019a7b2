// End-to-end tests of the lower bound beside a second run (audit): each run
// is measured against its own bound — with lmrr's combining (`combining`:
// lmrr with combining 6, bit fixing 16) or a sort's own destinations
// (`bitonic-vs-flashsort`: flashsort 12, bitonic 6) the two differ, and the
// bound counter, its tooltip, the scrubber's ticks and the run chart's
// dashed lines say whose bound is whose; with one bound for both the
// counter reads as before. The counter's "= 1.67 ×" never leaves its "×"
// alone on a line.
// Run: node --test tests/e2e/bounds-compare.test.mjs (after ./build.sh).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';

import { shots, openPage } from './harness.mjs';

const DESKTOP = { width: 1280, height: 800 };

/** The text as read, non-breaking spaces as spaces. */
const plain = (text) => text.replace(/\s+/g, ' ').trim();

async function finish(page) {
  await page.click('#finish');
  await page.waitForFunction(() => document.querySelector('[data-role="status"]').textContent === 'finished', null, { timeout: 60000 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** Each run's algorithm, lower bound (the core's, through its own Simulation) and steps so far. */
const runs = (page) => page.evaluate(() => {
  const s = window.routesim;
  return [s.sim, s.compare.sim].map((sim) => ({ name: sim.config().algorithm, best: sim.bounds().best, steps: sim.report().steps }));
});

/**
 * How many pixels of the run chart's plot, in the columns at step `x`, are
 * the bound's dashed red (#b91c1c): a dashed line down the plot covers more
 * than a third of its height, a label crossing the column a few pixels.
 */
const redInColumn = (page, x) => page.evaluate((step) => {
  const u = window.routesim.chart.chart;
  const px = Math.round(u.valToPos(step, 'x', true));
  const { top, height } = u.bbox;
  const data = u.ctx.getImageData(px - 1, Math.round(top), 3, Math.round(height)).data;
  let rows = 0;
  for (let y = 0; y < Math.round(height); y++) {
    for (let dx = 0; dx < 3; dx++) {
      const i = (y * 3 + dx) * 4;
      if (data[i] > 150 && data[i + 1] < 90 && data[i + 2] < 90) {
        rows++;
        break;
      }
    }
  }
  return { rows, height: Math.round(height) };
}, x);

// These lessons ask for a guess first and keep their bound out of view
// until then (at step 0): the tests open them at step 1, where it shows.
test('combining: lmrr with combining against its bound 6, bit fixing against its own 16 — counter, tooltip, ticks and chart say whose', async () => {
  const { page, errors } = await openPage('?lesson=combining&play=0&step=1', DESKTOP);
  const [lmrr, bitfix] = await runs(page);
  assert.deepEqual([lmrr.name, lmrr.best, bitfix.name, bitfix.best], ['lmrr', 6, 'bit-fixing', 16]);
  // The lesson's numbers: bit fixing needs at least 16 steps — the bound the counter gives it.
  const text = await page.evaluate(() => window.routesim.lesson.text);
  assert.match(text, /needs at least 16\s+steps/);
  const bound = page.locator('#c-bound');
  assert.equal(plain(await bound.locator('.b-figure').innerText()), '6 and 16');
  assert.equal(plain(await bound.locator('.b-words').innerText()), 'no algorithm can finish before step 6 (lmrr with combining); 16 (bit-fixing without combining)');
  const title = await bound.getAttribute('title');
  assert.match(title, /lmrr with combining: best = 6 \(.*sink 1\b/);
  assert.match(title, /bit-fixing without combining: best = 16 \(.*sink 16\b/);

  await finish(page);
  const done = await runs(page);
  assert.equal(done[1].steps, 22, 'bit fixing takes the 22 steps the lesson quotes');
  assert.equal(plain(await bound.locator('.b-figure').innerText()), '6 and 16');
  const words = plain(await bound.locator('.b-words').innerText());
  for (const r of done) {
    const ratio = (r.steps / r.best).toFixed(2);
    assert.ok(words.includes(`${r.name}: ${r.steps} steps = ${ratio} × ${r.best}`), `"${words}" does not measure ${r.name} against its own bound ${r.best}`);
  }
  assert.ok(!words.includes('3.67'), `bit fixing measured against lmrr's bound: "${words}"`);
  // The scrubber: a tick per bound, each titled with its run.
  const ticks = await page.locator('#scrub-bands .bound-tick').evaluateAll((ts) => ts.map((t) => t.title));
  assert.equal(ticks.length, 2, `ticks: ${JSON.stringify(ticks)}`);
  assert.match(ticks[0], /lmrr with combining.*\b6 steps/);
  assert.match(ticks[1], /bit-fixing without combining.*\b16 steps/);
  // The run chart: a dashed red line at each bound.
  for (const best of [6, 16]) {
    const { rows, height } = await redInColumn(page, best);
    assert.ok(rows > height / 3, `no dashed bound line at step ${best} (${rows} of ${height} rows red)`);
  }
  await page.screenshot({ path: path.join(shots, 'bounds-compare-combining.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a sort beside a sort: flashsort and bitonic each against the bound of where it puts the keys', async () => {
  const { page, errors } = await openPage('?lesson=bitonic-vs-flashsort&play=0&step=1', DESKTOP);
  const [flash, bitonic] = await runs(page);
  assert.deepEqual([flash.best, bitonic.best], [12, 6]);
  assert.equal(plain(await page.locator('#c-bound .b-figure').innerText()), '12 and 6');
  assert.equal(plain(await page.locator('#c-bound .b-words').innerText()), 'no algorithm can finish before step 12 (flashsort); 6 (bitonic)');
  assert.match(await page.locator('#c-bound').getAttribute('title'), /sort's packets go where its algorithm puts their keys/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('two runs with one bound: the counter reads as before (one bound, one tick)', async () => {
  const { page, errors } = await openPage('?lesson=bitfix-vs-valiant&play=0&step=1', DESKTOP);
  const [a, b] = await runs(page);
  assert.equal(a.best, b.best);
  assert.equal(await page.locator('#c-bound').innerText(), `no algorithm can finish before step ${a.best}`);
  await finish(page);
  const done = await runs(page);
  assert.equal(await page.locator('#c-bound .b-figure').innerText(), String(a.best));
  const words = plain(await page.locator('#c-bound .b-words').innerText());
  assert.equal(words, done.map((r) => `${r.name}: ${r.steps} steps = ${(r.steps / a.best).toFixed(2)} ×`).join(' · '));
  assert.equal(await page.locator('#scrub-bands .bound-tick').count(), 1);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the bound counter never leaves "×" alone on a line', async () => {
  for (const [query, viewport] of [['?lesson=valiant-load&play=0', DESKTOP], ['?lesson=combining&play=0', DESKTOP], ['?lesson=valiant-load&play=0', { width: 1140, height: 800 }]]) {
    const { page, errors } = await openPage(query, viewport);
    await finish(page);
    // Each "×": on the line of the number before it.
    const apart = await page.evaluate(() => {
      const words = document.querySelector('#c-bound .b-words');
      const texts = [];
      const walk = document.createTreeWalker(words, NodeFilter.SHOW_TEXT);
      while (walk.nextNode()) texts.push(walk.currentNode);
      // The characters in order, each with its text node and offset.
      const chars = texts.flatMap((node) => [...node.data].map((c, i) => ({ c, node, i })));
      const top = ({ node, i }) => {
        const r = document.createRange();
        r.setStart(node, i);
        r.setEnd(node, i + 1);
        return r.getClientRects()[0]?.top ?? NaN;
      };
      const out = [];
      chars.forEach((ch, k) => {
        if (ch.c !== '×') return;
        let j = k - 1;
        while (j >= 0 && /\s/.test(chars[j].c)) j--;
        if (j >= 0 && Math.abs(top(chars[j]) - top(ch)) > 2) out.push(chars.slice(Math.max(0, j - 6), k + 1).map((x) => x.c).join(''));
      });
      return out;
    });
    assert.deepEqual(apart, [], `${query} at ${viewport.width}: "×" on a line of its own after ${JSON.stringify(apart)}`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('two runs in a 400 px frame: the lower bound stays, one line naming each run\'s bound, then each run against it', async () => {
  const { embedPage } = await import('./harness.mjs');
  const { page, frame, errors } = await embedPage('?lesson=bitonic-vs-flashsort&play=0&step=1&embed=1', { width: 400, height: 600 });
  const bound = frame.locator('#c-bound');
  assert.ok(await bound.isVisible(), 'the bound is not shown in the frame');
  // Of the counters only the bound: each card carries its run's step, status and counts.
  for (const id of ['#c-step', '#c-status', '#c-phase']) assert.equal(await frame.locator(id).isVisible(), false, id);
  assert.equal(plain(await bound.innerText()), 'no algorithm can finish before step 12 (flashsort); 6 (bitonic)');
  const box = await bound.boundingBox();
  assert.ok(box.height <= 40, `the bound takes ${box.height} px`);
  await frame.click('#finish');
  await frame.waitForFunction(() => document.querySelector('[data-role="status"]').textContent === 'finished', null, { timeout: 60000 });
  const [flash, bitonic] = await runs(frame);
  const words = plain(await bound.innerText());
  assert.equal(words, `flashsort: ${flash.steps} steps = ${(flash.steps / 12).toFixed(2)} × 12 · bitonic: ${bitonic.steps} steps = ${(bitonic.steps / 6).toFixed(2)} × 6`);
  // Nothing of the frame scrolls out of it.
  assert.ok(await frame.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight + 1), 'the frame scrolls');
  assert.deepEqual(errors, []);
  await page.close();
});
