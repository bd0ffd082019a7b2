// Kaufmann–Sibeyn's locality lessons and per-phase lemmas in the page
// (issue 28): `locality` (ks-local beside greedy on local-kk) and
// `nol-estimate` (ks-local, locality unknown) end with their live check
// decided, at 1280×800 and in a 400 px iframe; the explain panel judges a
// per-phase lemma on the phase it names: pending while that phase runs,
// measured in its unit once it is over.
// Run: node --test tests/e2e/lessons-ks.test.mjs (after ./build.sh).

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { openPage, embedPage } from './harness.mjs';

/** Runs the shown run(s) to the end, whether or not Setup is folded. */
async function finish(doc) {
  await doc.evaluate(() => document.getElementById('finish').click());
  await doc.waitForFunction(() => document.querySelector('[data-role="status"]').textContent === 'finished', null, { timeout: 90000 });
}

/** The claim line named `name`: its verdict and text. */
const claimLine = (doc, name) => doc.evaluate((n) => {
  const el = [...document.querySelectorAll('[data-role="claim"]')].find((e) => e.innerText.includes(n));
  return el && { verdict: el.dataset.verdict, text: el.innerText };
}, name);

test('locality at 1280×800: ks-local beside greedy, measured and greedy faster; Lemma 27 on phase 2', async () => {
  const { page, errors } = await openPage('?lesson=locality', { width: 1280, height: 800 });
  assert.equal(await page.locator('[data-role="lesson-check"]').getAttribute('data-verdict'), 'pending');
  await finish(page);
  await page.waitForFunction(() => document.querySelector('[data-role="lesson-check"]').dataset.verdict !== 'pending', null, { timeout: 10000 });
  assert.equal(await page.locator('[data-role="lesson-check"]').getAttribute('data-verdict'), 'measured');
  const checks = await page.locator('[data-role="lesson-check"]').innerText();
  assert.match(checks, /ks-local needs more steps than greedy: 21 > 12 ✓/);
  const lemma27 = await claimLine(page, 'Lemma 27');
  assert.equal(lemma27.verdict, 'measured', lemma27.text);
  assert.match(lemma27.text, /packets over one link in each of phase2-route/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('nol-estimate in a 400 px iframe: Theorem 15 measured once the run is over', async () => {
  const { page, frame, errors } = await embedPage('?lesson=nol-estimate', { width: 400, height: 760 });
  await finish(frame);
  await frame.waitForFunction(() => document.querySelector('[data-role="lesson-check"]').dataset.verdict !== 'pending', null, { timeout: 10000 });
  assert.equal(await frame.locator('[data-role="lesson-check"]').getAttribute('data-verdict'), 'measured');
  assert.match(await frame.locator('[data-role="lesson-check"]').innerText(), /Theorem 15/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the explain panel judges Lemma 16 on phase 1: pending while it runs, measured after', async () => {
  const { page, errors } = await openPage('?topology=mesh:16x16&algorithm=ks-nowrap&workload=random-kk&k=8&play=0', { width: 1280, height: 800 });
  await page.evaluate(() => window.routesim.sim.step(3));
  await page.click('[data-role="step-forward"]');
  await page.waitForFunction(() => /step 4: /.test(document.querySelector('[data-role="explain"]').innerText));
  let line = await claimLine(page, 'Lemma 16');
  assert.equal(line.verdict, 'pending', line.text);
  assert.match(line.text, /each of phase1-randomize: max\{n, kn\/8\} = 16 steps \+ O\(√\(k·n·ln n\)\)/);
  await finish(page);
  await page.waitForFunction(() => [...document.querySelectorAll('[data-role="claim"]')].some((e) => e.innerText.includes('Lemma 16') && e.dataset.verdict === 'measured'));
  line = await claimLine(page, 'Lemma 16');
  assert.match(line.text, /the most, in phase1-randomize: \d+ = 16 [+−] \d\.\d\d·√\(k·n·ln n\)/);
  assert.deepEqual(errors, []);
  await page.close();
});
