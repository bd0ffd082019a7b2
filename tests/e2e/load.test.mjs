// End-to-end test of the load panel (SPEC §6, §7 chart `load`): a latency
// against offered load curve run in the page's worker through the core's
// LoadCurve, its published chart data, the core's ideal and zero-load
// lines, the core's refusal in the error line, and the same curve from the
// native CLI for the same seed (determinism: native and wasm agree).
// Run: node --test tests/e2e/load.test.mjs (after ./build.sh and cargo build --release).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

import { root, shots, server, browser, openPage } from './harness.mjs';
import { assertAccessible } from './axe.mjs';

const RATES = [0.05, 0.15, 0.3];
const WINDOWS = { warmup: 100, measure: 200, drain: 500, seed: 7 };

/** Opens the page at `query` (harness.mjs `openPage`). */
const open = (query, viewport = { width: 1280, height: 800 }) => openPage(query, viewport);

/** Opens the panel, fills the form and runs; waits for the status to settle. */
async function runCurve(page, { topology, algorithms, pattern = 'uniform', rates }) {
  if (!(await page.locator('#load-form').isVisible())) await page.click('#load-details summary');
  if (topology) await page.fill('#load-topology', topology);
  for (const box of await page.locator('#load-algorithms input').all()) {
    await box.setChecked(algorithms.includes(await box.getAttribute('value')));
  }
  await page.selectOption('#load-pattern', pattern);
  await page.fill('#load-rates', rates.join(','));
  for (const [key, value] of Object.entries(WINDOWS)) await page.fill(`#load-${key}`, String(value));
  await page.click('#load-run');
  await page.waitForFunction(() => /^(done|refused|failed|cancelled)/.test(document.getElementById('load-status').textContent), null, { timeout: 60000 });
  return page.textContent('#load-status');
}

const loadChart = (page) => page.evaluate(() => {
  const c = window.routesim.charts.load;
  return { series: [...c.series], data: c.data.map((col) => [...col]), ideal: [...c.ideal], zero_load: [...c.zero_load], saturated: c.saturated.map((s) => [...s]), y_max: c.y_max };
});

