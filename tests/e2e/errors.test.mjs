// End-to-end tests of issue #25's problems 9 and 10: errors where the user
// is (a URL banner cleared by the next valid change, a refused field's
// message beside it while the run on screen is named with the values it
// uses, a bad pasted instance reported beside the Load button) and
// readable sweeps (a small first selection, every series its own colour
// and dash, axes fitted to the data). At 1280×800, 390×844 and in a
// 400 px iframe. Run: node --test tests/e2e/errors.test.mjs (after ./build.sh).

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { openPage, embedPage } from './harness.mjs';

const PLACES = [
  { name: '1280×800', viewport: { width: 1280, height: 800 } },
  { name: '390×844', viewport: { width: 390, height: 844 } },
  { name: 'a 400 px iframe', frame: { width: 400, height: 760 } },
];

/**
 * Opens the page at `query` in `place`: `{page, at}` (`at`: the page or the frame to query), `errors`, and the
 * viewport's box. On a narrow screen Setup starts folded: the user unfolds it, as here, before editing a field.
 */
async function openAt(place, query) {
  const opened = place.frame ? await embedPage(query, place.frame) : await openPage(query, place.viewport);
  const at = opened.frame ?? opened.page;
  if (!(await at.locator('#setup-fold').evaluate((d) => d.open))) await at.locator('#setup-fold > summary').click();
  if (place.frame) {
    const box = await (await opened.page.$('iframe')).boundingBox();
    return { page: opened.page, at, errors: opened.errors, view: { x: box.x, y: box.y, width: box.width, height: box.height } };
  }
  return { page: opened.page, at, errors: opened.errors, view: { x: 0, y: 0, ...place.viewport } };
}

/** The text of the error line (SPEC §7: empty or hidden when there is no error). */
const errorLine = (at) => at.locator('[data-role="error"]').evaluate((el) => (el.hidden ? '' : el.textContent.trim()));

/** Types `value` into the box `selector` and leaves it (its `change` fires). */
async function edit(at, selector, value) {
  await at.locator(selector).fill(value);
  await at.locator(selector).dispatchEvent('change', { bubbles: true });
}

const within = (box, view) => box.x >= view.x - 1 && box.y >= view.y - 1
  && box.x + box.width <= view.x + view.width + 1 && box.y + box.height <= view.y + view.height + 1;

