// The marks the runs draw besides packets and lit links (the core's
// `Simulation.marks()`): ghosts and end-of-stream markers on links, edge
// queues, cut-through worms. Pure drawing, like render.js.

import { px, onLink, pathTo } from './geometry.js';

const UNDELIVERED = 0xffffffff;

/** Ghost marks: hollow circles; end-of-stream marks: outlined squares. */
const GHOST = '#6a1b9a';
const EOS = '#37474f';
/** Edge-queue segments. */
const EDGE_QUEUE = '#00695c';

/**
 * The ghosts and end-of-stream markers among the links `marked` (indices
 * into `snapshot.links`, kinds in `snapshot.control_kinds`): a hollow
 * circle or an outlined square on the link, on its side of travel, nearer
 * its tail than its head (markAt, MARK_AT) — not in the middle, where a
 * butterfly's two cross edges between a pair of rows cross each other and
 * the straight edge halfway between those rows — or, on a link too short
 * for that (a mesh's), just clear of the tail's node, at most halfway.
 * Wrap-around links have none (lmrr runs on meshes, butterflies,
 * hypercubes and shuffle-exchange graphs).
 */
export function drawControlMarks(ctx, view, lay, snapshot, marked) {
  const r = Math.max(2.5, Math.min(view.nodePx * 0.22, 6));
  const off = Math.min(view.nodePx * 0.16, 3) + r * 0.6;
  const paths = { 1: new Path2D(), 2: new Path2D() };
  for (const i of marked) {
    const lid = snapshot.links[i];
    const from = Math.floor(lid / lay.ports);
    const to = lay.neighbors[lid];
    if (lay.isWrap(from, to)) continue;
    const [x, y] = onLink(view, lay, from, to, markAt(view, lay, from, to, r), off);
    const kind = snapshot.control_kinds[i];
    if (kind === 1) {
      paths[1].moveTo(x + r, y);
      paths[1].arc(x, y, r, 0, 2 * Math.PI);
    } else if (kind === 2) {
      const h = r * 0.8;
      paths[2].rect(x - h, y - h, 2 * h, 2 * h);
    }
  }
  ctx.save();
  ctx.lineWidth = Math.max(1.2, Math.min(r * 0.35, 2));
  ctx.fillStyle = '#ffffff';
  for (const [kind, colour] of [[1, GHOST], [2, EOS]]) {
    ctx.strokeStyle = colour;
    ctx.fill(paths[kind]);
    ctx.stroke(paths[kind]);
  }
  ctx.restore();
}

/**
 * Where on a link (0 = tail, 1 = head) its ghost or end-of-stream mark
 * goes, by the way the link runs on the canvas: a level link a third of the
 * way along, one going down a fifth, one going up 45 %. On a butterfly the
 * links between two levels run level (straight edges) or cross a row pair
 * (cross edges, one down, one up, crossing at their middles): there, marks
 * of one kind sit in one column, a row apart or more, and the three
 * columns stand apart (by a ninth of the gap between the levels or more),
 * so no two marks meet.
 */
export const MARK_AT = { level: 1 / 3, down: 0.2, up: 0.45 };

/**
 * The fraction of the link from→to at which drawControlMarks puts its mark
 * of radius r: MARK_AT, or on a link too short for that (a mesh's) just
 * clear of the tail's node, at most halfway.
 */
export function markAt(view, lay, from, to, r) {
  const [x1, y1] = px(view, lay, from);
  const [x2, y2] = px(view, lay, to);
  const len = Math.hypot(x2 - x1, y2 - y1) || 1;
  const dy = y2 - y1;
  const t = Math.abs(dy) < 0.05 * Math.abs(x2 - x1) ? MARK_AT.level : dy > 0 ? MARK_AT.down : MARK_AT.up;
  return Math.min(0.5, Math.max(t, (view.nodePx / 2 + r + 1) / len));
}

/**
 * `snapshot.edge_queues` (packets per directed link id) as a bar on each
 * link ending at the receiving node's border, on its side of travel: the
 * link's room (`snapshot.edge_queue_room`: q = `edge_queue_cap` per logical
 * edge it carries, 2q where a link serves two) in slots over 3/4 of the gap
 * between the nodes, one filled segment per packet. Nothing where links are
 * too short to show it.
 */
