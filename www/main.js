// The page: loads the wasm module, builds the controls from its lists,
// keeps the configuration in the URL, and runs the animation loop. All
// simulation results come from the wasm Simulation; this file only asks
// for steps and draws what it gets.

import init, * as wasm from './pkg/routesim.js';
import { DEFAULTS, DEFAULT_SIZES, parseQuery, toQuery, simConfig } from './config.js';
import { layout } from './layout.js';
import { drawFrame, viewFor, nodeAt, packetAt } from './render.js';
import { runChart } from './charts.js';
import { setupExperiment } from './experiment.js';

const $ = (id) => document.getElementById(id);
const UNDELIVERED = 0xffffffff;

// ---- messages --------------------------------------------------------------

/** Shows a message; `source` groups messages so a rebuild can clear its own. */
function showMessage(kind, text, source = 'page') {
  const box = $('messages');
  const div = document.createElement('div');
  div.className = `msg ${kind}`;
  div.dataset.source = source;
  const span = document.createElement('span');
  span.textContent = text;
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'close';
  close.setAttribute('aria-label', 'dismiss');
  close.textContent = '×';
  close.addEventListener('click', () => div.remove());
  div.append(span, close);
  box.append(div);
}

function clearMessages(source) {
  for (const el of $('messages').querySelectorAll(`[data-source="${source}"]`)) el.remove();
}

// ---- state -----------------------------------------------------------------

const state = {
  config: { ...DEFAULTS },
  embed: false,
  lists: null,
  sim: null,
  topo: null,
  lay: null,
  view: null,
  snapshot: null,
  prevPositions: null,
  destinations: null,
  sources: null,
  bounds: null,
  instanceText: null, // a loaded instance replaces topology + workload
  playing: true,
  stepsDue: 0,
  anim: { start: 0, duration: 0 },
  watched: null,
  trail: null,
  hover: null,
  dots: null,
  dirty: true,
  lastChart: 0,
  undeliveredAtStart: 0,
  chart: null,
  experiment: null,
};
window.routesim = state; // for the end-to-end tests and the curious

// ---- simulation life cycle -------------------------------------------------

function rebuild() {
  clearMessages('sim');
  state.sim?.free();
  state.sim = null;
  state.snapshot = null;
  state.prevPositions = null;
  state.watched = null;
  state.trail = null;
  state.stepsDue = 0;
  const c = state.config;
  try {
    const config = state.instanceText
      ? { instance: state.instanceText, algorithm: c.algorithm, policy: c.policy, seed: c.seed, ...(c.q !== null ? { queue_cap: c.q } : {}) }
      : simConfig(c);
    state.sim = new wasm.Simulation(config);
  } catch (e) {
    showMessage('error', `Cannot run this configuration: ${e.message}`, 'sim');
  }
  try {
    state.topo = state.sim ? state.sim.topology() : wasm.topology(c.topology);
    state.lay = layout(state.topo);
  } catch (e) {
    state.topo = null;
    state.lay = null;
  }
  if (state.sim) {
    state.snapshot = state.sim.snapshot();
    state.destinations = state.sim.destinations();
    state.sources = state.sim.sources();
    state.bounds = state.sim.bounds();
    state.undeliveredAtStart = state.snapshot.in_flight;
  } else {
    state.bounds = null;
  }
  resizeCanvas();
  updateCounters();
  updateChart(true);
  updateWatchInfo();
  state.dirty = true;
  setPlaying(state.playing && !!state.sim);
}

function running() {
  return state.sim && state.snapshot && state.snapshot.status === 'running';
}

/** Runs `n` steps within a time budget; returns how many were run. */
function advance(n, budgetMs = 14) {
  const t0 = performance.now();
  let done = 0;
  let chunk = 1;
  while (done < n && running()) {
    const c = Math.min(chunk, n - done);
    const summary = state.sim.step(c);
    state.snapshot.status = summary.status;
    done += c;
    if (performance.now() - t0 > budgetMs) break;
    chunk *= 2;
  }
  return done;
}

