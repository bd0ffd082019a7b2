// Aggregated drawing for zoomed-out views of big networks (a 64×64 or
// 128×128 mesh on a page or a phone): when nodes would be a few pixels
// wide, each cell of a few pixels shows the packet density of the nodes
// in it (packets there, waiting at their source or in transit, per node)
// as a heat map, instead of a texture of dots. Pure drawing: nothing here
// changes simulation state.

/** Below this node size (CSS px) the view draws cells, not nodes and dots. */
export const HEAT_NODE_PX = 5;
/** Cells are at least this wide (CSS px). */
const CELL_PX = 6;
const UNDELIVERED = 0xffffffff;
const EMPTY = '#eef1f5';
const LEVELS = 16;

/** 'heat' (aggregated cells) or 'dots' (nodes and packets) for a view of a layout. */
export function viewMode(nodePx) {
  return nodePx < HEAT_NODE_PX ? 'heat' : 'dots';
}

/**
 * Sequential ramp for densities, light to dark (pale yellow, orange, red,
 * dark purple: a single lightness gradient, readable with the common
 * colour-vision deficiencies). `t` in [0, 1].
 */
export function densityColor(t) {
  const stops = [[255, 245, 190], [253, 174, 97], [215, 48, 39], [84, 22, 94]];
  const x = Math.min(1, Math.max(0, t)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(x));
  const f = x - i;
  const c = stops[i].map((v, j) => Math.round(v + (stops[i + 1][j] - v) * f));
  return `rgb(${c[0]},${c[1]},${c[2]})`;
}

/**
 * The cells of a view: nodes binned by their layout position into squares
 * of `u` × `u` layout units (u × u nodes of a 2-D mesh; other networks'
 * cells hold as many nodes as their layout puts there), each at least CELL_PX wide
 * on screen. Returns {u, cols, rows, cell (Int32Array: node -> cell), nodes
 * (Uint32Array: nodes per cell)}. Depends only on the view's scale.
 */
function cellsOf(view, lay) {
  const u = Math.max(1, Math.ceil(CELL_PX / view.scale));
  const cols = Math.floor((lay.width + 0.5) / u) + 1;
  const rows = Math.floor((lay.height + 0.5) / u) + 1;
  const cell = new Int32Array(lay.nodes);
  const nodes = new Uint32Array(cols * rows);
  for (let v = 0; v < lay.nodes; v++) {
    const c = Math.floor((lay.x[v] + 0.5) / u) + cols * Math.floor((lay.y[v] + 0.5) / u);
    cell[v] = c;
    nodes[c]++;
  }
  return { u, cols, rows, cell, nodes };
}

/**
 * Draws the heat map of `snapshot` (packets per node of each cell) with a
 * small key, and returns the densest cell's density. Cells are cached on
 * the view (a new view per zoom or size). With `classColour` (class →
 * `#rrggbb`, the palette's, when packets are coloured by class), each
 * occupied cell also gets a small square in the colour of the class most of
 * its packets belong to, so the classes the legend names show here too.
 */
export function drawHeat(ctx, view, lay, snapshot, classColour = null, floor = 0) {
  const { count, top } = densities(view, lay, snapshot);
  const { u, cols, nodes } = view.cells;
  // The scale tops out at 4 packets per node or the densest cell: a
  // uniform load of one or two packets per node stays light, hot spots
  // show. `floor`: the other run's densest cell beside it (compare view),
  // so that one colour means one density on both canvases.
  const scaleMax = Math.max(4, top, floor);
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, view.widthPx, view.heightPx);
  // One path per colour level; cells touch (no gaps) so the map reads as a surface.
  const side = u * view.scale;
  const levels = Array.from({ length: LEVELS + 1 }, () => []);
  for (let c = 0; c < count.length; c++) {
    if (!nodes[c]) continue;
    levels[count[c] > 0 ? 1 + Math.min(LEVELS - 1, Math.floor((LEVELS * count[c]) / scaleMax - 1e-9)) : 0].push(c);
  }
  levels.forEach((list, level) => {
    if (!list.length) return;
    ctx.fillStyle = level === 0 ? EMPTY : densityColor(level / LEVELS);
    ctx.beginPath();
    for (const c of list) {
      const x = view.ox + ((c % cols) * u - 0.5) * view.scale;
      const y = view.oy + (Math.floor(c / cols) * u - 0.5) * view.scale;
      if (x > view.widthPx || y > view.heightPx || x + side < 0 || y + side < 0) continue;
      ctx.rect(x, y, side + 0.5, side + 0.5);
    }
    ctx.fill();
  });
  if (classColour) drawMajorities(ctx, view, snapshot, classColour);
  drawDensityKey(ctx, view, lay, scaleMax);
  return top;
}

