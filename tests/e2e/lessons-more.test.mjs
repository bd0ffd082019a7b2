// End-to-end tests of issue 28's lessons `rand-interval`, `lmrr-mesh` and
// `combining` beyond what every lesson gets in teach.test.mjs (opens, its
// check decided): each asks its question first, a guess starts it, and its
// check ends in the relation its text is about, with the numbers the text
// quotes; `combining` opens with the option combine checked, `lmrr-mesh`
// reports its four leveled phases.
// Run: node --test tests/e2e/lessons-more.test.mjs (after ./build.sh).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage } from './harness.mjs';

const role = (page, name) => page.locator(`[data-role="${name}"]`);

const CASES = [
  { id: 'rand-interval', guess: '6', check: /rand-interval's largest queue is smaller than greedy's: \d+ < 21 ✓/ },
  { id: 'lmrr-mesh', guess: '60', check: /lmrr's largest queue is smaller than greedy's: 2 < 9 ✓/, phases: ['up-right', 'up-left', 'down-right', 'down-left'] },
  { id: 'combining', guess: '12', check: /lmrr needs fewer steps than bit-fixing: \d+ < 22 ✓/, option: 'combine' },
];

test('rand-interval, lmrr-mesh and combining: a guess starts the run, which ends in the relation the lesson is about', async () => {
  for (const c of CASES) {
    const { page, errors } = await openPage(`?lesson=${c.id}`);
    assert.equal(await role(page, 'predict').isVisible(), true, `${c.id} asks first`);
    if (c.option) assert.equal(await role(page, `option-${c.option}`).isChecked(), true, `${c.id}: ${c.option} is set`);
    await role(page, 'predict').fill(c.guess);
    await role(page, 'predict-submit').click();
    await page.click('#finish');
    await page.waitForFunction(() => document.querySelector('[data-role="status"]').textContent === 'finished', null, { timeout: 60000 });
    await page.waitForFunction(() => ['met', 'measured'].includes(document.querySelector('[data-role="lesson-check"]')?.dataset.verdict), null, { timeout: 10000 });
    assert.match(await role(page, 'lesson-check').innerText(), c.check, c.id);
    await page.waitForFunction(() => document.querySelector('[data-role="predict-result"]').textContent.includes('measured'), null, { timeout: 10000 });
    assert.match(await role(page, 'predict-result').innerText(), new RegExp(`your guess ${c.guess} · measured \\d+`, 'i'));
    if (c.phases) assert.deepEqual(await page.evaluate(() => window.routesim.sim.phases().map((p) => p.name)), c.phases);
    assert.deepEqual(errors, []);
    await page.close();
  }
});