test('the load panel draws latency against offered load with the core\'s lines, as the CLI computes it', async () => {
  const { page, errors } = await open('?topology=mesh:8x8&play=0');
  // The choices come from the core: open-loop algorithms only, patterns from the catalogue.
  const offered = await page.locator('#load-algorithms input').evaluateAll((xs) => xs.map((x) => x.value));
  assert.ok(offered.includes('greedy') && offered.includes('valiant'), offered.join(','));
  assert.ok(!offered.includes('pp-rand') && !offered.includes('sort-route'), `closed-loop algorithms offered: ${offered}`);
  const patterns = await page.locator('#load-pattern option').evaluateAll((xs) => xs.map((x) => x.value));
  assert.equal(patterns[0], 'uniform');
  assert.ok(patterns.includes('transpose') && patterns.includes('tornado'), patterns.join(','));
  await page.click('#load-details summary');
  assert.equal(await page.inputValue('#load-topology'), 'mesh:8x8', 'the topology does not start from the page\'s');

  const status = await runCurve(page, { algorithms: ['greedy', 'valiant'], rates: RATES });
  assert.equal(status, `done: ${2 * RATES.length} runs`);
  assert.equal(await page.evaluate(() => document.getElementById('load-progress').value), 2 * RATES.length);
  const chart = await loadChart(page);
  assert.deepEqual(chart.series.slice(1), ['greedy uniform', 'valiant uniform']);
  assert.deepEqual(chart.data[0], RATES, 'x is not the offered rates');
  const [greedy, valiant] = [chart.data[1], chart.data[2]];
  for (let i = 1; i < RATES.length; i++) assert.ok(greedy[i] > greedy[i - 1], `greedy latency does not grow with the rate: ${greedy}`);
  assert.ok(chart.zero_load[1] > chart.zero_load[0], `valiant's zero-load latency ${chart.zero_load[1]} is not above greedy's ${chart.zero_load[0]}`);
  // Greedy (dimension order) on an 8×8 mesh, uniform traffic: λ* = 4(N − 1)/(side·N).
  assert.ok(Math.abs(chart.ideal[0] - (4 * 63) / (8 * 64)) < 1e-9, `greedy λ* ${chart.ideal[0]}`);
  assert.ok(chart.ideal[1] > 0 && chart.ideal[1] < chart.ideal[0], `valiant λ* ${chart.ideal[1]} is not below greedy's`);
  // The chart drawn is the one published.
  assert.ok(await page.evaluate(() => window.routesim.load.chart.chart().data === window.routesim.charts.load.data), 'charts.load is not the data drawn');
  assert.equal(await page.getAttribute('#load-chart', 'data-role'), 'chart');
  assert.equal(await page.getAttribute('#load-chart', 'data-chart'), 'load');
  // The load view, its curve drawn: no serious or critical WCAG 2 A/AA violation (issue #25).
  await assertAccessible(page, 'the load view with its curve');

  // The native CLI, same seed and windows: the same numbers.
  const cli = path.join(root, 'target/release/routesim');
  assert.ok(existsSync(cli), 'target/release/routesim is missing: run cargo build --release');
  const out = spawnSync(cli, ['load', '--topology', 'mesh:8x8', '--algorithm', 'greedy,valiant', '--pattern', 'uniform',
    '--rate', RATES.join(','), '--warmup', String(WINDOWS.warmup), '--measure', String(WINDOWS.measure),
    '--drain', String(WINDOWS.drain), '--seed', String(WINDOWS.seed), '--json'], { encoding: 'utf8' });
  assert.equal(out.status, 0, out.stderr);
  const rows = out.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(rows.length, 2 * RATES.length);
  const pageRows = await page.evaluate(() => window.routesim.load.rows());
  assert.deepEqual(pageRows, rows, 'the page\'s rows differ from the CLI\'s');
  ['greedy', 'valiant'].forEach((alg, s) => {
    const mine = rows.filter((r) => r.algorithm === alg);
    assert.equal(chart.ideal[s], mine[0].ideal_throughput, `${alg} λ* differs from the CLI's`);
    assert.equal(chart.zero_load[s], mine[0].hops_mean, `${alg} zero-load latency differs from the CLI's`);
    mine.forEach((r, i) => {
      assert.equal(r.rate, RATES[i]);
      assert.equal(chart.saturated[s][i], r.saturated);
      if (!chart.saturated[s].slice(0, i).includes(true)) assert.equal(chart.data[s + 1][i], r.latency.mean, `${alg} at ${r.rate}`);
    });
  });

  await page.locator('#load').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'load.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a bad load input is named in the error line, and the page stays usable', async () => {
  const { page, errors } = await open('?topology=mesh:8x8&play=0');
  let status = await runCurve(page, { topology: 'mesh:8x8', algorithms: ['greedy'], rates: [0.1, 1.5] });
  assert.match(status, /refused/);
  assert.match(await page.locator('[data-role="error"]').innerText(), /rate '1.5'/);
  status = await runCurve(page, { topology: 'mesh:40x40', algorithms: ['greedy'], rates: [0.1] });
  assert.match(await page.locator('[data-role="error"]').innerText(), /topology 'mesh:40x40'.*at most 1024/);
  assert.doesNotMatch(await page.locator('[data-role="error"]').innerText(), /1\.5/, 'the old error stays');
  // Refused before the ideal throughput is computed: rand-interval's is
  // walked over every pair's routes (10^11 hops here), which took the
  // worker minutes before the size was checked (runCurve's wait would
  // time out).
  status = await runCurve(page, { topology: 'mesh:128x128', algorithms: ['rand-interval'], rates: [0.1] });
  assert.match(status, /refused/);
  assert.match(await page.locator('[data-role="error"]').innerText(), /topology 'mesh:128x128'.*at most 1024/);
  // Still usable: a good curve runs after the refusals and clears the error line.
  status = await runCurve(page, { topology: 'torus:4x4', algorithms: ['greedy'], rates: [0.1, 0.2] });
  assert.equal(status, 'done: 2 runs');
  assert.equal(await page.locator('[data-role="error"]').isVisible(), false);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the load mode: Watch runs one rate on the panel\'s network, packets appear and are delivered, Pause stops it', async () => {
  const { page, errors } = await open('?topology=mesh:8x8&play=0');
  await page.click('#load-details summary');
  await page.fill('#load-topology', 'mesh:8x8');
  await page.selectOption('#load-pattern', 'uniform');
  await page.selectOption('#watch-algorithm', 'greedy');
  await page.fill('#watch-rate', '0.1');
  await page.click('#watch-run');
  await page.waitForTimeout(400);
  await page.waitForFunction(() => Number(document.getElementById('watch-stats').dataset.delivered) > 0, null, { timeout: 10000 });
  const stats = () => page.evaluate(() => ({ ...document.getElementById('watch-stats').dataset }));
  const s = await stats();
  assert.ok(Number(s.injected) > 0 && Number(s.delivered) > 0, JSON.stringify(s));
  assert.ok(Number(s.delivered) <= Number(s.injected));
  assert.equal(Number(s.in_flight), Number(s.injected) - Number(s.delivered));
  assert.match(await page.textContent('#watch-stats'), /injected \d+ · delivered \d+ · in flight \d+ · mean latency \d/);
  assert.equal(await page.locator('#watch-canvas').isVisible(), true);
  await page.locator('#load-watch').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'load-watch.png') });
  // Pause: the step stops moving.
  await page.click('#watch-pause');
  const paused = (await stats()).step;
  await page.waitForTimeout(200);
  assert.equal((await stats()).step, paused);
  assert.equal(await page.locator('[data-role="error"]').isVisible(), false);
  // A bad rate: the core's message, naming the field and value, in the error line.
  await page.fill('#watch-rate', '1.5');
  await page.click('#watch-run');
  assert.match(await page.locator('[data-role="error"]').innerText(), /rate '1.5'/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the lesson valiant-load opens the load panel, runs its curve in the worker, and checks its claim on the curve drawn', async () => {
  const t0 = Date.now();
  const { page, errors } = await open('?lesson=valiant-load');
  const lesson = await page.evaluate(() => window.routesim.lesson);
  const config = lesson.load_config;
  assert.ok(config, 'the core gives the lesson a load curve');
  // The panel is open, next to the run (before the experiment), its form the core's preset.
  assert.equal(await page.evaluate(() => document.getElementById('load-details').open), true);
  assert.equal(await page.evaluate(() => document.getElementById('load').nextElementSibling.id), 'experiment');
  assert.equal(await page.inputValue('#load-topology'), config.topology);
  assert.equal(await page.inputValue('#load-rates'), config.rates);
  assert.equal(await page.inputValue('#load-pattern'), 'uniform');
  assert.equal(await page.inputValue('#load-pattern2'), 'tornado');
  assert.equal(await page.isChecked('#load-stop'), true);
  const checked = await page.locator('#load-algorithms input:checked').evaluateAll((xs) => xs.map((x) => x.value));
  assert.deepEqual(checked, ['greedy', 'valiant']);
  await page.waitForFunction(() => /^done/.test(document.getElementById('load-status').textContent), null, { timeout: 60000 });
  const seconds = (Date.now() - t0) / 1000;
  assert.ok(seconds < 30, `the lesson's curve took ${seconds} s`);

  const chart = await loadChart(page);
  assert.deepEqual(chart.series.slice(1), ['greedy uniform', 'greedy tornado', 'valiant uniform', 'valiant tornado']);
  const rates = config.rates.split(',').map(Number);
  assert.deepEqual(chart.data[0], rates);
  // The core's lines: greedy's exact λ* on a 16×16 torus, uniform 8·255/(16·256) and tornado 1/7;
  // Valiant's about half greedy's uniform one; Valiant's doubled routes above greedy's at zero load.
  assert.ok(Math.abs(chart.ideal[0] - (8 * 255) / (16 * 256)) < 1e-9, `greedy uniform λ* ${chart.ideal[0]}`);
  assert.ok(Math.abs(chart.ideal[1] - 1 / 7) < 1e-9, `greedy tornado λ* ${chart.ideal[1]}`);
  assert.ok(Math.abs(chart.ideal[2] / chart.ideal[0] - 0.5) < 0.05, `valiant uniform λ* ${chart.ideal[2]}`);
  assert.ok(chart.zero_load[2] > 1.8 * chart.zero_load[0], `zero-load ${chart.zero_load}`);
  // The latency axis ends at 8 × the largest zero-load latency (rounded up to a whole step), as the
  // key says, so the zero-load lines stay apart; the saturated points above it are written on the top
  // edge with their latency. (It ended at up to 8.8 ×: 10 % of headroom added past the cap.)
  const cap = 8 * Math.max(...chart.zero_load);
  assert.equal(chart.y_max, Math.ceil(cap), `y axis ends at ${chart.y_max}, cap ${cap}`);
  const above = chart.data.slice(1).flat().filter((y) => y > chart.y_max);
  assert.ok(above.length > 0, 'some saturated latency is above the axis (drawn on the edge)');
  // Up to saturation: each curve's last run is its first saturated rate, nothing drawn past it.
  const sat = chart.saturated.map((flags, s) => {
    const j = flags.indexOf(true);
    assert.ok(j > 0, `${chart.series[s + 1]} did not saturate: ${flags}`);
    assert.ok(flags.slice(j + 1).every((f) => f === null), `${chart.series[s + 1]} ran past its saturation`);
    assert.ok(chart.data[s + 1].slice(0, j + 1).every((y) => y > 0) && chart.data[s + 1].slice(j + 1).every((y) => y === null));
    return { sustained: rates[j - 1], saturatedAt: rates[j] };
  });
  const [gu, gt, vu, vt] = sat;
  // The claim, read from the chart: Valiant sustains about half greedy's uniform rate, and on
  // tornado a rate at which greedy saturates.
  assert.ok(vu.sustained / gu.sustained >= 0.4 && vu.sustained / gu.sustained <= 0.6, JSON.stringify(sat));
  assert.ok(vt.sustained >= gt.saturatedAt, JSON.stringify(sat));

  // The verdict the user sees, in the lesson's box, says so with the chart's numbers.
  const runs = chart.saturated.flat().filter((f) => f !== null).length;
  await page.waitForFunction((n) => new RegExp(`Checked live on the load curves below \\(${n} of ${n} runs\\): met`).test(document.querySelector('[data-role="explain"]').innerText), runs, { timeout: 5000 });
  const lines = await page.locator('[data-role="load-check"] li').allInnerTexts();
  assert.equal(lines.length, 2);
  assert.ok(lines[0].includes(`valiant saturates at ${vu.saturatedAt} (sustains ${vu.sustained}); greedy saturates at ${gu.saturatedAt} (sustains ${gu.sustained})`), lines[0]);
  assert.ok(lines[0].includes(`${vu.sustained} / ${gu.sustained} = ${(vu.sustained / gu.sustained).toFixed(2)}, about half`), lines[0]);
  assert.ok(lines[1].includes(`valiant outlasts greedy, sustaining ${vt.sustained} ≥ ${gt.saturatedAt} ✓`), lines[1]);
  assert.equal(await page.locator('[data-role="load-verdict"]').innerText(), 'met');
  // It carries data-verdict as the claims and the lesson check do (SPEC §7).
  assert.equal(await page.locator('[data-role="load-verdict"]').getAttribute('data-verdict'), 'met');
  // The lesson's text quotes the λ* the chart draws.
  for (const x of chart.ideal) assert.ok(lesson.text.includes(x.toFixed(3)), `${x.toFixed(3)} not in the lesson's text`);

  // Determinism: the same rows as the native CLI for the same seed, series by series up to saturation.
  const cli = path.join(root, 'target/release/routesim');
  const pageRows = await page.evaluate(() => window.routesim.load.rows());
  chart.series.slice(1).forEach((name, s) => {
    const [algorithm, pattern] = name.split(' ');
    const mine = rates.filter((r) => r <= sat[s].saturatedAt);
    const out = spawnSync(cli, ['load', '--topology', config.topology, '--algorithm', algorithm, '--pattern', pattern,
      '--rate', mine.join(','), '--warmup', config.warmup, '--measure', config.measure, '--drain', config.drain,
      '--seed', config.seed, '--json'], { encoding: 'utf8' });
    assert.equal(out.status, 0, out.stderr);
    const rows = out.stdout.trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(pageRows.filter((r) => r.algorithm === algorithm && r.pattern === pattern), rows, `${name}: the page's rows differ from the CLI's`);
  });

  await page.locator('#load').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'lesson-valiant-load.png') });
  // Leaving the lesson: the panel goes back after the experiment, the load check goes.
  await page.selectOption('[data-role="lesson"]', '');
  await page.waitForFunction(() => !document.querySelector('[data-role="load-check"]'));
  assert.equal(await page.evaluate(() => document.getElementById('experiment').nextElementSibling.id), 'load');
  assert.deepEqual(errors, []);
  await page.close();
});

