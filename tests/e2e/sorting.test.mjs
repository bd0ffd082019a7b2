// End-to-end tests of the sorting problem on the page (issue 27): a
// student picks a sort-* workload and the menus offer the algorithms that
// sort (the core's compatibility, not a list in www/); the keys are drawn
// in a colour scale from low to high, so the order shows — at the end the
// canvas's colours run up in the order the core names, and the verdict
// line reads the report's `sorted`, `steps` and `order`; a URL that pairs
// a sort with a routing algorithm gets the core's message, never a frozen page.
// Run: node --test tests/e2e/sorting.test.mjs (after ./build.sh).

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { openPage } from './harness.mjs';

const role = (page, name) => page.locator(`[data-role="${name}"]`);
const finished = (page) => page.waitForFunction(() => document.querySelector('[data-role="status"]').textContent.trim() === 'finished', null, { timeout: 20000 });
/**
 * The menu's options as {name: runs here}: enabled, and not greyed as one
 * whose choice switches the network or workload (the algorithm menu keeps
 * every option enabled: `data-fits="0"` marks those).
 */
const menu = (page, name) => page.locator(`[data-role="${name}"] option`).evaluateAll((os) => Object.fromEntries(os.map((o) => [o.value, !o.disabled && o.dataset.fits !== '0'])));
/** The lines the page says things in: the information list and the error line (SPEC §7 `error`). */
const infos = async (page) => `${await page.locator('#messages').innerText()}\n${await role(page, 'error').evaluate((el) => (el.hidden ? '' : el.innerText))}`;

/**
 * What the network canvas shows at the end: for each node of the order
 * (node r = id r here) the colour level of the dot drawn there, read from
 * the canvas's pixels and matched to the nearest colour of the page's key
 * scale, and the level the page says the packet's key has.
 */
function readKeys(page) {
  return page.evaluate(async () => {
    const { keyColour, keyLevel, KEY_LEVELS } = await import('./render.js');
    const s = window.routesim;
    const canvas = document.getElementById('network');
    const dpr = canvas.width / canvas.getBoundingClientRect().width;
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    const scale = Array.from({ length: KEY_LEVELS }, (_, i) => keyColour(i).match(/\d+/g).map(Number));
    const nearest = (rgb) => scale.reduce((best, c, i) => {
      const d = Math.hypot(c[0] - rgb[0], c[1] - rgb[1], c[2] - rgb[2]);
      return d < best.d ? { i, d } : best;
    }, { i: -1, d: Infinity });
    const positions = s.snapshot.positions;
    const atNode = [];
    for (let p = 0; p < positions.length; p++) atNode[positions[p]] = p;
    return atNode.map((p) => {
      const [x, y] = [s.dots[2 * p], s.dots[2 * p + 1]];
      const i = 4 * (Math.round(y * dpr) * canvas.width + Math.round(x * dpr));
      const seen = nearest([data[i], data[i + 1], data[i + 2]]);
      return { packet: p, drawn: seen.i, distance: seen.d, level: keyLevel(s.keyShade[p]) };
    });
  });
}

