// Where each node of a network is drawn, in abstract units (one unit is
// the usual distance between neighbours). Pure functions of the topology
// description that the wasm module returns ({kind, dims, nodes, ports,
// wrap, neighbors}, and for the shuffle-exchange {necklace, position,
// weight}); node numbering follows SPEC §2.

import { viewMode } from './heat.js';
import { fitScale, shownHeight } from './geometry.js';

/** The margin around a drawing (CSS px) and a node's size in layout units, unless a layout sets its own. */
const MARGIN = 28;
const NODE_SCALE = 0.62;

/** The spacing of butterfly:d's levels (columns), in rows. */
const levelGap = (d) => Math.max(1.5, ((1 << d) - 1) / Math.max(1, d) * 0.9);

/**
 * Returns {x, y (Float32Array per node), width, height, links, curve,
 * isWrap, wrapStub, sliceLabels, …}. `links` lists undirected links as pairs
 * of nodes (Uint32Array, 2 per link); `curve(a, b)` gives the bend of the
 * drawn link between two neighbours (0 = straight), `isWrap(a, b)` tells
 * wrap-around links (drawn as a dashed stub at each end, not as a line),
 * `wrapStub(a, b)` the direction [dx, dy] (a unit vector, layout units, y
 * down) in which the stub of the wrap link a–b leaves a; `sliceLabels`
 * (grids of 3 or more dimensions, else null) lists {x, y, text}: a label
 * under each slice (`sliceGap`, `sliceWidth`: the gap between slices and a
 * slice's width, layout units).
 */
