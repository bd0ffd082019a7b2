// One palette per run (issue 25, problems 1 and 7): the legend's classes
// (`data-role="legend-class"`, `data-colour`) are the colours the network
// canvases draw, read from their pixels; every colour word of the explain
// panel and the lesson names a legend class whose colour lies in the
// word's SPEC §7 hue range; no class colour is the lit links', the control
// messages' or the queue heat fill's. And the default view's first words:
// the fixed points said and counted as delivered, the lower bound in
// plain words. At 1280×800, 390×844 and in a 400 px iframe.
// Run: node --test tests/e2e/palette.test.mjs (after ./build.sh).

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { openPage, embedPage } from './harness.mjs';

const RUNS = {
  ks: '?lesson=ks-wrap-torus&play=0&step=40',
  pp: '?topology=mesh:16x16&algorithm=pp-rand&workload=random-lk&l=2&k=2&play=0&step=120',
  lmrr: '?lesson=lmrr-butterfly&play=0&step=4',
  default: '?play=0',
};
const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

/** SPEC §7's colour words as hue ranges (HSL, saturation ≥ 40 %). */
const HUES = { red: [[340, 360], [0, 15]], orange: [[15, 45]], yellow: [[45, 70]], green: [[80, 170]], blue: [[190, 260]], purple: [[260, 300]] };

function hsl([r, g, b]) {
  [r, g, b] = [r / 255, g / 255, b / 255];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  const d = max - min;
  if (d === 0) return [0, 0, l];
  const s = d / (1 - Math.abs(2 * l - 1));
  const h = max === r ? 60 * (((g - b) / d + 6) % 6) : max === g ? 60 * ((b - r) / d + 2) : 60 * ((r - g) / d + 4);
  return [h, s, l];
}
const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
const inRange = (word, hex) => {
  const [h, s] = hsl(rgb(hex));
  return s >= 0.4 && HUES[word].some(([a, b]) => h >= a && h < b);
};
const distance = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

