// Two algorithms side by side (SPEC §7 `compare=`): a second wasm
// Simulation on the identical instance — the core builds it from the first
// run's instance (`Simulation.compare`) and refuses, with its reason, an
// algorithm that cannot route it. Both runs advance together, one step at a
// time (and go back together on the timeline: `goto`), so both canvases
// always show the same step. This module owns the
// second canvas (added beside the first only while comparing, so the single
// view keeps one `data-role="network"`), the captions naming each run, and
// the second run's snapshot. It computes nothing: it converts and draws.
// Each canvas is headed by its run's counters (step, delivered, largest
// queue), labelled with its algorithm; narrow, the canvases stack (style.css).

import { viewFor, drawFrame, shownAt } from './render.js';
import { showAt } from './view.js';
import { densities } from './heat.js';
import { shownStep } from './state.js';

export class Compare {
  constructor(stage, firstWrap) {
    this.stage = stage;
    this.firstWrap = firstWrap;
    this.algorithm = null; // the requested compare algorithm (null: none)
    this.sim = null;
    this.snapshot = null;
    this.prevPositions = null;
    this.destinations = null;
    this.undeliveredAtStart = 0;
    this.anim = { start: 0, duration: 0 };
    this.view = null;
    this.wrap = null;
    this.canvas = null;
    this.captions = [];
    this.names = [];
  }

  /** Whether a second run is shown. */
  get active() {
    return !!this.sim;
  }

  /** Whether the second run is still running. */
  running() {
    return !!this.snapshot && this.snapshot.status === 'running';
  }

  /**
   * Starts the second run beside `main` (a wasm Simulation at step 0).
   * Returns null, or the core's reason why the algorithm cannot run here.
   */
  rebuild(main) {
    this.sim?.free();
    this.sim = null;
    this.snapshot = null;
    this.prevPositions = null;
    let reason = null;
    if (this.algorithm && main) {
      try {
        this.sim = main.compare(this.algorithm);
        this.snapshot = this.sim.snapshot();
        this.destinations = this.sim.destinations();
        // Each run's counters are labelled with its algorithm as the core names it.
        this.names = [main.config().algorithm, this.sim.config().algorithm];
        // Packets in flight at step 0: all but those delivered at step 0.
        this.undeliveredAtStart = this.snapshot.packets - this.snapshot.fixed;
      } catch (e) {
        reason = e.message;
      }
    }
    this.layout();
    return reason;
  }

  /** Adds or removes the second canvas and the captions. */
  layout() {
    const on = this.active;
    this.stage.classList.toggle('comparing', on);
    if (on && !this.wrap) {
      this.wrap = document.createElement('div');
      this.wrap.className = 'canvas-wrap compare-wrap';
      this.canvas = document.createElement('canvas');
      this.canvas.id = 'network-2';
      this.canvas.dataset.role = 'network';
      this.canvas.className = 'network-2';
      this.wrap.append(this.canvas);
      this.firstWrap.after(this.wrap);
      // Each canvas is headed by its run's own counters (SPEC §7 "Counters per run"): `data-run` 0 (the main run) or 1.
      this.captions = [this.firstWrap, this.wrap].map((wrap, run) => {
        const c = document.createElement('div');
        c.className = 'cmp-caption';
        c.dataset.run = String(run);
        c.innerHTML = '<p class="cmp-name"><b class="cmp-alg"></b> <span class="cmp-end"></span></p>'
          + '<dl class="cmp-counters">'
          + `<div><dt>step</dt><dd data-role="step-count" data-run="${run}">0</dd></div>`
          + `<div><dt>delivered</dt><dd data-role="delivered" data-run="${run}">0 / 0</dd><dd class="c-note"></dd></div>`
          + `<div title="the largest working queue any node of this run has held up to its shown step"><dt>max queue so far</dt><dd data-role="max-queue" data-run="${run}">0</dd></div>`
          + '</dl>';
        wrap.prepend(c);
        return c;
      });
    } else if (!on && this.wrap) {
      this.wrap.remove();
      for (const c of this.captions) c.remove();
      this.wrap = null;
      this.canvas = null;
      this.captions = [];
    }
    if (this.canvas) this.canvas.setAttribute('aria-label', `the network as ${this.algorithm} routes it`);
  }

