// What the network canvas draws agrees with the run (audit of the drawing):
// - grids of 3 or more dimensions: a link is a wrap-around link exactly
//   when its coordinates differ by side − 1 along one axis of a torus; a
//   link between slices, lit, touches its two nodes and never reads as a
//   lit row or column link; no unused row or column link is lit;
// - the heat map's key says how many nodes its cells hold, as the cells
//   count them (not "2×2" on a butterfly, a ring or a hypercube);
// - lmrr's ghosts on a butterfly can each be told apart (they sat in the
//   middle of their links, where a row pair's cross edges cross each other
//   and the straight edge between them), and still on a mesh and a hypercube.
// The canvas is read pixel by pixel; single links are drawn alone with the
// page's own drawFrame on a scratch canvas of the same view.
// Run: node --test tests/e2e/drawing.test.mjs (after ./build.sh).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';

import { shots, server, browser, openPage, watchErrors } from './harness.mjs';

const grid = (topology, step) => `?topology=${topology}&algorithm=greedy&workload=random-permutation&play=0&step=${step}`;

/** Waits until the page shows step `step` (its snapshot) and has drawn it. */
async function settle(page, step) {
  await page.waitForFunction((s) => window.routesim.snapshot?.step === s && !!window.routesim.view, step, { timeout: 20000 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/**
 * Reads the drawing of a mesh or torus at the shown step: the links whose
 * wrap-around-ness the layout gets wrong; the row and column links used in
 * neither direction that read as lit on the canvas; and for each link
 * between slices used this step (wrap-around ones too), drawn alone:
 * whether it is drawn at all, touches each of its two nodes, and whether
 * some row or column link reads as lit in that drawing.
 */
function readGrid(page) {
  return page.evaluate(async () => {
    const { drawFrame } = await import('./render.js');
    const { lay, view, topo, snapshot } = window.routesim;
    const dims = [...topo.dims];
    const d = dims.length;
    const stride = [];
    for (let i = d - 1, acc = 1; i >= 0; acc *= dims[i], i--) stride[i] = acc;
    const coord = (v, i) => Math.floor(v / stride[i]) % dims[i];
    const axis = (a, b) => dims.findIndex((_, i) => coord(a, i) !== coord(b, i));
    const wrapByCoords = (a, b) => !!topo.wrap && Math.abs(coord(a, axis(a, b)) - coord(b, axis(a, b))) === dims[axis(a, b)] - 1;
    const name = (v) => `${v} (${dims.map((_, i) => coord(v, i)).join(',')})`;
    const pairs = [];
    for (let i = 0; i < lay.links.length; i += 2) pairs.push([lay.links[i], lay.links[i + 1]]);
    const misclassed = pairs.filter(([a, b]) => !!lay.isWrap(a, b) !== wrapByCoords(a, b)).map(([a, b]) => `${name(a)}–${name(b)}`);

    const canvas = document.getElementById('network');
    const k = canvas.width / view.widthPx;
    const W = canvas.width;
    const H = canvas.height;
    // The lit links' slate (#334155), not the static links' greys, the labels or the packets.
    const lit = (data, x, y) => {
      const px = Math.round(x * k);
      const py = Math.round(y * k);
      if (px < 0 || py < 0 || px >= W || py >= H) return false;
      const i = (py * W + px) * 4;
      return Math.abs(data[i] - 0x33) < 40 && Math.abs(data[i + 1] - 0x41) < 40 && Math.abs(data[i + 2] - 0x55) < 40;
    };
    const at = (v) => [view.ox + lay.x[v] * view.scale, view.oy + lay.y[v] * view.scale];
    const half = view.nodePx / 2;
    const off = Math.min(view.nodePx * 0.16, 3);
    // Row and column links, where the gap between their nodes is wide enough to tell a line along it
    // from one across it (12 px).
    const gapOf = (a, b) => Math.hypot(lay.x[a] - lay.x[b], lay.y[a] - lay.y[b]) * view.scale - 2 * half;
    const rowColAll = pairs.filter(([a, b]) => axis(a, b) >= d - 2 && !wrapByCoords(a, b));
    const rowCol = rowColAll.filter(([a, b]) => gapOf(a, b) >= 12);
    // A row or column link reads as lit when a line runs along it: 4 of 5 points along the gap between its
    // nodes lit, on its centre line or on either direction's side (a line crossing it, even at 30°, lights 3 at most).
    const readsLit = (data, a, b) => {
      const [x1, y1] = at(a);
      const [x2, y2] = at(b);
      const len = Math.hypot(x2 - x1, y2 - y1);
      const [ux, uy] = [(x2 - x1) / len, (y2 - y1) / len];
      return [-off, 0, off].some((o) => {
        let n = 0;
        for (let j = 0; j < 5; j++) {
          const f = half + 2 + ((len - 2 * half - 4) * (j + 0.5)) / 5;
          if (lit(data, x1 + ux * f - uy * o, y1 + uy * f + ux * o)) n++;
        }
        return n >= 4;
      });
    };
    const used = new Set();
    const between = [];
    for (const lid of snapshot.links) {
      const from = Math.floor(lid / lay.ports);
      const to = lay.neighbors[lid];
      used.add(`${Math.min(from, to)}-${Math.max(from, to)}`);
      if (axis(from, to) < d - 2) between.push([lid, from, to]);
    }
    const shown = canvas.getContext('2d').getImageData(0, 0, W, H).data;
    const unusedLit = rowCol.filter(([a, b]) => !used.has(`${a}-${b}`) && readsLit(shown, a, b)).map(([a, b]) => `${name(a)}–${name(b)}`);

    // Each link between slices (or wrap-around) used this step, drawn alone on the same view.
    const scratch = document.createElement('canvas');
    scratch.width = W;
    scratch.height = H;
    const ctx = scratch.getContext('2d');
    // Lit pixels in the ring just outside a node's square (the link leaves or enters it there).
    const touches = (data, v) => {
      const [cx, cy] = at(v);
      for (let dy = -half - 6; dy <= half + 6; dy += 0.5) {
        for (let dx = -half - 6; dx <= half + 6; dx += 0.5) {
          if (Math.max(Math.abs(dx), Math.abs(dy)) < half + 1) continue;
          if (lit(data, cx + dx, cy + dy)) return true;
        }
      }
      return false;
    };
    const alone = between.map(([lid, from, to]) => {
      ctx.setTransform(k, 0, 0, k, 0, 0);
      drawFrame(ctx, view, lay, {
        snapshot: {
          ...snapshot,
          positions: new Uint32Array(0), delivered_at: new Uint32Array(0), classes: new Uint8Array(0),
          queues: new Uint32Array(lay.nodes), links: Uint32Array.of(lid), control_links: 0, control_kinds: new Uint8Array(1),
          edge_queue_cap: 0, worms: null, deadlock: null,
        },
        prevPositions: null, t: 1, colorMode: 'class', destinations: null, keyShade: null, trail: null, watched: null, hover: null, highlight: null, queueScale: 4,
      });
      const data = ctx.getImageData(0, 0, W, H).data;
      let ink = 0;
      for (let i = 0; i < data.length; i += 4) if (Math.abs(data[i] - 0x33) < 40 && Math.abs(data[i + 1] - 0x41) < 40 && Math.abs(data[i + 2] - 0x55) < 40) ink++;
      return {
        link: `${name(from)}→${name(to)}`,
        wrap: wrapByCoords(from, to),
        ink,
        touchesFrom: touches(data, from),
        touchesTo: touches(data, to),
        alongRowOrColumn: rowCol.filter(([a, b]) => readsLit(data, a, b)).map(([a, b]) => `${name(a)}–${name(b)}`),
      };
    });
    return { mode: view.mode, links: pairs.length, checked: rowCol.length, rowCol: rowColAll.length, misclassed, unusedLit, alone };
  });
}

for (const [topology, step, viewport] of [
  ['torus:3x4x5', 2, { width: 1280, height: 800 }],
  ['mesh:4x4x4', 1, { width: 1280, height: 800 }],
  // (Larger, so that its rows' gaps can be read.)
  ['mesh:8x8x8', 2, { width: 2400, height: 1500 }],
  ['mesh:3x3x3x3', 1, { width: 1280, height: 800 }],
  ['torus:3x3x3x3', 1, { width: 1280, height: 800 }],
]) {
  test(`${topology} step ${step} at ${viewport.width} px: wrap links by coordinates, links between slices drawn apart from rows and columns`, async () => {
    const { page, errors } = await openPage(grid(topology, step), viewport);
    await settle(page, step);
    const r = await readGrid(page);
    assert.equal(r.mode, 'dots', `${topology} is drawn node by node`);
    assert.deepEqual(r.misclassed.slice(0, 8), [], `${r.misclassed.length} of ${r.links} links classed wrongly as wrap-around (or not)`);
    assert.equal(r.checked, r.rowCol, 'every row and column link is wide enough to read');
    assert.deepEqual(r.unusedLit.slice(0, 8), [], `${r.unusedLit.length} row or column links used by no packet read as lit`);
    const arcs = r.alone.filter((l) => !l.wrap);
    assert.ok(arcs.length > 0, 'this step uses links between slices');
    for (const l of r.alone) {
      assert.ok(l.ink > 20, `${l.link} is not drawn`);
      assert.ok(l.touchesFrom && l.touchesTo, `${l.link} does not reach both its nodes: ${JSON.stringify(l)}`);
      assert.deepEqual(l.alongRowOrColumn, [], `${l.link}${l.wrap ? ' (wrap-around)' : ''} drawn alone lights row or column links`);
    }
    await page.locator('#network').screenshot({ path: path.join(shots, `drawing-${topology.replace(':', '-')}-${viewport.width}.png`) });
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('2-D tori: the same wrap-around links as ever (the border stubs), none inside', async () => {
  for (const topology of ['torus:5x5', 'torus:3x7', 'mesh:6x6']) {
    const { page, errors } = await openPage(grid(topology, 1));
    await settle(page, 1);
    const r = await readGrid(page);
    assert.deepEqual(r.misclassed, [], topology);
    assert.deepEqual(r.unusedLit, [], topology);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('the legend says how links between slices look, on grids of 3 or more dimensions only', async () => {
  const shown = async (query) => {
    const { page, errors } = await openPage(query);
    const r = await page.evaluate(() => ['legend-slices', 'legend-slice-wrap'].map((id) => !document.getElementById(id).hidden));
    assert.deepEqual(errors, []);
    await page.close();
    return r;
  };
  assert.deepEqual(await shown(grid('torus:3x4x5', 0)), [true, true]);
  assert.deepEqual(await shown(grid('mesh:4x4x4', 0)), [true, false]);
  assert.deepEqual(await shown(grid('mesh:8x8', 0)), [false, false]);
  assert.deepEqual(await shown(grid('torus:8x8', 0)), [false, false]);
});

/** Records every text filled on the network canvas in `window.texts` (run in the page before its scripts). */
function recordTexts() {
  window.texts = [];
  const fill = CanvasRenderingContext2D.prototype.fillText;
  CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
    if (this.canvas.id === 'network') window.texts.push(String(text));
    return fill.call(this, text, ...rest);
  };
}

/** The page at `query` zoomed out to its heat map: the key's line as last drawn, and its cells' node counts. */
async function heatKey(query, viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport });
  await context.addInitScript(recordTexts);
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(server.url + query);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
  await page.waitForFunction(() => window.routesim.view?.mode === 'heat' && !!window.routesim.view.cells, null, { timeout: 20000 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const r = await page.evaluate(() => {
    const { cells } = window.routesim.view;
    const counts = [...cells.nodes].filter((k) => k > 0);
    return { least: Math.min(...counts), most: Math.max(...counts), key: window.texts.filter((t) => /per node/.test(t)).at(-1), dims: [...window.routesim.topo.dims] };
  });
  assert.deepEqual(errors, []);
  await context.close();
  return r;
}

test('on a narrow canvas (a 400 px frame, two runs side by side) the heat map\'s key still says its cells hold means', async () => {
  const r = await heatKey('?embed=1&lesson=bitfix-vs-valiant&play=0', { width: 400, height: 600 });
  assert.ok(r.key, 'no key drawn');
  assert.ok(r.most > 1, JSON.stringify(r));
  assert.match(r.key, /cell/, `the key "${r.key}" does not say its cells hold several nodes`);
});

for (const [topology, algorithm] of [['butterfly:7', 'bit-fixing'], ['ring:400', 'greedy'], ['hypercube:12', 'bit-fixing'], ['mesh:128x128', 'greedy']]) {
  test(`the heat map's key says how many nodes a cell holds, as the cells count them: ${topology}`, async () => {
    const r = await heatKey(`?topology=${topology}&algorithm=${algorithm}&workload=random-permutation&play=0`);
    assert.ok(r.key, `${topology}: no key drawn`);
    assert.ok(r.most > 1, `${topology}: cells of one node (${JSON.stringify(r)})`);
    const square = r.key.match(/(\d+)×(\d+) (?:nodes|cells)/);
    const upTo = r.key.match(/up to (\d+) nodes|≤ (\d+) nodes/);
    const exact = r.key.match(/cells of (\d+) nodes|\((\d+)-node cells\)/);
    assert.ok(square || upTo || exact, `${topology}: the key does not say what a cell holds: "${r.key}"`);
    if (square) {
      const side = Number(square[1]);
      assert.equal(r.dims.length, 2, `${topology}: "${r.key}" on a network that is not a 2-D grid`);
      assert.ok(r.least === side * side && r.most === side * side, `${topology}: "${r.key}" but its cells hold ${r.least} to ${r.most} nodes`);
    }
    if (upTo) assert.equal(Number(upTo[1] ?? upTo[2]), r.most, `${topology}: "${r.key}" but its cells hold up to ${r.most} nodes`);
    if (exact) assert.ok(r.least === r.most && r.most === Number(exact[1] ?? exact[2]), `${topology}: "${r.key}" but its cells hold ${r.least} to ${r.most} nodes`);
  });
}

/**
 * The ghosts drawn (hollow circles in #6a1b9a): the 8-connected patches of
 * purple on the network canvas, and how many ghosts the step has.
 */
function ghosts(page) {
  return page.evaluate(() => {
    const { snapshot, lay } = window.routesim;
    let expected = 0;
    for (let i = 0; i < (snapshot.control_links || 0); i++) {
      const lid = snapshot.links[i];
      if (snapshot.control_kinds[i] === 1 && !lay.isWrap(Math.floor(lid / lay.ports), lay.neighbors[lid])) expected++;
    }
    const c = document.getElementById('network');
    const { width: w, height: h } = c;
    const d = c.getContext('2d').getImageData(0, 0, w, h).data;
    const on = new Uint8Array(w * h);
    for (let p = 0; p < w * h; p++) {
      // The ghosts' purple, anti-aliased edges too (red and blue well above green); no other mark is purple.
      on[p] = d[4 * p] - d[4 * p + 1] > 25 && d[4 * p + 2] - d[4 * p + 1] > 35 ? 1 : 0;
    }
    let patches = 0;
    const stack = [];
    for (let p = 0; p < w * h; p++) {
      if (on[p] !== 1) continue;
      let size = 0;
      on[p] = 2;
      stack.push(p);
      while (stack.length) {
        const q = stack.pop();
        size++;
        const x = q % w;
        const y = (q - x) / w;
        for (let dy = -1; dy <= 1; dy++) {
          for (let dx = -1; dx <= 1; dx++) {
            const nx = x + dx;
            const ny = y + dy;
            if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
            const r = ny * w + nx;
            if (on[r] === 1) {
              on[r] = 2;
              stack.push(r);
            }
          }
        }
      }
      if (size >= 4) patches++;
    }
    return { expected, patches, mode: window.routesim.view.mode };
  });
}

for (const [query, step] of [
  ['?topology=butterfly:3&algorithm=lmrr&workload=random-permutation&play=0&step=2', 2],
  ['?topology=butterfly:4&algorithm=lmrr&workload=random-permutation&play=0&step=3', 3],
  ['?lesson=lmrr-butterfly&play=0&step=3', 3],
  ['?topology=mesh:8x8&algorithm=lmrr&workload=random-permutation&play=0&step=3', 3],
  ['?topology=hypercube:4&algorithm=lmrr&workload=random-permutation&play=0&step=2', 2],
]) {
  test(`each ghost can be told apart: ${query}`, async () => {
    const { page, errors } = await openPage(query);
    await settle(page, step);
    const g = await ghosts(page);
    assert.equal(g.mode, 'dots');
    assert.ok(g.expected > 1, `ghosts cross links at step ${step}: ${JSON.stringify(g)}`);
    assert.equal(g.patches, g.expected, `${g.expected} ghosts drawn as ${g.patches} separate marks`);
    if (query.includes('butterfly:3')) await page.locator('#network').screenshot({ path: path.join(shots, 'drawing-lmrr-butterfly-3.png') });
    assert.deepEqual(errors, []);
    await page.close();
  });
}