test('on a hypercube the load form ticks algorithms that run there, greedy disabled with the core\'s reason, and its curve runs', async () => {
  // It once ticked greedy and valiant on hypercube:4, and its curve and Watch were refused.
  const { page, errors } = await open('?topology=hypercube:4&play=0');
  await page.click('#load-details summary');
  const boxes = await page.locator('#load-algorithms input').evaluateAll((inputs) => inputs.map((i) => ({ name: i.value, checked: i.checked, disabled: i.disabled, why: i.parentElement.title })));
  const greedy = boxes.find((b) => b.name === 'greedy');
  assert.deepEqual([greedy.checked, greedy.disabled], [false, true]);
  assert.match(greedy.why, /cannot run here/);
  assert.deepEqual(boxes.filter((b) => b.checked).map((b) => b.name).sort(), ['bit-fixing', 'valiant']);
  assert.notEqual(await page.locator('#watch-algorithm').inputValue(), 'greedy');
  assert.equal(await page.locator('#watch-algorithm option[value="greedy"]').evaluate((o) => o.disabled), true);
  await page.fill('#load-rates', '0.05,0.1');
  for (const [key, value] of Object.entries(WINDOWS)) await page.fill(`#load-${key}`, String(value));
  await page.click('#load-run');
  await page.waitForFunction(() => /^(done|refused|failed|cancelled)/.test(document.getElementById('load-status').textContent), null, { timeout: 60000 });
  assert.equal(await page.textContent('#load-status'), 'done: 4 runs');
  // Back on a mesh (the panel's network follows the page's), greedy runs again.
  await page.fill('#load-topology', 'mesh:8x8');
  await page.locator('#load-topology').dispatchEvent('change');
  assert.equal(await page.locator('#load-algorithms input[value="greedy"]').isDisabled(), false);
  assert.deepEqual(errors, []);
  await page.close();
});

