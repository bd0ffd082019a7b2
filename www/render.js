// Pure drawing: network, queue heat map, lit links, packets, a watched
// packet's route; zoomed out on a big network, an aggregated heat map
// (heat.js); the runs' other marks in marks.js, positions in geometry.js.
// Nothing here changes simulation state; every function draws what it is
// given.

import { drawHeat, drawKeyCells } from './heat.js';
import { px, along, pathTo } from './geometry.js';
import { drawControlMarks, drawEdgeQueues, drawWorms, drawDeadlock } from './marks.js';

// The view and hit testing live in geometry.js; exported here too, as before.
export { viewFor, px, nodeAt, packetAt } from './geometry.js';

/**
 * The core's palette (`palette()`, src/palette.rs): packet class c is drawn
 * in `classes[c mod 8]`'s colour and shape (the shape shows once dots are
 * big enough); `lit` and `control` colour the links used in the shown step.
 * Set once by `setPalette` before the first frame.
 */
let PALETTE = { classes: [{ word: 'blue', colour: '#0072b2', shape: 'circle' }], lit: '#334155', control: '#8e24aa' };

/** Takes the core's palette (wasm `palette()`). */
export function setPalette(palette) {
  PALETTE = palette;
}

/** How class `c` is drawn: `{word, colour, shape}`. */
export function classStyle(c) {
  return PALETTE.classes[c % PALETTE.classes.length];
}

const LINK = '#c9d1da';
const WRAP = '#9aa8b6';
/** Links between the slices of a grid of 3 or more dimensions (arcs), fainter than its rows and columns. */
const BETWEEN = '#dde3ea';
/** The tick on a node that holds delivered packets. */
const DELIVERED = '#6b7785';
const NODE_EMPTY = '#f3f5f8';
const NODE_BORDER = '#9aa5b1';
const UNDELIVERED = 0xffffffff;

/** Heat-map colour of a queue of `q` packets when the scale tops out at `max`. */
export function heat(q, max) {
  if (q <= 0) return NODE_EMPTY;
  const t = Math.min(1, q / Math.max(1, max));
  // pale yellow -> orange -> deep red
  const r = 255;
  const g = Math.round(236 - 180 * t);
  const b = Math.round(170 - 150 * t);
  return `rgb(${t > 0.85 ? 215 : r},${g},${b})`;
}

/**
 * Adds the drawn link a → b to the path of `ctx` (a context or a Path2D):
 * straight, or curved where the layout bends it (`curve`); `offset` px to
 * the left of travel; with `trim`, from node border to node border.
 */
function drawLink(ctx, view, lay, a, b, offset, trim) {
  let x1 = view.ox + lay.x[a] * view.scale;
  let y1 = view.oy + lay.y[a] * view.scale;
  let x2 = view.ox + lay.x[b] * view.scale;
  let y2 = view.oy + lay.y[b] * view.scale;
  const dx = x2 - x1;
  const dy = y2 - y1;
  const len = Math.hypot(dx, dy) || 1;
  // Offset perpendicular, so the two directions of a link can be told apart.
  const nx = (-dy / len) * offset;
  const ny = (dx / len) * offset;
  x1 += nx; y1 += ny; x2 += nx; y2 += ny;
  // The bend is the control point's offset in units of the link's length.
  const bend = lay.curve(a, b);
  if (!bend && trim > 0 && len > 2 * trim) {
    // Straight links stop at the node borders (axis-aligned squares).
    const k = trim / Math.max(Math.abs(dx), Math.abs(dy));
    x1 += dx * k; y1 += dy * k; x2 -= dx * k; y2 -= dy * k;
  }
  if (!bend) {
    ctx.moveTo(x1, y1);
    ctx.lineTo(x2, y2);
    return;
  }
  // Normalise the direction so both directions of a link bend the same way.
  const flip = a < b ? 1 : -1;
  const cx = (x1 + x2) / 2 - dy * bend * flip;
  const cy = (y1 + y2) / 2 + dx * bend * flip;
  if (!(trim > 0 && len > 2 * trim)) {
    ctx.moveTo(x1, y1);
    ctx.quadraticCurveTo(cx, cy, x2, y2);
    return;
  }
  // A lit arc, too, runs from border to border: the part of the curve
  // between where it leaves the square round a and enters the one round b.
  const at = (t) => {
    const u = 1 - t;
    return [u * u * x1 + 2 * u * t * cx + t * t * x2, u * u * y1 + 2 * u * t * cy + t * t * y2];
  };
  const leave = (ex, ey, from, to) => {
    let lo = from;
    let hi = to;
    for (let k = 0; k < 14; k++) {
      const mid = (lo + hi) / 2;
      const [mx, my] = at(mid);
      if (Math.max(Math.abs(mx - ex), Math.abs(my - ey)) < trim) lo = mid;
      else hi = mid;
    }
    return hi;
  };
  const t0 = leave(x1, y1, 0, 0.5);
  const s1 = leave(x2, y2, 1, 0.5);
  const [ax, ay] = at(t0);
  const [bx, by] = at(s1);
  // The control point of the part from t0 to s1 (the quadratic's blossom).
  const qx = (1 - t0) * (1 - s1) * x1 + ((1 - t0) * s1 + t0 * (1 - s1)) * cx + t0 * s1 * x2;
  const qy = (1 - t0) * (1 - s1) * y1 + ((1 - t0) * s1 + t0 * (1 - s1)) * cy + t0 * s1 * y2;
  ctx.moveTo(ax, ay);
  ctx.quadraticCurveTo(qx, qy, bx, by);
}

