// End-to-end tests of the experiment section (audit): the ticked
// algorithms follow the run's algorithm as it changes (the core's preset:
// the run's own first); the PNG export wraps its caption and legends
// within the image and draws each swatch with its series' dash; the
// "Ratio to" menu and the ratio chart name the diameter's formula for the
// network at hand. At 1280×800 and 390×844.
// Run: node --test tests/e2e/experiment.test.mjs (after ./build.sh).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { shots, openPage } from './harness.mjs';

const ticked = (page) => page.locator('#sweep-algorithms input:checked').evaluateAll((els) => els.map((e) => e.value));

test('the experiment ticks the run\'s algorithm after every change of it, as the core\'s preset says', async () => {
  const { page, errors } = await openPage('?topology=mesh:16x16&workload=random-permutation&algorithm=greedy&play=0');
  assert.equal((await ticked(page))[0], 'greedy');
  for (const algorithm of ['pp-rand', 'rand-interval', 'lmrr']) {
    await page.selectOption('#algorithm', algorithm);
    await page.waitForFunction((a) => document.getElementById('algorithm').value === a, algorithm);
    const now = await ticked(page);
    assert.ok(now.includes(algorithm), `${algorithm} chosen, the experiment ticks ${now}`);
    assert.ok(now.length <= 4, `${now.length} ticked`);
    // The same ticks as opening the address with this algorithm (the core's preset: the run's own first).
    const fresh = await openPage(`?topology=mesh:16x16&workload=random-permutation&algorithm=${algorithm}&play=0`);
    assert.deepEqual(now, await ticked(fresh.page), `${algorithm}: ticks after the change differ from the address's`);
    assert.deepEqual(fresh.errors, []);
    await fresh.page.close();
  }
  // A box ticked by hand stays ticked while the algorithm does not change (another seed).
  await page.check('#sweep-algorithms input[value="greedy"]');
  const before = await ticked(page);
  await page.fill('#seed', '9');
  await page.locator('#seed').dispatchEvent('change', { bubbles: true });
  await page.waitForFunction(() => /seed 9/.test(document.getElementById('run-values').textContent));
  assert.deepEqual(await ticked(page), before, 'a seed change reset the hand-ticked boxes');
  assert.deepEqual(errors, []);
  await page.close();
});

/**
 * Records, on canvases not in the document (the PNG export's), every
 * fillText (text, x, y, its measured width and the font's size, the
 * canvas's size) and every stroke (colour, dash), in order.
 */
function recordExport(page) {
  return page.evaluate(() => {
    window.drawn = [];
    const proto = CanvasRenderingContext2D.prototype;
    const { fillText, stroke } = proto;
    proto.fillText = function (text, x, y, ...rest) {
      if (!this.canvas.isConnected) {
        const m = this.measureText(text);
        window.drawn.push({
          op: 'text', text: String(text), x, y, width: m.width, ascent: m.actualBoundingBoxAscent, descent: m.actualBoundingBoxDescent,
          align: this.textAlign, canvas: [this.canvas.width, this.canvas.height],
        });
      }
      return fillText.call(this, text, x, y, ...rest);
    };
    proto.stroke = function (...args) {
      if (!this.canvas.isConnected) window.drawn.push({ op: 'stroke', colour: this.strokeStyle, dash: this.getLineDash(), canvas: [this.canvas.width, this.canvas.height] });
      return stroke.apply(this, args);
    };
  });
}

/** A PNG file's width and height (its IHDR chunk). */
const pngSize = (bytes) => [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];

