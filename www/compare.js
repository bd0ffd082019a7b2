// Two algorithms side by side (SPEC §7 `compare=`): a second wasm
// Simulation on the identical instance — the core builds it from the first
// run's instance (`Simulation.compare`) and refuses, with its reason, an
// algorithm that cannot route it. Both runs advance together, one step at a
// time (and go back together on the timeline: `goto`), so both canvases
// always show the same step. This module owns the
// second canvas (added beside the first only while comparing, so the single
// view keeps one `data-role="network"`), the captions naming each run, and
// the second run's snapshot. It computes nothing: it converts and draws.

import { viewFor, drawFrame } from './render.js';

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
        // Packets in flight at step 0: all but those delivered at step 0.
        this.undeliveredAtStart = this.snapshot.packets - (this.sim.stats().deliveries[0] ?? 0);
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
      this.captions = [this.firstWrap, this.wrap].map((wrap) => {
        const c = document.createElement('p');
        c.className = 'cmp-caption';
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

  /** The shown step of the pair: the later of the two runs' steps. */
  shownStep(mainStep) {
    return this.snapshot ? Math.max(mainStep, this.snapshot.step) : mainStep;
  }

  /** Sizes the second canvas like the first (same layout, same scale, the same zoom and pan: zoom.js's transform). */
  resize(lay, widthPx, heightPx, dpr, zoom = undefined) {
    if (!this.canvas) return;
    const [w, h] = [Math.round(widthPx * dpr), Math.round(heightPx * dpr)];
    if (this.canvas.width !== w || this.canvas.height !== h) {
      this.canvas.style.height = `${heightPx}px`;
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
      snapshot: this.snapshot,
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
   * The captions over the two canvases: algorithm, the shown step (the
   * same on both), delivered, largest queue, status.
   */
  caption(main, mainName, paused) {
    if (!this.captions.length) return;
    const shown = this.shownStep(main ? main.step : 0);
    const line = (name, s) => {
      if (!s) return name;
      const end = s.status === 'running' ? (paused ? ' · paused' : '') : ` · ${s.status === 'finished' ? 'done' : s.status} at ${s.step}`;
      return `${name} · step ${shown} · ${s.delivered}/${s.packets} · queue ≤ ${s.max_queue}${end}`;
    };
    this.captions[0].textContent = line(mainName, main);
    this.captions[1].textContent = line(this.algorithm, this.snapshot);
    this.captions.forEach((c) => {
      c.dataset.step = String(shown);
    });
  }

  /** The second run's chart data: `{name, stats, undeliveredAtStart}`. */
  chartData() {
    if (!this.sim) return null;
    return { name: this.algorithm, stats: this.sim.stats(), undeliveredAtStart: this.undeliveredAtStart };
  }

  /** The second run's largest queue so far (both canvases share one queue colour scale). */
  maxQueue() {
    return this.snapshot ? this.snapshot.max_queue : 0;
  }
}