test('a student picks sort-random, the menus offer bitonic only, and hypercube:5 ends sorted with its colours in label order', async () => {
  const { page, errors } = await openPage('?play=0');
  await page.selectOption('[data-role="topology-kind"]', 'hypercube');
  await page.fill('[data-role="topology"]', 'hypercube:5');
  await page.press('[data-role="topology"]', 'Enter');
  await page.waitForFunction(() => document.querySelector('[data-role="delivered"]').textContent.includes('/ 32'));
  // A routing workload: the algorithm menu offers routing algorithms only.
  let algorithms = await menu(page, 'algorithm');
  assert.equal(algorithms['bit-fixing'], true);
  assert.equal(algorithms.bitonic, false, 'a sorting algorithm is offered for a routing workload');
  // The workload menu offers the sorts; picking one switches the algorithm, said in the core's words.
  const workloads = await menu(page, 'workload');
  for (const w of ['sort-random', 'sort-reversed', 'sort-few', 'sort-sorted']) assert.equal(workloads[w], true, w);
  await page.selectOption('[data-role="workload"]', 'sort-random');
  await page.waitForFunction(() => document.querySelector('[data-role="algorithm"]').value === 'bitonic');
  assert.match(await infos(page), /refuses the sorting instance sort-random.*switched to bitonic/);
  algorithms = await menu(page, 'algorithm');
  assert.equal(algorithms.bitonic, true);
  for (const name of ['bit-fixing', 'valiant', 'lmrr']) assert.equal(algorithms[name], false, `${name} is offered for a sort`);
  // Coloured by key, with the scale in the legend.
  assert.equal(await page.locator('#color').inputValue(), 'key');
  assert.match(await role(page, 'legend-key').innerText(), /colour = key \(low → high\): 0 … 31/);
  assert.match(await role(page, 'sort-verdict').innerText(), /^Sorting 32 keys into label order/);
  assert.equal(await role(page, 'phase').innerText(), 'bitonic-sort');
  await role(page, 'finish').click();
  await finished(page);
  // The verdict is the report's.
  const report = await page.evaluate(() => window.routesim.sim.report());
  assert.equal(report.sorted, true);
  assert.equal(report.order, 'label');
  assert.equal(report.steps, 16);
  await page.waitForFunction(() => document.querySelector('[data-role="sort-verdict"]').dataset.sorted === 'true');
  assert.match(await role(page, 'sort-verdict').innerText(), new RegExp(`^sorted ✓ in ${report.steps} steps — label order`));
  // The step counter agrees with the verdict: the run ends in the sort's last step.
  assert.equal(Number(await role(page, 'step-count').innerText()), report.steps);
  assert.equal(await role(page, 'phase').innerText(), 'bitonic-sort');
  // What the canvas draws: every node of the order holds a dot in its key's colour, and the colours run up.
  await page.waitForTimeout(300);
  const nodes = await readKeys(page);
  assert.equal(nodes.length, 32);
  for (const n of nodes) {
    assert.ok(n.distance < 12, `node of packet ${n.packet}: a pixel far from every key colour (${n.distance})`);
    assert.equal(n.drawn, n.level, `packet ${n.packet} drawn at level ${n.drawn}, its key's is ${n.level}`);
  }
  for (let r = 1; r < nodes.length; r++) assert.ok(nodes[r].drawn >= nodes[r - 1].drawn, `node ${r} darker than node ${r - 1}: ${JSON.stringify(nodes)}`);
  assert.equal(nodes[0].drawn, 0);
  assert.equal(nodes.at(-1).drawn, 31);
  // Back to routing: the algorithm follows the workload.
  await page.selectOption('[data-role="workload"]', 'random-permutation');
  await page.waitForFunction(() => document.querySelector('[data-role="algorithm"]').value !== 'bitonic');
  assert.equal((await menu(page, 'algorithm')).bitonic, false);
  assert.equal(await role(page, 'sort-verdict').isVisible(), false);
  assert.equal(await page.locator('#color').inputValue(), 'class');
  assert.equal(await page.locator('#color option[value="key"]').isDisabled(), true, 'a routing run offers colouring by key');
  assert.deepEqual(errors, []);
  await page.close();
});

