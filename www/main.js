// The page: loads the wasm module, builds the controls from its catalogue,
// keeps the configuration in the URL, and runs the animation loop. The core
// decides: which algorithms and workloads can run (`choices`), what a
// change that makes the run impossible becomes (`reconcile`), every
// simulation result. This file only converts and draws what it gets.

import init, * as wasm from './pkg/routesim.js';
import { DEFAULT_CONFIG, PAGE_DEFAULTS, DEFAULT_SIZES, INTRO, parseQuery, toQuery, simConfig, isDefaultRun, registerRunFields, defaultsFor, urlRunParams } from './config.js';
import { layout } from './layout.js';
import { drawFrame, viewFor, nodeAt, packetAt } from './render.js';
import { runChart } from './charts.js';
import { setupExperiment } from './experiment.js';
import { setupLoad } from './load.js';
import { setupZoom } from './zoom.js';
import { tweenMs } from './motion.js';
import { Compare } from './compare.js';
import { renderExplain } from './explain.js';
import { fillLessonMenu, fillCompareMenu, markCompareMenu } from './lessons.js';
import { setupTimeline } from './timeline.js';
import { setupEmbedApi } from './embed-api.js';
import { URL_LIMIT, encodeInstance, decodeInstance } from './url-instance.js';

const $ = (id) => document.getElementById(id);
const UNDELIVERED = 0xffffffff;

// ---- messages --------------------------------------------------------------

/**
 * Shows a message; `source` groups messages so a rebuild can clear its own.
 * Errors and warnings (bad input that was ignored: a URL parameter, an
 * embedding command) go to the error line (`data-role="error"`, hidden
 * when empty), information (what the core switched, what was loaded) to
 * the message list above it.
 */
function showMessage(kind, text, source = 'page') {
  const box = kind === 'info' ? $('messages') : $('errors');
  const div = document.createElement('div');
  div.className = `msg ${kind}`;
  div.dataset.source = source;
  const span = document.createElement('span');
  span.textContent = text;
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'close';
  close.setAttribute('aria-label', 'dismiss');
  close.title = 'dismiss';
  // The × is drawn by style.css, so that the line's text is the message alone.
  close.addEventListener('click', () => {
    div.remove();
    syncErrorLine();
  });
  div.append(span, close);
  box.append(div);
  syncErrorLine();
}

function clearMessages(source) {
  for (const el of document.querySelectorAll(`.msg[data-source="${source}"]`)) el.remove();
  syncErrorLine();
}

function syncErrorLine() {
  $('errors').hidden = $('errors').childElementCount === 0;
}

// ---- state -----------------------------------------------------------------

const state = {
  config: { ...DEFAULT_CONFIG }, // the run: a wasm config object, as the core returns it
  page: { ...PAGE_DEFAULTS }, // speed, color, play
  embed: false,
  catalogue: null, // wasm catalogue(): topologies, algorithms, policies, workloads
  choices: null, // wasm choices(config) for the current run
  sim: null,
  buildError: null, // why the core refused the last run built (rebuild), or null
  gotoJob: 0, // bumped by every goto and play/pause: a goto still computing stops when it changes
  computingAhead: false, // a goto's slices have moved the core past the step shown
  topo: null,
  lay: null,
  view: null,
  snapshot: null,
  prevPositions: null,
  destinations: null,
  sources: null,
  bounds: null,
  instanceText: null, // a loaded instance replaces topology + workload
  playing: true, // the animation runs
  autoplay: true, // the user's last play/pause: a new run starts playing if true
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
  charts: {}, // name -> {series, data}: every chart's data as drawn (SPEC §7)
  experiment: null,
  load: null, // the load panel (www/load.js)
  zoom: null, // zoom.js: the network canvas's zoom and pan
  compare: null, // the second run beside the first (compare.js)
  lesson: null, // the core's lesson object, when one is open
  loadCheck: null, // the core's live check of the lesson's load curve (LoadCurve.lesson_check), once running
  lessons: [], // wasm lessons(): the lesson menu
  lastExplain: 0,
  explainDue: null,
  timeline: null, // timeline.js: scrubber, phase bands, keyboard
  embedApi: null, // embed-api.js: state messages out, commands in
  instanceParam: null, // the loaded instance as `instance=` (url-instance.js), when it fits the address
};
window.routesim = state; // for the end-to-end tests and the curious

// ---- simulation life cycle -------------------------------------------------

/**
 * Shows the legend entries (`data-mark`) of the marks the runs draw
 * besides packets (the core's `Simulation.marks()`: ghosts, end-of-stream,
 * edge queues); the others stay hidden.
 */
function updateLegendMarks() {
  const marks = new Set([...(state.sim?.marks() ?? []), ...(state.compare?.active ? state.compare.sim?.marks() ?? [] : [])]);
  for (const el of document.querySelectorAll('#legend [data-mark]')) el.hidden = !marks.has(el.dataset.mark);
}

/**
 * Starts the current configuration at step 0; `play`: start animating;
 * `built`: its run, already built by the caller (else built here).
 */
