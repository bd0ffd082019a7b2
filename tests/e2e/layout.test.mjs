// End-to-end tests of the page's layout and reach (issue #12, items 6–9):
// experiment scales and legends, the run chart's axes, the compact view in
// narrow frames, phones, zoom and the heat map of big meshes, keyboard,
// reduced motion, and axe-core's WCAG 2 A/AA rules. Headless Debian
// Chromium through playwright-core, as page.test.mjs.
// Run: node --test tests/e2e/*.test.mjs (after ./build.sh).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { assertAccessible } from './axe.mjs';

import { root, shots, server, openPage, embedPage, canvasInfo } from './harness.mjs';

/** Opens the page at `query` (harness.mjs `openPage`); `options`: newPage's (viewport, reducedMotion, hasTouch). */
const open = (query, { viewport = { width: 1400, height: 1000 }, ...options } = {}) => openPage(query, viewport, options);

/** A course page holding the page at `query` in an iframe `width` × `height` (harness.mjs `embedPage`). */
const openFramed = (query, width, height) => embedPage(query, { width, height });

/** The network view's transform and mode. */
const viewOf = (page) => page.evaluate(() => {
  const v = window.routesim.view;
  return { scale: v.scale, ox: v.ox, oy: v.oy, mode: v.mode };
});

/** Waits until the next frames are drawn. */
const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

const MESH = '?topology=mesh:12x12&algorithm=greedy&workload=random-permutation&seed=5&play=0';
const EMBED = '?embed=1&topology=mesh:8x8&algorithm=greedy&workload=transpose&speed=4';

/**
 * Elements of the document whose content does not fit: the page scrolls
 * sideways, an element sticks out of the viewport, or an element clips its
 * content (overflow other than visible, or an ellipsis). Canvases and
 * uPlot's drawing layers are pictures, not text, and are left out.
 */