test('every algorithm can be picked from the menu: the network and the workload follow it, each switch said (bitonic on the default mesh, greedy back)', async () => {
  const { page, errors } = await openPage('?play=0');
  const disabled = await page.locator('[data-role="algorithm"] option').evaluateAll((os) => os.filter((o) => o.disabled).map((o) => o.value));
  assert.deepEqual(disabled, [], 'an algorithm the menu will not take');
  const greyed = await page.locator('[data-role="algorithm"] option[data-fits="0"]').evaluateAll((os) => os.map((o) => [o.value, o.title, getComputedStyle(o).color]));
  assert.ok(greyed.some(([name]) => name === 'bitonic'), JSON.stringify(greyed));
  for (const [name, title] of greyed) assert.match(title, /choosing it switches/, name);
  await page.selectOption('[data-role="algorithm"]', 'bitonic');
  await page.waitForFunction(() => document.querySelector('[data-role="algorithm"]').value === 'bitonic' && document.querySelector('[data-role="topology-kind"]').value !== 'mesh');
  const topology = await role(page, 'topology').inputValue();
  assert.match(topology, /^(hypercube|butterfly|shuffle-exchange):\d+$/);
  assert.match(await role(page, 'workload').inputValue(), /^sort-/);
  assert.match(await infos(page), new RegExp(`bitonic does not run on mesh:16x16 — the network switched to ${topology}`));
  assert.equal(await page.evaluate(() => window.routesim.sim.report().algorithm), 'bitonic');
  await role(page, 'finish').click();
  await finished(page);
  assert.equal(await page.evaluate(() => window.routesim.sim.report().sorted), true);
  // And back: greedy on the hypercube takes a mesh, and a routing workload.
  await page.selectOption('[data-role="algorithm"]', 'greedy');
  await page.waitForFunction(() => document.querySelector('[data-role="algorithm"]').value === 'greedy' && document.querySelector('[data-role="topology-kind"]').value !== 'hypercube');
  assert.doesNotMatch(await role(page, 'workload').inputValue(), /^sort-/);
  assert.equal(await page.evaluate(() => window.routesim.sim.report().algorithm), 'greedy');
  assert.deepEqual(errors, []);
  await page.close();
});

test('every workload can be picked from the menu: tornado on a hypercube takes a network and an algorithm that run it, said', async () => {
  const { page, errors } = await openPage('?topology=hypercube:4&algorithm=bit-fixing&play=0');
  const disabled = await page.locator('[data-role="workload"] option').evaluateAll((os) => os.filter((o) => o.disabled).map((o) => o.value));
  assert.deepEqual(disabled, [], 'a workload the menu will not take');
  assert.equal(await page.locator('[data-role="workload"] option[value="tornado"]').getAttribute('data-fits'), '0');
  await page.selectOption('[data-role="workload"]', 'tornado');
  await page.waitForFunction(() => document.querySelector('[data-role="topology-kind"]').value !== 'hypercube');
  const topology = await role(page, 'topology').inputValue();
  assert.match(await infos(page), new RegExp(`the network switched to ${topology}`));
  const report = await page.evaluate(() => window.routesim.sim.report());
  assert.equal(report.topology, topology);
  assert.notEqual(report.algorithm, 'bit-fixing');
  assert.equal(await role(page, 'workload').inputValue(), 'tornado');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the address opens a sort: ?workload=sort-random&algorithm=bitonic&topology=hypercube:6, and a workload alone picks the algorithm', async () => {
  let { page, errors } = await openPage('?workload=sort-random&algorithm=bitonic&topology=hypercube:6&play=0');
  assert.equal(await role(page, 'algorithm').inputValue(), 'bitonic');
  assert.equal(await role(page, 'workload').inputValue(), 'sort-random');
  assert.match(await role(page, 'delivered').innerText(), /^0 \/ 64/);
  assert.equal(await page.locator('.msg').count(), 0, await infos(page));
  assert.deepEqual(errors, []);
  await page.close();
  // A workload with no algorithm: the mesh's sort.
  ({ page, errors } = await openPage('?workload=sort-reversed&topology=mesh:8x8&play=0'));
  assert.equal(await role(page, 'algorithm').inputValue(), 'snake-sort');
  // The algorithm the address does not name follows the workload it names
  // without a message (the address asked for nothing bad), and the error
  // line stays empty.
  assert.equal(await page.locator('.msg').count(), 0, await infos(page));
  assert.equal(await role(page, 'error').isVisible(), false);
  await role(page, 'finish').click();
  await finished(page);
  await page.waitForFunction(() => document.querySelector('[data-role="sort-verdict"]').dataset.sorted === 'true');
  const report = await page.evaluate(() => window.routesim.sim.report());
  assert.equal(report.order, 'snake');
  assert.match(await role(page, 'sort-verdict').innerText(), new RegExp(`^sorted ✓ in ${report.steps} steps — snake order`));
  assert.deepEqual(errors, []);
  await page.close();
});