export function layout(topo, shape = null) {
  const n = topo.nodes;
  const x = new Float32Array(n);
  const y = new Float32Array(n);
  let width = 1;
  let height = 1;
  let curve = () => 0;
  let isWrap = () => false;
  let wrapStub = null;
  let sliceLabels = null;
  let sliceGap = 0;
  let sliceWidth = 0;
  let grid2d = false; // a 2-D mesh or torus: nodes one unit apart in rows and columns
  let labels = null;
  let hasWrap = false;
  let nodeScale = NODE_SCALE;
  let margin = MARGIN;
  const dims = topo.dims;

  if (topo.kind === 'ring') {
    const r = Math.max(1.5, n / (2 * Math.PI));
    for (let v = 0; v < n; v++) {
      const a = (2 * Math.PI * v) / n - Math.PI / 2;
      x[v] = r + r * Math.cos(a);
      y[v] = r + r * Math.sin(a);
    }
    width = height = 2 * r;
  } else if (topo.kind === 'linear') {
    // A long array is folded into rows, back and forth, so it stays readable.
    const cols = n <= 64 ? n : Math.ceil(Math.sqrt(n * 4));
    const rows = Math.ceil(n / cols);
    for (let v = 0; v < n; v++) {
      const row = Math.floor(v / cols);
      const c = v % cols;
      x[v] = row % 2 === 0 ? c : cols - 1 - c;
      y[v] = row * 1.5;
    }
    width = Math.max(1, cols - 1);
    height = Math.max(1, (rows - 1) * 1.5);
  } else if (topo.kind === 'mesh' || topo.kind === 'torus') {
    ({ width, height, curve, isWrap, wrapStub, sliceLabels, sliceGap, sliceWidth } = gridLayout(topo, x, y));
    grid2d = dims.length === 2;
    hasWrap = !!topo.wrap;
  } else if (topo.kind === 'hypercube') {
    // Recursive 2-D embedding: even bits choose the column, odd bits the row;
    // each bit's offset is twice the previous one's plus a gap, so every
    // sub-cube is a visible block.
    const d = dims[0];
    const offset = [];
    let acc = 1;
    for (let j = 0; j < Math.ceil(d / 2); j++) {
      offset.push(acc);
      acc = 2 * acc + 0.6;
    }
    for (let v = 0; v < n; v++) {
      let px = 0;
      let py = 0;
      for (let b = 0; b < d; b++) {
        if ((v >> b) & 1) {
          if (b % 2 === 0) px += offset[b >> 1];
          else py += offset[b >> 1];
        }
      }
      x[v] = px;
      y[v] = py;
    }
    width = Math.max(1, x.reduce((m, v) => Math.max(m, v), 0));
    height = Math.max(1, y.reduce((m, v) => Math.max(m, v), 0));
    // Links of higher bits would pass over other nodes: bend each one so
    // that it clears them by about half a unit, whatever its length.
    curve = (a, b) => {
      const bit = 31 - Math.clz32(a ^ b);
      if (bit < 2) return 0;
      // Alternate sides by dimension, so parallel links of one dimension stack.
      const len = Math.abs(x[a] - x[b]) + Math.abs(y[a] - y[b]);
      return ((bit >> 1) % 2 ? -0.9 : 0.9) / len;
    };
    if (d <= 5) labels = (v) => v.toString(2).padStart(d, '0');
    nodeScale = 0.5;
    margin = 40;
  } else if (topo.kind === 'butterfly') {
    const d = dims[0];
    const rows = 1 << d;
    const colGap = levelGap(d);
    // Levels are columns left to right (level D the right-hand column, as
    // the texts say), rows top to bottom; `shape.across` (butterflyShape:
    // a wide, short canvas that could not draw the rows one by one) lays
    // the rows across and the levels down, `shape.gap` apart.
    const across = !!shape?.across;
    const gap = across ? shape.gap : colGap;
    for (let v = 0; v < n; v++) {
      const level = Math.floor(v / rows);
      const row = v % rows;
      x[v] = across ? row : level * gap;
      y[v] = across ? level * gap : row;
    }
    width = Math.max(1, across ? rows - 1 : d * gap);
    height = Math.max(1, across ? d * gap : rows - 1);
    if (d <= 4) labels = (v) => `${Math.floor(v / rows)},${v % rows}`;
  } else if (topo.kind === 'shuffle-exchange') {
    ({ width, height } = necklaceRings(topo, x, y));
    if (dims[0] <= 5) labels = (v) => v.toString(2).padStart(dims[0], '0');
    nodeScale = 0.5;
  }

  // Undirected links from the neighbour table (each once).
  const pairs = [];
  const ports = topo.ports;
  const nb = topo.neighbors;
  for (let v = 0; v < n; v++) {
    for (let p = 0; p < ports; p++) {
      const w = nb[v * ports + p];
      if (w !== 0xffffffff && v < w) pairs.push(v, w);
    }
  }
  // A wrap-around stub leaves a node along its row or column, away from the other end (its direction, in layout units).
  wrapStub ??= (a, b) => (Math.abs(y[a] - y[b]) < Math.abs(x[a] - x[b]) ? [Math.sign(x[a] - x[b]), 0] : [0, Math.sign(y[a] - y[b])]);
  return { x, y, width, height, links: Uint32Array.from(pairs), curve, isWrap, wrapStub, sliceLabels, sliceGap, sliceWidth, grid2d, hasWrap, nodeScale, margin, labels, nodes: n, ports, neighbors: nb, shape };
}

/**
 * How to lay out `butterfly:D` on a canvas `w` wide, its height at most
 * `room` and at least `least` px (as view.js resizeCanvas sizes it: the
 * drawing's aspect within those): null (levels left to right, the usual
 * drawing) unless that drawing would be a heat map (heat.js viewMode)
 * where rows laid across and levels down (`{across: true, gap}`,
 * gap the levels' spacing in row units) draw every node: the 400 × 600
 * frame of lmrr-butterfly showed five grey strips instead of its ghosts.
 */
export function butterflyShape(topo, w, room, least) {
  if (topo?.kind !== 'butterfly' || w <= room) return null;
  const d = topo.dims[0];
  const rows = 1 << d;
  const colGap = levelGap(d);
  // The node size a drawing W × H units gets (viewFor's fit of resizeCanvas's canvas).
  const size = (W, H) => fitScale(W, H, w, shownHeight(W, H, w, least, room), MARGIN) * NODE_SCALE;
  const drawn = (nodePx) => viewMode(nodePx) === 'dots';
  if (drawn(size(d * colGap, rows - 1))) return null;
  let best = null;
  for (let g = Math.round(colGap * 10); g >= 15; g--) {
    const s = size(rows - 1, (d * g) / 10);
    if (!best || s > best.s) best = { s, gap: g / 10 };
  }
  return best && drawn(best.s) ? { across: true, gap: best.gap } : null;
}

