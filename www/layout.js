// Where each node of a network is drawn, in abstract units (one unit is
// the usual distance between neighbours). Pure functions of the topology
// description that the wasm module returns ({kind, dims, nodes, ports,
// wrap, neighbors}); node numbering follows SPEC §2.

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