test('a URL pairing a sort with a routing algorithm gets the core\'s message, and the page runs', async () => {
  const { page, errors } = await openPage('?workload=sort-random&algorithm=bit-fixing&topology=hypercube:5&play=0');
  // The algorithm the address names is kept; the workload is switched, said.
  assert.equal(await role(page, 'algorithm').inputValue(), 'bit-fixing');
  assert.notEqual(await role(page, 'workload').inputValue(), 'sort-random');
  assert.match(await infos(page), /'bit-fixing' cannot run here: it routes packets and refuses the sorting instance sort-random: sort with bitonic.*switched to workload/);
  await role(page, 'finish').click();
  await finished(page);
  assert.match(await role(page, 'delivered').innerText(), /^32 \/ 32/);
  // A sorting algorithm on a network it cannot sort: the core names it; no sort, and the page runs.
  const other = await openPage('?workload=sort-random&algorithm=snake-sort&topology=mesh:6x6&play=0');
  assert.match(await infos(other.page), /snake-sort/);
  assert.notEqual(await role(other.page, 'algorithm').inputValue(), 'snake-sort');
  await role(other.page, 'step-forward').click();
  await other.page.waitForFunction(() => document.querySelector('[data-role="step-count"]').textContent.trim() === '1');
  assert.deepEqual(other.errors, []);
  await other.page.close();
  assert.deepEqual(errors, []);
  await page.close();
});