/** Fills the load form with `curve` (the panel opened) and runs it; waits for the status to settle. */
async function runForm(page, { topology, algorithms, patterns, rates, warmup, measure, drain, seed, stop = true }) {
  if (!(await page.locator('#load-form').isVisible())) await page.click('#load-details summary');
  await page.fill('#load-topology', topology);
  await page.locator('#load-topology').dispatchEvent('change');
  for (const box of await page.locator('#load-algorithms input').all()) {
    await box.setChecked(algorithms.includes(await box.getAttribute('value')));
  }
  await page.selectOption('#load-pattern', patterns[0]);
  await page.selectOption('#load-pattern2', patterns[1] ?? '');
  await page.fill('#load-rates', rates.join(','));
  for (const [key, value] of Object.entries({ warmup, measure, drain, seed })) await page.fill(`#load-${key}`, String(value));
  await page.setChecked('#load-stop', stop);
  await page.click('#load-run');
  await page.waitForFunction(() => /^(done|refused|failed|cancelled)/.test(document.getElementById('load-status').textContent), null, { timeout: 60000 });
  return page.textContent('#load-status');
}

/**
 * Pixels of the load chart's canvas within `r` CSS px of (`x`, `y`) (canvas
 * pixels) whose colour is within 60 (sum of channel differences) of `hex`.
 */
