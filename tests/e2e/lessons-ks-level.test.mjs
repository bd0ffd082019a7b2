// End-to-end tests of the lessons `ks-level` (LevelRoute's passes and
// Lemma 15's superior packets) and `cut-through` (Corollary 5: worms against
// store-and-forward), issue 28: each opens with its option set in the form,
// asks its prediction, and its live check is decided on its run. Every text
// and number checked here is the core's (src/lessons/ks_level.rs).
// Run: node --test tests/e2e/lessons-ks-level.test.mjs (after ./build.sh).

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { openPage } from './harness.mjs';

const role = (page, name) => page.locator(`[data-role="${name}"]`);

/** Opens `lesson`, guesses `guess` steps, plays it to the end; returns the page, the check's text and the report. */
async function predictAndFinish(lesson, guess) {
  const { page, errors } = await openPage(`?lesson=${lesson}`, { width: 1280, height: 800 });
  assert.equal(await role(page, 'status').innerText(), 'paused', 'a prediction lesson opens paused');
  assert.equal(await role(page, 'lesson-check').getAttribute('data-verdict'), 'pending');
  await role(page, 'predict').fill(String(guess));
  await role(page, 'predict-submit').click();
  await page.click('#finish');
  await page.waitForFunction(() => document.querySelector('[data-role="status"]').textContent === 'finished', null, { timeout: 60000 });
  await page.waitForFunction(() => document.querySelector('[data-role="lesson-check"]')?.dataset.verdict !== 'pending', null, { timeout: 10000 });
  const report = await page.evaluate(() => window.routesim.sim.report());
  await page.waitForFunction(() => /measured/.test(document.querySelector('[data-role="predict-result"]').textContent));
  const result = await role(page, 'predict-result').innerText();
  assert.ok(result.includes(`guess ${guess}`) && result.includes(`measured ${report.steps}`), result);
  return { page, errors, check: await role(page, 'lesson-check').innerText(), report };
}

test('ks-level: the superior option is on, and Lemma 15 is measured on passes 2 and 3', async () => {
  const { page, errors, check, report } = await predictAndFinish('ks-level', 150);
  assert.equal(await role(page, 'option-superior').isChecked(), true);
  assert.deepEqual(report.phases.map((p) => p.name), ['pass1-randomize-route', 'pass2-randomize-route', 'pass3-randomize-route', 'pass4-route']);
  assert.equal(await role(page, 'lesson-check').getAttribute('data-verdict'), 'measured');
  // The paper prints n + 4ε²/n and states no constant for its proof's O(√(n log n)) term: measured.
  assert.match(check, /Lemma 15: each of pass2-randomize-route, pass3-randomize-route: n \+ 4ε²\/n = [\d.]+ steps \+ O\(√\(n·ln n\)\)/);
  assert.match(check, /Corollary 4: [^\n]*\(k\/2 \+ 1\)·\(n \+ ε\)/);
  assert.doesNotMatch(check, /✗/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('cut-through: worms of 4 flits, Corollary 5 measured', async () => {
  const { page, errors, check, report } = await predictAndFinish('cut-through', 108);
  assert.equal(await role(page, 'option-flits').inputValue(), '4');
  assert.equal(report.flits, 4);
  assert.equal(await role(page, 'lesson-check').getAttribute('data-verdict'), 'measured');
  assert.match(check, /Corollary 5: [^\n]*max\{3n, Fn\/2 \+ n\/F \+ 3n\/2\} = 120/);
  assert.doesNotMatch(check, /✗/);
  assert.deepEqual(errors, []);
  await page.close();
});