/**
 * A wrap-around link is drawn as a dashed stub at each end, leaving the
 * node in the direction the layout gives (`wrapStub`: through the border
 * along a row or column; diagonally along a leading coordinate of a grid
 * of 3 or more dimensions). Drawn for the link's direction a → b, `offset`
 * px to the left of travel (out of a, into b), as drawLink does.
 */
function drawWrapStub(ctx, view, lay, a, b, offset) {
  // Long enough to leave the node square behind, whatever the direction.
  const stub = (ux, uy) => view.nodePx / 2 / Math.max(Math.abs(ux), Math.abs(uy), 1e-9) + Math.min(view.scale * 0.3, 14);
  const [x1, y1] = px(view, lay, a);
  const [ax, ay] = lay.wrapStub(a, b);
  const la = stub(ax, ay);
  ctx.moveTo(x1 - ay * offset, y1 + ax * offset);
  ctx.lineTo(x1 - ay * offset + ax * la, y1 + ax * offset + ay * la);
  // Into b: travel is against its stub's direction.
  const [x2, y2] = px(view, lay, b);
  const [bx, by] = lay.wrapStub(b, a);
  const lb = stub(bx, by);
  ctx.moveTo(x2 + by * offset, y2 - bx * offset);
  ctx.lineTo(x2 + by * offset + bx * lb, y2 - bx * offset + by * lb);
}

/**
 * The parts of a frame that do not change between steps — background,
 * links, wrap stubs, empty nodes, labels — drawn once per view into an
 * offscreen canvas.
 */
