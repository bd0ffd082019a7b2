// What the page shows of the run: the canvas (size, view, frame), the
// counters, the run chart, the explain panel, the watched packet's line,
// the title, legend, play label and speed. It reads the run and never
// steps it (run.js does); it keeps only its drawing fields in `state`.

import { PAGE_DEFAULTS, INTRO, isDefaultRun } from './config.js';
import { drawFrame, viewFor } from './render.js';
import { renderExplain } from './explain.js';
import { $, UNDELIVERED, state, running, shownStep, shownStatus } from './state.js';
import { showMessage } from './messages.js';

/**
 * Shows the legend entries (`data-mark`) of the marks the runs draw
 * besides packets (the core's `Simulation.marks()`: ghosts, end-of-stream,
 * edge queues); the others stay hidden.
 */
export function updateLegendMarks() {
  const marks = new Set([...(state.sim?.marks() ?? []), ...(state.compare?.active ? state.compare.sim?.marks() ?? [] : [])]);
  for (const el of document.querySelectorAll('#legend [data-mark]')) el.hidden = !marks.has(el.dataset.mark);
}

export function updatePlayLabel() {
  const on = state.playing;
  $('play').textContent = on ? 'Pause' : state.snapshot && !running() ? 'Replay' : 'Play';
}

export function updateCounters() {
  const s = state.snapshot;
  // With a second run beside it, the shown step is the pair's (both advance together).
  $('c-step').textContent = s ? shownStep() : '–';
  $('c-delivered').textContent = s ? `${s.delivered} / ${s.packets}` : '–';
  $('c-inflight').textContent = s ? s.in_flight : '–';
  $('c-maxqueue').textContent = s ? s.max_queue : '–';
  const progress = s && state.bounds && state.sim ? state.sim.progress() : null;
  $('c-bound').textContent = progress ? progress.text : '–';
  $('c-bound').title = progress ? progress.title : '';
  const status = shownStatus();
  $('c-status').textContent = status ?? '–';
  $('c-status').className = status ? `st-${status}` : 'st-none';
  $('c-phase').textContent = s && s.phase ? s.phase : '–';
  state.compare?.caption(s, state.config.algorithm, !state.playing);
}

/** The explain panel: the core's explanation of the run(s) and lesson, at most four times a second. */
export function updateExplain(force = false) {
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

export function updateChart(force) {
  const now = performance.now();
  if (!state.chart || (!force && now - state.lastChart < 200)) return;
  state.lastChart = now;
  if (!state.sim) {
    state.chart.update({ in_flight: [], queue_series: [] }, 0);
    return;
  }
  state.chart.update(state.sim.stats(), state.undeliveredAtStart, state.compare?.chartData(), state.config.algorithm);
}

export function updateWatchInfo() {
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

export function resizeCanvas() {
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
export function updateView() {
  const [w, h] = state.canvasSize ?? [240, 240];
  const dpr = window.devicePixelRatio || 1;
  const zoom = state.zoom?.transform();
  state.view = state.lay ? viewFor(state.lay, w, h, dpr, zoom) : null;
  state.compare?.resize(state.lay, w, h, dpr, zoom);
  state.dirty = true;
}

/**
 * Names what is shown, in the core's words (`Simulation.label`): algorithm
 * · topology · workload as the title, and under it the values the run uses
 * (ℓ, k, seed, q, policy, options). While a field of the form holds a value
 * the core refused (`state.invalidField`), a note says the run on screen is
 * the last valid one, with those values.
 */
export function updateRunTitle() {
  const c = state.config;
  let label = null;
  try {
    label = state.sim?.label(state.compare?.active ? state.compare.algorithm : undefined) ?? null;
  } catch {
    label = null;
  }
  if (label) {
    $('run-title').textContent = label.run;
    $('run-values').textContent = label.values;
  } else {
    const workload = state.instanceText ? 'loaded instance' : c.workload;
    $('run-title').textContent = [c.algorithm, state.topo?.name ?? c.topology, workload].join(' · ');
    $('run-values').textContent = '';
  }
  const note = $('run-note');
  note.hidden = !(state.invalidField && label);
  note.textContent = note.hidden ? '' : `Showing the last valid run: ${label.run} · ${label.values}. Correct the marked field to run it.`;
}

export function draw(now) {
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
export function playSpeed() {
  const speed = state.page.speed;
  if (speed !== PAGE_DEFAULTS.speed || !state.bounds) return speed;
  return Math.min(speed, Math.max(2, Math.ceil(state.bounds.best / 4)));
}

export function speedText() {
  const speed = playSpeed();
  return speed === state.page.speed ? `${speed} steps/s` : `${speed} steps/s (short run)`;
}