function overflowing(target) {
  return target.evaluate(() => {
    const bad = [];
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width) bad.push(`the page scrolls sideways (${document.documentElement.scrollWidth} > ${width})`);
    const name = (el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''} "${(el.textContent ?? '').trim().slice(0, 30)}"`;
    for (const el of document.body.querySelectorAll('*')) {
      // Hidden by `visibility` too: early in a run a phase band is a few px wide and hides its label by design (style.css).
      if (!el.checkVisibility({ visibilityProperty: true }) || el.tagName === 'CANVAS' || el.closest('.u-wrap')) continue;
      // The compact view gives each claim one line, its whole text as the line's tooltip (issue #25: claims in a 400 × 600 frame).
      if (document.body.classList.contains('embed') && el.closest('[data-role="claim"][title]') && !el.matches('[data-role="claim"]')) continue;
      // So does each message (a bad URL parameter), its whole text shown on a click.
      if (document.body.classList.contains('embed') && el.matches('.msg > span[title]')) continue;
      // So does each line of a sort's goal (two runs beside each other: two lines).
      if (document.body.classList.contains('embed') && el.matches('[data-role="sort-verdict"] > span[title]')) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.right > width + 0.5 || r.left < -0.5) bad.push(`${name(el)} sticks out (${Math.round(r.left)}…${Math.round(r.right)} of ${width})`);
      const cs = getComputedStyle(el);
      if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1 && cs.overflowX !== 'visible') {
        bad.push(`${name(el)} clips its content (${el.scrollWidth} > ${el.clientWidth})`);
      }
      if (cs.textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth) bad.push(`${name(el)} is cut with an ellipsis`);
    }
    return bad;
  });
}

/** Whether the positive values of `columns` span more than a decade. */
function decade(columns) {
  const ys = columns.flat().filter((v) => v > 0);
  return ys.length > 0 && Math.max(...ys) / Math.min(...ys) > 10;
}

test('experiment charts: log scales when values span a decade, a toggle, bounds drawn, legends that name the curves', async () => {
  const { page, errors } = await open('?topology=mesh:8x8&workload=random-lk&play=0');
  await page.fill('#sweep-values', '4,8');
  await page.fill('#sweep-seeds', '1');
  for (const box of await page.locator('#sweep-algorithms input:not([disabled])').all()) {
    const keep = ['greedy', 'pp-rand'].includes(await box.getAttribute('value'));
    if ((await box.isChecked()) !== keep) await box.setChecked(keep);
  }
  await page.click('#sweep-run');
  await page.waitForFunction(() => /done/.test(document.getElementById('sweep-status').textContent), null, { timeout: 60000 });
  const read = () => page.evaluate(() => ['steps', 'ratio', 'queue'].map((name, i) => {
    const plot = window.routesim.experiment.charts.charts()[i];
    const c = window.routesim.charts[name];
    return { name, series: [...c.series], data: c.data.map((col) => [...col]), log: c.log, y: plot.scales.y.distr, x: plot.scales.x.distr, same: plot.data === c.data };
  }));
  const charts = await read();
  const steps = charts[0];
  assert.deepEqual(steps.series, ['N (nodes)', '√(ℓkN)', 'best', 'greedy', 'pp-rand'], 'x is the varied parameter, then the bounds and the algorithms');
  assert.deepEqual(steps.data[0], [16, 64]);
  for (const i of [1, 2]) assert.ok(steps.data[i].every((y) => y > 0), `${steps.series[i]} is not drawn: ${steps.data[i]}`);
  // greedy takes tens of steps, pp-rand hundreds: the steps chart is logarithmic.
  assert.ok(decade(steps.data.slice(1)), `steps do not span a decade: ${JSON.stringify(steps.data)}`);
  for (const c of charts) {
    const auto = decade(c.data.slice(1));
    assert.equal(c.log, auto, `${c.name}: log ${c.log}, values ${JSON.stringify(c.data.slice(1))}`);
    assert.equal(c.y, auto ? 3 : 1, `${c.name}: uPlot y distr`);
    assert.equal(c.x, 1, `${c.name}: x (16 to 64) spans less than a decade`);
    assert.ok(c.same, `${c.name}: the published data is not the data drawn`);
    assert.equal(await page.isChecked(`input[data-log="${c.name}"]`), auto, `${c.name}: the toggle does not show the scale`);
  }
  // The toggle: linear, then log again.
  await page.click('input[data-log="steps"]');
  let now = (await read())[0];
  assert.equal(now.log, false);
  assert.equal(now.y, 1);
  assert.deepEqual(now.data, steps.data);
  await page.click('input[data-log="steps"]');
  now = (await read())[0];
  assert.equal(now.log, true);
  assert.equal(now.y, 3);
  // Legends name each curve; no "--" placeholders.
  const legend = await page.locator('[data-chart="steps"] .u-legend').innerText();
  for (const name of ['N (nodes)', '√(ℓkN)', 'best', 'greedy', 'pp-rand']) assert.ok(legend.includes(name), `legend: ${legend}`);
  for (const name of ['steps', 'ratio', 'queue']) {
    assert.ok(!(await page.locator(`[data-chart="${name}"] .u-legend`).innerText()).includes('--'), `${name} legend shows --`);
  }
  await page.locator('#experiment').screenshot({ path: path.join(shots, 'experiment-log.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('experiment: x on a log scale too when the varied parameter spans a decade', async () => {
  const { page, errors } = await open('?topology=mesh:8x8&workload=random-permutation&algorithm=greedy&play=0');
  await page.fill('#sweep-values', '2,8');
  await page.fill('#sweep-seeds', '1');
  for (const box of await page.locator('#sweep-algorithms input:not([disabled])').all()) {
    const keep = (await box.getAttribute('value')) === 'greedy';
    if ((await box.isChecked()) !== keep) await box.setChecked(keep);
  }
  await page.click('#sweep-run');
  await page.waitForFunction(() => /done/.test(document.getElementById('sweep-status').textContent), null, { timeout: 60000 });
  const steps = await page.evaluate(() => ({ xs: [...window.routesim.charts.steps.data[0]], log: window.routesim.charts.steps.log, x: window.routesim.experiment.charts.charts()[0].scales.x.distr }));
  assert.deepEqual(steps.xs, [4, 64]);
  assert.equal(steps.x, steps.log ? 3 : 1, 'x is logarithmic exactly when the chart is');
  await page.setChecked('input[data-log="steps"]', true);
  assert.equal(await page.evaluate(() => window.routesim.experiment.charts.charts()[0].scales.x.distr), 3);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the run chart: y from 0, whole-number ticks, a legend with names and values', async () => {
  const { page, errors } = await open(MESH);
  for (let i = 0; i < 3; i++) await page.click('#step');
  await page.evaluate(() => window.routesim.chart.chart.redraw());
  await frames(page);
  const axes = () => page.evaluate(() => {
    const u = window.routesim.chart.chart;
    return {
      y: u.scales.y.min,
      queue: u.scales.queue.min,
      splits: u.axes.map((a) => (a._splits ?? []).filter((v) => v !== null)),
    };
  });
  let a = await axes();
  assert.equal(a.y, 0, 'packets in flight do not start at 0');
  assert.equal(a.queue, 0, 'max queue does not start at 0');
  for (const [i, splits] of a.splits.entries()) {
    assert.ok(splits.length >= 2, `axis ${i} has no ticks`);
    assert.ok(splits.every(Number.isInteger), `axis ${i} ticks: ${splits}`);
  }
  const legend = await page.locator('[data-chart="run"] .u-legend').innerText();
  assert.ok(!legend.includes('--'), `legend: ${legend}`);
  assert.match(legend, /step:?\s*3/);
  assert.match(legend, /in flight/);
  assert.match(legend, /max queue/);
  await page.click('#finish');
  await page.waitForFunction(() => document.getElementById('c-status').textContent === 'finished', null, { timeout: 20000 });
  await frames(page);
  a = await axes();
  assert.equal(a.y, 0);
  for (const splits of a.splits) assert.ok(splits.every(Number.isInteger), `ticks: ${splits}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('paused while playing, the run chart shows the counters\' step', async () => {
  const { page, errors } = await open('?topology=mesh:32x32&algorithm=greedy&workload=random-permutation&seed=3&play=1&speed=40');
  await page.waitForFunction(() => Number(document.getElementById('c-step').textContent) >= 15, null, { timeout: 20000 });
  await page.keyboard.press('Space');
  await frames(page);
  await frames(page);
  const seen = await page.evaluate(() => {
    const u = window.routesim.chart.chart;
    return {
      counter: Number(document.getElementById('c-step').textContent),
      status: document.getElementById('c-status').textContent,
      last: u.data[0][u.data[0].length - 1],
      legend: document.querySelector('[data-chart="run"] .u-legend').innerText,
    };
  });
  assert.equal(seen.status, 'paused');
  assert.equal(seen.last, seen.counter, 'the chart\'s last step is the counter\'s');
  assert.match(seen.legend, new RegExp(`step:?\\s*${seen.counter}(?!\\d)`), `legend: ${seen.legend}`);
  assert.deepEqual(errors, []);
  await page.close();
});

for (const width of [360, 400]) {
  test(`the compact view in a ${width} px iframe: names what it shows, has its legend, nothing overflows`, async () => {
    const { page, frame, errors } = await openFramed(EMBED, width, 860);
    assert.equal(await frame.locator('#run-title').innerText(), 'greedy · mesh:8x8 · transpose');
    assert.ok(await frame.locator('#legend').isVisible(), 'the legend is hidden');
    assert.ok(await frame.locator('#network').isVisible());
    assert.deepEqual(await overflowing(frame), [], 'at the start');
    await frame.click('#finish');
    await frame.waitForFunction(() => document.getElementById('c-status').textContent === 'finished', null, { timeout: 20000 });
    await frame.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
    assert.deepEqual(await overflowing(frame), [], 'once finished');
    await page.screenshot({ path: path.join(shots, `embed-${width}.png`) });
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test("README's embed snippet shows what its title says", async () => {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const snippet = readme.match(/<iframe src="[^"]*(\?embed=1[^"]*)"\s+width="(\d+)" height="(\d+)"[^>]*title="([^"]*)"/);
  assert.ok(snippet, 'no iframe snippet in README');
  const [, query, width, height, title] = snippet;
  const { page, frame, errors } = await openFramed(query, Number(width), Number(height));
  const [algorithm, topology, workload] = (await frame.locator('#run-title').innerText()).split(' · ');
  for (const word of [algorithm, workload]) assert.ok(title.includes(word), `title "${title}" does not name ${word}`);
  assert.equal(await frame.locator('.msg').count(), 0, 'the URL of the snippet gives a message');
  assert.match(query, new RegExp(`algorithm=${algorithm}(&|$)`), 'the URL does not name its algorithm');
  assert.match(query, new RegExp(`topology=${topology}(&|$)`));
  // The frame does not scroll: what it shows (the canvas, the claims; the chart when it is 720 px high or more) fits it.
  assert.ok(await frame.evaluate(() => document.documentElement.scrollHeight) <= Number(height), 'the view does not fit the frame');
  for (const sel of ['#network', '[data-role="claim"]', ...(Number(height) >= 720 ? ['#run-chart'] : [])]) {
    const b = await frame.locator(sel).first().evaluate((el) => el.getBoundingClientRect().toJSON());
    assert.ok(b.height > 0 && b.y >= 0 && b.bottom <= Number(height) + 1, `${sel} does not fit the frame (${b.bottom} > ${height})`);
  }
  assert.deepEqual(await overflowing(frame), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the full page at 360 and 1280 px: no counter or text is cut', async () => {
  for (const width of [360, 1280]) {
    const { page, errors } = await open('?play=0', { viewport: { width, height: 800 } });
    for (let i = 0; i < 30; i++) await page.click('#step');
    assert.deepEqual(await overflowing(page), [], `${width} px`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('on a phone the setup panel with the instance box open fits the screen', async () => {
  // The file input and its Load button once widened a 390 px page by 3 px.
  for (const width of [360, 390]) {
    const { page, errors } = await open('?topology=mesh:6x6&play=0', { viewport: { width, height: 844 } });
    await page.locator('#setup-fold > summary').click();
    await page.locator('#instance-box > summary').click();
    assert.deepEqual(await overflowing(page), [], `${width} px`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('on a 390 × 844 phone the network canvas is within the first screen', async () => {
  const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
  // One run: its canvas, big enough to read.
  const single = await open(MESH, phone);
  const box = await single.page.locator('[data-role="network"]').boundingBox();
  assert.ok(box.y >= 0 && box.y + box.height <= 844, `canvas at ${box.y}…${box.y + box.height}`);
  assert.ok(box.x >= 0 && box.x + box.width <= 390, `canvas at ${box.x}…${box.x + box.width}`);
  assert.ok(box.height >= 250, `canvas only ${box.height} px high`);
  assert.ok((await canvasInfo(single.page)).ink > 5000, 'canvas is blank');
  assert.deepEqual(await overflowing(single.page), []);
  await single.page.close();
  // The default view compares two runs: both canvases, stacked (narrow: issue #25), on the first screen.
  const { page, errors } = await open('', phone);
  const boxes = await page.locator('[data-role="network"]').evaluateAll((cs) => cs.map((c) => c.getBoundingClientRect().toJSON()));
  assert.equal(boxes.length, 2);
  for (const b of boxes) {
    assert.ok(b.y >= 0 && b.y + b.height <= 844, `canvas at ${b.y}…${b.y + b.height}`);
    assert.ok(b.x >= 0 && b.x + b.width <= 390, `canvas at ${b.x}…${b.x + b.width}`);
    assert.ok(b.width >= 160 && b.height >= 160, `canvas only ${b.width} × ${b.height} px`);
  }
  assert.ok((await canvasInfo(page)).ink > 5000, 'canvas is blank');
  assert.deepEqual(await overflowing(page), []);
  await page.screenshot({ path: path.join(shots, 'phone.png') });
  assert.deepEqual([...single.errors, ...errors], []);
  await page.close();
});

test('wheel zooms the network, drag pans it, reset restores the view; keys do the same', async () => {
  const { page, errors } = await open(MESH);
  await frames(page);
  const start = await viewOf(page);
  const first = await canvasInfo(page);
  const box = await page.locator('#network').boundingBox();
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  await page.mouse.move(cx, cy);
  await page.mouse.wheel(0, -400);
  await frames(page);
  const zoomed = await viewOf(page);
  assert.ok(zoomed.scale > start.scale * 1.5, `scale ${start.scale} -> ${zoomed.scale}`);
  assert.notEqual((await canvasInfo(page)).hash, first.hash, 'the canvas did not change');
  // Drag pans (and is not a click on a packet).
  await page.mouse.down();
  await page.mouse.move(cx + 60, cy + 30, { steps: 5 });
  await page.mouse.up();
  await frames(page);
  const panned = await viewOf(page);
  assert.ok(Math.abs(panned.ox - zoomed.ox - 60) < 1 && Math.abs(panned.oy - zoomed.oy - 30) < 1, `pan: ${JSON.stringify([zoomed, panned])}`);
  assert.equal(await page.evaluate(() => window.routesim.watched), null, 'a drag picked a packet');
  await page.click('#zoom-reset');
  await frames(page);
  assert.deepEqual(await viewOf(page), start);
  assert.equal((await canvasInfo(page)).hash, first.hash, 'reset does not restore the picture');
  // At full view, scrolling down scrolls the page rather than zooming out.
  await page.mouse.move(cx, cy);
  await page.mouse.wheel(0, 300);
  await frames(page);
  assert.equal((await viewOf(page)).scale, start.scale);
  // Keyboard: + zooms, Shift+arrow pans, 0 resets; the buttons zoom too.
  await page.focus('#network');
  await page.keyboard.press('+');
  const keyed = await viewOf(page);
  assert.ok(keyed.scale > start.scale);
  await page.keyboard.press('Shift+ArrowLeft');
  assert.ok((await viewOf(page)).ox > keyed.ox, 'Shift+← does not pan');
  assert.equal(await page.locator('[data-role="step-count"]').innerText(), '0', 'Shift+← moved the run');
  await page.keyboard.press('0');
  assert.deepEqual(await viewOf(page), start);
  await page.click('#zoom-in');
  assert.ok((await viewOf(page)).scale > start.scale);
  await page.click('#zoom-out');
  assert.deepEqual(await viewOf(page), start);
  assert.deepEqual(errors, []);
  await page.close();
});

test('pinch (two touch pointers) zooms the network', async () => {
  const { page, errors } = await open(MESH, { hasTouch: true });
  const start = await viewOf(page);
  await page.evaluate(() => {
    const c = document.getElementById('network');
    const r = c.getBoundingClientRect();
    const at = (id, type, dx) => c.dispatchEvent(new PointerEvent(type, {
      pointerId: id, pointerType: 'touch', isPrimary: id === 1, bubbles: true, cancelable: true,
      clientX: r.left + r.width / 2 + dx, clientY: r.top + r.height / 2,
    }));
    at(1, 'pointerdown', -20);
    at(2, 'pointerdown', 20);
    for (let d = 20; d <= 80; d += 10) {
      at(1, 'pointermove', -d);
      at(2, 'pointermove', d);
    }
    at(1, 'pointerup', -80);
    at(2, 'pointerup', 80);
  });
  const pinched = await viewOf(page);
  assert.ok(Math.abs(pinched.scale / start.scale - 4) < 0.01, `scale ${start.scale} -> ${pinched.scale}`);
  assert.equal(await page.locator('#network').evaluate((c) => c.style.touchAction), 'none', 'zoomed in, one finger should pan the picture');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a 128×128 mesh zoomed out is drawn as a heat map; zoomed in, as nodes and dots', async () => {
  const { page, errors } = await open('?topology=mesh:128x128&algorithm=greedy&workload=random-permutation&play=0');
  await page.click('#step');
  await frames(page);
  assert.equal((await viewOf(page)).mode, 'heat');
  const heat = await canvasInfo(page);
  assert.ok(heat.ink > 50000, `the heat map is blank (${heat.ink})`);
  await page.locator('.stage').screenshot({ path: path.join(shots, 'heat-128.png') });
  // The legend says what the shading counts in each view: the cells count the
  // packets waiting at their source too (the max-queue counter does not).
  const shading = () => page.locator('#legend-heat').innerText();
  assert.match(await shading(), /packets per node, waiting at the source included \(nodes too small for packets: zoom in to see them\)/);
  // No packet is drawn, and the line above says so; the legend's packet
  // classes keep their true colours (dimmed, a blue read as the sky blue
  // beside it, against SPEC §7's colour words).
  const opacity = () => page.locator('[data-role="legend-class"] .swatch').first().evaluate((el) => Number(getComputedStyle(el).opacity));
  assert.equal(await opacity(), 1, 'zoomed out, the packet classes\' swatches are dimmed');
  await page.focus('#network');
  for (let i = 0; i < 4; i++) await page.keyboard.press('+');
  await frames(page);
  assert.equal((await viewOf(page)).mode, 'dots');
  assert.notEqual((await canvasInfo(page)).hash, heat.hash);
  assert.match(await shading(), /queue occupancy/);
  assert.equal(await opacity(), 1, 'zoomed in, the packet classes\' swatches are dimmed');
  await page.keyboard.press('0');
  await frames(page);
  assert.equal((await viewOf(page)).mode, 'heat');
  // A small mesh is drawn node by node.
  await page.goto(server.url + MESH);
  await page.waitForSelector('body[data-ready="1"]');
  assert.equal((await viewOf(page)).mode, 'dots');
  assert.deepEqual(errors, []);
  await page.close();
});

test('axe-core: no serious or critical WCAG 2 A/AA violation on the default and the compact view', async () => {
  const full = await open('');
  await assertAccessible(full.page, 'default view');
  await full.page.close();
  const embed = await open(EMBED, { viewport: { width: 400, height: 860 } });
  await assertAccessible(embed.page, 'compact view');
  await embed.page.close();
  const framed = await openFramed(EMBED, 360, 860);
  await assertAccessible(framed.frame, 'compact view in a 360 px iframe');
  await framed.page.close();
  assert.deepEqual([...full.errors, ...embed.errors, ...framed.errors], []);
});

test('axe-core: no serious or critical WCAG 2 A/AA violation on the lesson and compare views', async () => {
  const lesson = await open('?lesson=pp-constant-queues');
  await lesson.page.waitForSelector('[data-role="lesson-check"]');
  await assertAccessible(lesson.page, 'lesson view (pp-constant-queues)');
  await lesson.page.close();
  const compare = await open('?compare=greedy');
  assert.equal(await compare.page.locator('[data-role="network"]').count(), 2, 'the compare view shows two canvases');
  await compare.page.waitForSelector('[data-role="compare-verdict"]');
  await assertAccessible(compare.page, 'compare view');
  await compare.page.close();
  assert.deepEqual([...lesson.errors, ...compare.errors], []);
});

test('keyboard: Tab reaches every control, and focus is visible on each', async () => {
  const { page, errors } = await open(MESH);
  const total = await page.evaluate(() => {
    const all = [...document.querySelectorAll('button, select, input, textarea, summary, a[href], [tabindex]')]
      .filter((el) => el.tabIndex >= 0 && !el.disabled && el.checkVisibility());
    all.forEach((el, i) => { el.dataset.tabCheck = String(i); });
    return all.length;
  });
  assert.ok(total > 25, `only ${total} controls found`);
  const reached = new Set();
  const unseen = [];
  await page.locator('body').focus();
  for (let i = 0; i < total + 10 && reached.size < total; i++) {
    await page.keyboard.press('Tab');
    const at = await page.evaluate(() => {
      const el = document.activeElement;
      const cs = getComputedStyle(el);
      return {
        id: el.dataset?.tabCheck ?? null,
        what: `${el.tagName.toLowerCase()}#${el.id} ${el.getAttribute('aria-label') ?? el.textContent.trim().slice(0, 20)}`,
        visible: el.matches(':focus-visible') && cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 2,
      };
    });
    if (at.id !== null) reached.add(at.id);
    if (!at.visible) unseen.push(at.what);
  }
  const missed = await page.evaluate((seen) => [...document.querySelectorAll('[data-tab-check]')]
    .filter((el) => !seen.includes(el.dataset.tabCheck))
    .map((el) => `${el.tagName.toLowerCase()}#${el.id} ${el.getAttribute('aria-label') ?? el.textContent.trim().slice(0, 20)}`), [...reached]);
  assert.deepEqual(missed, [], 'controls Tab does not reach');
  assert.deepEqual(unseen, [], 'focus not visible on');
  // The canvas and every button are named for screen readers.
  const unnamed = await page.evaluate(() => [...document.querySelectorAll('button, canvas, select, input')]
    .filter((el) => el.checkVisibility() && !(el.getAttribute('aria-label') || el.labels?.length || el.textContent.trim() || el.title))
    .map((el) => el.id || el.outerHTML.slice(0, 60)));
  assert.deepEqual(unnamed, []);
  // A legend entry is a button: Enter hides and shows its series.
  const entry = page.locator('[data-chart="run"] .u-legend .u-series[tabindex="0"]').first();
  await entry.focus();
  await page.keyboard.press('Enter');
  assert.equal(await entry.getAttribute('aria-pressed'), 'false');
  await page.keyboard.press('Enter');
  assert.equal(await entry.getAttribute('aria-pressed'), 'true');
  assert.deepEqual(errors, []);
  await page.close();
});

test('prefers-reduced-motion: steps are shown without tweening', async () => {
  const plain = await open(MESH);
  await plain.page.click('#step');
  assert.ok(await plain.page.evaluate(() => window.routesim.anim.duration > 0), 'no tweening without reduced motion');
  await plain.page.close();
  const { page, errors } = await open(MESH, { reducedMotion: 'reduce' });
  await page.click('#step');
  assert.equal(await page.evaluate(() => window.routesim.anim.duration), 0);
  assert.equal(await page.evaluate(() => window.routesim.prevPositions), null);
  await page.evaluate(() => {
    document.getElementById('speed').value = '40'; // 4 steps a second (the control spans 0.1–1000, 25 a decade): tweened without the setting
    document.getElementById('speed').dispatchEvent(new Event('input'));
  });
  await page.click('#play');
  await page.waitForFunction(() => Number(document.getElementById('c-step').textContent) >= 3, null, { timeout: 10000 });
  assert.equal(await page.evaluate(() => window.routesim.anim.duration), 0);
  assert.deepEqual([...plain.errors, ...errors], []);
  await page.close();
});

test('a long topology name is not cut in the setup panel at 1280×800 (the kind and the name stack)', async () => {
  const cases = [['?topology=shuffle-exchange:6&algorithm=lmrr&play=0', true], ['?play=0', false], ['?topology=mesh:128x128&play=0', null], ['?topology=hypercube:12&play=0', null]];
  for (const [query, stacked] of cases) {
    const { page, errors } = await open(query, { viewport: { width: 1280, height: 800 } });
    const m = await page.evaluate(() => {
      const kind = document.getElementById('kind');
      const name = document.getElementById('topology');
      const [a, b] = [kind.getBoundingClientRect(), name.getBoundingClientRect()];
      return { fits: name.scrollWidth <= name.clientWidth, stacked: b.top >= a.bottom, kindWidth: a.width };
    });
    assert.ok(m.fits, `${query}: the topology name is cut`);
    if (stacked !== null) assert.equal(m.stacked, stacked, query);
    // The kind select holds "shuffle-exchange" (about 130 px at this font) when stacked.
    if (stacked) assert.ok(m.kindWidth >= 180, `${m.kindWidth}`);
    assert.deepEqual(errors.filter((e) => !/greedy-worst/.test(e)), []);
    await page.close();
  }
});

// An audit found the heat map's legend line (it does not wrap) widening the
// page past a phone and a 400 px frame, and the default view's frame ending
// on two empty heat maps: the compare verdict, shown at the end, took the
// canvases' height.
test('zoomed out to a heat map, the page never scrolls sideways on a phone or in a 400 px frame, and the swatch is the heat map\'s ramp', async () => {
  const phone = await open('?lesson=ks-nowrap&play=0&step=60', { viewport: { width: 390, height: 844 } });
  await frames(phone.page);
  assert.equal((await viewOf(phone.page)).mode, 'heat');
  // (The timeline's phase bands shorten their names with an ellipsis by design.)
  const wider = (await overflowing(phone.page)).filter((line) => /scrolls sideways|sticks out/.test(line));
  assert.deepEqual(wider, [], 'phone, ks-nowrap lesson zoomed out');
  const swatch = await phone.page.locator('#legend-heat .swatch').evaluate((el) => getComputedStyle(el).backgroundImage);
  assert.match(swatch, /rgb\(84, 22, 94\)/, `the swatch is not the heat map's ramp: ${swatch}`);
  assert.deepEqual(phone.errors, []);
  await phone.page.close();
  const framed = await openFramed('?embed=1&topology=butterfly:4&workload=sort-random&algorithm=flashsort', 400, 600);
  const wide = await framed.frame.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  assert.ok(wide[0] <= wide[1], `the 400 px frame scrolls sideways: ${wide}`);
  assert.deepEqual(framed.errors, []);
  await framed.page.close();
});

test('the default view in a 400 × 600 frame still draws its nodes at the end of both runs', async () => {
  const { page, frame, errors } = await openFramed('?embed=1&play=0', 400, 600);
  const mode = () => frame.evaluate(() => window.routesim.view.mode);
  assert.equal(await mode(), 'dots');
  await frame.locator('[data-role="finish"]').click();
  await frame.waitForFunction(() => document.querySelector('[data-role="status"]').textContent.trim() === 'finished', null, { timeout: 20000 });
  await frame.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  assert.equal(await mode(), 'dots', 'at the end the canvases fell to a heat map');
  const fits = await frame.evaluate(() => document.documentElement.scrollHeight <= document.documentElement.clientHeight + 1);
  assert.ok(fits, 'the frame scrolls');
  await page.screenshot({ path: path.join(shots, 'embed-default-end.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a lesson that asks for a guess fits a 400 × 600 frame, and a run finished without a guess says so', async () => {
  const { page, frame, errors } = await openFramed('?embed=1&lesson=bitonic-vs-flashsort', 400, 600);
  const fits = () => frame.evaluate(() => [document.documentElement.scrollHeight, document.documentElement.clientHeight]);
  let [scroll, client] = await fits();
  assert.ok(scroll <= client + 1, `the frame scrolls: ${scroll} > ${client}`);
  assert.ok(await frame.locator('[data-role="predict-submit"]').isVisible());
  const wider = (await overflowing(frame)).filter((line) => /scrolls sideways|sticks out|clips/.test(line));
  assert.deepEqual(wider, []);
  await frame.locator('[data-role="finish"]').click();
  await frame.waitForFunction(() => document.querySelector('[data-role="status"]').textContent.trim() === 'finished', null, { timeout: 30000 });
  assert.match(await frame.locator('[data-role="predict-result"]').innerText(), /over without a guess/);
  [scroll, client] = await fits();
  assert.ok(scroll <= client + 1, `at the end the frame scrolls: ${scroll} > ${client}`);
  await page.screenshot({ path: path.join(shots, 'embed-predict-lesson.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

// An audit found three lessons taller than a 400 × 600 frame once over
// (625–654 px: the predict box's two lines at the end, a wrapped verdict):
// every lesson must fit one, at its start and at its end.
test('every lesson fits a 400 × 600 frame at its start and at its end', async () => {
  // The lessons as the page's menu lists them.
  const menu = await openFramed('?embed=1', 400, 600);
  const ids = await menu.frame.evaluate(() => [...document.querySelectorAll('#lesson option')].map((o) => o.value).filter(Boolean));
  await menu.page.close();
  assert.ok(ids.length >= 20, `lessons read: ${ids.length}`);
  const tall = [];
  for (const id of ids) {
    const { page, frame, errors } = await openFramed(`?embed=1&lesson=${id}`, 400, 600);
    const size = () => frame.evaluate(() => [document.documentElement.scrollHeight, document.documentElement.clientHeight,
      document.documentElement.scrollWidth, document.documentElement.clientWidth]);
    // The panel is redrawn at most four times a second and the canvas refits after it: given 3 s to settle.
    const check = async (when) => {
      const fits = () => {
        const d = document.documentElement;
        return d.scrollHeight <= d.clientHeight + 1 && d.scrollWidth <= d.clientWidth + 1;
      };
      if (await frame.waitForFunction(fits, null, { timeout: 3000 }).then(() => true, () => false)) return;
      const [h, ch, w, cw] = await size();
      tall.push(`${id} at its ${when}: ${w} × ${h} in ${cw} × ${ch}`);
      await page.screenshot({ path: path.join(shots, `too-tall-${id}-${when}.png`) });
    };
    await check('start');
    await frame.locator('[data-role="finish"]').click();
    await frame.waitForFunction(() => ['finished', 'stalled'].includes(document.querySelector('[data-role="status"]').textContent.trim()), null, { timeout: 60000 });
    await check('end');
    assert.deepEqual(errors, [], id);
    await page.close();
  }
  assert.deepEqual(tall, []);
});

// An audit: beside a longer run, a run over at step 15 kept its last
// step's lit links at step 32 under "packet on a link this step".
test('two runs beside each other: the one that is over lights no link at the steps after its end', async () => {
  const { page, errors } = await open('?play=0');
  const litPixels = () => page.evaluate(() => {
    const c = document.getElementById('network');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    // PALETTE.lit, #334155, as drawn (anti-aliased edges aside).
    for (let i = 0; i < d.length; i += 4) if (d[i] === 0x33 && d[i + 1] === 0x41 && d[i + 2] === 0x55) n++;
    return n;
  });
  for (let i = 0; i < 5; i++) await page.click('#step');
  await frames(page);
  assert.ok((await litPixels()) > 0, 'greedy lights links while it runs');
  await page.locator('[data-role="finish"]').click();
  await page.waitForFunction(() => document.querySelector('[data-role="status"]').textContent.trim() === 'finished', null, { timeout: 20000 });
  await frames(page);
  const steps = await page.evaluate(() => [window.routesim.snapshot.step, Number(document.getElementById('c-step').textContent)]);
  assert.ok(steps[0] < steps[1], `the main run should end first: ${steps}`);
  assert.equal(await litPixels(), 0, `greedy, over at step ${steps[0]}, still lights links at step ${steps[1]}`);
  assert.deepEqual(errors, []);
  await page.close();
});

// An audit: three bad URL parameters in a 400 × 600 frame stacked three
// two-line messages over the canvas, and the frame scrolled with its
// claims below the fold. Embedded, each message is one line that names
// its parameter first (its whole text on a click), and a lesson's check
// lines lead with their figures, so that the ellipsis cuts the claim's
// name, never its number.
test('a 400 × 600 frame with bad URL parameters keeps its claims in view; check lines lead with their figures', async () => {
  const { page, frame, errors } = await openFramed('?embed=1&topology=mesh:8x8&algorithm=greedy&workload=transpose&q=0&speed=fast&color=rainbow', 400, 600);
  const messages = await frame.locator('[data-role="error"] .msg > span').allInnerTexts();
  assert.equal(messages.length, 3, JSON.stringify(messages));
  for (const [i, key] of ['q', 'speed', 'color'].entries()) assert.ok(messages.some((m) => m.startsWith(`URL parameter ${key}=`)), `${key}: ${messages[i]}`);
  const fits = () => {
    const d = document.documentElement;
    return d.scrollHeight <= d.clientHeight + 1;
  };
  assert.ok(await frame.waitForFunction(fits, null, { timeout: 3000 }).then(() => true, () => false), 'the frame scrolls');
  const [claims, height] = await frame.evaluate(() => [[...document.querySelectorAll('[data-role="claim"]')].map((c) => c.getBoundingClientRect().bottom), window.innerHeight]);
  assert.ok(claims.length > 0 && claims.every((b) => b <= height), `claims below the frame (${height}): ${claims}`);
  // A click shows a message whole.
  const one = frame.locator('[data-role="error"] .msg > span').first();
  // Its height in font sizes: under 2 is one line.
  const ems = async () => one.evaluate((el) => el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).fontSize));
  assert.ok((await ems()) < 2, `a message of ${await ems()} em`);
  await one.click();
  assert.ok((await ems()) > 2, 'the clicked message is still one line');
  await page.screenshot({ path: path.join(shots, 'embed-bad-params.png') });
  assert.deepEqual(errors, []);
  await page.close();

  const lesson = await openFramed('?embed=1&lesson=bitonic-vs-flashsort&play=0&step=1000000', 400, 600);
  await lesson.frame.waitForFunction(() => document.querySelector('[data-role="status"]').textContent.trim() === 'finished', null, { timeout: 30000 });
  const shorts = await lesson.frame.evaluate(() => [...document.querySelectorAll('[data-role="lesson-check"] .x-check-short')]
    .filter((el) => el.checkVisibility()).map((el) => el.textContent));
  assert.ok(shorts.length > 0, 'no short check line shown');
  for (const s of shorts) assert.match(s, /^(measured|so far|\d|all|every|exactly|[^·]*\d[^·]*[✓✗]) ?[^·]*· /, s);
  await lesson.page.screenshot({ path: path.join(shots, 'embed-check-lines.png') });
  assert.deepEqual(lesson.errors, []);
  await lesson.page.close();
});

test('1280×800: a lesson that checks many claims keeps its verdict and first check line in view (its "what" held to three lines)', async () => {
  const { page, errors } = await open('?lesson=ks-smear', { viewport: { width: 1280, height: 800 } });
  await page.locator('[data-role="finish"]').click();
  await page.waitForFunction(() => document.querySelector('[data-role="status"]').textContent.trim() === 'finished', null, { timeout: 60000 });
  const seen = await page.evaluate(() => {
    const check = document.querySelector('[data-role="lesson-check"]');
    const box = check.closest('.explain').getBoundingClientRect();
    const verdict = check.querySelector('.x-check-title .x-verdict').getBoundingClientRect();
    const first = check.querySelector('li').getBoundingClientRect();
    const what = check.querySelector('.x-check-what');
    return { box: box.toJSON(), verdict: verdict.toJSON(), first: first.toJSON(), lines: Math.round(what.getBoundingClientRect().height / parseFloat(getComputedStyle(what).lineHeight)), full: what.title.length };
  });
  assert.ok(seen.full > 300, `the lesson checks few claims (${seen.full} characters): not the case this test is for`);
  assert.ok(seen.lines <= 3, `the check's "what" takes ${seen.lines} lines`);
  assert.ok(seen.verdict.bottom <= seen.box.bottom && seen.first.top < seen.box.bottom - 20, JSON.stringify(seen));
  assert.deepEqual(errors, []);
  await page.close();
});

test('a butterfly too tall for a 400 × 600 frame lies across it and draws every node (lmrr-butterfly: its ghosts), and keeps its usual drawing at 1280', async () => {
  const { page, frame, errors } = await openFramed('?embed=1&lesson=lmrr-butterfly&play=0&step=4', 400, 600);
  const framed = await frame.evaluate(() => ({ mode: window.routesim.view.mode, shape: window.routesim.lay.shape, ghost: !!document.querySelector('[data-role="legend"] [data-mark="ghost"]:not([hidden])') }));
  assert.equal(framed.mode, 'dots', JSON.stringify(framed));
  assert.equal(framed.shape?.across, true, JSON.stringify(framed));
  assert.ok(framed.ghost, 'the legend does not name the ghosts the canvas draws');
  // Level 0's row r lies left of row r + 1, level 1 below level 0.
  const order = await frame.evaluate(() => { const { x, y } = window.routesim.lay; const rows = 32; return [x[0] < x[1], y[0] < y[rows], x[0] === x[rows]]; });
  assert.deepEqual(order, [true, true, true]);
  // The canvas keeps its drawing's aspect (SPEC §7).
  const c = await frame.locator('[data-role="network"]').evaluate((el) => [el.getBoundingClientRect().width / el.getBoundingClientRect().height, el.width / el.height]);
  assert.ok(Math.abs(c[0] / c[1] - 1) <= 0.02, JSON.stringify(c));
  assert.deepEqual(errors, []);
  await page.close();
  const wide = await open('?lesson=lmrr-butterfly&play=0&step=4', { viewport: { width: 1280, height: 800 } });
  assert.equal(await wide.page.evaluate(() => window.routesim.lay.shape), null);
  assert.deepEqual(wide.errors, []);
  await wide.page.close();
});