function rebuild(play = state.autoplay, built = null) {
  state.gotoJob += 1;
  state.computingAhead = false;
  clearMessages('sim');
  clearMessages('goto');
  state.sim?.free();
  state.sim = null;
  state.snapshot = null;
  state.prevPositions = null;
  state.watched = null;
  state.trail = null;
  state.stepsDue = 0;
  try {
    state.sim = built ?? new wasm.Simulation(simConfig(state.config, state.instanceText));
    state.buildError = null;
  } catch (e) {
    state.buildError = e.message;
    showMessage('error', `Cannot run this configuration: ${e.message}`, 'sim');
  }
  const drawnTopology = state.topo?.name;
  try {
    state.topo = state.sim ? state.sim.topology() : wasm.topology(state.config.topology);
    state.lay = layout(state.topo);
    if (state.topo.name !== drawnTopology) state.zoom?.reset();
  } catch (e) {
    state.topo = null;
    state.lay = null;
  }
  if (state.compare) {
    state.compare.algorithm = state.page.compare;
    const reason = state.compare.rebuild(state.sim);
    if (reason) showMessage('info', `No second run: ${reason} — showing ${state.config.algorithm} alone.`, 'sim');
  }
  // The step to open at (the address's or a lesson's): computed at once
  // when within reach, else up to where REBUILD_SYNC_MS gets and the rest in
  // slices once the page is drawn (continueTo), so that a big run never
  // freezes the page.
  let later = 0;
  if (state.sim) {
    if (state.page.step > 0) {
      const target = state.page.step;
      if (!computeToward(target, REBUILD_SYNC_MS)) later = target;
      const at = later ? Math.min(target, furthestComputed()) : target;
      state.sim.goto(at);
      state.compare?.goto(at);
      state.compare?.refresh(0);
    }
    state.snapshot = state.sim.snapshot();
    state.destinations = state.sim.destinations();
    state.sources = state.sim.sources();
    state.bounds = state.sim.bounds();
    // Packets in flight at step 0 (the view may open later): all but those delivered at step 0.
    state.undeliveredAtStart = state.snapshot.packets - (state.sim.stats().deliveries[0] ?? 0);
  } else {
    state.bounds = null;
  }
  resizeCanvas();
  updateRunTitle();
  updateLegendMarks();
  $('speed-out').textContent = speedText();
  setPlaying(play && !!state.sim, false);
  updateChart(true);
  updateWatchInfo();
  updateExplain(true);
  state.dirty = true;
  shown();
  if (later) continueTo(later, play);
}

/** Whether the run (or the second run beside it) still runs. */
function running() {
  return !!state.sim && !!state.snapshot && (state.snapshot.status === 'running' || !!state.compare?.running());
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
    state.compare?.step(c);
    done += c;
    if (performance.now() - t0 > budgetMs) break;
    chunk *= 2;
  }
  return done;
}

function afterSteps(done, animateMs) {
  if (!done) return;
  present(done === 1 ? animateMs : 0);
}

/** Shows the simulation's shown step; `animateMs` > 0: packets glide from where they were. */
function present(animateMs) {
  const prev = state.snapshot.positions;
  state.snapshot = state.sim.snapshot();
  state.prevPositions = animateMs > 0 ? prev : null;
  state.anim = { start: performance.now(), duration: animateMs };
  state.compare?.refresh(animateMs);
  if (state.watched !== null) state.trail = state.sim.trail();
  updateWatchInfo();
  if (!running()) setPlaying(false, false);
  else updatePlayLabel();
  // Paused (a manual step), the chart shows the step at once; playing, a few times a second.
  updateChart(!running() || !state.playing);
  updateCounters();
  updateExplain(!running());
  state.dirty = true;
  shown();
}

/**
 * After every step shown (SPEC §7): its state goes to the parent window;
 * while the user has paused, the address keeps the shown step.
 */
function shown() {
  const pair = state.compare?.active && state.snapshot;
  if (pair) {
    // Both runs on one timeline: the shown step is the pair's; it ends when both have.
    const [main, other] = [state.sim, state.compare.sim];
    const sim = { furthest: () => Math.max(main.furthest(), other.furthest()), phases: () => main.phases() };
    const snapshot = { step: shownStep(), status: running() ? 'running' : state.snapshot.status };
    state.timeline?.update(sim, snapshot, state.bounds, state.playing);
  } else {
    state.timeline?.update(state.sim, state.snapshot, state.bounds, state.playing);
  }
  if (!state.snapshot) return;
  state.chart?.showStep(shownStep());
  if (!state.autoplay && state.page.step !== shownStep()) {
    state.page.step = shownStep();
    saveUrlSoon();
  }
  state.embedApi?.post({ ...state.snapshot, step: shownStep(), status: shownStatus() });
}

/** The shown step: the run's, or with a second run beside it the pair's (the later of the two). */
function shownStep() {
  const s = state.snapshot;
  if (!s) return 0;
  return state.compare?.active ? state.compare.shownStep(s.step) : s.step;
}

/** A slice of a goto's computing ahead, ms: between slices the page takes input and draws. */
const GOTO_SLICE_MS = 40;
/** What a rebuild computes at once toward the step it opens at, ms (the rest in slices). */
const REBUILD_SYNC_MS = 200;

/**
 * Shows step `step` (the core's timeline: the state going forward showed),
 * paused. A step beyond those computed so far is computed in slices of
 * about GOTO_SLICE_MS (a far goto on a big network never freezes the
 * page): the view stays on the step shown, an information line counts the
 * steps computed, and the target is shown when reached (or the run's last
 * step if it ends before). Play, pause, a step, a reset, a rebuild or
 * another goto meanwhile cancels it.
 */
function goTo(step, animateMs = 0) {
  if (!state.sim) return;
  setPlaying(false);
  const before = shownStep();
  computeThen(step, () => {
    const after = Math.max(state.sim.summary().step, state.compare?.active ? state.compare.sim.summary().step : 0);
    present(Math.abs(after - before) === 1 ? animateMs : 0);
  });
}

