// The timeline of the shown run: the scrubber (SPEC §7 `scrubber`: min 0,
// max the last step computed so far, value the shown step) with the run's
// phases as named bands and the lower bound as a tick; the same bands, the
// bound and the shown step drawn on the run chart; the keyboard (Space,
// ←, →); the computed band (SPEC §7 `computed`): the run's length (the
// core's pace: measured, or estimated while measuring) is the timeline's
// whole width, and the scrubber and its bands span the part computed so
// far, so the thumb at the shown step reads against the whole run. The
// core's timeline decides what a step shows (`goto`,
// `step_back`, `phases`, `furthest`); this file only converts and draws.

import { count } from './words.js';

/** Light fills for phase bands, picked by the phase's kind (its name without numbers). */
const BAND_FILLS = ['#dbeafe', '#fde68a', '#d1fae5', '#fbcfe8', '#e0e7ff', '#fed7aa', '#ccfbf1', '#e5e7eb'];
const BAND_INKS = ['#1e3a8a', '#78350f', '#065f46', '#831843', '#312e81', '#7c2d12', '#134e4a', '#374151'];

function kindIndex(name) {
  const kind = name.replace(/\d+/g, '#');
  let h = 0;
  for (let i = 0; i < kind.length; i++) h = (h * 31 + kind.charCodeAt(i)) | 0;
  return Math.abs(h) % BAND_FILLS.length;
}

/**
 * What the timeline draws: the core's phases, the furthest step, the shown
 * step, the lower bound(s): `bounds` = [{best, name, who}], one, or one
 * per run when two runs side by side have different bounds (`name`, its
 * algorithm, labels its line on the run chart; `who` titles its tick).
 */
function emptyModel() {
  return { phases: [], furthest: 0, step: 0, bounds: [], finished: false };
}

/**
 * Is the key for the page? Not when focus is in a text field or a select
 * (SPEC §7), not with a modifier (Shift+arrows pan the canvas), and a
 * focused button, checkbox, link or summary keeps its own Space and Enter.
 * → and ← step on the sliders too (SPEC §7 exempts only text fields and
 * selects): on the scrubber its own arrows would stop at the last step
 * computed so far, where → is to compute the next one; the speed slider
 * keeps ↑ and ↓ (and Page Up/Down, Home, End), its own keys still.
 */
function pageKey(event) {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return false;
  const el = event.target;
  const tag = el?.tagName;
  if (el?.isContentEditable || tag === 'TEXTAREA' || tag === 'SELECT') return false;
  const type = tag === 'INPUT' ? (el.type || 'text').toLowerCase() : null;
  if (type && !['range', 'button', 'checkbox', 'radio', 'submit', 'reset', 'color', 'file'].includes(type)) return false;
  if (event.key === ' ') {
    const own = tag === 'BUTTON' || tag === 'SUMMARY' || tag === 'A' || (type && type !== 'range');
    return !own;
  }
  if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') return type !== 'radio';
  return event.key === 'n' || event.key === 'N';
}

/**
 * Sets up the scrubber (`els.scrubber`, an `<input type=range>`), its
 * bands (`els.bands`), the computed band (`els.computed`, inside the
 * timeline `els.timeline`), the step-back button (`els.back`) and the keyboard.
 * `actions` = {goto(step), back(), forward(), toggle(), nextPhase()}: what run.js does
 * for each. Returns {update(sim, snapshot, bounds), attachChart(uplot)}.
 */