/**
 * The packets per node of each cell of `view` (undelivered ones, waiting at
 * their source included) and the densest cell's: `{count, top}`. Kept on
 * the view for its snapshot: beside a second run the shared scale and the
 * drawing ask for the same counts in one frame.
 */
export function densities(view, lay, snapshot) {
  if (view.densities?.snapshot === snapshot) return view.densities.result;
  if (!view.cells) view.cells = cellsOf(view, lay);
  const { cell, nodes } = view.cells;
  const count = new Float32Array(nodes.length);
  const pos = snapshot.positions;
  for (let p = 0; p < pos.length; p++) {
    if (snapshot.delivered_at[p] === UNDELIVERED) count[cell[pos[p]]]++;
  }
  let top = 0;
  for (let c = 0; c < count.length; c++) {
    if (nodes[c]) {
      count[c] /= nodes[c];
      if (count[c] > top) top = count[c];
    }
  }
  view.densities = { snapshot, result: { count, top } };
  return { count, top };
}

/** Per occupied cell, a square in its most frequent class's colour (ties: the smaller class). */
function drawMajorities(ctx, view, snapshot, classColour) {
  const { u, cols, cell, nodes } = view.cells;
  const SLOTS = 8; // the palette's classes (render.js maps class c to slot c mod 8 the same way)
  const tally = new Uint32Array(nodes.length * SLOTS);
  const pos = snapshot.positions;
  for (let p = 0; p < pos.length; p++) {
    if (snapshot.delivered_at[p] === UNDELIVERED) tally[cell[pos[p]] * SLOTS + (snapshot.classes[p] % SLOTS)]++;
  }
  const side = u * view.scale;
  const m = Math.max(3, Math.round(side * 0.45));
  const byColour = new Map();
  for (let c = 0; c < nodes.length; c++) {
    let best = -1;
    let most = 0;
    for (let k = 0; k < SLOTS; k++) {
      if (tally[c * SLOTS + k] > most) {
        most = tally[c * SLOTS + k];
        best = k;
      }
    }
    if (best < 0) continue;
    const colour = classColour(best);
    if (!byColour.has(colour)) byColour.set(colour, []);
    byColour.get(colour).push(c);
  }
  ctx.lineWidth = 1;
  ctx.strokeStyle = 'rgba(255,255,255,0.9)';
  for (const [colour, list] of byColour) {
    ctx.fillStyle = colour;
    ctx.beginPath();
    for (const c of list) {
      const x = Math.round(view.ox + ((c % cols) * u - 0.5) * view.scale + side / 2 - m / 2);
      const y = Math.round(view.oy + (Math.floor(c / cols) * u - 0.5) * view.scale + side / 2 - m / 2);
      if (x > view.widthPx || y > view.heightPx || x + m < 0 || y + m < 0) continue;
      ctx.rect(x, y, m, m);
    }
    ctx.fill();
    ctx.stroke();
  }
}

/**
 * A sort coloured by key, zoomed out: each cell in the colour of the mean
 * key of the packets in it (`shade`: each packet's key as its place among
 * the distinct keys, 0 to 1, render.js's keyShades; `colour`
 * the scale render.js draws dots with), delivered ones too, so that the
 * order shows as the keys settle. With its key, bottom left.
 */