function afterSteps(done, animateMs) {
  if (!done) return;
  const prev = state.snapshot.positions;
  state.snapshot = state.sim.snapshot();
  state.prevPositions = done === 1 && animateMs > 0 ? prev : null;
  state.anim = { start: performance.now(), duration: animateMs };
  if (state.watched !== null) state.trail = state.sim.trail();
  updateCounters();
  updateWatchInfo();
  updateChart(state.snapshot.status !== 'running');
  if (state.snapshot.status !== 'running') setPlaying(false);
  state.dirty = true;
}

function setPlaying(on) {
  state.playing = on;
  $('play').textContent = on ? 'Pause' : state.snapshot && state.snapshot.status !== 'running' ? 'Replay' : 'Play';
  state.lastFrame = performance.now();
}

// ---- counters, chart, watch ------------------------------------------------

function updateCounters() {
  const s = state.snapshot;
  $('c-step').textContent = s ? s.step : '–';
  $('c-delivered').textContent = s ? `${s.delivered} / ${s.packets}` : '–';
  $('c-inflight').textContent = s ? s.in_flight : '–';
  $('c-maxqueue').textContent = s ? s.max_queue : '–';
  const b = state.bounds;
  if (b && s) {
    const reached = s.step >= b.best;
    const ratio = s.status === 'finished' && b.best > 0 ? ` · steps ×${(s.step / b.best).toFixed(2)}` : '';
    $('c-bound').textContent = `${b.best}${reached ? ` ✓${ratio}` : ` (${Math.round((100 * s.step) / Math.max(1, b.best))}% reached)`}`;
    $('c-bound').title = `best = ${b.best} (distance ${b.distance}, bisection ${b.bisection}, sink ${b.sink}, region ${b.region}); √(ℓkN) = ${b.sqrt_lkn.toFixed(1)}. `
      + (reached ? 'The run has reached the lower bound.' : 'Steps so far as a share of the bound.');
  } else {
    $('c-bound').textContent = '–';
  }
  const status = { running: 'running', finished: 'finished', stalled: 'stalled', 'step-limit': 'step limit' };
  $('c-status').textContent = s ? status[s.status] ?? s.status : 'not running';
  $('c-status').className = s ? `st-${s.status}` : 'st-none';
  $('c-phase').textContent = s && s.phase ? s.phase : '–';
}

function updateChart(force) {
  const now = performance.now();
  if (!state.chart || (!force && now - state.lastChart < 200)) return;
  state.lastChart = now;
  if (!state.sim) {
    state.chart.update({ in_flight: [], queue_series: [] }, 0);
    return;
  }
  state.chart.update(state.sim.stats(), state.undeliveredAtStart);
}

function updateWatchInfo() {
  const el = $('watch-info');
  if (state.watched === null || !state.trail) {
    el.textContent = state.sim ? 'Click a packet to follow its route.' : '';
    return;
  }
  const p = state.watched;
  const route = [...state.trail];
  const shown = route.length > 24 ? [...route.slice(0, 10), '…', ...route.slice(-10)] : route;
  const delivered = state.snapshot.delivered_at[p] !== UNDELIVERED ? ` — delivered at step ${state.snapshot.delivered_at[p]}` : '';
  el.textContent = `Packet #${p}: ${state.sources[p]} → ${state.destinations[p]}${delivered}. Route so far (${route.length - 1} hops): ${shown.join(' → ')}`;
}

// ---- drawing ---------------------------------------------------------------

function resizeCanvas() {
  const canvas = $('network');
  const wrap = canvas.parentElement;
  const w = Math.max(240, wrap.clientWidth);
  let h = w;
  if (state.lay) {
    const aspect = (state.lay.height + 1.2) / (state.lay.width + 1.2);
    // Embedded, leave room for the buttons, counters and chart below.
    const room = state.embed ? Math.max(220, window.innerHeight - 340) : Math.max(320, window.innerHeight * 0.72);
    h = Math.round(Math.min(Math.max(w * aspect, 220), room));
  }
  const dpr = window.devicePixelRatio || 1;
  canvas.style.height = `${h}px`;
  canvas.width = Math.round(w * dpr);
  canvas.height = Math.round(h * dpr);
  state.view = state.lay ? viewFor(state.lay, w, h, dpr) : null;
  state.dirty = true;
}

