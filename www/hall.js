// The plan's bipartite graph (`data-role="hall"`, a fold under the explain
// panel): draws the core's `Simulation.routing_graph()` — for a run that
// plans with one (the off-line algorithm's G_π), the vertices on two
// sides, one edge per packet in its colour class's colour, dummy edges
// dashed — and one button per colour class. Choosing a class shows its
// edges alone and rings its packets on that run's network in the same
// colour (render.js drawOverlays, `frame.highlight`). Every number, word
// and colour is the core's; this file only lays them out.

import { $, state } from './state.js';

const SVG = 'http://www.w3.org/2000/svg';
const W = 300;
const PAD = 16;
/** The most vertices per side and colours drawn (a 64 × 64 mesh: 4,096 edges and 64 colours, each button a colour). */
const MOST = 64;

/** The run that plans with a graph (the main run first, then the one beside it), after a rebuild. */
export function updateHall() {
  const runs = [state.sim, state.compare?.active ? state.compare.sim : null];
  state.hall = null;
  runs.forEach((sim, run) => {
    if (state.hall || !sim) return;
    const graph = sim.routing_graph();
    if (graph) state.hall = { graph, run, chosen: null };
  });
  const box = $('hall');
  box.hidden = !state.hall;
  box.dataset.run = state.hall ? String(state.hall.run) : '';
  if (state.hall) draw(state.hall.graph);
}

/** For drawFrame: the packets of the chosen class and its colour on run `run`'s canvas (0 main, 1 beside), or null. */
export function hallHighlight(run) {
  const h = state.hall;
  if (!h || h.chosen === null || h.run !== run) return null;
  h.packets ??= h.graph.colour.flatMap((c, p) => (c === h.chosen ? [p] : []));
  return { packets: h.packets, colour: h.graph.palette[h.chosen] };
}

function el(name, attrs) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

function draw(g) {
  $('hall-caption').textContent = g.caption;
  if (g.vertices > MOST || g.colours > MOST) {
    const p = document.createElement('p');
    p.className = 'hint';
    p.textContent = `Too many to draw here: ${g.from.length} edges and ${g.colours} colours. The drawing takes meshes of at most ${MOST} rows and ${MOST} columns.`;
    $('hall-figure').replaceChildren(p);
    $('hall-classes').replaceChildren();
    return;
  }
  const n = g.vertices;
  const gap = n > 1 ? Math.min(18, Math.max(6, 240 / (n - 1))) : 0;
  const top = PAD + 8;
  const H = top + PAD + gap * Math.max(0, n - 1);
  const [xl, xr] = [44, W - 44];
  const y = (v) => top + v * gap;
  const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': g.caption, 'data-role': 'hall-graph' });
  // Parallel edges (one per packet) fan out around the straight line,
  // within a band of about one vertex gap however many there are.
  const many = new Map();
  const key = (from, to) => from * n + to;
  [...g.from.map((f, p) => key(f, g.to[p])), ...g.dummy_from.map((f, i) => key(f, g.dummy_to[i]))]
    .forEach((k) => many.set(k, (many.get(k) ?? 0) + 1));
  const seen = new Map();
  const edge = (from, to, colour, attrs, dashed) => {
    const k = key(from, to);
    const i = seen.get(k) ?? 0;
    seen.set(k, i + 1);
    const m = many.get(k);
    const bend = (i - (m - 1) / 2) * Math.min(4, (1.6 * gap) / m);
    const [y1, y2] = [y(from), y(to)];
    const path = el('path', {
      d: `M${xl} ${y1} Q${W / 2} ${(y1 + y2) / 2 + bend} ${xr} ${y2}`,
      stroke: g.palette[colour], 'data-colour': colour, 'data-from': from, 'data-to': to, ...attrs,
    });
    if (dashed) path.setAttribute('stroke-dasharray', '3 3');
    svg.append(path);
  };
  g.from.forEach((from, p) => edge(from, g.to[p], g.colour[p], { 'data-role': 'hall-edge', 'data-packet': p }, false));
  g.dummy_from.forEach((from, i) => edge(from, g.dummy_to[i], g.dummy_colour[i], { 'data-role': 'hall-dummy' }, true));
  const every = Math.ceil(n / 24);
  for (let v = 0; v < n; v++) {
    for (const [x, side, anchor, dx] of [[xl, 's', 'end', -6], [xr, 'd', 'start', 6]]) {
      svg.append(el('circle', { cx: x, cy: y(v), r: Math.min(3.5, gap * 0.3 + 1), class: 'hall-vertex' }));
      if (v % every === 0 || v === n - 1) {
        const t = el('text', { x: x + dx, y: y(v) + 3.5, 'text-anchor': anchor });
        t.textContent = `${side}${v}`;
        svg.append(t);
      }
    }
  }
  const heads = [[2, 'start', g.left], [W - 2, 'end', g.right]].map(([x, anchor, text]) => {
    const t = el('text', { x, y: 11, 'text-anchor': anchor, class: 'hall-head' });
    t.textContent = `${text}s`;
    return t;
  });
  svg.prepend(...heads);
  const buttons = g.palette.map((colour, c) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.role = 'hall-class';
    b.dataset.class = String(c);
    b.dataset.colour = colour;
    b.setAttribute('aria-pressed', 'false');
    b.innerHTML = `<span class="swatch" aria-hidden="true" style="background:${colour}"></span>${g.colour_name} ${c}`;
    b.addEventListener('click', () => choose(state.hall?.chosen === c ? null : c));
    return b;
  });
  $('hall-figure').replaceChildren(svg);
  $('hall-classes').replaceChildren(...buttons);
}

/** Shows class `c` alone (null: every class) and rings its packets on the network. */
function choose(c) {
  if (!state.hall) return;
  state.hall.chosen = c;
  state.hall.packets = null;
  const svg = $('hall-figure').querySelector('svg');
  if (!svg) return;
  svg.classList.toggle('chosen', c !== null);
  for (const p of svg.querySelectorAll('path')) p.classList.toggle('on', Number(p.dataset.colour) === c);
  for (const b of $('hall-classes').children) b.setAttribute('aria-pressed', String(Number(b.dataset.class) === c));
  state.dirty = true;
}