export function drawEdgeQueues(ctx, view, lay, snapshot) {
  const occ = snapshot.edge_queues;
  const room = snapshot.edge_queue_room;
  if (!occ || !occ.length) return;
  const s = view.nodePx;
  const off = Math.min(s * 0.16, 3) + Math.max(1.5, Math.min(s * 0.1, 3));
  ctx.save();
  ctx.strokeStyle = EDGE_QUEUE;
  ctx.lineWidth = Math.max(2, Math.min(s * 0.14, 4));
  ctx.lineCap = 'butt';
  ctx.beginPath();
  for (let lid = 0; lid < occ.length; lid++) {
    const n = occ[lid];
    if (!n) continue;
    const from = Math.floor(lid / lay.ports);
    const to = lay.neighbors[lid];
    if (to === UNDELIVERED || lay.isWrap(from, to)) continue;
    const [x1, y1] = px(view, lay, from);
    const [x2, y2] = px(view, lay, to);
    const len = Math.hypot(x2 - x1, y2 - y1);
    const end = 1 - (s / 2 + 1) / Math.max(len, 1e-9);
    const span = 0.75 * (1 - s / Math.max(len, 1e-9));
    const q = room?.[lid] || snapshot.edge_queue_cap;
    if (span * len < 3 * q) continue;
    const seg = span / Math.max(q, n);
    const gap = Math.min(1.5 / len, seg * 0.3);
    for (let k = 0; k < n; k++) {
      const [ax, ay] = onLink(view, lay, from, to, end - k * seg, off);
      const [bx, by] = onLink(view, lay, from, to, end - (k + 1) * seg + gap, off);
      ctx.moveTo(ax, ay);
      ctx.lineTo(bx, by);
    }
  }
  ctx.stroke();
  ctx.restore();
}

/**
 * Draws the worms of `snapshot.worms` (render.js, drawFrame's 5a): one
 * polyline per worm, grouped by colour (`colorOf(packet)`), from the head's
 * dot (its node's centre once delivered) back through the centres of the
 * nodes its flits hold, along the drawn links (curved ones too); a
 * wrap-around hop breaks the line. Thick enough to read zoomed
 * out (at least 1.5 px), never wider than a node's half.
 */
export function drawWorms(ctx, view, lay, snapshot, dots, colorOf) {
  const worms = snapshot.worms;
  if (!worms || !worms.length) return;
  const byColor = new Map();
  for (let i = 0; i + 1 < worms.length; i += 2 + worms[i + 1]) {
    const colour = colorOf(worms[i]);
    if (!byColor.has(colour)) byColor.set(colour, []);
    byColor.get(colour).push(i);
  }
  ctx.save();
  ctx.globalAlpha = 0.55;
  ctx.lineWidth = Math.max(1.5, Math.min(view.nodePx * 0.45, 10));
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  for (const [colour, starts] of byColor) {
    ctx.strokeStyle = colour;
    ctx.beginPath();
    for (const i of starts) {
      const p = worms[i];
      const n = worms[i + 1];
      const head = worms[i + 2];
      let [x, y] = px(view, lay, head);
      if (!Number.isNaN(dots[2 * p])) [x, y] = [dots[2 * p], dots[2 * p + 1]];
      ctx.moveTo(x, y);
      // Then along the drawn links between the nodes it holds (an arc between slices follows its curve).
      for (let k = 1; k < n; k++) pathTo(ctx, view, lay, worms[i + 1 + k], worms[i + 2 + k]);
    }
    ctx.stroke();
  }
  ctx.restore();
}

/** The wait-for cycle of a stall (SPEC §7 `deadlock`). */
const DEADLOCK = '#7f1d1d';

/**
 * A stalled run's wait-for cycle (the core's `deadlock`: node ids in
 * wait-for order): a dark red outline round each node and an arrow from
 * each to the next, the last to the first, over a white halo so that it
 * stands out from the queue fill and the packets. A wrap-around link gets
 * no arrow (its nodes keep their outlines).
 */
export function drawDeadlock(ctx, view, lay, cycle) {
  const s = Math.max(view.nodePx, 6);
  const outline = new Path2D();
  const arrows = new Path2D();
  const heads = new Path2D();
  const head = Math.max(4, Math.min(s * 0.35, 9));
  for (let i = 0; i < cycle.length; i++) {
    const a = cycle[i];
    const b = cycle[(i + 1) % cycle.length];
    const [x, y] = px(view, lay, a);
    outline.rect(x - s / 2 - 3, y - s / 2 - 3, s + 6, s + 6);
    if (lay.isWrap(a, b)) continue;
    const [xb, yb] = px(view, lay, b);
    const len = Math.hypot(xb - x, yb - y) || 1;
    const t0 = Math.min(0.45, (s / 2 + 4) / len);
    const t1 = 1 - t0;
    for (let k = 0; k <= 8; k++) {
      const [qx, qy] = onLink(view, lay, a, b, t0 + ((t1 - t0) * k) / 8, 0);
      if (k === 0) arrows.moveTo(qx, qy);
      else arrows.lineTo(qx, qy);
    }
    const [hx, hy, ux, uy] = onLink(view, lay, a, b, t1, 0);
    heads.moveTo(hx, hy);
    heads.lineTo(hx - ux * head - uy * head * 0.6, hy - uy * head + ux * head * 0.6);
    heads.lineTo(hx - ux * head + uy * head * 0.6, hy - uy * head - ux * head * 0.6);
    heads.closePath();
  }
  ctx.save();
  ctx.lineJoin = 'round';
  ctx.strokeStyle = '#ffffff';
  ctx.lineWidth = 6;
  ctx.stroke(outline);
  ctx.stroke(arrows);
  ctx.stroke(heads);
  ctx.strokeStyle = DEADLOCK;
  ctx.fillStyle = DEADLOCK;
  ctx.lineWidth = 3;
  ctx.stroke(outline);
  ctx.stroke(arrows);
  ctx.fill(heads);
  ctx.restore();
}