export function setupTimeline(els, actions) {
  let model = emptyModel();
  let chart = null;
  let bandsKey = '';

  els.scrubber.addEventListener('input', () => actions.goto(Number(els.scrubber.value)));
  els.back.addEventListener('click', () => actions.back());
  document.addEventListener('keydown', (event) => {
    if (!pageKey(event)) return;
    event.preventDefault();
    if (event.key === ' ') actions.toggle();
    else if (event.key === 'ArrowRight') actions.forward();
    else if (event.key === 'ArrowLeft') actions.back();
    else actions.nextPhase?.();
  });

  /** The scrubber's bands and bound tick, redrawn when they change. */
  function drawBands() {
    const { phases, furthest, bounds } = model;
    const key = JSON.stringify([furthest, bounds, phases.length, phases.at(-1)?.steps]);
    if (key === bandsKey) return;
    bandsKey = key;
    const max = Math.max(1, furthest);
    const spans = phases.filter((p) => p.steps > 0).map((p) => {
      const span = document.createElement('span');
      span.className = 'band';
      const label = p.label ?? p.name; // the core's short form; the title keeps the full name
      const i = kindIndex(label);
      span.style.left = `${(100 * p.start) / max}%`;
      span.style.width = `${(100 * p.steps) / max}%`;
      span.style.background = BAND_FILLS[i];
      span.style.color = BAND_INKS[i];
      span.title = `${p.name}: steps ${p.start + 1}–${p.start + p.steps}`;
      // The label in a span of its own: a band too narrow for a few letters shows none (style.css), not a fragment.
      const text = document.createElement('span');
      text.className = 'band-text';
      text.textContent = label;
      span.append(text);
      return span;
    });
    for (const { best, who } of bounds) {
      if (!(best > 0 && best <= furthest)) continue;
      const tick = document.createElement('span');
      tick.className = 'bound-tick';
      tick.style.left = `${(100 * best) / max}%`;
      tick.title = who
        ? `lower bound of ${who}: no algorithm routes its packets in fewer than ${count(best, 'step')}`
        : `lower bound: no algorithm routes this instance in fewer than ${count(best, 'step')}`;
      if (who) tick.dataset.who = who;
      spans.push(tick);
    }
    els.bands.replaceChildren(...spans);
  }

  /** The run chart's drawing hooks: bands under the curves; the bound and the shown step over them. */
  function attachChart(u) {
    chart = u;
    const hooks = u.hooks;
    (hooks.drawClear ??= []).push(drawChartBands);
    (hooks.draw ??= []).push(drawChartMarks);
    // The x axis reaches the lower bound before the run does, so the
    // marker shows where the run cannot finish before.
    const range = u.scales.x.range;
    if (typeof range === 'function') {
      u.scales.x.range = (self, min, max, key) => {
        const r = range(self, min, max, key);
        const best = Math.max(0, ...model.bounds.map((b) => b.best));
        return best > r[1] ? [r[0], best] : r;
      };
    }
  }

  function drawChartBands(u) {
    const { ctx, bbox } = u;
    const dpr = window.devicePixelRatio || 1;
    ctx.save();
    ctx.beginPath();
    ctx.rect(bbox.left, bbox.top, bbox.width, bbox.height);
    ctx.clip();
    ctx.font = `${10 * dpr}px system-ui, sans-serif`;
    ctx.textBaseline = 'top';
    for (const p of model.phases) {
      if (p.steps <= 0) continue;
      const x0 = u.valToPos(p.start, 'x', true);
      const x1 = u.valToPos(p.start + p.steps, 'x', true);
      const label = p.label ?? p.name;
      const i = kindIndex(label);
      ctx.fillStyle = BAND_FILLS[i];
      ctx.globalAlpha = 0.55;
      ctx.fillRect(x0, bbox.top, x1 - x0, bbox.height);
      ctx.globalAlpha = 1;
      if (x1 - x0 > ctx.measureText(label).width + 6 * dpr) {
        ctx.fillStyle = BAND_INKS[i];
        ctx.fillText(label, x0 + 3 * dpr, bbox.top + 3 * dpr);
      }
    }
    ctx.restore();
  }

  function vline(u, x, color, dash, label, labelY) {
    const { ctx, bbox } = u;
    const dpr = window.devicePixelRatio || 1;
    const px = Math.round(u.valToPos(x, 'x', true)) + 0.5;
    if (px < bbox.left - 1 || px > bbox.left + bbox.width + 1) return;
    ctx.save();
    ctx.strokeStyle = color;
    ctx.lineWidth = 1.5 * dpr;
    ctx.setLineDash(dash.map((d) => d * dpr));
    ctx.beginPath();
    ctx.moveTo(px, bbox.top);
    ctx.lineTo(px, bbox.top + bbox.height);
    ctx.stroke();
    if (label) {
      ctx.font = `${10 * dpr}px system-ui, sans-serif`;
      ctx.fillStyle = color;
      const w = ctx.measureText(label).width;
      // Right of the line where it fits, else left of it; never out of the plot (over the axis).
      const left = px + 3 * dpr + w > bbox.left + bbox.width ? Math.max(bbox.left + 2 * dpr, px - 3 * dpr - w) : px + 3 * dpr;
      // A light halo, so that the label reads over the curves and the phase bands.
      ctx.setLineDash([]);
      ctx.lineJoin = 'round';
      ctx.lineWidth = 3 * dpr;
      ctx.strokeStyle = 'rgba(255, 255, 255, 0.85)';
      ctx.strokeText(label, left, labelY);
      ctx.fillText(label, left, labelY);
    }
    ctx.restore();
  }

  function drawChartMarks(u) {
    const dpr = window.devicePixelRatio || 1;
    const bottom = u.bbox.top + u.bbox.height - 4 * dpr;
    // Two runs with different bounds: a line each, named, the labels one above the other (a line of 13 px for the 10 px font).
    model.bounds.forEach(({ best, name }, i) => {
      if (best > 0) vline(u, best, '#b91c1c', [5, 3], `lower bound ${best}${name ? ` (${name})` : ''}`, bottom - 13 * (i + 1) * dpr);
    });
    if (model.step < model.furthest || !model.finished) vline(u, model.step, '#111827', [], `step ${model.step}`, bottom);
  }

  let phasesAt = 0;

  /** The computed band: the steps computed as a share of the run's length (or its estimate). */
  function drawComputed(pace) {
    if (!els.computed) return;
    const length = Math.max(model.furthest, pace?.steps ?? 0);
    const share = length > 0 ? model.furthest / length : 0;
    const percent = `${(100 * share).toFixed(2)}%`;
    els.timeline?.style.setProperty('--computed', percent);
    els.computed.style.width = percent;
    els.computed.dataset.computed = String(model.furthest);
    els.computed.dataset.steps = String(length);
    els.computed.dataset.known = String(!!pace?.known || model.finished);
    const of = pace?.known || model.finished ? `${length} steps` : `about ${length} steps or more`;
    els.computed.title = `computed: steps 0–${model.furthest} of the run's ${of}`;
  }

  return {
    attachChart,
    /**
     * Shows the shown step: `sim` (the wasm Simulation, or null), its
     * `snapshot` and `bounds` ([{best, name, who}], view.js runBounds). While `playing` the phases are read a few
     * times a second and the run chart is left to its own updates; paused,
     * both follow every step shown. `pace`: the core's pace (its `steps`,
     * the run's length or an estimate, scale the computed band).
     */
    update(sim, snapshot, bounds, playing = false, pace = null) {
      const now = performance.now();
      if (!sim || !snapshot) {
        model = emptyModel();
      } else {
        model.step = snapshot.step;
        model.furthest = sim.furthest();
        model.bounds = bounds ?? [];
        model.finished = snapshot.status !== 'running' && model.step === model.furthest;
        if (!playing || now - phasesAt > 250 || model.phases.length === 0) {
          model.phases = sim.phases();
          phasesAt = now;
        }
      }
      els.scrubber.max = String(model.furthest);
      els.scrubber.value = String(model.step);
      els.scrubber.disabled = !sim;
      els.scrubber.setAttribute('aria-valuetext', `step ${model.step} of ${model.furthest}${model.finished ? ' (end)' : ''}`);
      drawComputed(pace);
      drawBands();
      if (!playing) chart?.redraw(false);
    },
  };
}