function draw(now) {
  const canvas = $('network');
  const ctx = canvas.getContext('2d');
  const dpr = window.devicePixelRatio || 1;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  if (!state.lay || !state.view) {
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.fillStyle = '#6b7280';
    ctx.font = '14px system-ui, sans-serif';
    ctx.fillText('Nothing to draw: see the message above.', 20, 30);
    return;
  }
  const { duration, start } = state.anim;
  const t = duration > 0 ? Math.min(1, (now - start) / duration) : 1;
  state.dots = drawFrame(ctx, state.view, state.lay, {
    snapshot: state.snapshot,
    prevPositions: state.prevPositions,
    t,
    colorMode: state.config.color,
    destinations: state.destinations,
    trail: state.trail,
    watched: state.watched,
    hover: state.hover,
    queueScale: state.snapshot ? Math.max(4, state.snapshot.max_queue) : 4,
  });
  state.dirty = t < 1;
}

function loop(now) {
  const dt = Math.min(0.25, (now - (state.lastFrame ?? now)) / 1000);
  state.lastFrame = now;
  if (state.playing && running()) {
    const speed = state.config.speed;
    state.stepsDue += dt * speed;
    const n = Math.floor(state.stepsDue);
    if (n >= 1) {
      state.stepsDue -= n;
      const done = advance(n);
      if (done < n) state.stepsDue = 0; // cannot keep up: drop the backlog
      afterSteps(done, speed <= 30 ? 1000 / speed : 0);
    }
  }
  if (state.dirty) draw(now);
  requestAnimationFrame(loop);
}

// ---- controls --------------------------------------------------------------

function fillSelect(select, list) {
  select.replaceChildren(...list.map((item) => {
    const o = document.createElement('option');
    o.value = item.name;
    o.textContent = item.name;
    o.title = item.description ?? '';
    return o;
  }));
}

function speedToSlider(speed) {
  return Math.round((Math.log10(Math.max(1, speed)) / 3) * 100);
}

function sliderToSpeed(v) {
  return Math.max(1, Math.round(10 ** ((3 * v) / 100)));
}

function writeControls() {
  const c = state.config;
  const [kind, size] = c.topology.split(/:(.*)/s);
  $('kind').value = kind;
  $('size').value = size ?? '';
  $('algorithm').value = c.algorithm;
  $('policy').value = c.policy;
  $('workload').value = c.workload;
  $('l').value = c.l;
  $('k').value = c.k;
  $('seed').value = c.seed;
  $('q').value = c.q ?? '';
  $('color').value = c.color;
  $('speed').value = speedToSlider(c.speed);
  $('speed-out').textContent = `${c.speed} steps/s`;
}

/** Reads the form; refuses (with a message) numbers that are not whole. */
function readControls() {
  clearMessages('form');
  const c = { ...state.config };
  c.topology = `${$('kind').value}:${$('size').value.trim()}`;
  c.algorithm = $('algorithm').value;
  c.policy = $('policy').value;
  c.workload = $('workload').value;
  c.color = $('color').value;
  const whole = (id, min) => {
    const v = $(id).value.trim();
    if (/^\d+$/.test(v) && Number(v) >= min) return Number(v);
    showMessage('warning', `${id} = "${v}" is not a whole number ≥ ${min}; keeping ${state.config[id] ?? 'unbounded'}.`, 'form');
    return state.config[id];
  };
  c.l = whole('l', 1);
  c.k = whole('k', 1);
  c.seed = whole('seed', 0);
  c.q = $('q').value.trim() === '' ? null : whole('q', 1);
  return c;
}

function saveUrl() {
  history.replaceState(null, '', `${location.pathname}${toQuery(state.config, state.embed)}`);
  const full = new URL(location.href);
  full.searchParams.delete('embed');
  $('open-full').href = full.toString();
}