/**
 * After a rebuild opened a big run short of the step it was to open at:
 * computes on in slices (the view paused on the steps computed so far),
 * shows the step, and plays on if the run was to play. As with a goto,
 * play, pause, a step or another goto meanwhile cancels it.
 */
function continueTo(step, resume) {
  setPlaying(false, false);
  computeThen(step, () => {
    present(0);
    if (resume && running()) setPlaying(true, false);
  });
}

/**
 * Computes toward `step` in slices of about GOTO_SLICE_MS (an information
 * line counts the steps meanwhile), then shows it (or the run's last step)
 * and calls `show`; a later play/pause, goto, reset or rebuild cancels.
 */
function computeThen(step, show) {
  const job = ++state.gotoJob;
  const slice = () => {
    if (job !== state.gotoJob || !state.sim) return;
    if (!computeToward(step, GOTO_SLICE_MS)) {
      state.computingAhead = true;
      clearMessages('goto');
      showMessage('info', `Computing step ${step}: ${furthestComputed()} computed so far …`, 'goto');
      setTimeout(slice, 0);
      return;
    }
    state.computingAhead = false;
    clearMessages('goto');
    state.sim.goto(step);
    state.compare?.goto(step);
    show();
  };
  slice();
}

/**
 * Cancels a goto still computing: its slices moved the core ahead of the
 * step shown, so the core goes back to it (the next step, play or back
 * then starts from what the user sees).
 */
function cancelGoto() {
  state.gotoJob += 1;
  clearMessages('goto');
  if (state.computingAhead && state.sim && state.snapshot) {
    const step = shownStep();
    state.sim.goto(step);
    state.compare?.goto(step);
  }
  state.computingAhead = false;
}

/** The last step computed so far (of either run beside each other). */
function furthestComputed() {
  return Math.max(state.sim.furthest(), state.compare?.active ? state.compare.sim.furthest() : 0);
}

/**
 * Computes the run (and the one beside it) toward `step` for about
 * `budgetMs`, in chunks that double; true when `step` is computed or the
 * runs ended before it.
 */
function computeToward(step, budgetMs) {
  const t0 = performance.now();
  let chunk = 1;
  for (;;) {
    const far = furthestComputed();
    if (far >= step) return true;
    if (performance.now() - t0 > budgetMs) return false;
    const target = Math.min(step, far + chunk);
    const ended = state.sim.goto(target).status !== 'running';
    state.compare?.goto(target);
    if (ended && !state.compare?.running()) return true;
    chunk *= 2;
  }
}

function stepForward() {
  setPlaying(false);
  if (running()) afterSteps(advance(1), tweenMs(300));
}

function stepBack() {
  if (state.snapshot) goTo(Math.max(0, shownStep() - 1), tweenMs(300));
}

/** Play / pause; at the end of the run, play again from step 0. */
function togglePlay() {
  if (!state.sim) return;
  if (state.snapshot && !running()) {
    state.sim.goto(0);
    state.compare?.goto(0);
    setPlaying(true);
    present(0);
    return;
  }
  setPlaying(!state.playing);
}

function resetRun() {
  cancelGoto();
  if (!state.sim) {
    rebuild(state.playing);
    return;
  }
  state.page.step = 0;
  state.sim.goto(0);
  state.compare?.goto(0);
  present(0);
  saveUrlSoon();
}

function updatePlayLabel() {
  const on = state.playing;
  $('play').textContent = on ? 'Pause' : state.snapshot && !running() ? 'Replay' : 'Play';
}

/** Plays or pauses; `byUser`: also the choice for the next runs. */
function setPlaying(on, byUser = true) {
  cancelGoto();
  state.playing = on;
  if (byUser && state.autoplay !== on) {
    state.autoplay = on;
    state.page.play = on;
    if (!on && state.snapshot) state.page.step = shownStep();
    saveUrlSoon();
  }
  updatePlayLabel();
  state.lastFrame = performance.now();
  updateCounters();
}

// ---- counters, chart, watch ------------------------------------------------

/** SPEC §7: running, paused, finished, stalled or step-limit (the core's status names). */
function shownStatus() {
  const s = state.snapshot;
  if (!s) return null;
  // With a second run beside it, the pair runs while either does.
  const status = state.compare?.running() ? 'running' : s.status;
  return status === 'running' && !state.playing ? 'paused' : status;
}

function updateCounters() {
  const s = state.snapshot;
  // With a second run beside it, the shown step is the pair's (both advance together).
  $('c-step').textContent = s ? shownStep() : '–';
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
  const status = shownStatus();
  $('c-status').textContent = status ?? '–';
  $('c-status').className = status ? `st-${status}` : 'st-none';
  $('c-phase').textContent = s && s.phase ? s.phase : '–';
  state.compare?.caption(s, state.config.algorithm, !state.playing);
}