for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  test(`${viewport.width}×${viewport.height}: the PNG export's caption and legends are within the image, every swatch dashed as its series`, async () => {
    const { page, errors } = await openPage('?topology=mesh:8x8&workload=random-permutation&algorithm=greedy&play=0', viewport);
    if (!(await page.locator('#setup-fold').evaluate((d) => d.open))) await page.locator('#setup-fold > summary').click();
    await page.fill('#sweep-values', '4,8');
    await page.fill('#sweep-seeds', '1');
    for (const box of await page.locator('#sweep-algorithms input:not([disabled])').all()) await box.check();
    const algorithms = await ticked(page);
    assert.ok(algorithms.length >= 10, `only ${algorithms} can run`);
    await page.click('#sweep-run');
    await page.waitForFunction(() => /done/.test(document.getElementById('sweep-status').textContent), null, { timeout: 120000 });
    await recordExport(page);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-png')]);
    const file = path.join(shots, `experiment-export-${viewport.width}.png`);
    await download.saveAs(file);
    const [width, height] = pngSize(await readFile(file));
    const drawn = await page.evaluate(() => window.drawn);
    const texts = drawn.filter((d) => d.op === 'text');
    assert.ok(texts.length > 0, 'nothing drawn');
    for (const t of texts) {
      assert.deepEqual(t.canvas, [width, height], 'drawn on another canvas than the PNG\'s');
      const left = t.align === 'center' ? t.x - t.width / 2 : t.align === 'right' || t.align === 'end' ? t.x - t.width : t.x;
      assert.ok(left >= 0 && left + t.width <= width + 0.5, `"${t.text}" spans x ${left}–${left + t.width} on a ${width} px image`);
      assert.ok(t.y - t.ascent >= 0 && t.y + t.descent <= height, `"${t.text}" at y ${t.y} on a ${height} px image`);
    }
    // The caption, in one or more lines, says the whole experiment.
    const titles = await page.evaluate(() => window.routesim.experiment.charts.charts().map((c) => c.root.querySelector('.u-title').textContent));
    const firstTitle = texts.findIndex((t) => titles[0].startsWith(t.text));
    assert.ok(firstTitle > 0, 'no caption before the first title');
    const caption = texts.slice(0, firstTitle).map((t) => t.text).join(' ');
    assert.match(caption, /^routesim experiment on mesh:8x8: size in 4,8, workload random-permutation, policy .*, 1 seed\(s\) from \d+$/);
    // Each chart's legend names every series, each after a swatch with the series' colour and dash.
    let at = firstTitle;
    for (const [i, name] of ['steps', 'ratio', 'queue'].entries()) {
      const { series, styles } = await page.evaluate((n) => window.routesim.charts[n], name);
      // The title, in one line or more.
      const title = [];
      while (title.join(' ') !== titles[i]) {
        const next = drawn[at++];
        assert.ok(next?.op === 'text' && titles[i].startsWith([...title, next.text].join(' ')), `${name}: title "${titles[i]}" not drawn whole`);
        title.push(next.text);
      }
      for (const [j, label] of series.slice(1).entries()) {
        while (at < drawn.length && !(drawn[at].op === 'text' && drawn[at].text === label)) at++;
        assert.ok(at < drawn.length, `${name}: "${label}" is not in the legend`);
        const swatch = drawn.slice(0, at).findLast((d) => d.op === 'stroke');
        assert.ok(swatch, `${name}: no swatch for ${label}`);
        assert.equal(swatch.colour.toLowerCase(), styles[j].stroke.toLowerCase(), `${name}: ${label}'s swatch colour`);
        assert.deepEqual(swatch.dash, styles[j].dash, `${name}: ${label}'s swatch dash`);
        at++;
      }
    }
    assert.deepEqual(errors, []);
    await page.close();
  });
}

/** The "Ratio to" menu's diameter entry, the ratio chart's title and its y axis's label. */
const diameterText = (page) => page.evaluate(() => {
  const plot = window.routesim.experiment.charts.charts()[1];
  return {
    menu: document.querySelector('#sweep-ratio-ref option[value="diameter"]').textContent,
    title: plot.root.querySelector('.u-title').textContent,
    axis: plot.axes[1].label,
  };
});