// The lesson `bitonic-vs-flashsort`: Flashsort (the first run) against
// bitonic (the second) on butterfly:6. The student guesses Flashsort's
// steps, both runs go to the end, and the check line, the two verdict
// lines and the counters say what the two reports say; the recursion
// levels are phases, drawn as bands with the core's short labels.
test('lesson bitonic-vs-flashsort: a guess, both sorts to the end, and a check line and two verdict lines that are the runs\'', async () => {
  const { page, errors } = await openPage('?lesson=bitonic-vs-flashsort');
  assert.equal(await role(page, 'lesson').inputValue(), 'bitonic-vs-flashsort');
  assert.equal(await role(page, 'algorithm').inputValue(), 'flashsort');
  assert.equal(await role(page, 'topology').inputValue(), 'butterfly:6');
  assert.equal(await role(page, 'workload').inputValue(), 'sort-random');
  assert.equal(await role(page, 'network').count(), 2);
  // It asks first, paused.
  assert.equal(await role(page, 'status').innerText(), 'paused');
  assert.match(await page.locator('#predict-question').innerText(), /bitonic \(the second run\) needs exactly \(log N \+ 1\)² − 1 = 48 steps/);
  assert.equal(await role(page, 'lesson-check').getAttribute('data-verdict'), 'pending');
  // The answer stays out of view until the guess: the check (with its
  // bounds) and the run's length in the speed label (a lesson audit found
  // both giving it away).
  assert.match(await role(page, 'lesson-check').innerText(), /appears once you have guessed/);
  assert.doesNotMatch(await page.locator('#speed-out').innerText(), /\d+ steps in/);
  assert.match(await role(page, 'phase').innerText(), /^candidates 1 \(recursion level 1: /);
  await role(page, 'predict').fill('60');
  await role(page, 'predict-submit').click();
  await page.waitForFunction(() => document.querySelector('[data-role="status"]').textContent.trim() === 'running');
  assert.match(await role(page, 'lesson-check').innerText(), /bitonic finishes first \(fewer steps than flashsort\): so far flashsort \d+ steps, bitonic \d+ steps — not yet decided/);
  assert.match(await page.locator('#speed-out').innerText(), /\d+ steps in/);
  await role(page, 'finish').click();
  await finished(page);
  const [flash, bitonic] = await page.evaluate(() => [window.routesim.sim.report(), window.routesim.compare.sim.report()]);
  assert.deepEqual([flash.sorted, flash.order, bitonic.sorted, bitonic.order], [true, 'level0-row', true, 'levelD-row']);
  assert.equal(bitonic.steps, 48);
  assert.ok(bitonic.steps < flash.steps, `${bitonic.steps} ${flash.steps}`);
  // The counters: each run stopped at its own last step.
  assert.equal(await page.locator('[data-role="step-count"][data-run="0"]').innerText(), String(flash.steps));
  assert.equal(await page.locator('[data-role="step-count"][data-run="1"]').innerText(), String(bitonic.steps));
  // The two verdict lines, a line each.
  await page.waitForFunction(() => document.querySelector('[data-role="sort-verdict"]').dataset.sorted === 'true');
  const lines = await role(page, 'sort-verdict').locator('span').evaluateAll((spans) => spans.map((s) => [s.dataset.run, s.innerText]));
  assert.deepEqual(lines.map(([run]) => run), ['0', '1']);
  assert.match(lines[0][1], new RegExp(`^flashsort: sorted ✓ in ${flash.steps} steps — level-0 rows`));
  assert.match(lines[1][1], new RegExp(`^bitonic: sorted ✓ in ${bitonic.steps} steps — level-D rows`));
  // The check: bitonic's exact count and the race, both met, in the runs' numbers.
  await page.waitForFunction(() => document.querySelector('[data-role="lesson-check"]')?.dataset.verdict === 'met', null, { timeout: 10000 });
  const checks = await role(page, 'lesson-check').locator('li').evaluateAll((lis) => lis.map((li) => [li.dataset.verdict, li.innerText]));
  assert.equal(checks.length, 2, JSON.stringify(checks));
  assert.ok(checks.every(([v]) => v === 'met'), JSON.stringify(checks));
  assert.ok(checks[0][1].includes('the bitonic step count on a butterfly: T = (log N + 1)² − 1 = 48 for this instance; measured 48 ✓'), checks[0][1]);
  const race = `bitonic finished first: ${bitonic.steps} steps against flashsort's ${flash.steps} ✓ — bitonic ${bitonic.steps} = ${(bitonic.steps / 36).toFixed(2)}·D², flashsort ${flash.steps} = ${(flash.steps / 6).toFixed(1)}·D (D = log₂ 64 = 6)`;
  assert.ok(checks[1][1].includes(race), `${checks[1][1]}\nexpected: ${race}`);
  assert.match(await role(page, 'predict-result').innerText(), new RegExp(`^Your guess 60 · measured ${flash.steps} steps: ${flash.steps - 60} too low`));
  // Recursion levels as phases: each band shows its phase's name up to " (", its title the full name.
  const bands = await page.locator('#scrub-bands .band').evaluateAll((els) => els.map((e) => [e.textContent, e.title]));
  const phases = flash.phases.filter((p) => p.steps > 0);
  assert.deepEqual(bands.map(([label]) => label), ['candidates 1', 'splitters 1', 'intervals 1', 'candidates 2', 'splitters 2', 'intervals 2', 'leaf-sort', 'offsets', 'final-route']);
  bands.forEach(([, title], i) => assert.ok(title.startsWith(`${phases[i].name}: steps `), `${title} / ${phases[i].name}`));
  // The phase counter names the report's phase in full: go to recursion level 2's first step.
  const at = phases.slice(0, 3).reduce((sum, p) => sum + p.steps, 0) + 1;
  await page.evaluate((step) => {
    const el = document.querySelector('[data-role="scrubber"]');
    el.value = String(step);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, at);
  await page.waitForFunction((step) => document.querySelector('[data-role="step-count"]').textContent.trim() === String(step), at);
  assert.equal(await role(page, 'phase').innerText(), phases[3].name);
  assert.match(phases[3].name, /^candidates 2 \(recursion level 2: /);
  assert.deepEqual(errors, []);
  await page.close();
});

// Flashsort's default on a butterfly is §8's light loading (Columnsort of
// four lightly loaded sorts): the options box says so, the phase line names
// the sort under way, and at the end the claim "node queues stay constant"
// is judged on the run's own numbers (4q + λ against max_queue, both from
// the report). Choosing loading full from the menu reruns one recursion; the
// address then carries loading=full and that claim does not apply.
/**
 * Opens flashsort on `topology` (sort-random), checks that the options box
 * says light and the first step's phase names the first sort (`first`),
 * runs it to its end and returns the page and the run's report, checked
 * lightly loaded (four sorts) and sorted.
 */
async function lightRun(topology, first) {
  const { page, errors } = await openPage(`?topology=${topology}&algorithm=flashsort&workload=sort-random&play=0`);
  const loading = role(page, 'option-loading');
  assert.equal(await loading.inputValue(), 'light');
  assert.deepEqual(await loading.locator('option').evaluateAll((os) => os.map((o) => o.value)), ['light', 'full']);
  await role(page, 'step-forward').click();
  assert.match(await role(page, 'phase').innerText(), first);
  await role(page, 'finish').click();
  await finished(page);
  const report = await page.evaluate(() => window.routesim.sim.report());
  assert.equal(report.loading, 'light');
  assert.equal(report.sorts, 4);
  assert.equal(report.sorted, true);
  return { page, errors, loading, report };
}

test('flashsort on butterfly:6: light loading by default, its sorts named as phases, and the node-queue claim judged; loading full from the menu', async () => {
  const { page, errors, loading, report } = await lightRun('butterfly:6', /candidates 1 \(sort 1 of 4, rows 0-31, recursion level 1/);
  assert.match(await role(page, 'phase').innerText(), /^(final-route|compare-exchange)$/);
  const lambda = Math.max(...report.recursion.map((l) => l.input_load));
  const bound = 4 * report.edge_queue_cap + lambda;
  // (The arrays' claim of the same name is listed as stated for other runs.)
  const claim = page.locator('[data-role="claim"]:not([data-verdict="not-applicable"])', { hasText: 'node queues stay constant' });
  assert.equal(await claim.getAttribute('data-verdict'), report.max_queue <= bound ? 'met' : 'not-met');
  assert.match(await claim.innerText(), new RegExp(`4q \\+ λ = ${bound}[\\s\\S]*largest queue ${report.max_queue} ≤ ${bound} — met ✓`));
  // One recursion instead.
  await loading.selectOption('full');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('loading') === 'full' && window.routesim.sim.report().loading === 'full');
  await role(page, 'finish').click();
  await finished(page);
  const full = await page.evaluate(() => window.routesim.sim.report());
  assert.equal(full.loading, 'full');
  assert.equal(full.sorts, 1);
  assert.equal(full.sorted, true);
  assert.ok(full.steps < report.steps / 5, `full ${full.steps} against light ${report.steps}`);
  const verdict = await page.locator('[data-role="claim"]', { hasText: 'node queues stay constant' }).evaluateAll((els) => els.map((el) => el.dataset.verdict));
  assert.ok(verdict.every((v) => v === 'not-applicable'), `${verdict}`);
  assert.deepEqual(errors, []);
  await page.close();
});

// On meshes too the default is the light loading (§10 "lightly loaded"):
// Columnsort around sorts of half the keys, the sort under way named in the
// phase line, and the claim "node queues stay constant (arrays)" judged on
// the run's own numbers (2d·q + 2λ + 1 against max_queue, from the report);
// the butterfly's claim is only listed, as stated for other runs.
test('flashsort on mesh:6x6: light loading by default, and the arrays node-queue claim judged', async () => {
  const { page, errors, report } = await lightRun('mesh:6x6', /candidates 1 \(sort 1 of 4, nodes 0-17, recursion level 1/);
  const lambda = Math.max(...report.recursion.map((l) => l.input_load));
  const bound = 2 * 2 * report.edge_queue_cap + 2 * lambda + 1;
  const claim = page.locator('[data-role="claim"]', { hasText: 'node queues stay constant (arrays)' });
  assert.equal(await claim.getAttribute('data-verdict'), report.max_queue <= bound ? 'met' : 'not-met');
  assert.match(await claim.innerText(), new RegExp(`2d·q \\+ 2λ \\+ 1 = ${bound}[\\s\\S]*largest queue ${report.max_queue} ≤ ${bound} — met ✓`));
  // The butterfly's claim is only listed, as stated for other runs.
  const judged = page.locator('[data-role="claim"]:not([data-verdict="not-applicable"])', { hasText: 'node queues stay constant' });
  assert.equal(await judged.count(), 1);
  assert.deepEqual(errors, []);
  await page.close();
});

// SPEC §3: a key is one number, of either sign, whole or not. A pasted
// instance with such keys sorts; the legend's scale names its lowest and
// highest key as written, and the report says sorted.
test('an instance whose keys are negative and fractional numbers is sorted, its scale named by those numbers', async () => {
  const { page, errors } = await openPage('?play=0&topology=hypercube:3&workload=sort-random&algorithm=bitonic');
  const keys = [2.5, -100, 0.125, 100, -2.5, 7, -0.75, 3];
  const order = keys.map((k, i) => [k, i]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const rank = [];
  order.forEach(([, i], r) => { rank[i] = r; });
  const instance = { topology: 'hypercube:3', packets: keys.map((_, i) => [i, rank[i]]), keys };
  await page.click('#instance-box summary');
  await page.fill('#instance-text', JSON.stringify(instance));
  await page.click('#load-instance');
  await page.waitForFunction(() => document.getElementById('instance-text-error').hidden && document.querySelector('[data-role="delivered"]').textContent.includes('/ 8'), null, { timeout: 10000 });
  assert.match(await role(page, 'legend-key').innerText(), /colour = key \(low → high\): -100 … 100/);
  // Colours by place among the distinct keys: the eight keys spread evenly
  // over the scale (by value, -2.5 … 7 would all sit near its middle).
  const shades = await page.evaluate(() => Array.from(window.routesim.keyShade));
  order.forEach(([, i], r) => assert.ok(Math.abs(shades[i] - r / 7) < 1e-6, `key ${keys[i]}: shade ${shades[i]}, rank ${r}`));
  assert.match(await page.locator('#explain').innerText(), /evenly spaced in order and equal keys alike/);
  await role(page, 'finish').click();
  await finished(page);
  const report = await page.evaluate(() => window.routesim.sim.report());
  assert.equal(report.sorted, true);
  assert.match(await role(page, 'sort-verdict').innerText(), /sorted ✓/);
  // Node r holds the key of rank r (label order), read from the packets' positions.
  const positions = await page.evaluate(() => Array.from(window.routesim.snapshot.positions));
  assert.deepEqual(positions.map((node, p) => [node, keys[p]]).sort((a, b) => a[0] - b[0]).map(([, k]) => k), order.map(([k]) => k));
  // The written-back instance carries the same numbers.
  const written = JSON.parse(await page.evaluate(() => window.routesim.sim.instance_json()));
  assert.deepEqual(written.keys, keys);
  assert.deepEqual(errors, []);
});