/** The explain panel: the core's explanation of the run(s) and lesson, at most four times a second. */
function updateExplain(force = false) {
  const now = performance.now();
  if (!force && now - state.lastExplain < 250) {
    // Not now: once the quarter second is over (so the last step is always explained).
    state.explainDue ??= setTimeout(() => updateExplain(true), 250 - (now - state.lastExplain));
    return;
  }
  clearTimeout(state.explainDue);
  state.explainDue = null;
  state.lastExplain = now;
  let view = null;
  if (state.sim) {
    // The default view is explained as the core's `intro`.
    const intro = !state.lesson && isDefaultRun(state.config) && state.page.compare === INTRO.compare && !state.instanceText;
    const lesson = state.lesson?.id ?? (intro ? 'intro' : '');
    try {
      view = state.compare?.active ? state.sim.explain_with(state.compare.sim, lesson) : state.sim.explain(lesson);
    } catch (e) {
      showMessage('error', e.message, 'sim');
    }
  }
  renderExplain($('explain'), view, state.page.color, state.lesson?.load ? state.loadCheck : null);
}

function updateChart(force) {
  const now = performance.now();
  if (!state.chart || (!force && now - state.lastChart < 200)) return;
  state.lastChart = now;
  if (!state.sim) {
    state.chart.update({ in_flight: [], queue_series: [] }, 0);
    return;
  }
  state.chart.update(state.sim.stats(), state.undeliveredAtStart, state.compare?.chartData(), state.config.algorithm);
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
    // Embedded, the canvas takes what the frame's height leaves beside the rest.
    const room = state.embed ? Math.max(200, window.innerHeight - embedRest(canvas)) : Math.max(320, window.innerHeight * 0.72);
    h = Math.round(Math.min(Math.max(w * aspect, 220), room));
  }
  const dpr = window.devicePixelRatio || 1;
  canvas.style.height = `${h}px`;
  canvas.width = Math.round(w * dpr);
  canvas.height = Math.round(h * dpr);
  state.canvasSize = [w, h];
  state.zoom?.fit();
  updateView();
}

/** The height of the compact view without the canvas (CSS px). */
function embedRest(canvas) {
  return Math.ceil(document.body.getBoundingClientRect().height - canvas.getBoundingClientRect().height) + 4;
}

/** The view of the current layout at the canvas's size and the current zoom (the second canvas, if any, shares both). */
function updateView() {
  const [w, h] = state.canvasSize ?? [240, 240];
  const dpr = window.devicePixelRatio || 1;
  const zoom = state.zoom?.transform();
  state.view = state.lay ? viewFor(state.lay, w, h, dpr, zoom) : null;
  state.compare?.resize(state.lay, w, h, dpr, zoom);
  state.dirty = true;
}

/** Names what is shown: algorithm · topology · workload (the compact view's title). */
function updateRunTitle() {
  const c = state.config;
  const workload = state.instanceText ? 'loaded instance' : c.workload;
  const algorithms = state.compare?.active ? `${c.algorithm} vs ${state.compare.algorithm}` : c.algorithm;
  $('run-title').textContent = [algorithms, state.topo?.name ?? c.topology, workload].join(' · ');
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
    colorMode: state.page.color,
    destinations: state.destinations,
    trail: state.trail,
    watched: state.watched,
    hover: state.hover,
    queueScale: state.snapshot ? Math.max(4, state.snapshot.max_queue, state.compare?.maxQueue() ?? 0) : 4,
  });
  const more = state.compare?.draw(now, state.lay, {
    colorMode: state.page.color,
    queueScale: state.snapshot ? Math.max(4, state.snapshot.max_queue, state.compare.maxQueue()) : 4,
  });
  state.dirty = t < 1 || !!more;
}

/**
 * Steps per second while playing: the chosen speed, but a short run at the
 * default speed is slowed so that it lasts about four seconds at least
 * (≥ 2 steps/s; its length estimated by its lower bound), so that e.g. a
 * hypercube:6 run does not end before it is seen.
 */
function playSpeed() {
  const speed = state.page.speed;
  if (speed !== PAGE_DEFAULTS.speed || !state.bounds) return speed;
  return Math.min(speed, Math.max(2, Math.ceil(state.bounds.best / 4)));
}

function speedText() {
  const speed = playSpeed();
  return speed === state.page.speed ? `${speed} steps/s` : `${speed} steps/s (short run)`;
}

function loop(now) {
  const dt = Math.min(0.25, (now - (state.lastFrame ?? now)) / 1000);
  state.lastFrame = now;
  if (state.playing && running()) {
    const speed = playSpeed();
    state.stepsDue += dt * speed;
    const n = Math.floor(state.stepsDue);
    if (n >= 1) {
      state.stepsDue -= n;
      const done = advance(n);
      if (done < n) state.stepsDue = 0; // cannot keep up: drop the backlog
      afterSteps(done, tweenMs(speed <= 30 ? 1000 / speed : 0));
    }
  }
  if (state.dirty) draw(now);
  requestAnimationFrame(loop);
}

// ---- controls --------------------------------------------------------------

function fillSelect(select, list, describe = (item) => item.description ?? '') {
  select.replaceChildren(...list.map((item) => {
    const o = document.createElement('option');
    o.value = item.name;
    o.textContent = item.name;
    o.title = describe(item);
    o.dataset.about = o.title;
    return o;
  }));
}

/**
 * Enables the options the core says can run (`list` = [{name, ok, reason}];
 * null: all), with the reason as the title of the others.
 */
function markOptions(select, list) {
  for (const o of select.options) {
    const choice = list?.find((c) => c.name === o.value);
    o.disabled = !!choice && !choice.ok;
    o.title = o.disabled ? choice.reason : o.dataset.about;
  }
}

