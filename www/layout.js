// Where each node of a network is drawn, in abstract units (one unit is
// the usual distance between neighbours). Pure functions of the topology
// description that the wasm module returns ({kind, dims, nodes, ports,
// wrap, neighbors}, and for the shuffle-exchange {necklace, position,
// weight}); node numbering follows SPEC §2.

/**
 * Returns {x, y (Float32Array per node), width, height, spacing, links,
 * wrapLinks, curve}. `links` lists undirected links as pairs of nodes
 * (Uint32Array, 2 per link); `curve(a, b)` gives the bend of the drawn link
 * between two nodes (0 = straight), `isWrap(a, b)` tells wrap-around links.
 */
export function layout(topo) {
  const n = topo.nodes;
  const x = new Float32Array(n);
  const y = new Float32Array(n);
  let width = 1;
  let height = 1;
  let curve = () => 0;
  let isWrap = () => false;
  let labels = null;
  let hasWrap = false;
  let nodeScale = 0.62;
  let margin = 28;
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
    // The last two coordinates form a row × column slice; the leading
    // coordinates (3-D and up) pick a slice, laid out in a grid of slices.
    const cols = dims[dims.length - 1];
    const rows = dims.length >= 2 ? dims[dims.length - 2] : 1;
    const slices = n / (rows * cols);
    const perRow = Math.ceil(Math.sqrt(slices));
    const gap = Math.max(1.5, 0.2 * cols);
    for (let v = 0; v < n; v++) {
      const c = v % cols;
      const r = Math.floor(v / cols) % rows;
      const s = Math.floor(v / (cols * rows));
      x[v] = (s % perRow) * (cols - 1 + gap) + c;
      y[v] = Math.floor(s / perRow) * (rows - 1 + gap) + r;
    }
    width = Math.max(1, perRow * (cols - 1 + gap) - gap);
    height = Math.max(1, Math.ceil(slices / perRow) * (rows - 1 + gap) - gap);
    if (topo.wrap) {
      // Neighbours more than one unit apart on a torus are wrap-around links.
      isWrap = (a, b) => Math.abs(x[a] - x[b]) + Math.abs(y[a] - y[b]) > 1.5;
      hasWrap = true;
    }
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
    const colGap = Math.max(1.5, (rows - 1) / Math.max(1, d) * 0.9);
    for (let v = 0; v < n; v++) {
      const level = Math.floor(v / rows);
      const row = v % rows;
      x[v] = level * colGap;
      y[v] = row;
    }
    width = Math.max(1, d * colGap);
    height = Math.max(1, rows - 1);
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
  return { x, y, width, height, links: Uint32Array.from(pairs), curve, isWrap, hasWrap, nodeScale, margin, labels, nodes: n, ports, neighbors: nb };
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