function staticLayer(view, lay) {
  const dpr = view.dpr || 1;
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(view.widthPx * dpr);
  canvas.height = Math.round(view.heightPx * dpr);
  const ctx = canvas.getContext('2d');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, view.widthPx, view.heightPx);
  ctx.lineWidth = lay.nodes > 4096 ? 0.5 : 1;
  ctx.strokeStyle = LINK;
  ctx.beginPath();
  const wraps = [];
  const arcs = [];
  for (let i = 0; i < lay.links.length; i += 2) {
    const a = lay.links[i];
    const b = lay.links[i + 1];
    if (lay.isWrap(a, b)) wraps.push(a, b);
    else if (lay.sliceLabels && lay.curve(a, b)) arcs.push(a, b);
    else drawLink(ctx, view, lay, a, b, 0, 0);
  }
  ctx.stroke();
  if (arcs.length) {
    // Links between slices of a grid of 3 or more dimensions: arcs, fainter than rows and columns.
    ctx.strokeStyle = BETWEEN;
    const width = ctx.lineWidth;
    if (arcs.length > 512) ctx.lineWidth = 0.6;
    ctx.beginPath();
    for (let i = 0; i < arcs.length; i += 2) drawLink(ctx, view, lay, arcs[i], arcs[i + 1], 0, 0);
    ctx.stroke();
    ctx.lineWidth = width;
  }
  if (wraps.length) {
    ctx.strokeStyle = WRAP;
    ctx.setLineDash([3, 3]);
    ctx.beginPath();
    for (let i = 0; i < wraps.length; i += 2) drawWrapStub(ctx, view, lay, wraps[i], wraps[i + 1], 0);
    ctx.stroke();
    ctx.setLineDash([]);
  }
  const s = view.nodePx;
  ctx.fillStyle = NODE_EMPTY;
  ctx.beginPath();
  for (let v = 0; v < lay.nodes; v++) {
    ctx.rect(view.ox + lay.x[v] * view.scale - s / 2, view.oy + lay.y[v] * view.scale - s / 2, s, s);
  }
  ctx.fill();
  if (s >= 6) {
    ctx.lineWidth = 1;
    ctx.strokeStyle = NODE_BORDER;
    ctx.stroke();
  }
  // A grid of 3 or more dimensions: each slice's leading coordinates under it, where there is room.
  if (lay.sliceLabels && view.scale >= 14 && (lay.sliceGap - 0.45) * view.scale >= 13) {
    ctx.fillStyle = '#5b6570';
    ctx.font = '11px system-ui, sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    const room = (lay.sliceWidth + 0.8 * lay.sliceGap) * view.scale;
    if (lay.sliceLabels.every((l) => ctx.measureText(l.text).width <= room)) {
      for (const l of lay.sliceLabels) ctx.fillText(l.text, view.ox + l.x * view.scale, view.oy + l.y * view.scale);
    }
  }
  if (lay.labels && s >= 22) {
    ctx.fillStyle = '#5b6570';
    ctx.font = `${Math.min(11, s * 0.3)}px system-ui, sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    for (let v = 0; v < lay.nodes; v++) {
      const [x, y] = px(view, lay, v);
      ctx.fillText(lay.labels(v), x, y + s / 2 + 1);
    }
  }
  return canvas;
}

const HEAT_LEVELS = 12;

/**
 * `snapshot` as drawn at step `step` of two runs beside each other: a run
 * over before `step` lit its links at its own last step, not at this one
 * ("packet on a link this step"), so it is drawn without them.
 */
export function shownAt(snapshot, step) {
  if (!snapshot || snapshot.step >= step || !snapshot.links?.length) return snapshot;
  return { ...snapshot, links: new Uint32Array(0), control_links: 0, control_kinds: new Uint8Array(0) };
}

/**
 * Draws one frame. `frame` = {snapshot, prevPositions, t (0..1 of the way
 * through the step), colorMode (`class`, `destination` or `key`),
 * destinations, keyShade (keyShades of a sort's keys), trail, watched,
 * hover, highlight ({packets, colour}: packets to ring, or null),
 * queueScale, heatScale (zoomed out: the densest cell of both runs beside
 * each other, so that they share one density scale)}. Returns the packet dot positions (Float32Array, x,y per
 * packet; NaN for packets not drawn) for hit testing.
 */
export function drawFrame(ctx, view, lay, frame) {
  const { snapshot } = frame;
  ctx.save();

  // A sort coloured by key: every packet (delivered ones too, where the
  // sort left them) in its key's colour.
  const byKey = frame.colorMode === 'key' && !!frame.keyShade;

  // 1. Zoomed out on a big network: packet density per cell, no dots (by
  // key: each cell in its packets' mean key's colour).
  if (snapshot && view.mode === 'heat') {
    if (byKey) drawKeyCells(ctx, view, lay, snapshot, frame.keyShade, (t) => keyColour(keyLevel(t)));
    else {
      // Coloured by destination, the cells carry no class unless the run's
      // texts name its classes by colour (the core's class_rims).
      const classes = frame.colorMode !== 'destination' || frame.classRims;
      drawHeat(ctx, view, lay, snapshot, classes ? (c) => classStyle(c).colour : null, frame.heatScale ?? 0);
    }
    const dots = new Float32Array(2 * snapshot.positions.length).fill(NaN);
    drawOverlays(ctx, view, lay, frame, dots);
    ctx.restore();
    return dots;
  }

  // 2. The network, from the cached static layer.
  if (!view.cache) view.cache = staticLayer(view, lay);
  ctx.drawImage(view.cache, 0, 0, view.widthPx, view.heightPx);

  // 3. Queue heat map: only occupied nodes, one path per colour level.
  const s = view.nodePx;
  const inset = s >= 6 ? 1 : 0;
  if (snapshot) {
    const queues = snapshot.queues;
    const scaleMax = Math.max(2, frame.queueScale || 0);
    const levels = Array.from({ length: HEAT_LEVELS }, () => []);
    for (let v = 0; v < queues.length; v++) {
      const q = queues[v];
      if (q > 0) levels[Math.min(HEAT_LEVELS - 1, Math.floor(((HEAT_LEVELS - 1) * Math.min(q, scaleMax)) / scaleMax))].push(v);
    }
    levels.forEach((nodes, level) => {
      if (!nodes.length) return;
      ctx.fillStyle = heat(Math.max(1, (level + 1) / HEAT_LEVELS * scaleMax), scaleMax);
      ctx.beginPath();
      for (const v of nodes) {
        ctx.rect(view.ox + lay.x[v] * view.scale - s / 2 + inset, view.oy + lay.y[v] * view.scale - s / 2 + inset, s - 2 * inset, s - 2 * inset);
      }
      ctx.fill();
    });
  }

  // 4. Links used in the last step (directed: offset to the left of travel,
  // trimmed to the node borders).
  // Control messages (the first `control_links` entries) in their own colour.
  // Ghosts and end-of-stream markers (`control_kinds` 1 and 2) are not
  // lines but marks on their links (4c); other control messages stay lines.
  const marked = [];
  if (snapshot && snapshot.links.length) {
    ctx.lineWidth = Math.max(1.5, Math.min(view.nodePx * 0.1, 3));
    const off = Math.min(view.nodePx * 0.16, 3);
    const control = snapshot.control_links || 0;
    const kinds = snapshot.control_kinds;
    const groups = [[PALETTE.control, 0, control], [PALETTE.lit, control, snapshot.links.length]];
    for (const [colour, begin, end] of groups) {
      if (begin === end) continue;
      ctx.strokeStyle = colour;
      ctx.beginPath();
      // Arcs between the slices of a grid of 3 or more dimensions: over a
      // white casing, so that they read as passing over what they cross.
      const arcs = new Path2D();
      let anyArc = false;
      for (let i = begin; i < end; i++) {
        const lid = snapshot.links[i];
        const from = Math.floor(lid / lay.ports);
        const to = lay.neighbors[lid];
        if (to === UNDELIVERED) continue;
        if (i < control && kinds && kinds[i]) {
          marked.push(i);
          continue;
        }
        if (lay.isWrap(from, to)) drawWrapStub(ctx, view, lay, from, to, off);
        else if (lay.sliceLabels && lay.curve(from, to)) {
          drawLink(arcs, view, lay, from, to, off, s / 2);
          anyArc = true;
        } else drawLink(ctx, view, lay, from, to, off, s / 2);
      }
      ctx.stroke();
      if (anyArc) {
        const width = ctx.lineWidth;
        ctx.strokeStyle = '#ffffff';
        ctx.lineWidth = width + 2;
        ctx.stroke(arcs);
        ctx.strokeStyle = colour;
        ctx.lineWidth = width;
        ctx.stroke(arcs);
      }
    }
  }

  // 4b. Edge queues an algorithm keeps itself (lmrr): on each directed link
  // near its receiving end, one segment per packet held, q segments at most.
  if (snapshot && snapshot.edge_queue_cap > 0) drawEdgeQueues(ctx, view, lay, snapshot);

  // 4c. Ghosts (hollow circles) and end-of-stream markers (outlined
  // squares) in the middle of the link they cross this step.
  if (marked.length) drawControlMarks(ctx, view, lay, snapshot, marked);

  // 4d. Delivered packets (those that start at their destination from step
  // 0): a tick on their node, where nodes are big enough to show one.
  // (By key, delivered packets stay drawn as dots instead.)
  if (snapshot && s >= 5 && !byKey) drawDelivered(ctx, view, lay, snapshot);

  // 5. Packets: dots inside their node, several per node in a small grid;
  // mid-step they slide along the link they are crossing.
  let dots = null;
  if (snapshot) {
    const pos = snapshot.positions;
    const count = pos.length;
    dots = new Float32Array(2 * count).fill(NaN);
    const perNode = new Uint32Array(lay.nodes);
    let most = 1;
    const drawn = (p) => byKey || snapshot.delivered_at[p] === UNDELIVERED;
    for (let p = 0; p < count; p++) {
      if (!drawn(p)) continue;
      const c = ++perNode[pos[p]];
      if (c > most) most = c;
    }
    const g = Math.min(Math.ceil(Math.sqrt(most)), 8);
    const cell = s / g;
    // Readable dots: at least 4.5 px across where nodes are far enough apart
    // (a 16×16 mesh on a phone), shrinking with the spacing on big networks.
    const r = Math.max(0.8, Math.min(4.5, Math.max(view.scale * 0.16, s * 0.45)) / g, Math.min(cell * 0.38, 7));
    const slot = new Uint32Array(lay.nodes);
    const prev = frame.prevPositions;
    const t = frame.t;
    const byDestination = !byKey && frame.colorMode === 'destination';
    const buckets = byKey ? KEY_LEVELS : byDestination ? 24 : PALETTE.classes.length;
    const groups = Array.from({ length: buckets }, () => []);
    const { ox, oy, scale } = view;
    const bucketOf = (p) => (byKey ? keyLevel(frame.keyShade[p])
      : byDestination ? Math.min(buckets - 1, Math.floor((buckets * frame.destinations[p]) / lay.nodes))
        : snapshot.classes[p] % buckets);
    const colourOf = (bucket) => (byKey ? keyColour(bucket) : byDestination ? destinationColor(bucket, buckets) : PALETTE.classes[bucket].colour);
    for (let p = 0; p < count; p++) {
      if (!drawn(p)) continue;
      const v = pos[p];
      const i = slot[v]++ % (g * g);
      let x = ox + lay.x[v] * scale;
      let y = oy + lay.y[v] * scale;
      if (prev && t < 1 && prev[p] !== v && !lay.isWrap(prev[p], v)) {
        [x, y] = along(view, lay, prev[p], v, t);
      }
      x += -s / 2 + cell * ((i % g) + 0.5);
      y += -s / 2 + cell * (Math.floor(i / g) + 0.5);
      dots[2 * p] = x;
      dots[2 * p + 1] = y;
      groups[bucketOf(p)].push(p);
    }
    // 5a. Cut-through worms (`flits` > 1): each worm stretched over more
    // than one node is a short thick line in its packet's colour, from its
    // head's dot back along the nodes its flits hold (the core's `worms`:
    // packet, n, then n nodes, head first). With F = 1 there are none.
    drawWorms(ctx, view, lay, snapshot, dots, (p) => colourOf(bucketOf(p)));
    // Big enough dots get a light rim (they stay visible on a hot node)
    // and, by class, a shape of their own. Coloured by destination, a run
    // whose packets fall into classes its texts name by colour (the core's
    // class_rims) rims every dot in its class's colour instead.
    const classRims = byDestination && !!frame.classRims;
    const rim = r >= 2.5 && !classRims;
    ctx.lineWidth = 1;
    ctx.strokeStyle = 'rgba(255,255,255,0.9)';
    const shapeOf = (bucket) => (r < 2 ? 'square' : byDestination || byKey ? 'circle' : PALETTE.classes[bucket].shape);
    groups.forEach((list, bucket) => {
      if (!list.length) return;
      ctx.fillStyle = colourOf(bucket);
      const shape = shapeOf(bucket);
      ctx.beginPath();
      for (const p of list) shapePath(ctx, shape, dots[2 * p], dots[2 * p + 1], r);
      ctx.fill();
      if (rim) ctx.stroke();
    });
    if (classRims) drawClassRims(ctx, snapshot, dots, groups, r, shapeOf(0));
  }

  drawOverlays(ctx, view, lay, frame, dots);
  ctx.restore();
  return dots;
}

/** Each dot drawn (`groups`: the packets per colour bucket) rimmed in its packet class's colour (coloured by destination). */
function drawClassRims(ctx, snapshot, dots, groups, r, shape) {
  const slots = PALETTE.classes.length;
  const byClass = Array.from({ length: slots }, () => []);
  for (const list of groups) for (const p of list) byClass[snapshot.classes[p] % slots].push(p);
  // Outside the fill, so the destination's colour keeps its whole dot.
  const w = Math.max(1, Math.min(2.5, r * 0.5));
  ctx.lineWidth = w;
  byClass.forEach((list, c) => {
    if (!list.length) return;
    ctx.strokeStyle = PALETTE.classes[c].colour;
    ctx.beginPath();
    for (const p of list) shapePath(ctx, shape, dots[2 * p], dots[2 * p + 1], r + w / 2);
    ctx.stroke();
  });
}

/** A small tick on every node that holds a delivered packet. */
function drawDelivered(ctx, view, lay, snapshot) {
  const s = view.nodePx;
  const h = Math.min(s * 0.32, 5);
  const seen = new Uint8Array(lay.nodes);
  ctx.beginPath();
  for (let p = 0; p < snapshot.delivered_at.length; p++) {
    if (snapshot.delivered_at[p] === UNDELIVERED) continue;
    const v = snapshot.positions[p];
    if (seen[v]) continue;
    seen[v] = 1;
    const [x, y] = px(view, lay, v);
    ctx.moveTo(x - h, y);
    ctx.lineTo(x - h * 0.35, y + h * 0.65);
    ctx.lineTo(x + h, y - h * 0.7);
  }
  ctx.strokeStyle = DELIVERED;
  ctx.lineWidth = Math.max(1, Math.min(s * 0.1, 2));
  ctx.stroke();
}

/** The watched packet's route and destination, and the hovered node. */
function drawOverlays(ctx, view, lay, frame, dots) {
  const s = view.nodePx;
  // 6. The watched packet: its route so far and its destination.
  if (frame.watched !== null && frame.trail && frame.trail.length) {
    ctx.strokeStyle = '#111827';
    ctx.lineWidth = 2.5;
    ctx.beginPath();
    // Along the drawn links (an arc between slices, a hypercube's bent link); a wrap-around hop is a jump.
    ctx.moveTo(...px(view, lay, frame.trail[0]));
    for (let i = 1; i < frame.trail.length; i++) pathTo(ctx, view, lay, frame.trail[i - 1], frame.trail[i]);
    ctx.stroke();
    const [sx, sy] = px(view, lay, frame.trail[0]);
    ctx.fillStyle = '#111827';
    ctx.fillRect(sx - 4, sy - 4, 8, 8);
    const [dx, dy] = px(view, lay, frame.destinations[frame.watched]);
    ctx.beginPath();
    ctx.arc(dx, dy, Math.max(6, s * 0.55), 0, 2 * Math.PI);
    ctx.setLineDash([4, 3]);
    ctx.stroke();
    ctx.setLineDash([]);
    if (dots && !Number.isNaN(dots[2 * frame.watched])) {
      ctx.beginPath();
      ctx.arc(dots[2 * frame.watched], dots[2 * frame.watched + 1], 6, 0, 2 * Math.PI);
      ctx.lineWidth = 2;
      ctx.stroke();
    }
  }

  // 6a. The packets of one colour class of the plan's graph (hall.js), ringed in its colour.
  if (frame.highlight && dots) {
    const r = Math.max(5, Math.min(9, s * 0.45));
    ctx.strokeStyle = frame.highlight.colour;
    ctx.lineWidth = 2.5;
    ctx.beginPath();
    for (const p of frame.highlight.packets) {
      if (Number.isNaN(dots[2 * p])) continue;
      ctx.moveTo(dots[2 * p] + r, dots[2 * p + 1]);
      ctx.arc(dots[2 * p], dots[2 * p + 1], r, 0, 2 * Math.PI);
    }
    ctx.stroke();
  }

  // 6b. A stall's wait-for cycle (the core's `deadlock`), outlined with arrows.
  if (frame.snapshot?.deadlock?.length) drawDeadlock(ctx, view, lay, frame.snapshot.deadlock);

  // 7. Hovered node outline.
  if (frame.hover !== null && frame.hover !== undefined) {
    const [x, y] = px(view, lay, frame.hover);
    ctx.strokeStyle = '#111827';
    ctx.lineWidth = 2;
    ctx.strokeRect(x - s / 2 - 2, y - s / 2 - 2, s + 4, s + 4);
  }
}

/**
 * Adds one packet mark of `shape` (the palette's), radius `r`, centred at
 * (x, y), to the current path; the shapes have about the same area.
 */
export function shapePath(ctx, shape, x, y, r) {
  if (shape === 'square') {
    const h = r * 0.89;
    ctx.rect(x - h, y - h, 2 * h, 2 * h);
  } else if (shape === 'triangle') {
    const h = r * 1.3;
    ctx.moveTo(x, y - h);
    ctx.lineTo(x + h * 0.93, y + h * 0.62);
    ctx.lineTo(x - h * 0.93, y + h * 0.62);
    ctx.closePath();
  } else if (shape === 'diamond') {
    const h = r * 1.22;
    ctx.moveTo(x, y - h);
    ctx.lineTo(x + h, y);
    ctx.lineTo(x, y + h);
    ctx.lineTo(x - h, y);
    ctx.closePath();
  } else {
    ctx.moveTo(x + r, y);
    ctx.arc(x, y, r, 0, 2 * Math.PI);
  }
}

/** Viridis, sampled: dark blue to yellow, ordered in lightness (safe for colour-vision deficiencies). */
const VIRIDIS = [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]];

/** The viridis colour `t` (0..1) of the way along the ramp. */
function viridis(t) {
  const x = Math.min(1, Math.max(0, t)) * (VIRIDIS.length - 1);
  const i = Math.min(VIRIDIS.length - 2, Math.floor(x));
  const f = x - i;
  const c = VIRIDIS[i].map((v, j) => Math.round(v + (VIRIDIS[i + 1][j] - v) * f));
  return `rgb(${c[0]},${c[1]},${c[2]})`;
}

/** A colour per destination along a viridis ramp, so packets bound for nearby ids look alike. */
export function destinationColor(dest, nodes) {
  return viridis(Math.min(dest, nodes - 1) / Math.max(1, nodes - 1));
}

/**
 * A sort's keys as colours (issue 27): the same sequential scale on every
 * view, the viridis ramp from the lowest key (dark purple) to the highest
 * (yellow), in KEY_LEVELS steps. `keyShades(places)`: each packet's key
 * as its place among the distinct keys (the core's `key_places`, exact
 * where keys as numbers are not), 0 for the lowest and 1 for the highest
 * (null for a routing run, whose packets carry no keys): equal keys share
 * a colour, and keys the instance gives unevenly (−100, 0.5, 1e21) still
 * spread over the whole scale (for the generators' keys, 0..N−1 or a few
 * values, this is the key's value scaled); `keyLevel(t)` its step;
 * `keyColour(level)` the step's colour.
 */
export const KEY_LEVELS = 32;
export function keyShades(places) {
  if (!places?.length) return null;
  // A loop, not Math.max(...places): a butterfly's 2^14 keys would be as many call arguments.
  let top = 1;
  for (const p of places) if (p > top) top = p;
  return Float32Array.from(places, (p) => p / top);
}
export const keyLevel = (t) => Math.min(KEY_LEVELS - 1, Math.max(0, Math.floor(t * KEY_LEVELS)));
export const keyColour = (level) => viridis(level / (KEY_LEVELS - 1));