/**
 * The shuffle-exchange drawn by necklaces (the core gives each node its
 * `necklace`, its `position` in it and its `weight`): every necklace a
 * small ring with its nodes one unit apart in rotation order, so the
 * shuffle links are the ring's sides (a necklace of one node is a dot, of
 * two a pair); necklaces in columns by weight (the core numbers them by
 * weight), so the links between necklaces (the exchange links, which
 * change the weight by one) join neighbouring columns. A long column is
 * split in several, side by side, so that the picture is about 1.6 times
 * as wide as high; within a column the necklaces are ordered by where
 * their neighbours in the columns beside it are (two sweeps of the
 * barycentre heuristic), so fewer links cross. Writes x, y; returns
 * {width, height}.
 */
function necklaceRings(topo, x, y) {
  const n = topo.nodes;
  const { necklace, position, weight, neighbors, ports } = topo;
  let count = 0;
  for (let v = 0; v < n; v++) count = Math.max(count, necklace[v] + 1);
  const size = new Uint32Array(count);
  const weightOf = new Uint32Array(count);
  for (let v = 0; v < n; v++) {
    size[necklace[v]]++;
    weightOf[necklace[v]] = weight[v];
  }
  const radius = (len) => (len < 2 ? 0 : 0.5 / Math.sin(Math.PI / len));
  let largest = 1;
  for (let i = 0; i < count; i++) largest = Math.max(largest, size[i]);
  const half = radius(largest);
  const cell = 2 * half + 0.9;
  const groups = [];
  for (let i = 0; i < count; i++) (groups[weightOf[i]] ??= []).push(i);
  const columns = groups.filter(Boolean);
  let per = 1;
  let score = Infinity;
  for (let p = 1; p <= Math.max(...columns.map((g) => g.length)); p++) {
    const cols = columns.reduce((s, g) => s + Math.ceil(g.length / p), 0);
    const off = Math.abs(Math.log((cols - 1 + 2 * half / cell) / (p - 1 + 2 * half / cell) / 1.6));
    if (off < score) [per, score] = [p, off];
  }
  // Links between necklaces, as pairs of necklaces (each way).
  const between = [];
  for (let v = 0; v < n; v++) {
    for (let p = 0; p < ports; p++) {
      const w = neighbors[v * ports + p];
      if (w !== 0xffffffff && necklace[w] !== necklace[v]) between.push(necklace[v], necklace[w]);
    }
  }
  const cx = new Float32Array(count);
  const cy = new Float32Array(count);
  const place = () => {
    let col = 0;
    for (const g of columns) {
      const cols = Math.ceil(g.length / per);
      const rows = Math.ceil(g.length / cols);
      g.forEach((c, j) => {
        cx[c] = (col + (j % cols)) * cell;
        cy[c] = ((per - rows) / 2 + Math.floor(j / cols)) * cell;
      });
      col += cols;
    }
    return col;
  };
  place();
  const sum = new Float64Array(count);
  const links = new Uint32Array(count);
  for (let sweep = 0; sweep < 2; sweep++) {
    sum.fill(0);
    links.fill(0);
    for (let i = 0; i < between.length; i += 2) {
      sum[between[i]] += cy[between[i + 1]];
      links[between[i]]++;
    }
    const at = (c) => (links[c] ? sum[c] / links[c] : cy[c]);
    for (const g of columns) g.sort((a, b) => at(a) - at(b) || a - b);
    place();
  }
  const cols = place();
  for (let v = 0; v < n; v++) {
    const c = necklace[v];
    const a = (2 * Math.PI * position[v]) / size[c] - Math.PI / 2;
    const r = radius(size[c]);
    x[v] = half + cx[c] + r * Math.cos(a);
    y[v] = half + cy[c] + r * Math.sin(a);
  }
  return { width: Math.max(1, (cols - 1) * cell + 2 * half), height: Math.max(1, (per - 1) * cell + 2 * half) };
}