function onConfigChange(event) {
  const before = state.config;
  if (event?.target?.id === 'kind') $('size').value = DEFAULT_SIZES[$('kind').value] ?? '';
  state.config = readControls();
  const c = state.config;
  if (c.topology !== before.topology || c.workload !== before.workload || c.l !== before.l || c.k !== before.k) {
    state.instanceText = null;
  }
  saveUrl();
  state.experiment?.syncValues();
  const onlyLook = ['color'].includes(event?.target?.id);
  if (onlyLook) {
    state.dirty = true;
    return;
  }
  if (!state.sim) state.playing = true; // the last configuration failed: start the new one
  rebuild();
}

function setupControls() {
  fillSelect($('kind'), state.lists.kinds);
  fillSelect($('algorithm'), state.lists.algorithms);
  fillSelect($('policy'), state.lists.policies);
  fillSelect($('workload'), state.lists.workloads);
  writeControls();
  $('config-form').addEventListener('change', onConfigChange);
  $('config-form').addEventListener('submit', (e) => {
    e.preventDefault();
    onConfigChange(e);
  });
  $('speed').addEventListener('input', () => {
    state.config.speed = sliderToSpeed(Number($('speed').value));
    $('speed-out').textContent = `${state.config.speed} steps/s`;
    saveUrl();
  });
  $('play').addEventListener('click', () => {
    if (state.snapshot && state.snapshot.status !== 'running') {
      rebuild();
      setPlaying(true);
      return;
    }
    setPlaying(!state.playing);
  });
  $('step').addEventListener('click', () => {
    setPlaying(false);
    if (running()) afterSteps(advance(1), 300);
  });
  $('finish').addEventListener('click', () => {
    setPlaying(false);
    finishRun();
  });
  $('reset').addEventListener('click', () => {
    const wasPlaying = state.playing;
    rebuild();
    setPlaying(wasPlaying);
  });
  $('load-instance').addEventListener('click', loadInstance);
  $('instance-file').addEventListener('change', async () => {
    const file = $('instance-file').files[0];
    if (file) $('instance-text').value = await file.text();
  });
  $('download-instance').addEventListener('click', () => {
    if (!state.sim) return;
    const blob = new Blob([state.sim.instance_json()], { type: 'application/json' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `${state.topo.name.replace(':', '-')}-instance.json`;
    a.click();
  });
}

/** Runs to the end in slices, so the page stays responsive on big runs. */
function finishRun() {
  if (!running()) return;
  const slice = () => {
    const done = advance(1e9, 40);
    afterSteps(done, 0);
    if (running() && !state.playing) setTimeout(slice, 0);
  };
  slice();
}

function loadInstance() {
  clearMessages('instance');
  const text = $('instance-text').value;
  if (!text.trim()) {
    showMessage('error', 'Instance refused: the text box is empty.', 'instance');
    return;
  }
  try {
    if (state.sim) {
      state.sim.load_instance(text);
    } else {
      const c = state.config;
      state.sim = new wasm.Simulation({ instance: text, algorithm: c.algorithm, policy: c.policy, seed: c.seed });
    }
  } catch (e) {
    showMessage('error', `Instance refused: ${e.message}`, 'instance');
    return;
  }
  state.instanceText = text;
  state.sim.free();
  state.sim = null;
  rebuild();
  const name = state.topo?.name;
  if (name) {
    state.config.topology = name;
    const [kind, size] = name.split(':');
    $('kind').value = kind;
    $('size').value = size;
  }
  showMessage('info', `Loaded an instance with ${state.snapshot?.packets ?? 0} packets on ${name}. Changing topology or workload returns to generated workloads.`, 'instance');
}

// ---- pointer: hover a node, click a packet ---------------------------------

function pointer(event) {
  const rect = $('network').getBoundingClientRect();
  return [event.clientX - rect.left, event.clientY - rect.top];
}

function coordsText(v) {
  const t = state.topo;
  if (t.kind === 'mesh' || t.kind === 'torus') {
    const coords = [];
    let rest = v;
    for (let i = t.dims.length - 1; i >= 0; i--) {
      coords.unshift(rest % t.dims[i]);
      rest = Math.floor(rest / t.dims[i]);
    }
    return t.dims.length === 2 ? `row ${coords[0]}, col ${coords[1]}` : `(${coords.join(', ')})`;
  }
  if (t.kind === 'hypercube') return `label ${v.toString(2).padStart(t.dims[0], '0')}`;
  if (t.kind === 'butterfly') return `level ${Math.floor(v / (1 << t.dims[0]))}, row ${v % (1 << t.dims[0])}`;
  return `position ${v}`;
}

function onHover(event) {
  if (!state.lay || !state.view) return;
  const [mx, my] = pointer(event);
  const v = nodeAt(state.view, state.lay, mx, my);
  const tip = $('tooltip');
  if (v !== state.hover) state.dirty = true;
  state.hover = v;
  if (v === null) {
    tip.hidden = true;
    return;
  }
  const s = state.snapshot;
  let html = `<b>node ${v}</b> <span class="dim">${coordsText(v)}</span>`;
  if (s) {
    const here = [];
    for (let p = 0; p < s.positions.length && here.length < 13; p++) {
      if (s.positions[p] === v && s.delivered_at[p] === UNDELIVERED) here.push(p);
    }
    html += `<br>working queue: <b>${s.queues[v]}</b> · waiting at source: <b>${s.waiting[v]}</b>`;
    if (here.length) {
      const items = here.slice(0, 12).map((p) => `#${p} → ${state.destinations[p]}`);
      html += `<br><span class="dim">${items.join(', ')}${here.length > 12 ? ', …' : ''}</span>`;
    }
  }
  tip.innerHTML = html;
  tip.hidden = false;
  const wrap = tip.parentElement.getBoundingClientRect();
  const left = Math.min(mx + 14, wrap.width - tip.offsetWidth - 4);
  const top = my + 14 + tip.offsetHeight > wrap.height ? my - tip.offsetHeight - 10 : my + 14;
  tip.style.left = `${Math.max(0, left)}px`;
  tip.style.top = `${Math.max(0, top)}px`;
}

function onClick(event) {
  if (!state.sim) return;
  const [mx, my] = pointer(event);
  const p = packetAt(state.dots, mx, my);
  try {
    state.trail = p === null ? null : state.sim.watch(p);
    if (p === null) state.sim.watch(undefined);
    state.watched = p;
  } catch (e) {
    showMessage('error', e.message, 'sim');
  }
  updateWatchInfo();
  state.dirty = true;
}

// ---- boot --------------------------------------------------------------------

async function boot() {
  try {
    await init();
  } catch (e) {
    showMessage('error', `Could not load the simulator (www/pkg/routesim_bg.wasm): ${e.message}. Build it with ./build.sh.`);
    return;
  }
  state.lists = {
    kinds: wasm.topology_kinds(),
    algorithms: wasm.algorithms(),
    policies: wasm.policies(),
    workloads: wasm.workloads(),
  };
  const parsed = parseQuery(location.search, state.lists, (t) => wasm.topology(t));
  state.config = parsed.config;
  state.embed = parsed.embed;
  state.playing = parsed.config.play;
  document.body.classList.toggle('embed', state.embed);
  for (const m of parsed.messages) showMessage('warning', m, 'url');
  setupControls();
  saveUrl();
  state.chart = runChart($('run-chart'), state.embed ? 160 : 220, state.embed);
  if (!state.embed) {
    state.experiment = setupExperiment(state.lists.algorithms, () => state.config);
  }
  const canvas = $('network');
  canvas.addEventListener('mousemove', onHover);
  canvas.addEventListener('mouseleave', () => {
    state.hover = null;
    $('tooltip').hidden = true;
    state.dirty = true;
  });
  canvas.addEventListener('click', onClick);
  window.addEventListener('resize', () => {
    resizeCanvas();
    state.chart.resize();
    state.experiment?.resize();
  });
  rebuild();
  document.body.dataset.ready = '1';
  requestAnimationFrame(loop);
}

boot();
