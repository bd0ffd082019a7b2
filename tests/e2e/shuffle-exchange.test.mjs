// End-to-end test of the shuffle-exchange graph on the page (issue 26):
// picked from the kind menu it gets its default size, bit-fixing runs on it
// to the end, and the network is drawn by necklaces from the core's facts
// (each node's necklace, position and weight in the topology object).
// Run: node --test tests/e2e/shuffle-exchange.test.mjs (after ./build.sh).

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { openPage, canvasInfo } from './harness.mjs';

const role = (page, name) => page.locator(`[data-role="${name}"]`);

test('shuffle-exchange from the kind menu: bit-fixing runs to the end, drawn by necklaces', async () => {
  const { page, errors } = await openPage('?play=0');
  await page.selectOption('[data-role="topology-kind"]', 'shuffle-exchange');
  assert.equal(await role(page, 'topology').inputValue(), 'shuffle-exchange:6');
  await page.selectOption('[data-role="algorithm"]', 'bit-fixing');
  await page.selectOption('[data-role="workload"]', 'random-permutation');
  await page.waitForFunction(() => /bit-fixing/.test(document.body.textContent) && document.querySelector('[data-role="delivered"]').textContent.includes('/ 64'));
  await role(page, 'finish').click();
  await page.waitForFunction(() => document.querySelector('[data-role="status"]').textContent.trim() === 'finished', null, { timeout: 20000 });
  assert.match(await role(page, 'delivered').first().innerText(), /^64 \/ 64/);
  const error = await role(page, 'error').evaluate((el) => (el.hidden ? '' : el.textContent.trim()));
  assert.equal(error, '');
  assert.ok((await canvasInfo(page)).ink > 1000, 'the canvas is blank');
  // The layout facts come from the core: 14 necklaces of D = 6, by weight.
  const facts = await page.evaluate(async () => {
    const wasm = await import('./pkg/routesim.js');
    const t = wasm.topology('shuffle-exchange:6');
    return { necklaces: Math.max(...t.necklace) + 1, position: t.position[0b000110], weight: t.weight[0b101101] };
  });
  assert.deepEqual(facts, { necklaces: 14, position: 1, weight: 4 });
  assert.deepEqual(errors, []);
  await page.close();
});