/** Asks the core which algorithms, policies and workloads can run now, and marks the menus. */
function refreshMenus() {
  try {
    state.choices = wasm.choices(simConfig(state.config, state.instanceText));
  } catch {
    state.choices = null;
  }
  markOptions($('algorithm'), state.choices?.algorithms);
  // With a loaded instance the workload menu is how to go back to generated workloads.
  markOptions($('workload'), state.instanceText ? null : state.choices?.workloads);
  const entry = state.catalogue.algorithms.find((a) => a.name === state.config.algorithm);
  const refused = entry?.refused_policies ?? [];
  const why = `refused by ${state.config.algorithm}${entry?.policy_note ? `: ${entry.policy_note}` : ''}`;
  markOptions($('policy'), refused.map((name) => ({ name, ok: false, reason: why })));
  markCompareMenu($('compare'), state.choices?.algorithms);
}

function speedToSlider(speed) {
  return Math.round((Math.log10(Math.max(1, speed)) / 3) * 100);
}

function sliderToSpeed(v) {
  return Math.max(1, Math.round(10 ** ((3 * v) / 100)));
}

const kindOf = (topology) => String(topology ?? '').split(':')[0];
const text = (v) => (v === undefined || v === null ? '' : String(v));

/**
 * The selected algorithm's options (the registry's `options`, each with its
 * config key and control: flag, choice or number), drawn under the
 * algorithm menu; the fieldset is hidden when it has none.
 */
function renderOptions() {
  const box = $('algo-options');
  const entry = state.catalogue.algorithms.find((a) => a.name === state.config.algorithm);
  const options = entry?.options ?? [];
  const key = JSON.stringify([entry?.name, options.map((o) => o.key)]);
  if (box.dataset.key !== key) {
    box.dataset.key = key;
    box.replaceChildren($('algo-options-legend'));
    $('algo-options-legend').textContent = `Options of ${entry?.name ?? ''}`;
    for (const o of options) {
      const label = document.createElement('label');
      label.title = o.summary;
      let input;
      if (o.control.kind === 'flag') {
        input = document.createElement('input');
        input.type = 'checkbox';
        label.classList.add('flag');
        label.append(input, ` ${o.name}`);
      } else if (o.control.kind === 'choice') {
        input = document.createElement('select');
        input.replaceChildren(...o.control.values.map((v) => new Option(v, v)));
        label.append(`${o.name} `, input);
      } else if (o.control.words?.length) {
        // A number or one of the option's words (e.g. locality: unknown):
        // a text box; the core checks what is typed.
        input = document.createElement('input');
        input.type = 'text';
        input.size = 12;
        input.placeholder = `${o.control.unset}; ${o.control.min}–${o.control.max} or ${o.control.words.join(', ')}`;
        label.append(`${o.name} `, input);
      } else {
        input = document.createElement('input');
        input.type = 'number';
        input.min = String(o.control.min);
        input.max = String(o.control.max);
        input.step = '1';
        input.placeholder = o.control.unset;
        label.append(`${o.name} `, input);
      }
      input.dataset.option = o.key;
      input.dataset.kind = o.control.kind;
      input.setAttribute('aria-label', `${o.name}: ${o.summary}`);
      input.dataset.role = `option-${o.name}`;
      box.append(label);
    }
  }
  box.hidden = options.length === 0;
  for (const input of box.querySelectorAll('[data-option]')) {
    const v = state.config[input.dataset.option];
    if (input.dataset.kind === 'flag') input.checked = v === true || v === 'true';
    else if (input.dataset.kind === 'choice') input.value = text(v) || input.options[0]?.value;
    else input.value = text(v);
  }
}

function writeControls() {
  renderOptions();
  const c = state.config;
  $('kind').value = kindOf(c.topology);
  $('topology').value = text(c.topology);
  $('algorithm').value = c.algorithm;
  $('policy').value = c.policy;
  $('workload').value = c.workload;
  $('l').value = text(c.l);
  $('k').value = text(c.k);
  showWorkloadParams(c.workload);
  $('seed').value = text(c.seed);
  $('q').value = text(c.queue_cap);
  $('color').value = state.page.color;
  $('compare').value = state.page.compare ?? '';
  $('lesson').value = state.lesson?.id ?? '';
  $('speed').value = speedToSlider(state.page.speed);
  $('speed-out').textContent = speedText();
}

/** The generator parameters the core says a workload reads (`catalogue().workloads[].reads`). */
function workloadReads(name) {
  return state.catalogue.workloads.find((w) => w.name === name)?.reads ?? ['l', 'k'];
}

/**
 * Disables the ℓ and k boxes a workload does not read, showing the value
 * it implies in the placeholder and the core's reason in the tooltip
 * (`catalogue().workloads[].unread`: a k-k workload has ℓ = k, a
 * permutation ℓ = k = 1).
 */
function showWorkloadParams(workload) {
  const reads = workloadReads(workload);
  const unread = state.catalogue.workloads.find((w) => w.name === workload)?.unread ?? {};
  for (const key of ['l', 'k']) {
    const input = $(key);
    const off = !reads.includes(key) && !state.instanceText;
    input.disabled = off;
    input.placeholder = off ? unread[key]?.implied ?? '' : '';
    input.title = off ? unread[key]?.why ?? '' : '';
  }
}