test('the "Ratio to" menu and the ratio chart name the diameter of the network at hand', async () => {
  const formulas = [
    ['mesh:16x16', '2n − 2', 'an n×n mesh'],
    ['mesh:4x4x4', '3n − 3', 'an n×n×n mesh'],
    ['torus:8x8', '2⌊n/2⌋', 'an n×n torus'],
    ['linear:16', 'N − 1', 'a linear array of N nodes'],
    ['ring:16', '⌊N/2⌋', 'a ring of N nodes'],
    ['hypercube:4', 'D', 'a D-dimensional hypercube'],
    ['butterfly:3', '2D', 'a butterfly of dimension D'],
    ['shuffle-exchange:4', '2D − 1', 'a shuffle-exchange graph of dimension D'],
  ];
  for (const [topology, formula, network] of formulas) {
    const { page, errors } = await openPage(`?topology=${topology}&workload=random-permutation&play=0`);
    await page.selectOption('#sweep-ratio-ref', 'diameter');
    const shown = await diameterText(page);
    assert.deepEqual(shown, {
      menu: `diameter (${formula})`,
      title: `Ratio steps / diameter (${formula} on ${network})`,
      axis: `steps / diameter (${formula})`,
    }, topology);
    assert.deepEqual(errors, []);
    await page.close();
  }
  // Following the network as it changes, and the sweep's own after it ran: varying ℓ = k on an 8×16 mesh keeps its sides.
  const { page, errors } = await openPage('?topology=mesh:8x16&workload=random-permutation&algorithm=greedy&play=0');
  await page.selectOption('#sweep-ratio-ref', 'diameter');
  assert.deepEqual(await diameterText(page), {
    menu: 'diameter (2n − 2)', title: 'Ratio steps / diameter (2n − 2 on an n×n mesh)', axis: 'steps / diameter (2n − 2)',
  }, 'a size sweep makes the mesh square');
  await page.selectOption('#sweep-vary', 'lk');
  assert.deepEqual(await diameterText(page), {
    menu: 'diameter (R + C − 2)', title: 'Ratio steps / diameter (R + C − 2 on an R×C mesh)', axis: 'steps / diameter (R + C − 2)',
  });
  await page.fill('#sweep-values', '1,2');
  await page.fill('#sweep-seeds', '1');
  for (const box of await page.locator('#sweep-algorithms input:not([disabled])').all()) await box.setChecked((await box.getAttribute('value')) === 'greedy');
  await page.click('#sweep-run');
  await page.waitForFunction(() => /done/.test(document.getElementById('sweep-status').textContent), null, { timeout: 60000 });
  // Greedy on a mesh routes within its diameter: the ratio is at most 1.
  const ratios = await page.evaluate(() => [...window.routesim.charts.ratio.data[1]]);
  assert.ok(ratios.every((r) => r > 0 && r <= 1), `greedy steps / diameter: ${ratios}`);
  await page.selectOption('[data-role="topology-kind"]', 'hypercube');
  await page.waitForFunction(() => document.querySelector('#sweep-ratio-ref option[value="diameter"]').textContent === 'diameter (D)');
  assert.equal((await diameterText(page)).title, 'Ratio steps / diameter (R + C − 2 on an R×C mesh)', 'the chart drawn is the mesh\'s');
  await page.locator('#experiment').screenshot({ path: path.join(shots, 'experiment-diameter.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('on butterflies, hypercubes and shuffle-exchange graphs the ratio can be to D and D² (the sorting lesson\'s growths)', async () => {
  const { page, errors } = await openPage('?topology=butterfly:3&workload=sort-random&algorithm=bitonic&play=0');
  const logOptions = () => page.evaluate(() => [...document.querySelectorAll('#sweep-ratio-ref option[data-log]')]
    .map((o) => ({ value: o.value, offered: !o.hidden && !o.disabled })));
  assert.deepEqual(await logOptions(), [{ value: 'log', offered: true }, { value: 'log2', offered: true }]);
  await page.fill('#sweep-values', '3,4,5');
  await page.fill('#sweep-seeds', '1');
  for (const box of await page.locator('#sweep-algorithms input:not([disabled])').all()) await box.setChecked((await box.getAttribute('value')) === 'bitonic');
  await page.click('#sweep-run');
  await page.waitForFunction(() => /done/.test(document.getElementById('sweep-status').textContent), null, { timeout: 60000 });
  // x is N = (D + 1)·2^D nodes of butterfly:D: D = 3, 4, 5.
  const D = { 32: 3, 80: 4, 192: 5 };
  for (const [ref, power, title, axis] of [
    ['log', 1, 'Ratio steps / D (dimension; flat for O(log N))', 'steps / D'],
    ['log2', 2, 'Ratio steps / D² (flat for O(log² N))', 'steps / D²'],
  ]) {
    await page.selectOption('#sweep-ratio-ref', ref);
    const shown = await page.evaluate(() => {
      const plot = window.routesim.experiment.charts.charts()[1];
      const { steps, ratio } = window.routesim.charts;
      return { steps: steps.data.map((c) => [...c]), ratio: ratio.data.map((c) => [...c]), title: plot.root.querySelector('.u-title').textContent, axis: plot.axes[1].label };
    });
    assert.deepEqual([shown.title, shown.axis], [title, axis]);
    assert.deepEqual(shown.ratio[0], [32, 80, 192]);
    shown.ratio[0].forEach((x, i) => {
      const steps = shown.steps[3][i];
      assert.ok(Math.abs(shown.ratio[1][i] - steps / D[x] ** power) < 1e-9, `${ref} at D = ${D[x]}: ${shown.ratio[1][i]} against ${steps} steps`);
    });
  }
  // Bitonic's steps / D² falls toward a constant: no rise from D = 4 to 5.
  const r = await page.evaluate(() => [...window.routesim.charts.ratio.data[1]]);
  assert.ok(r[2] <= r[1], `bitonic steps / D²: ${r}`);
  // A mesh has no D = log₂ N: the choices go, and the menu falls back to √(ℓkN).
  await page.selectOption('[data-role="topology-kind"]', 'mesh');
  await page.waitForFunction(() => document.querySelector('#sweep-ratio-ref option[value="diameter"]').textContent === 'diameter (2n − 2)');
  await page.fill('#sweep-values', '4');
  for (const box of await page.locator('#sweep-algorithms input:not([disabled])').all()) await box.setChecked((await box.getAttribute('value')) === 'snake-sort');
  await page.click('#sweep-run');
  await page.waitForFunction(() => /done/.test(document.getElementById('sweep-status').textContent), null, { timeout: 60000 });
  assert.deepEqual(await logOptions(), [{ value: 'log', offered: false }, { value: 'log2', offered: false }]);
  assert.equal(await page.inputValue('#sweep-ratio-ref'), 'sqrt');
  assert.deepEqual(errors, []);
  await page.close();
});