for (const place of PLACES) {
  test(`${place.name}: a bad URL parameter's banner is cleared by the next valid edit`, async () => {
    const { page, at, errors } = await openAt(place, '?topology=mesh:8x8&workload=random-permutation&q=abc&play=0');
    const banners = at.locator('.msg[data-source="url"]');
    assert.ok(await banners.count() >= 1, 'no banner for q=abc');
    assert.match(await banners.first().innerText(), /q/);
    await edit(at, '#seed', '5');
    await at.waitForFunction(() => document.querySelectorAll('.msg[data-source="url"]').length === 0, null, { timeout: 5000 });
    assert.equal(await errorLine(at), '', 'the error line still shows the URL parameter');
    assert.match(await at.locator('#run-values').innerText(), /seed 5/);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test(`${place.name}: a bad URL parameter's banner is cleared by choosing a second algorithm or a lesson`, async () => {
    for (const [menu, value] of [['#compare', 'offline'], ['#lesson', 'greedy-bounds']]) {
      const { page, at, errors } = await openAt(place, '?topology=mesh:8x8&workload=random-permutation&seed=zz&play=0');
      assert.ok(await at.locator('.msg[data-source="url"]').count() >= 1, 'no banner for seed=zz');
      await at.locator(menu).selectOption(value);
      await at.waitForFunction(() => document.querySelectorAll('.msg[data-source="url"]').length === 0, null, { timeout: 5000 });
      assert.equal(await errorLine(at), '', `${menu}: the error line still shows the URL parameter`);
      assert.deepEqual(errors, []);
      await page.close();
    }
  });

  test(`${place.name}: a refused field's message is beside it, and the run on screen is named with its values`, async () => {
    const { page, at, errors } = await openAt(place, '?topology=mesh:8x8&algorithm=greedy&workload=random-permutation&seed=3&play=0');
    assert.equal(await at.locator('#run-title').innerText(), 'greedy · mesh:8x8 · random-permutation');
    const values = await at.locator('#run-values').innerText();
    for (const part of ['ℓ = 1, k = 1', 'seed 3', 'q unbounded']) assert.ok(values.includes(part), `${part} not in ${values}`);
    assert.equal(await at.locator('#run-note').isVisible(), false, 'a note with every field valid');
    await edit(at, '#q', '0');
    const note = at.locator('#q-error');
    await note.waitFor({ state: 'visible', timeout: 5000 });
    assert.match(await note.innerText(), /q|queue/i);
    const q = at.locator('#q');
    assert.equal(await q.getAttribute('aria-invalid'), 'true');
    assert.equal(await q.getAttribute('aria-describedby'), 'q-error');
    // Beside the field: just under it, overlapping it horizontally.
    const [field, message] = [await q.boundingBox(), await note.boundingBox()];
    assert.ok(message.y >= field.y && message.y - (field.y + field.height) < 40, `message at ${message.y}, field ends at ${field.y + field.height}`);
    assert.ok(message.x < field.x + field.width && message.x + message.width > field.x - 200, 'the message is not beside the field');
    // The error line says it too (SPEC §7).
    assert.match(await errorLine(at), /q|queue/i);
    // The run on screen is the last valid one, and says so with its values.
    const shown = at.locator('#run-note');
    assert.ok(await shown.isVisible(), 'no note on the run shown');
    const text = await shown.innerText();
    assert.match(text, /last valid run/);
    for (const part of ['greedy · mesh:8x8', 'seed 3', 'q unbounded']) assert.ok(text.includes(part), `${part} not in ${text}`);
    assert.ok((await at.locator('#run-values').innerText()).includes('q unbounded'));
    // Another field's edit leaves the refused one marked, and that one only.
    await edit(at, '#seed', '4');
    assert.ok(await at.locator('#q-error').isVisible(), 'the refused field lost its message');
    assert.equal(await at.locator('#seed').getAttribute('aria-invalid'), null, 'the seed box is blamed for q');
    assert.equal(await at.locator('#seed-error').count(), 0);
    // A valid value runs, and the marks go.
    await edit(at, '#q', '4');
    await at.waitForFunction(() => document.getElementById('run-values').textContent.includes('q = 4'), null, { timeout: 5000 });
    assert.equal(await at.locator('#run-note').isVisible(), false);
    assert.equal(await at.locator('#q-error').count(), 0);
    assert.equal(await q.getAttribute('aria-invalid'), null);
    assert.equal(await errorLine(at), '');
    assert.deepEqual(errors, []);
    await page.close();
  });

  // One place: the refusal is the core's, shown as every refused field is (above).
  if (place === PLACES[0]) test(`${place.name}: a run over the page's memory budget is refused by name before it is allocated`, async () => {
    // Worms (flits 2) on hypercube:18 with k = 4: within the node and packet limits, over the byte budget.
    const { page, at, errors } = await openAt(place, '?topology=hypercube:8&algorithm=bit-fixing&workload=random-kk&k=4&flits=2&play=0');
    assert.equal(await at.locator('#run-title').innerText(), 'bit-fixing · hypercube:8 · random-kk');
    const started = Date.now();
    await edit(at, '#topology', 'hypercube:18');
    const note = at.locator('#topology-error');
    await note.waitFor({ state: 'visible', timeout: 5000 });
    assert.ok(Date.now() - started < 5000, 'the refusal took too long');
    const text = await note.innerText();
    assert.match(text, /topology hypercube:18: the run needs an estimated [\d.]+ GiB/);
    assert.match(text, /above the page's memory budget of 1\.0 GiB/);
    assert.match(await errorLine(at), /page's memory budget/);
    // The run on screen stays, and says it is the last valid one; the page still answers.
    assert.equal(await at.locator('#run-title').innerText(), 'bit-fixing · hypercube:8 · random-kk');
    assert.match(await at.locator('#run-note').innerText(), /last valid run/);
    await edit(at, '#topology', 'hypercube:9');
    await at.waitForFunction(() => document.getElementById('run-title').textContent.includes('hypercube:9'), null, { timeout: 5000 });
    assert.deepEqual(errors, []);
    await page.close();
  });

  // One place: an address over the budget falls back to the default network
  // and keeps the URL's algorithm; the switch its refused run forced is not
  // reported as made.
  if (place === PLACES[0]) test(`${place.name}: an address over the memory budget keeps its algorithm on the default network`, async () => {
    const { page, at, errors } = await openAt(place, '?topology=hypercube:18&workload=random-kk&k=4&flits=2&algorithm=greedy&play=0');
    assert.equal(await at.locator('#run-title').innerText(), 'greedy · mesh:16x16 · random-kk');
    assert.match(await errorLine(at), /URL parameter topology="hypercube:18" ignored: .*page's memory budget/);
    const infos = await at.locator('#messages .msg').allInnerTexts();
    assert.ok(!infos.some((m) => /switched to/.test(m)), `a switch reported: ${infos}`);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test(`${place.name}: a bad pasted instance is reported beside the Load button`, async () => {
    const { page, at, errors, view } = await openAt(place, '?topology=mesh:8x8&play=0');
    await at.locator('#instance-box > summary').click();
    await at.locator('#instance-text').fill('{"topology": "mesh:4x4", "packets": [[0, 99]]}');
    await at.locator('#load-instance').click();
    const note = at.locator('#instance-text-error');
    await note.waitFor({ state: 'visible', timeout: 5000 });
    assert.match(await note.innerText(), /Instance refused/);
    assert.match(await note.innerText(), /99/);
    const [button, message] = [await at.locator('#load-instance').boundingBox(), await note.boundingBox()];
    assert.ok(within(message, view), `the message (${JSON.stringify(message)}) is outside the viewport`);
    assert.ok(Math.abs(message.y - (button.y + button.height)) < 60, `message at ${message.y}, the button ends at ${button.y + button.height}`);
    assert.equal(await at.locator('#instance-text').getAttribute('aria-invalid'), 'true');
    assert.match(await errorLine(at), /Instance refused/);
    // A good instance loads and clears it.
    await at.locator('#instance-text').fill('{"topology": "mesh:4x4", "packets": [[0, 15], [15, 0]]}');
    await at.locator('#load-instance').click();
    await at.waitForFunction(() => document.getElementById('instance-text-error').hidden, null, { timeout: 5000 });
    assert.equal(await at.locator('#instance-text').getAttribute('aria-invalid'), null);
    assert.equal(await errorLine(at), '');
    // A refused text is history once another run builds: the error line
    // empties (it once kept "Instance refused" through later lessons).
    await at.locator('#instance-text').fill('not json');
    await at.locator('#load-instance').click();
    await note.waitFor({ state: 'visible', timeout: 5000 });
    assert.match(await errorLine(at), /Instance refused/);
    await edit(at, '#seed', '9');
    await at.waitForFunction(() => document.getElementById('run-values').textContent.includes('seed 9'), null, { timeout: 5000 });
    assert.equal(await errorLine(at), '');
    assert.deepEqual(errors, []);
    await page.close();
  });
}

/** Each experiment chart's series as uPlot draws them: label, colour, dash, width; the x scale and the data's largest x. */
const drawnCharts = (at) => at.evaluate(() => ['steps', 'ratio', 'queue'].map((name, i) => {
  const plot = window.routesim.experiment.charts.charts()[i];
  const series = plot.series.slice(1).map((s, j) => ({
    label: s.label,
    stroke: typeof s.stroke === 'function' ? s.stroke(plot, j + 1) : s.stroke,
    dash: JSON.stringify(s.dash ?? []),
    width: s.width,
  }));
  const xs = (plot.data[0] ?? []).filter((v) => v != null);
  return { name, series, published: window.routesim.charts[name].styles, xMax: plot.scales.x.max, xMin: plot.scales.x.min, dataMax: Math.max(...xs), dataMin: Math.min(...xs), log: plot.scales.x.distr === 3 };
}));

for (const place of PLACES) {
  test(`${place.name}: the default experiment ticks a few algorithms; every series its own colour and dash; axes fitted to the data`, async () => {
    const { page, at, errors } = await openAt(place, '');
    const ticked = await at.locator('#sweep-algorithms input:checked').evaluateAll((els) => els.map((e) => e.value));
    assert.ok(ticked.length >= 2 && ticked.length <= 4, `ticked: ${ticked}`);
    assert.ok(await at.locator('#sweep-algorithms input:not([disabled])').count() > ticked.length, 'the selection is not smaller than what can run');
    const algorithm = await at.locator('[data-role="algorithm"]').inputValue();
    assert.ok(ticked.includes(algorithm), `the run's algorithm ${algorithm} is not ticked: ${ticked}`);
    // Enough curves to reuse a colour under the old styles: tick every algorithm that can run.
    for (const box of await at.locator('#sweep-algorithms input:not([disabled])').all()) await box.check();
    await at.locator('#sweep-values').fill('4,8,16,32');
    await at.locator('#sweep-seeds').fill('1');
    await at.locator('#sweep-run').click();
    await at.waitForFunction(() => /done/.test(document.getElementById('sweep-status').textContent), null, { timeout: 120000 });
    // The x axis on a log scale too: it ends at the data's last x, not the next power of 10.
    if (!(await at.locator('input[data-log="steps"]').isChecked())) await at.locator('input[data-log="steps"]').check();
    for (const c of await drawnCharts(at)) {
      const pairs = c.series.map((s) => `${s.stroke} ${s.dash}`);
      assert.equal(new Set(pairs).size, pairs.length, `${c.name}: two series share colour and dash: ${pairs.join(' | ')}`);
      assert.deepEqual(c.published.map((s) => `${s.stroke} ${JSON.stringify(s.dash)}`), pairs, `${c.name}: published styles`);
      assert.ok(c.xMax <= 2 * c.dataMax && c.xMax >= c.dataMax, `${c.name}: x axis ends at ${c.xMax}, data at ${c.dataMax}`);
      assert.ok(c.xMin >= c.dataMin / 2 && c.xMin <= c.dataMin, `${c.name}: x axis starts at ${c.xMin}, data at ${c.dataMin}`);
      if (c.name === 'steps') {
        assert.ok(c.log, 'steps: x is not logarithmic (N from 16 to 1024)');
        const best = c.series.find((s) => s.label === 'best');
        const curves = c.series.filter((s) => !['best', '√(ℓkN)'].includes(s.label));
        assert.ok(curves.length >= 5, `steps: ${curves.length} curves`);
        assert.ok(curves.every((s) => s.width < best.width), 'best is not drawn wider than the curves');
        assert.ok(curves.every((s) => s.stroke !== best.stroke), 'a curve has best\'s colour');
      }
    }
    assert.deepEqual(errors, []);
    await page.close();
  });
}

// An audit: the core's switch made for a run the page then refused (too
// large) stayed in the error line beside the fall-back, contradicting the
// run on screen; and a form error named the field by its config key.
test('a switch made for a refused run goes with it, and a form error names the field as the page shows it', async () => {
  const { page, errors } = await openPage('?topology=hypercube:18&workload=random-kk&k=4&flits=2&algorithm=greedy');
  const lines = () => page.evaluate(() => [...document.querySelectorAll('#messages .msg, [data-role="error"]')].map((m) => m.textContent).join('\n'));
  const config = await page.evaluate(() => window.routesim.sim.config());
  assert.equal(config.topology, 'mesh:16x16');
  assert.equal(config.algorithm, 'greedy');
  assert.match(await lines(), /hypercube:18.*using mesh:16x16/s);
  assert.doesNotMatch(await lines(), /switched to bit-fixing/, 'the run on screen is greedy');
  // On a hypercube the switch stands, and is said.
  await page.goto(page.url().replace(/\?.*/, '?topology=hypercube:4&algorithm=greedy'));
  await page.waitForSelector('body[data-ready="1"]', { state: 'attached' });
  assert.match(await lines(), /switched to bit-fixing/);
  // The queue capacity is "q" on the page and in the address: its error says q.
  await page.fill('#q', '0');
  await page.press('#q', 'Enter');
  const note = page.locator('#q-error');
  await note.waitFor();
  assert.match(await note.innerText(), /invalid q '0'/);
  assert.doesNotMatch(await note.innerText(), /queue_cap/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a 5,000-character URL value is quoted shortened and the embed still shows its run; the refusal blames the parameter it names', async () => {
  const long = 'x'.repeat(5000);
  const { page, frame: at, errors } = await embedPage(`?embed=1&topology=mesh:8x8&algorithm=${long}&play=0`, { width: 400, height: 600 });
  const text = await errorLine(at);
  assert.match(text, /\(5000 characters\)/);
  assert.ok(text.length < 800, `the error line holds ${text.length} characters`);
  const top = await at.locator('canvas').first().evaluate((c) => c.getBoundingClientRect().top);
  assert.ok(top < 400, `the canvas starts ${top} px down the frame`);
  assert.deepEqual(errors, []);
  await page.close();
  // epsilon=9 cannot run on mesh:8x8: epsilon is blamed, the URL's network kept (it once blamed the topology).
  const opened = await openAt(PLACES[0], '?topology=mesh:8x8&algorithm=ks-level&workload=random-kk&k=2&epsilon=9&play=0');
  const line = (await opened.at.locator('.msg[data-source="url"]').allInnerTexts()).join('\n');
  assert.match(line, /URL parameter epsilon="9" ignored/);
  assert.equal(await opened.at.locator('#run-title').innerText(), 'ks-level · mesh:8x8 · random-kk');
  assert.deepEqual(opened.errors, []);
  await opened.page.close();
});