/** What the page (or frame) shows: the legend's classes, the texts, the canvases' colours, the other marks' colours. */
async function read(ctx) {
  return ctx.evaluate(async () => {
    const { heat } = await import('./render.js');
    const hex = (r, g, b) => `#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
    const canvases = [...document.querySelectorAll('[data-role="network"]')].filter((c) => c.offsetParent !== null).map((c) => {
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      const seen = {};
      for (let i = 0; i < d.length; i += 4) {
        const k = hex(d[i], d[i + 1], d[i + 2]);
        seen[k] = (seen[k] ?? 0) + 1;
      }
      return seen;
    });
    const css = getComputedStyle(document.documentElement);
    const heatColours = [];
    for (let q = 1; q <= 20; q++) heatColours.push(heat(q, 20).match(/\d+/g).map(Number));
    return {
      classes: [...document.querySelectorAll('[data-role="legend"] [data-role="legend-class"]')]
        .map((e) => ({ colour: e.dataset.colour, text: e.textContent.trim(), run: e.dataset.run })),
      text: `${document.querySelector('[data-role="explain"]')?.textContent ?? ''}`,
      rimSwatches: document.querySelectorAll('[data-role="legend"] [data-role="legend-class"] .swatch.rim').length,
      heatLine: document.getElementById('legend-heat-text')?.textContent ?? '',
      canvases,
      lit: css.getPropertyValue('--lit').trim(),
      control: css.getPropertyValue('--control').trim(),
      heat: heatColours,
    };
  });
}

/** Waits until the shown step is `step` and the legend lists a class. */
async function settle(ctx, step) {
  await ctx.waitForFunction((s) => document.querySelector('[data-role="step-count"]').textContent === String(s)
    && document.querySelectorAll('[data-role="legend-class"]').length > 0, step, { timeout: 30000 });
  await ctx.waitForTimeout(400);
}

function checkPalette(name, shown) {
  assert.ok(shown.classes.length > 0, `${name}: the legend lists no class`);
  for (const c of shown.classes) {
    assert.match(c.colour, /^#[0-9a-f]{6}$/, `${name}: ${c.text}`);
    // The canvas draws each listed class in exactly its legend colour (at least a few pixels).
    const run = Number(c.run ?? 0);
    const canvas = shown.canvases[run] ?? shown.canvases[0];
    assert.ok((canvas[c.colour] ?? 0) >= 3, `${name}: ${c.text} (${c.colour}) is not on canvas ${run}`);
    // The class is named with its colour word ("blue: colour class 0").
    assert.match(c.text, /^[a-z ]+: /, `${name}: ${c.text}`);
    const [r, g, b] = rgb(c.colour);
    assert.ok(distance([r, g, b], rgb(shown.lit)) > 60, `${name}: ${c.colour} is the lit links' ${shown.lit}`);
    assert.ok(distance([r, g, b], rgb(shown.control)) > 60, `${name}: ${c.colour} is the control messages' ${shown.control}`);
    for (const h of shown.heat) assert.ok(distance([r, g, b], h) > 60, `${name}: ${c.colour} is a heat colour ${h}`);
    for (const word of ['red', 'orange', 'yellow', 'purple']) assert.ok(!inRange(word, c.colour), `${name}: ${c.colour} reads as ${word}`);
  }
  // Every colour word of the explain panel and the lesson names a legend class drawn in that hue.
  const words = new Set((shown.text.match(/\b(red|orange|yellow|green|blue|purple)\b/gi) ?? []).map((w) => w.toLowerCase()));
  for (const word of words) {
    const named = shown.classes.filter((c) => new RegExp(`\\b${word}\\b`).test(c.text));
    assert.ok(named.length > 0, `${name}: the text says "${word}" but no legend class does (${shown.classes.map((c) => c.text)})`);
    for (const c of named) assert.ok(inRange(word, c.colour), `${name}: ${c.text} is ${c.colour}, not a ${word}`);
  }
  return words;
}

for (const [vp, viewport] of Object.entries(VIEWPORTS)) {
  test(`the legend's classes are the canvas's colours and the texts' words (${vp})`, async () => {
    for (const [name, query] of Object.entries(RUNS)) {
      const { page, errors } = await openPage(query, viewport);
      const step = Number(/step=(\d+)/.exec(query)?.[1] ?? 0);
      await settle(page, step);
      const shown = await read(page);
      const words = checkPalette(`${name} ${vp}`, shown);
      if (name === 'ks') {
        // Both Kaufmann–Sibeyn colours are drawn, named and said.
        const ks = shown.classes.filter((c) => c.run === '0').map((c) => c.text);
        assert.deepEqual(ks, ['blue: colour class 0', 'green: colour class 1']);
        assert.ok(words.has('blue') && words.has('green'), [...words].join());
      }
      if (name === 'pp') assert.ok(shown.classes.length > 1, shown.classes.map((c) => c.text).join());
      assert.deepEqual(errors, []);
      await page.close();
    }
  });
}

test('in a 400 px iframe the legend is the canvas colours too', async () => {
  for (const name of ['ks', 'default']) {
    const { page, frame, errors } = await embedPage(`${RUNS[name]}&embed=1`, { width: 400, height: 760 });
    await settle(frame, Number(/step=(\d+)/.exec(RUNS[name])?.[1] ?? 0));
    checkPalette(`${name} iframe`, await read(frame));
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('coloured by destination, the legend lists no packet class', async () => {
  const { page, errors } = await openPage('?topology=mesh:8x8&algorithm=greedy&color=destination&play=0');
  await page.waitForTimeout(600);
  assert.equal(await page.locator('[data-role="legend-class"]').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('coloured by destination, classes named by colour stay on screen as rims (page, phone, iframe)', async () => {
  // ks-wrap's text says "blue packet" / "green packets": coloured by
  // destination, each packet keeps its class as a rim of that colour and
  // the legend lists the rims (SPEC §7's colour words).
  const query = `${RUNS.ks}&color=destination`;
  const opened = [
    ...Object.entries(VIEWPORTS).map(([vp, viewport]) => openPage(query, viewport).then((o) => ({ ...o, ctx: o.page, name: vp }))),
    embedPage(`${query}&embed=1`, { width: 400, height: 760 }).then((o) => ({ ...o, ctx: o.frame, name: 'iframe' })),
  ];
  for (const { page, ctx, errors, name } of await Promise.all(opened)) {
    await settle(ctx, 40);
    const shown = await read(ctx);
    const words = checkPalette(`ks destination ${name}`, shown);
    // The lesson is zoomed out (cells, no dots): each cell's small square
    // is its packets' majority class, and the legend lists squares, not rims.
    assert.equal(await ctx.evaluate(() => window.routesim.view.mode), 'heat', name);
    assert.deepEqual(shown.classes.map((c) => c.text), ['blue: colour class 0', 'green: colour class 1'], name);
    assert.equal(shown.rimSwatches, 0, name);
    // (An embed leaves the square's line out for room: its legend's colours name the squares' classes.)
    if (name !== 'iframe') assert.match(shown.heatLine, /a cell's small square: the class most of its packets belong to/, name);
    assert.ok(words.has('blue') && words.has('green'), `${name}: ${[...words]}`);
    if (name !== 'iframe') assert.match(shown.text, /its rim is its class's colour/, name);
    assert.deepEqual(errors, []);
    await page.close();
  }
  // Zoomed in far enough for dots: each dot's rim in its class colour, and the legend lists rims.
  const { page, errors } = await openPage('?topology=torus:8x8&algorithm=ks-wrap&workload=point-reflection&k=2&color=destination&play=0&step=6');
  await settle(page, 6);
  const dots = await page.evaluate(() => Array.from(window.routesim.dots).filter((v) => !Number.isNaN(v)).length / 2);
  assert.ok(dots > 50, `${dots} dots drawn`);
  const shown = await read(page);
  checkPalette('ks-wrap torus:8x8 destination', shown);
  assert.deepEqual(shown.classes.map((c) => c.text), ['blue rim: colour class 0', 'green rim: colour class 1']);
  assert.equal(shown.rimSwatches, 2);
  assert.doesNotMatch(shown.heatLine, /small square/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the default view says its fixed points, counts them as delivered and puts the counters in words', async () => {
  for (const viewport of Object.values(VIEWPORTS)) {
    const { page, errors } = await openPage('?play=0', viewport);
    await settle(page, 0);
    const s = await page.evaluate(() => {
      const snap = window.routesim.sim.snapshot();
      const sources = window.routesim.sources;
      const destinations = window.routesim.destinations;
      let fixed = 0;
      for (let p = 0; p < sources.length; p++) if (sources[p] === destinations[p]) fixed++;
      return {
        fixed,
        delivered: snap.delivered,
        text: document.querySelector('[data-role="delivered"]').textContent,
        // The note beside the delivered counter shown: the main run's (in the compare view, each run's own).
        note: [...document.querySelectorAll('.c-note')].find((el) => el.getBoundingClientRect().height > 0)?.textContent ?? '',
        noteShown: [...document.querySelectorAll('.c-note')].some((el) => el.getBoundingClientRect().height > 0),
        bound: document.getElementById('c-bound').textContent,
      };
    });
    assert.ok(s.fixed > 0);
    assert.equal(s.delivered, s.fixed, 'the fixed points are the packets delivered at step 0');
    assert.ok(s.text.startsWith(`${s.fixed} / 256`), s.text);
    assert.equal(s.note, `${s.fixed} start at their destination`);
    assert.ok(s.noteShown, 'the fixed points note is not shown');
    assert.equal(s.bound, 'no algorithm can finish before step 15');
    // A readable packet: the moving packets' dots are at least 4 px across.
    const dots = await page.evaluate(() => {
      const d = window.routesim.dots;
      const pos = [];
      for (let p = 0; p < d.length / 2; p++) if (!Number.isNaN(d[2 * p])) pos.push([d[2 * p], d[2 * p + 1]]);
      return pos.length;
    });
    assert.ok(dots > 0 && dots <= 256 - s.fixed, `${dots} dots`);
    const blue = await page.evaluate(() => {
      const c = document.querySelector('[data-role="network"]');
      const colour = document.querySelector('[data-role="legend-class"]').dataset.colour;
      const [r, g, b] = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i] === r && d[i + 1] === g && d[i + 2] === b) n++;
      return n / (window.devicePixelRatio || 1) ** 2;
    });
    // 24 dots of at least 4 px across cover ≥ 24 · π · 2² ≈ 300 px² of the class colour.
    assert.ok(blue >= 24 * 9, `the dots cover only ${blue} px²`);
    await page.click('#finish');
    await page.waitForFunction(() => document.querySelector('[data-role="status"]').textContent === 'finished', null, { timeout: 30000 });
    // The bound, then each run by its algorithm: in the compare view both runs.
    const done = await page.evaluate(() => ({
      figure: document.querySelector('#c-bound .b-figure')?.textContent,
      bound: document.querySelector('#c-bound .b-words')?.textContent,
      steps: window.routesim.sim.report().steps,
      other: window.routesim.compare?.sim?.report().steps,
    }));
    const ratio = (n) => (n / 15).toFixed(2);
    const expected = done.other === undefined
      ? `greedy: ${done.steps} steps = ${ratio(done.steps)} ×`
      : `greedy: ${done.steps} steps = ${ratio(done.steps)} × · offline: ${done.other} steps = ${ratio(done.other)} ×`;
    assert.equal(done.figure, '15');
    assert.equal(done.bound, expected);
    assert.deepEqual(errors, []);
    await page.close();
  }
});