  /** Runs `n` steps of the second run (nothing once it is over). */
  step(n) {
    if (this.running()) this.snapshot.status = this.sim.step(n).status;
  }

  /**
   * Shows step `step` of the second run (its timeline; at most its last
   * step), as the first run does; `refresh` then takes its snapshot.
   */
  goto(step) {
    if (this.sim) this.snapshot.status = this.sim.goto(step).status;
  }

  /** Takes the second run's snapshot after it moved; `animateMs` > 0: its packets glide from where they were. */
  refresh(animateMs) {
    if (!this.sim) return;
    const prev = this.snapshot.positions;
    this.snapshot = this.sim.snapshot();
    this.prevPositions = animateMs > 0 ? prev : null;
    this.anim = { start: performance.now(), duration: animateMs };
  }

  /** Sizes the second canvas like the first (same layout, same scale, the same zoom and pan: zoom.js's transform). */
  resize(lay, widthPx, heightPx, dpr, zoom = undefined) {
    if (!this.canvas) return;
    const [w, h] = [Math.round(widthPx * dpr), Math.round(heightPx * dpr)];
    if (this.canvas.width !== w || this.canvas.height !== h) {
      showAt(this.canvas, widthPx, heightPx);
      this.canvas.width = w;
      this.canvas.height = h;
    }
    this.view = lay ? viewFor(lay, widthPx, heightPx, dpr, zoom) : null;
  }

  /** Draws the second run; returns whether its animation needs more frames. */
  draw(now, lay, frame) {
    if (!this.canvas || !this.view || !lay) return false;
    const ctx = this.canvas.getContext('2d');
    const dpr = window.devicePixelRatio || 1;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const { duration, start } = this.anim;
    const t = duration > 0 ? Math.min(1, (now - start) / duration) : 1;
    drawFrame(ctx, this.view, lay, {
      ...frame,
      snapshot: shownAt(this.snapshot, shownStep()),
      prevPositions: this.prevPositions,
      t,
      destinations: this.destinations,
      trail: null,
      watched: null,
      hover: null,
      queueScale: frame.queueScale,
    });
    return t < 1;
  }

  /**
   * The counters over the two canvases, one set per run: its algorithm,
   * its status (done, stalled, … once it has ended), its own step (a run
   * that has ended stays on its last), delivered and largest queue so far. `data-step` on each is the
   * pair's shown step (the same on both).
   */
  caption(main, paused, shown) {
    if (!this.captions.length) return;
    const fill = (c, name, s) => {
      const get = (sel) => c.querySelector(sel);
      get('.cmp-alg').textContent = name;
      const end = !s ? '' : s.status === 'running' ? (paused ? 'paused' : 'running') : s.status === 'finished' ? 'done' : s.status;
      get('.cmp-end').textContent = end ? `· ${end}` : '';
      get('[data-role="step-count"]').textContent = s ? String(s.step) : '–';
      get('[data-role="delivered"]').textContent = s ? `${s.delivered} / ${s.packets}` : '–';
      get('[data-role="max-queue"]').textContent = s ? String(s.max_queue) : '–';
      // The fixed points (source = destination), in the core's words: delivered at step 0.
      const note = s?.fixed_note ?? '';
      if (get('.c-note').textContent !== note) get('.c-note').textContent = note;
      c.dataset.step = String(shown);
    };
    fill(this.captions[0], this.names[0], main);
    fill(this.captions[1], this.names[1], this.snapshot);
  }

  /** The second run's chart data: `{name, stats, undeliveredAtStart}`. */
  chartData() {
    if (!this.sim) return null;
    return { name: this.algorithm, stats: this.sim.stats(), undeliveredAtStart: this.undeliveredAtStart };
  }

  /** The densest cell of the second run's heat map (0 when not zoomed out; both canvases share one density scale). */
  heatTop(lay) {
    return this.view?.mode === 'heat' && this.snapshot && lay ? densities(this.view, lay, this.snapshot).top : 0;
  }

  /** The second run's largest queue so far (both canvases share one queue colour scale). */
  maxQueue() {
    return this.snapshot ? this.snapshot.max_queue : 0;
  }
}
