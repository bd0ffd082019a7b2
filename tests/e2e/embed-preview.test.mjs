// End-to-end test of the embedding API's error line (audit): a malformed
// message is quoted truthfully and never empty — nested empty arrays as
// written, a cyclic array or object named as cyclic (not left out, not
// "[object Object]"), NaN and ±Infinity as JavaScript writes them inside
// the message too (JSON wrote them null). In a 400 px iframe.
// Run: node --test tests/e2e/embed-preview.test.mjs (after ./build.sh).

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { embedPage } from './harness.mjs';

const errorLine = (frame) => frame.locator('[data-role="error"]').evaluate((el) => (el.hidden ? '' : el.innerText.trim()));

/**
 * Posts the message `make` builds (a function's source, run in the course
 * page: a cyclic value cannot cross from Node) and returns the error line.
 */
async function post(page, frame, make) {
  await page.evaluate(`window.send((${make})())`);
  await frame.waitForFunction(() => !document.querySelector('[data-role="error"]').hidden, null, { timeout: 5000 });
  await page.waitForTimeout(150);
  const line = await errorLine(frame);
  // Dismissed, so that the next message's line is its own.
  await frame.locator('[data-role="error"] .close').first().click();
  return line;
}

test('a malformed message is quoted truthfully in the error line, never empty', async () => {
  const { page, frame, errors } = await embedPage('?embed=1&topology=mesh:8x8&algorithm=greedy&workload=random-permutation&play=0');
  const goto = "{ type: 'routesim:command', command: 'goto'";
  const cases = [
    ['() => [[[]]]', /\(the message is not an object\): \[\[\[\]\]\]$/],
    ['() => []', /\(the message is not an object\): \[\]$/],
    ['() => { const a = [1]; a.push(a); return a; }', /\(the message is not an object\): .*cyclic/],
    ['() => { const a = []; a.push(a); return a; }', /\(the message is not an object\): .*cyclic/],
    ["() => { const o = { type: 'x' }; o.self = o; return o; }", /type is "x".*: \{"type":"x","self":.*cyclic.*\}$/],
    [`() => (${goto}, step: NaN })`, /\(got NaN\)\): \{"type":"routesim:command","command":"goto","step":NaN\}$/],
    [`() => (${goto}, step: -Infinity })`, /\(got -Infinity\)\): \{.*"step":-Infinity\}$/],
    [`() => (${goto}, step: [NaN, undefined] })`, /\(got \[NaN,undefined\]\)\)/],
    [`() => (${goto} })`, /\(got undefined\)\): \{"type":"routesim:command","command":"goto"\}$/],
    ["() => ({ type: 'routesim:command', command: 'goto', step: new Map([[1, 2]]) })", /\(got Map\(1\)\)/],
    ["() => ({ type: 'routesim:command', command: 'goto', step: 3n })", /\(got 3n\)/],
    ["() => ({ type: 'routesim:command', command: 'goto', step: { at: 3n } })", /\(got \{"at":3n\}\)/],
  ];
  for (const [make, expected] of cases) {
    const line = await post(page, frame, make);
    assert.match(line, /malformed routesim:command/, `${make}: ${line}`);
    assert.doesNotMatch(line, /:\s*$/, `${make}: the line ends with nothing quoted: ${line}`);
    assert.doesNotMatch(line, /\[object Object\]/, `${make}: ${line}`);
    assert.match(line, expected, `${make}: ${line}`);
  }
  // A long or deep message is quoted shortened, not whole.
  const deep = await post(page, frame, '() => { let a = []; for (let i = 0; i < 500; i++) a = [a]; return a; }');
  assert.match(deep, /: \[\[\[.*…$/);
  assert.ok(deep.length < 400, `the deep message's line has ${deep.length} characters`);
  const wide = await post(page, frame, '() => Array.from({ length: 100000 }, (_, i) => i)');
  assert.match(wide, /: \[0,1,2,3,.*…$/);
  assert.ok(wide.length < 400, `the wide message's line has ${wide.length} characters`);
  assert.deepEqual(errors, []);
  await page.close();
});