const pixelsNear = (page, x, y, r, hex) => page.evaluate(([x, y, r, hex]) => {
  const u = window.routesim.load.chart.chart();
  const ctx = u.ctx;
  const dpr = devicePixelRatio;
  const want = [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16));
  const x0 = Math.max(0, Math.round(x - r * dpr));
  const y0 = Math.max(0, Math.round(y - r * dpr));
  const w = Math.min(ctx.canvas.width - x0, Math.round(2 * r * dpr));
  const h = Math.min(ctx.canvas.height - y0, Math.round(2 * r * dpr));
  const img = ctx.getImageData(x0, y0, w, h).data;
  let n = 0;
  for (let k = 0; k < img.length; k += 4) {
    if (img[k + 3] > 0 && Math.abs(img[k] - want[0]) + Math.abs(img[k + 1] - want[1]) + Math.abs(img[k + 2] - want[2]) < 60) n++;
  }
  return n;
}, [x, y, r, hex]);

test('a first saturated rate at which no measured packet was delivered is still ringed, on the top edge, and said in the notes', async () => {
  // torus:16x16 greedy tornado at 0.3: latency mean null (nothing measured arrived within the
  // drain), saturated; the ring was drawn only for a point with a latency, so none was drawn.
  const { page, errors } = await open('?topology=mesh:8x8&play=0');
  const status = await runForm(page, { topology: 'torus:16x16', algorithms: ['greedy'], patterns: ['tornado'], rates: [0.05, 0.1, 0.3], warmup: 100, measure: 300, drain: 300, seed: 3 });
  assert.equal(status, 'done: 3 runs');
  const chart = await loadChart(page);
  assert.deepEqual(chart.saturated[0], [false, false, true]);
  assert.equal(chart.data[1][2], null, 'the saturated point has a latency: pick another case');
  // Where the ring belongs: at rate 0.3 on the top edge of the plot (as a point beyond the axis).
  const at = await page.evaluate(() => {
    const u = window.routesim.load.chart.chart();
    return { x: u.valToPos(0.3, 'x', true), top: u.bbox.top, dpr: devicePixelRatio };
  });
  const ring = await pixelsNear(page, at.x, at.top + 9 * at.dpr, 12, '#0072B2');
  assert.ok(ring >= 10, `no ring drawn at rate 0.3 on the top edge (${ring} pixels of the series' colour)`);
  // The chart's own account of its marks says the same: a ring at that rate, on the edge, saying no packet arrived.
  const rings = await page.evaluate(() => window.routesim.load.chart.marks().rings);
  assert.equal(rings.length, 1, JSON.stringify(rings));
  assert.equal(rings[0].series, 0);
  assert.ok(Math.abs(rings[0].x - at.x) < 1 && rings[0].edge, JSON.stringify(rings[0]));
  assert.match(rings[0].text, /none delivered/);
  assert.match(await page.textContent('#load-notes'), /greedy tornado: saturated at rate 0\.3 .*no measured packet delivered/);
  assert.match(await page.textContent('#load-key'), /no measured packet was delivered/);
  await page.locator('#load').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'load-none-delivered.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('no λ* line crosses another series\' λ* label, and the latency axis ends where the key says', async () => {
  // mesh:8x8, valiant uniform's λ* 0.256 and valiant transpose's 0.267 are a label's width apart:
  // the one's dashed line crossed the other's "λ* 0.267".
  const { page, errors } = await open('?topology=mesh:8x8&play=0');
  const status = await runForm(page, { topology: 'mesh:8x8', algorithms: ['greedy', 'valiant'], patterns: ['uniform', 'transpose'], rates: [0.05, 0.2, 0.3, 0.45], warmup: 100, measure: 300, drain: 300, seed: 3 });
  assert.match(status, /^done/);
  const chart = await loadChart(page);
  assert.equal(chart.ideal.length, 4);
  const { labels, lines } = await page.evaluate(() => window.routesim.load.chart.marks());
  assert.equal(labels.length, 4);
  assert.equal(new Set(lines.map((l) => l.series)).size, 4);
  for (const line of lines) {
    for (const label of labels.filter((l) => l.series !== line.series)) {
      const across = line.x >= label.x && line.x <= label.x + label.w;
      const through = line.top < label.y + label.h && line.bottom > label.y;
      assert.ok(!(across && through), `${chart.series[line.series + 1]}'s λ* line crosses "${label.text}": ${JSON.stringify({ line, label })}`);
    }
  }
  // Every label keeps its own line's value and sits beside it.
  for (const label of labels) {
    assert.equal(label.text, `λ* ${chart.ideal[label.series].toFixed(3)}`);
  }
  // The latency axis: up to 8 × the largest zero-load latency, rounded up to a whole step, at most.
  const cap = 8 * Math.max(...chart.zero_load);
  const top = Math.max(...chart.data.slice(1).flat().filter((y) => y != null));
  assert.equal(chart.y_max, Math.min(Math.ceil(1.1 * Math.max(top, cap / 8)), Math.ceil(cap)));
  assert.match(await page.textContent('#load-key'), /ends at 8 × the largest zero-load latency/);
  await page.locator('#load').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'load-labels.png') });

  // A λ* so near the left edge that its label goes right of its line, across a larger λ*'s line:
  // that line is left out behind the label (drawn from a made-up chart).
  await page.evaluate(() => window.routesim.load.chart.draw({
    series: ['offered', 'a', 'b'], data: [[0.1, 0.5], [5, 6], [10, 12]], ideal: [0.01, 0.02], zero_load: [5, 10],
    saturated: [[false, false], [false, false]],
  }));
  const made = await page.evaluate(() => window.routesim.load.chart.marks());
  const low = made.labels.find((l) => l.series === 0);
  const lowLine = made.lines.find((l) => l.series === 0);
  assert.ok(low.x > lowLine.x, `the label of λ* 0.010 is not right of its line: ${JSON.stringify(made)}`);
  const high = made.lines.filter((l) => l.series === 1);
  assert.ok(high.length > 0 && high[0].x >= low.x && high[0].x <= low.x + low.w, `λ* 0.020's line does not pass "λ* 0.010": ${JSON.stringify(made)}`);
  for (const line of made.lines) {
    for (const label of made.labels.filter((l) => l.series !== line.series)) {
      assert.ok(!(line.x >= label.x && line.x <= label.x + label.w && line.top < label.y + label.h && line.bottom > label.y), JSON.stringify({ line, label }));
    }
  }
  // … and no pixel of it shows inside the label.
  const orange = await page.evaluate(([l, hex]) => {
    const ctx = window.routesim.load.chart.chart().ctx;
    const img = ctx.getImageData(Math.round(l.x), Math.round(l.y), Math.round(l.w), Math.round(l.h)).data;
    const want = [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16));
    let n = 0;
    for (let k = 0; k < img.length; k += 4) if (img[k + 3] > 0 && Math.abs(img[k] - want[0]) + Math.abs(img[k + 1] - want[1]) + Math.abs(img[k + 2] - want[2]) < 60) n++;
    return n;
  }, [low, '#D55E00']);
  assert.equal(orange, 0, 'λ* 0.020\'s line shows through "λ* 0.010"');
  assert.deepEqual(errors, []);
  await page.close();
});