export function drawKeyCells(ctx, view, lay, snapshot, shade, colour) {
  if (!view.cells) view.cells = cellsOf(view, lay);
  const { u, cols, cell, nodes } = view.cells;
  const sum = new Float32Array(nodes.length);
  const count = new Uint32Array(nodes.length);
  const pos = snapshot.positions;
  for (let p = 0; p < pos.length; p++) {
    sum[cell[pos[p]]] += shade[p];
    count[cell[pos[p]]]++;
  }
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, view.widthPx, view.heightPx);
  const side = u * view.scale;
  const byColour = new Map();
  for (let c = 0; c < nodes.length; c++) {
    if (!nodes[c]) continue;
    const fill = count[c] ? colour(sum[c] / count[c]) : EMPTY;
    if (!byColour.has(fill)) byColour.set(fill, []);
    byColour.get(fill).push(c);
  }
  for (const [fill, list] of byColour) {
    ctx.fillStyle = fill;
    ctx.beginPath();
    for (const c of list) {
      const x = view.ox + ((c % cols) * u - 0.5) * view.scale;
      const y = view.oy + (Math.floor(c / cols) * u - 0.5) * view.scale;
      if (x > view.widthPx || y > view.heightPx || x + side < 0 || y + side < 0) continue;
      ctx.rect(x, y, side + 0.5, side + 0.5);
    }
    ctx.fill();
  }
  const cells = cellWords(view, lay);
  const texts = cells
    ? [...cells, ''].flatMap((c) => [`mean key per cell, low → high${c}`, `key, low → high${c}`])
    : ['key per node, low → high', 'key, low → high'];
  drawKey(ctx, view, texts, colour);
}

/**
 * The colour key, bottom left, on one line: what a cell's colour means (in
 * fewer words on a narrow canvas, e.g. the half-width ones of the compare
 * view): `texts`, longest first, along the ramp `colour` (0..1).
 */
function drawDensityKey(ctx, view, lay, scaleMax) {
  const top = Number.isInteger(scaleMax) ? scaleMax : scaleMax.toFixed(1);
  // Cells of several nodes show their mean, fractional: the shortest text
  // still says so (it said "0 … 11.3 per node" beside a largest queue of 17).
  const words = cellWords(view, lay);
  const cells = words ? [...words, ' (cell means)'] : [''];
  drawKey(ctx, view, cells.flatMap((c) => [`0 … ${top} packets per node${c}`, `0 … ${top} per node${c}`]), densityColor);
}

/**
 * What a cell of the view holds, in words (longest first), as the cells
 * themselves count their nodes (`view.cells.nodes`): " (cells of 2×2
 * nodes)" only on a 2-D mesh or torus whose every cell holds u × u nodes
 * (u nodes a side, one unit apart); else " (cells of 2 nodes)" when all
 * hold as many, " (cells of up to 4 nodes)" when they differ (a butterfly's
 * cells hold a level's rows, a ring's the nodes on its arc, a hypercube's
 * the nodes its embedding puts there). Null when every cell holds one node.
 */
function cellWords(view, lay) {
  const { u, nodes } = view.cells;
  let least = Infinity;
  let most = 0;
  for (const k of nodes) {
    if (!k) continue;
    if (k < least) least = k;
    if (k > most) most = k;
  }
  if (most <= 1) return null;
  if (lay.grid2d && least === most && most === u * u) return [` (cells of ${u}×${u} nodes)`, ` (${u}×${u} cells)`];
  if (least === most) return [` (cells of ${most} nodes)`, ` (${most}-node cells)`];
  return [` (cells of up to ${most} nodes)`, ` (≤ ${most} nodes a cell)`];
}

function drawKey(ctx, view, texts, colour) {
  const h = 8;
  const x = 8;
  const y = view.heightPx - 16;
  ctx.font = '11px system-ui, sans-serif';
  const room = (w) => view.widthPx - x - w - 14;
  let w = 60;
  let text = texts.find((t) => ctx.measureText(t).width <= room(w));
  if (!text) {
    w = 30;
    text = texts.find((t) => ctx.measureText(t).width <= room(w)) ?? texts.at(-1);
  }
  const tw = ctx.measureText(text).width;
  ctx.fillStyle = 'rgba(255,255,255,0.9)';
  ctx.fillRect(x - 4, y - 5, w + tw + 14, h + 10);
  for (let i = 0; i < w; i++) {
    ctx.fillStyle = colour(i / (w - 1));
    ctx.fillRect(x + i, y, 1.2, h);
  }
  ctx.fillStyle = '#1f2933';
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  ctx.fillText(text, x + w + 6, y + h / 2);
}