/**
 * A mesh or torus (SPEC §2: node ids row-major, the last coordinate
 * fastest). The last two coordinates form a slice, a rows × columns grid
 * (row = the second-to-last coordinate, down; column = the last, across).
 * With 3 or more dimensions the leading coordinates pick a slice, and the
 * slices are laid out in a grid of their own, a gap apart, each labelled
 * with its leading coordinates, "(2, ·, ·)":
 * - 3-D: the slices in order along a snake, left to right, then right to
 *   left on the next line (⌈√slices⌉ a line), so that consecutive slices —
 *   those a link joins — are always side by side or one above the other;
 * - 4-D: the first coordinate down, the second across;
 * - more: the leading coordinates alternately across and down, the
 *   innermost across, each level a wider gap apart.
 * A link between slices (along a leading coordinate) joins the same row
 * and column of two neighbouring slices: it is drawn as an arc that leaves
 * and enters its nodes at 45° or steeper and rises above its row when the
 * slices are side by side, or left of its column when one is above the
 * other, to halfway between two rows (columns), so that it never runs
 * along a row or a column (render.js draws it fainter than rows and
 * columns, and lit over a white casing).
 * Wrap-around links are told by coordinates (they differ by side − 1 along
 * one axis of a torus), never by drawn distance: along a row or column a
 * dashed stub leaves each end through the border; along a leading
 * coordinate (between the first and the last slice) the stub leaves
 * diagonally, as an arc would: half along the slices' order, half to the
 * side the arcs bow. Writes x, y; returns {width, height, curve, isWrap,
 * wrapStub, sliceLabels, sliceGap, sliceWidth}.
 */