/** The form as a config object; values stay text for the core to read and check. */
function readControls() {
  const c = { ...state.config };
  c.topology = $('topology').value.trim();
  c.algorithm = $('algorithm').value;
  c.policy = $('policy').value;
  c.workload = $('workload').value;
  // An empty ℓ or k is the workload's default (absent), not a value; one
  // the (new) workload does not read is dropped, so it does not linger in
  // the address.
  const reads = workloadReads(c.workload);
  for (const key of ['l', 'k']) {
    const v = $(key).value.trim();
    if (v === '' || !reads.includes(key)) delete c[key];
    else c[key] = v;
  }
  c.seed = $('seed').value.trim();
  // The options shown are the current algorithm's; a new algorithm's
  // options start at their defaults (the core drops those it does not take).
  if (c.algorithm === state.config.algorithm) {
    for (const input of $('algo-options').querySelectorAll('[data-option]')) {
      const key = input.dataset.option;
      // A menu's first value is the option's default: left out, like an empty box.
      if (input.dataset.kind === 'flag') {
        if (input.checked) c[key] = true;
        else delete c[key];
      } else if (input.dataset.kind === 'choice' && input.selectedIndex <= 0) delete c[key];
      else if (input.value.trim() === '') delete c[key];
      else c[key] = input.value.trim();
    }
  }
  const q = $('q').value.trim();
  if (q === '') delete c.queue_cap;
  else c.queue_cap = q;
  return c;
}

function saveUrl() {
  clearTimeout(state.urlTimer);
  const query = toQuery(state.config, state.page, state.embed, { lesson: state.lesson, current: location.search, instance: state.instanceParam });
  history.replaceState(null, '', `${location.pathname}${query}`);
  const full = new URL(location.href);
  full.searchParams.delete('embed');
  $('open-full').href = full.toString();
}

/** Writes the address soon (moves of the view come many a second; browsers throttle replaceState). */
function saveUrlSoon() {
  clearTimeout(state.urlTimer);
  state.urlTimer = setTimeout(saveUrl, 150);
}

/**
 * Puts the loaded instance into the address (compressed, url-instance.js)
 * if the address stays within URL_LIMIT characters; else says in one line
 * that the link cannot carry it.
 */
async function saveInstanceUrl() {
  clearMessages('instance-url');
  const text = state.instanceText;
  if (!text || !state.sim) return;
  const param = await encodeInstance(state.sim.instance_json());
  if (state.instanceText !== text) return; // replaced meanwhile
  const query = toQuery(state.config, state.page, state.embed, { lesson: state.lesson, current: location.search, instance: param });
  const length = new URL(`${location.pathname}${query}`, location.href).href.length;
  if (length <= URL_LIMIT) {
    state.instanceParam = param;
    saveUrl();
  } else {
    showMessage('info', `This link cannot carry the loaded instance: its address would be ${length.toLocaleString('en')} characters, over the limit of ${URL_LIMIT.toLocaleString('en')} (download the instance to share it).`, 'instance-url');
  }
}

/**
 * Applies a changed configuration: the core makes it runnable (`reconcile`
 * switches an algorithm, policy or workload that cannot run, one message
 * line per switch), then the run restarts. A configuration the core refuses
 * (a bad value) is named in the error line and the current run goes on.
 * Returns whether it was applied.
 */
function applyConfig(candidate, instanceText, errorPrefix = 'Cannot run this configuration', source = 'form') {
  clearMessages(source);
  let reconciled;
  try {
    reconciled = wasm.reconcile(simConfig(candidate, instanceText));
  } catch (e) {
    showMessage('error', `${errorPrefix}: ${e.message}`, source);
    return false;
  }
  // With an instance the core returns no workload fields: keep the form's.
  const config = instanceText ? { ...candidate, ...reconciled.config } : reconciled.config;
  // Built before anything changes: a run the core refuses to build (over
  // the page's size limits) leaves the current one on screen.
  let sim;
  try {
    sim = new wasm.Simulation(simConfig(config, instanceText));
  } catch (e) {
    showMessage('error', `${errorPrefix}: ${e.message}`, source);
    return false;
  }
  clearMessages('reconcile');
  clearMessages('form');
  state.config = config;
  const newInstance = state.instanceText !== instanceText;
  state.instanceText = instanceText;
  if (newInstance) {
    // The address's own instance= is kept as it came; another instance is encoded below.
    state.instanceParam = instanceText && state.urlInstance?.text === instanceText ? state.urlInstance.param : null;
    clearMessages('instance-url');
  }
  for (const m of reconciled.messages) showMessage('info', m, 'reconcile');
  rebuild(state.autoplay, sim);
  if (instanceText && state.topo) state.config.topology = state.topo.name;
  writeControls();
  refreshMenus();
  saveUrl();
  if (newInstance && !state.instanceParam) saveInstanceUrl();
  state.experiment?.sync();
  state.load?.sync();
  return true;
}

const WORKLOAD_FIELDS = ['topology', 'workload', 'l', 'k'];

function onConfigChange(event) {
  const id = event?.target?.id;
  if (id === 'color') {
    state.page.color = $('color').value;
    saveUrl();
    updateExplain(true);
    state.dirty = true;
    return;
  }
  if (id === 'kind') {
    const kind = $('kind').value;
    const size = DEFAULT_SIZES[kind] ?? state.config.topology.split(':')[1] ?? '';
    $('topology').value = `${kind}:${size}`;
  }
  const candidate = readControls();
  // Changing what is routed returns from a loaded instance to generated workloads.
  const sameSource = WORKLOAD_FIELDS.every((key) => text(candidate[key]) === text(state.config[key]));
  for (const el of document.querySelectorAll('#controls [aria-invalid]')) el.removeAttribute('aria-invalid');
  if (!applyConfig(candidate, sameSource ? state.instanceText : null)) {
    $('kind').value = kindOf(state.config.topology);
    // The refused control is marked where the user is (the message is in
    // the error line, which a narrow screen may have scrolled away).
    const control = event?.target;
    if (control?.matches?.('input, select') && control.id !== 'kind') {
      control.setAttribute('aria-invalid', 'true');
      control.setAttribute('aria-describedby', 'errors');
    }
  } else {
    // The address is rewritten from the form: what was said about the one
    // the page opened with no longer applies.
    clearMessages('url');
  }
}

