// End-to-end tests of the off-line plan's panel (issue 28, item 8): for a
// run that plans with a bipartite graph (offline's G_π, the core's
// `Simulation.routing_graph`), the page draws one edge per packet from its
// source column to its destination column, one colour per colour class,
// every class a perfect matching; choosing a class rings its packets on
// the network in the same colour, and after permute-columns every packet
// of a class sits in the row the class is named after.
// Run: node --test tests/e2e/hall.test.mjs (after ./build.sh).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage } from './harness.mjs';
import { assertAccessible } from './axe.mjs';

const role = (page, name) => page.locator(`[data-role="${name}"]`);

/** The edges as drawn (what the student sees) and the class buttons. */
const drawn = (page) => page.evaluate(() => ({
  edges: [...document.querySelectorAll('[data-role="hall-edge"]')].map((e) => ({
    packet: Number(e.dataset.packet), colour: Number(e.dataset.colour), from: Number(e.dataset.from), to: Number(e.dataset.to), stroke: e.getAttribute('stroke'),
  })),
  dummies: document.querySelectorAll('[data-role="hall-dummy"]').length,
  classes: [...document.querySelectorAll('[data-role="hall-class"]')].map((b) => ({ class: Number(b.dataset.class), colour: b.dataset.colour, text: b.textContent })),
}));

/** Pixels of `canvas` (index among the network canvases) within a small distance of `#rrggbb`. */
const inkOf = (page, hex, canvas = 0) => page.evaluate(([h, i]) => {
  const c = document.querySelectorAll('[data-role="network"]')[i];
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  const [r, g, b] = [1, 3, 5].map((k) => parseInt(h.slice(k, k + 2), 16));
  let n = 0;
  for (let k = 0; k < d.length; k += 4) if (Math.abs(d[k] - r) + Math.abs(d[k + 1] - g) + Math.abs(d[k + 2] - b) < 24) n++;
  return n;
}, [hex, canvas]);

test('offline\'s G_π: one edge per packet, each colour class a perfect matching, its colour the ring on the network', async () => {
  const { page, errors } = await openPage('?topology=mesh:16x16&algorithm=offline&workload=random-permutation&play=0');
  const hall = role(page, 'hall');
  assert.equal(await hall.isVisible(), true, 'the panel is offered for offline');
  await hall.locator('summary').click();
  assert.match(await role(page, 'hall-caption').innerText(), /Hall's theorem[^]*16 perfect matchings/);
  const { edges, dummies, classes } = await drawn(page);
  const run = await page.evaluate(() => ({
    packets: window.routesim.snapshot.packets, sources: [...window.routesim.sources], destinations: [...window.routesim.destinations],
  }));
  // One edge per packet, from its source column to its destination column.
  assert.equal(edges.length, run.packets);
  assert.equal(dummies, 0, 'a full permutation needs no dummy edges');
  assert.deepEqual(edges.map((e) => e.packet).sort((a, b) => a - b), [...Array(run.packets).keys()]);
  for (const e of edges) {
    assert.equal(e.from, run.sources[e.packet] % 16);
    assert.equal(e.to, run.destinations[e.packet] % 16);
  }
  // 16 colour classes, one colour each, each a perfect matching.
  assert.equal(classes.length, 16);
  assert.equal(new Set(classes.map((c) => c.colour)).size, 16, 'one colour per class');
  for (const c of classes) {
    assert.match(c.text, new RegExp(`row ${c.class}$`));
    const mine = edges.filter((e) => e.colour === c.class);
    assert.equal(mine.length, 16, `class ${c.class}`);
    assert.equal(new Set(mine.map((e) => e.from)).size, 16, `class ${c.class} meets a source column twice`);
    assert.equal(new Set(mine.map((e) => e.to)).size, 16, `class ${c.class} meets a destination column twice`);
    assert.ok(mine.every((e) => e.stroke === c.colour), `class ${c.class} drawn in another colour`);
  }
  // Choosing a class rings its packets on the network in its colour.
  const chosen = classes[5];
  const before = await inkOf(page, chosen.colour);
  await page.locator(`[data-role="hall-class"][data-class="5"]`).click();
  assert.equal(await page.locator('[data-role="hall-class"][data-class="5"]').getAttribute('aria-pressed'), 'true');
  await page.waitForFunction(() => !window.routesim.dirty);
  const after = await inkOf(page, chosen.colour);
  assert.ok(after > before + 50, `the chosen class's packets are not ringed in its colour (${before} → ${after} px)`);
  // What the panel says is what the grid shows: after permute-columns every
  // packet of the class of row i is in row i.
  await role(page, 'next-phase').click();
  await page.waitForFunction(() => document.querySelector('[data-role="phase"]').textContent === 'route-row');
  const rows = await page.evaluate(() => {
    const s = window.routesim.snapshot;
    return [...s.positions].map((v, p) => (s.delivered_at[p] === 0xffffffff ? Math.floor(v / 16) : null));
  });
  for (const e of edges) if (rows[e.packet] !== null) assert.equal(rows[e.packet], e.colour, `packet ${e.packet}`);
  await assertAccessible(page, 'the plan\'s graph, a class chosen', { include: '#hall' });
  // Choosing it again shows every class.
  await page.locator(`[data-role="hall-class"][data-class="5"]`).click();
  assert.equal(await page.evaluate(() => window.routesim.hall.chosen), null);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the panel follows the run that plans: offline beside greedy in the default view, none for greedy alone', async () => {
  const { page, errors } = await openPage('?play=0');
  assert.equal(await role(page, 'hall').isVisible(), true);
  assert.equal(await role(page, 'hall').getAttribute('data-run'), '1', 'offline is the second run of the default view');
  await role(page, 'hall').locator('summary').click();
  // Most packets of greedy-worst start at their destination (delivered, not
  // drawn): choose the class with the most packets still to move.
  const { edges, classes } = await drawn(page);
  const moving = await page.evaluate(() => [...window.routesim.compare.snapshot.delivered_at].map((d) => d === 0xffffffff));
  const count = classes.map((c) => edges.filter((e) => e.colour === c.class && moving[e.packet]).length);
  const c = count.indexOf(Math.max(...count));
  assert.ok(count[c] > 0);
  const before = await inkOf(page, classes[c].colour, 1);
  await page.locator(`[data-role="hall-class"][data-class="${c}"]`).click();
  await page.waitForFunction(() => !window.routesim.dirty);
  assert.ok(await inkOf(page, classes[c].colour, 1) > before + 20, 'the second canvas rings the class');
  const alone = await openPage('?topology=mesh:8x8&algorithm=greedy&workload=transpose&play=0');
  assert.equal(await role(alone.page, 'hall').isVisible(), false);
  // Past 64 columns the graph is named, not drawn.
  const wide = await openPage('?topology=mesh:4x72&algorithm=offline&workload=random-permutation&play=0');
  await role(wide.page, 'hall').locator('summary').click();
  assert.match(await role(wide.page, 'hall').innerText(), /Too many to draw here: 288 edges and 4 colours/);
  assert.equal(await wide.page.locator('[data-role="hall-class"]').count(), 0);
  assert.deepEqual([...errors, ...alone.errors, ...wide.errors], []);
  await wide.page.close();
  await alone.page.close();
  await page.close();
});