function gridLayout(topo, x, y) {
  const n = topo.nodes;
  const dims = topo.dims;
  const d = dims.length;
  const cols = dims[d - 1];
  const rows = d >= 2 ? dims[d - 2] : 1;
  const lead = dims.slice(0, Math.max(0, d - 2));
  const stride = new Array(d);
  let acc = 1;
  for (let i = d - 1; i >= 0; i--) {
    stride[i] = acc;
    acc *= dims[i];
  }
  const coord = (v, i) => Math.floor(v / stride[i]) % dims[i];
  const axisOf = (a, b) => {
    for (let i = 0; i < d; i++) if (coord(a, i) !== coord(b, i)) return i;
    return -1;
  };
  // Whole units between slices, so that the rows (columns) of slices above
  // each other (side by side) stay a whole number of units apart, and an
  // arc's top, half-way between two rows, is half-way between rows of the
  // slice above too.
  const gap = Math.max(2, Math.round(0.2 * Math.max(rows, cols)));
  // Where each slice's corner is (block units), and the picture's extent.
  const slices = n / (rows * cols);
  const bx = new Float64Array(slices);
  const by = new Float64Array(slices);
  let ex = cols - 1;
  let ey = rows - 1;
  // The longest link between slices side by side, and between slices one above the other (layout units).
  let across = 0;
  let down = 0;
  if (lead.length === 1) {
    const perRow = Math.ceil(Math.sqrt(slices));
    for (let s = 0; s < slices; s++) {
      const line = Math.floor(s / perRow);
      const at = line % 2 === 0 ? s % perRow : perRow - 1 - (s % perRow);
      bx[s] = at * (cols - 1 + gap);
      by[s] = line * (rows - 1 + gap);
    }
    ex = Math.min(slices, perRow) * (cols - 1 + gap) - gap;
    ey = Math.ceil(slices / perRow) * (rows - 1 + gap) - gap;
    if (slices > 1) across = cols - 1 + gap;
    if (slices > perRow) down = rows - 1 + gap;
  } else if (lead.length >= 2) {
    for (let k = 0; k < lead.length; k++) {
      const i = lead.length - 1 - k; // innermost first
      const level = Math.floor(k / 2);
      const g = gap * (1 + level);
      const side = lead[i];
      const sliceStride = stride[i] / (rows * cols);
      if (k % 2 === 0) {
        const pitch = ex + g;
        for (let s = 0; s < slices; s++) bx[s] += (Math.floor(s / sliceStride) % side) * pitch;
        ex += (side - 1) * pitch;
        if (side > 1) across = Math.max(across, pitch);
      } else {
        const pitch = ey + g;
        for (let s = 0; s < slices; s++) by[s] += (Math.floor(s / sliceStride) % side) * pitch;
        ey += (side - 1) * pitch;
        if (side > 1) down = Math.max(down, pitch);
      }
    }
  }
  // How far the arc of a link between slices `len` units apart rises above
  // (or left of) its row (column): a quarter of its length or more, so that
  // it leaves and enters its nodes at 45° or steeper, clear of the row
  // (column) they are on; rounded up to a whole number and a half, so that
  // its top runs halfway between two rows (columns); half a unit at least.
  const rise = (len) => Math.max(0.5, Math.ceil(len / 4 - 0.5) + 0.5);
  // Room for the arcs that bow up out of the top slices and left out of
  // the leftmost ones, and for the labels under the bottom ones.
  const padTop = across ? rise(across) : 0;
  const padLeft = down ? rise(down) : 0;
  const padBottom = lead.length ? 0.7 : 0;
  for (let v = 0; v < n; v++) {
    const s = Math.floor(v / (rows * cols));
    x[v] = padLeft + bx[s] + (v % cols);
    y[v] = padTop + by[s] + (Math.floor(v / cols) % rows);
  }
  const wrap = !!topo.wrap;
  const isWrap = (a, b) => {
    if (!wrap) return false;
    const i = axisOf(a, b);
    return i >= 0 && dims[i] > 2 && Math.abs(coord(a, i) - coord(b, i)) === dims[i] - 1;
  };
  // The side an arc between slices bows to: up for slices side by side, left for one above the other.
  const bowSide = (dx, dy) => (Math.abs(dx) >= Math.abs(dy) ? [0, -1] : [-1, 0]);
  const curve = (a, b) => {
    if (axisOf(a, b) >= d - 2 || isWrap(a, b)) return 0;
    const lo = Math.min(a, b);
    const hi = Math.max(a, b);
    const dx = x[hi] - x[lo];
    const dy = y[hi] - y[lo];
    const len = Math.hypot(dx, dy) || 1;
    // The control point lies len · |bend| from the chord's middle, on the
    // side of (−dy, dx) for bend > 0 (render.js drawLink, geometry.js
    // along); the arc's middle half as far.
    const [sx, sy] = bowSide(dx, dy);
    const side = -dy * sx + dx * sy >= 0 ? 1 : -1;
    return (side * 2 * rise(len)) / len;
  };
  const wrapStub = (a, b) => {
    const i = axisOf(a, b);
    if (i >= d - 2) return Math.abs(y[a] - y[b]) < Math.abs(x[a] - x[b]) ? [Math.sign(x[a] - x[b]), 0] : [0, Math.sign(y[a] - y[b])];
    // Outwards along the slices' order: from a's neighbour towards the inside of the axis to a.
    const inner = coord(a, i) === 0 ? a + stride[i] : a - stride[i];
    const ux = Math.sign(x[a] - x[inner]);
    const uy = Math.sign(y[a] - y[inner]);
    const [sx, sy] = bowSide(ux, uy);
    return [(ux + sx) / Math.SQRT2, (uy + sy) / Math.SQRT2];
  };
  let sliceLabels = null;
  if (lead.length) {
    sliceLabels = [];
    for (let s = 0; s < slices; s++) {
      const v = s * rows * cols;
      const text = `(${lead.map((_, i) => coord(v, i)).join(', ')}, ·, ·)`;
      sliceLabels.push({ x: padLeft + bx[s] + (cols - 1) / 2, y: padTop + by[s] + rows - 1 + 0.45, text });
    }
  }
  return {
    width: Math.max(1, padLeft + ex),
    height: Math.max(1, padTop + ey + padBottom),
    curve, isWrap, wrapStub, sliceLabels, sliceGap: gap, sliceWidth: cols - 1,
  };
}