function setupControls() {
  const cat = state.catalogue;
  fillSelect($('kind'), cat.topologies, (t) => t.syntax);
  fillSelect($('algorithm'), cat.algorithms, (a) => `${a.summary} — ${a.accepts}`);
  fillSelect($('policy'), cat.policies);
  fillSelect($('workload'), cat.workloads);
  fillLessonMenu($('lesson'), state.lessons);
  fillCompareMenu($('compare'), cat.algorithms);
  writeControls();
  refreshMenus();
  $('lesson').addEventListener('change', () => openLesson($('lesson').value));
  $('compare').addEventListener('change', () => {
    state.page.compare = $('compare').value || null;
    rebuild();
    saveUrl();
  });
  $('config-form').addEventListener('change', onConfigChange);
  $('config-form').addEventListener('submit', (e) => {
    e.preventDefault();
    onConfigChange(e);
  });
  $('speed').addEventListener('input', () => {
    state.page.speed = sliderToSpeed(Number($('speed').value));
    $('speed-out').textContent = speedText();
    saveUrl();
  });
  $('play').addEventListener('click', togglePlay);
  $('step').addEventListener('click', stepForward);
  $('finish').addEventListener('click', () => {
    setPlaying(false);
    finishRun();
  });
  $('reset').addEventListener('click', resetRun);
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

/**
 * Opens the lesson `id` (empty: leaves the lesson, keeping the run): its
 * preset — run, second algorithm, speed, start step — from the core.
 */
function openLesson(id) {
  clearMessages('lesson');
  if (!id) {
    state.lesson = null;
    state.loadCheck = null;
    state.load?.openLesson(null);
    saveUrl();
    updateExplain(true);
    return;
  }
  let lesson;
  try {
    lesson = wasm.lesson(id);
  } catch (e) {
    showMessage('error', `Lesson ${JSON.stringify(id)} ignored: ${e.message}.`, 'lesson');
    $('lesson').value = state.lesson?.id ?? '';
    return;
  }
  state.lesson = lesson;
  state.page.speed = lesson.preset.speed;
  state.page.compare = lesson.preset.compare ?? null;
  state.autoplay = true;
  // The lesson's start step: the run (and the one beside it) opens there, and plays on.
  state.page.step = lesson.preset.step ?? 0;
  state.page.play = true;
  applyConfig(lesson.config, null);
  state.loadCheck = null;
  state.load?.openLesson(lesson);
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

/** Loads a SPEC §3 instance; the core checks it and makes the algorithm fit it. */
function loadInstance() {
  clearMessages('instance');
  const json = $('instance-text').value;
  if (!json.trim()) {
    showMessage('error', 'Instance refused: the text box is empty.', 'instance');
    return;
  }
  if (!applyConfig(state.config, json, 'Instance refused', 'instance')) return;
  showMessage('info', `Loaded an instance with ${state.snapshot?.packets ?? 0} packets on ${state.topo?.name}. Changing topology or workload returns to generated workloads.`, 'instance');
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
  if (!state.sim || state.zoom.dragged()) return;
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

// ---- experiment ------------------------------------------------------------

const experimentCache = { key: null, list: null };

/**
 * Which algorithms the experiment can run on the current network and
 * workload, as the core says: an algorithm that accepts the network
 * (`choices(config).algorithms`) and routes the workload (the workload's
 * entry of `choices` with that algorithm). [{name, ok, reason}].
 */
function experimentChoices() {
  const config = state.config;
  const key = JSON.stringify({ ...config, algorithm: null });
  if (experimentCache.key === key) return experimentCache.list;
  let list;
  try {
    list = wasm.choices(config).algorithms.map((a) => {
      if (!a.ok) return a;
      const w = wasm.choices({ ...config, algorithm: a.name }).workloads.find((x) => x.name === config.workload);
      return w ? { name: a.name, ok: w.ok, reason: w.reason } : a;
    });
  } catch (e) {
    list = state.catalogue.algorithms.map((a) => ({ name: a.name, ok: false, reason: e.message }));
  }
  experimentCache.key = key;
  experimentCache.list = list;
  return list;
}

// ---- boot --------------------------------------------------------------------

/** Whether the core builds a run of `config` (the run is freed at once). */
function buildable(config) {
  try {
    new wasm.Simulation(simConfig(config)).free();
    return true;
  } catch {
    return false;
  }
}

/**
 * A URL whose run fields each parse but whose run the core refuses to
 * build (e.g. a topology over the page's size limit) is bad in one of
 * them: the first of the URL's run parameters whose default (the
 * lesson's, else the page's) makes the run buildable is named in the
 * error line with the core's reason, and its default used; if none does
 * alone, all of them are. Called once, when the address's run was refused.
 */
function fallBackFromUrl(search, why) {
  const given = urlRunParams(search);
  if (given.length === 0 || state.instanceText) return false;
  const defaults = defaultsFor(state.lesson, false).config;
  const withDefault = (config, field) => {
    const out = { ...config };
    if (defaults[field] === undefined) delete out[field];
    else out[field] = defaults[field];
    return out;
  };
  const used = (field) => (defaults[field] === undefined ? 'the default' : String(defaults[field]));
  for (const { key, field, value } of given) {
    let reconciled;
    try {
      reconciled = wasm.reconcile(withDefault(state.config, field));
    } catch {
      continue;
    }
    if (!buildable(reconciled.config)) continue;
    showMessage('warning', `URL parameter ${key}=${JSON.stringify(value)} ignored: ${why} — using ${used(field)}.`, 'url');
    for (const m of reconciled.messages) showMessage('info', m, 'reconcile');
    state.config = reconciled.config;
    return true;
  }
  const names = given.map(({ key, value }) => `${key}=${JSON.stringify(value)}`).join(', ');
  showMessage('warning', `URL parameters ${names} ignored: ${why} — using their defaults.`, 'url');
  state.config = wasm.reconcile({ ...defaults }).config;
  return true;
}

/** Opens the run: with the URL's `instance=` (url-instance.js) if there is one and the core takes it. */
async function openInstanceFromUrl(param) {
  if (param !== null) {
    try {
      const json = await decodeInstance(param);
      state.urlInstance = { text: json, param };
      if (applyConfig(state.config, json, 'The instance in the URL was refused', 'url')) return;
    } catch (e) {
      showMessage('warning', `URL parameter instance ignored: ${e.message}.`, 'url');
    }
    state.instanceParam = null;
    saveUrl();
  }
  rebuild();
  if (!state.sim) {
    const why = state.buildError;
    if (why && fallBackFromUrl(location.search, why)) {
      rebuild();
      writeControls();
      refreshMenus();
      saveUrl();
    }
  }
}

async function boot() {
  try {
    await init();
  } catch (e) {
    showMessage('error', `Could not load the simulator (www/pkg/routesim_bg.wasm): ${e.message}. Build it with ./build.sh.`);
    return;
  }
  state.catalogue = wasm.catalogue();
  registerRunFields(state.catalogue.fields);
  state.lessons = wasm.lessons();
  const parsed = parseQuery(location.search, wasm);
  state.config = parsed.config;
  state.page = parsed.page;
  state.lesson = parsed.lesson;
  state.embed = parsed.embed;
  state.autoplay = parsed.page.play;
  state.compare = new Compare($('network').closest('.stage'), $('network').parentElement);
  // Kept in the address until the core has read it (openInstanceFromUrl).
  state.instanceParam = new URLSearchParams(location.search).get('instance');
  const instanceParam = state.instanceParam;
  document.body.classList.toggle('embed', state.embed);
  for (const m of parsed.errors) showMessage('error', m, 'url');
  for (const m of parsed.warnings) showMessage('warning', m, 'url');
  for (const m of parsed.infos) showMessage('info', m, 'reconcile');
  setupControls();
  saveUrl();
  state.chart = runChart($('run-chart'), state.charts, state.embed ? 160 : 220, state.embed);
  if (state.embed) {
    // The compact view draws only the run chart: the others' data, as drawn, is none.
    for (const el of document.querySelectorAll('[data-role="chart"]')) state.charts[el.dataset.chart] ??= { series: [], data: [] };
  } else {
    state.experiment = setupExperiment({
      catalogue: state.catalogue,
      current: () => state.config,
      runnable: experimentChoices,
      charts: state.charts,
    });
    state.load = setupLoad({
      catalogue: state.catalogue,
      current: () => state.config,
      limits: wasm.limits(),
      charts: state.charts,
      wasm,
      error: (text) => showMessage('error', text, 'load'),
      clear: () => clearMessages('load'),
      lesson: () => state.lesson?.id ?? null,
      onCheck: (check) => {
        state.loadCheck = check;
        updateExplain(true);
      },
    });
  }
  const canvas = $('network');
  state.zoom = setupZoom(canvas, updateView, { zoomIn: $('zoom-in'), zoomOut: $('zoom-out'), reset: $('zoom-reset') });
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
    state.load?.resize();
  });
  state.timeline = setupTimeline({ scrubber: $('scrubber'), bands: $('scrub-bands'), back: $('step-back') },
    { goto: goTo, back: stepBack, forward: stepForward, toggle: togglePlay });
  // The compare view draws the run chart anew (more series): the timeline's marks go on every chart drawn.
  state.timeline.attachChart(state.chart.chart);
  state.chart.onCreate = (plot) => state.timeline.attachChart(plot);
  state.embedApi = setupEmbedApi({
    play: () => state.playing || togglePlay(),
    pause: () => setPlaying(false),
    step: stepForward,
    back: stepBack,
    reset: resetRun,
    goto: goTo,
  }, (text) => {
    clearMessages('embed');
    showMessage('error', text, 'embed');
  }, () => clearMessages('embed'));
  await openInstanceFromUrl(instanceParam);
  // A lesson with a load curve runs it in the background from the start.
  if (state.lesson?.load) state.load?.openLesson(state.lesson);
  // Embedded, the canvas's height depends on the chart's, laid out by the
  // next frame (or soon, in a frame the browser does not paint).
  if (state.embed) {
    await new Promise((resolve) => {
      requestAnimationFrame(resolve);
      setTimeout(resolve, 100);
    });
    resizeCanvas();
  }
  document.body.dataset.ready = '1';
  requestAnimationFrame(loop);
}

boot();
