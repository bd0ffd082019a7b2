// The run's life cycle: building it (rebuild), stepping and playing it (the
// animation loop), going to a step (computed in slices), finishing it.

import * as wasm from './pkg/routesim.js';
import { simConfig } from './config.js';
import { layout } from './layout.js';
import { keyShades } from './render.js';
import { tweenMs } from './motion.js';
import { updateHall } from './hall.js';
import { $, state, running, shownStep, shownStatus } from './state.js';
import { showMessage, clearMessages } from './messages.js';
import { markCompareMenu } from './lessons.js';
import {
  updateLegendMarks, updatePlayLabel, updateCounters, updateExplain, updateChart, updateWatchInfo,
  resizeCanvas, updateRunTitle, draw, playSpeed, updateColorControl, runBounds,
} from './view.js';
import { measure, readPace, showSpeed, updateNextPhase, MEASURE_SYNC_MS } from './pace.js';
import { updatePredict } from './predict.js';
import { saveUrlSoon } from './address.js';

/**
 * Starts the current configuration at step 0; `play`: start animating;
 * `built`: its run, already built by the caller (else built here);
 * `fromForm`: a run the form changed, opening at the step shown before (not
 * an address's `step=`: notePastEnd's words).
 */
export function rebuild(play = state.autoplay, built = null, fromForm = false) {
  state.gotoJob += 1;
  if (state.computingAhead) state.embedApi?.dropWaiting();
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
  } catch (e) {
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
    state.compareRefused = reason ? state.page.compare : null;
    markCompareMenu($('compare'), state.choices?.algorithms, state.compareRefused);
  }
  updateHall();
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
      if (!later) notePastEnd(target, fromForm);
    }
    state.snapshot = state.sim.snapshot();
    state.destinations = state.sim.destinations();
    state.sources = state.sim.sources();
    state.keyShade = keyShades(state.sim.key_places());
    state.bounds = state.sim.bounds();
    // Packets in flight at step 0 (the view may open later): all but the fixed points (the core counts them).
    state.undeliveredAtStart = state.snapshot.packets - state.snapshot.fixed;
  } else {
    state.bounds = null;
    state.keyShade = null;
  }
  // Colour by key asked for (the address's color=key, the menu) on a run without keys: said, not silently dropped.
  if (state.sim && state.page.color === 'key' && !state.keyShade) {
    showMessage('info', 'Colour by key needs a sort\'s keys; this run routes packets without keys — coloured by class.', 'sim');
  }
  // The pace: the core's, from the run's length, measured at once as far
  // as MEASURE_SYNC_MS gets (the rest a slice per frame, in loop).
  readPace();
  measure(MEASURE_SYNC_MS);
  resizeCanvas();
  updateRunTitle();
  updateLegendMarks();
  updateColorControl();
  showSpeed();
  // A run opened at or past its end (step=) has nothing left to play: paused, its button Replay.
  setPlaying(play && running(), false);
  updateChart(true);
  updateWatchInfo();
  updateExplain(true);
  state.dirty = true;
  shown();
  if (later) continueTo(later, play, fromForm);
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
export function present(animateMs) {
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
  // Paused (a manual step, a scrub), the claims follow at once too (they lagged the
  // counters by up to a quarter second; the timeline audit of 2026-12-01).
  updateExplain(!running() || !state.playing);
  state.dirty = true;
  shown();
}

/**
 * After every step shown (SPEC §7): its state goes to the parent window;
 * while the user has paused, the address keeps the shown step.
 */
function shown() {
  updateTimeline();
  updateNextPhase();
  updatePredict();
  if (!state.snapshot) return;
  state.chart?.showStep(shownStep());
  if (!state.autoplay && state.page.step !== shownStep()) {
    state.page.step = shownStep();
    saveUrlSoon();
  }
  state.embedApi?.post({ ...state.snapshot, step: shownStep(), status: shownStatus() });
}

/** The scrubber, its bands and the computed band (timeline.js), from the runs shown and the core's pace. */
function updateTimeline() {
  const pair = state.compare?.active && state.snapshot;
  if (pair) {
    // Both runs on one timeline: the shown step is the pair's; it ends when both have.
    const [main, other] = [state.sim, state.compare.sim];
    const sim = { furthest: () => Math.max(main.furthest(), other.furthest()), phases: () => main.phases() };
    const snapshot = { step: shownStep(), status: running() ? 'running' : state.snapshot.status };
    state.timeline?.update(sim, snapshot, runBounds(), state.playing, state.pace);
  } else {
    state.timeline?.update(state.sim, state.snapshot, runBounds(), state.playing, state.pace);
  }
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
export function goTo(step, animateMs = 0) {
  if (!state.sim) return;
  setPlaying(false);
  const before = shownStep();
  computeThen(step, () => {
    const after = coreStep();
    present(Math.abs(after - before) === 1 ? animateMs : 0);
  });
}

/** The step the core now holds (of the pair, the further run's), before the page's snapshot catches up. */
function coreStep() {
  return Math.max(state.sim.summary().step, state.compare?.active ? state.compare.sim.summary().step : 0);
}

/**
 * A step to open at past the run's end: its last step is shown, and said
 * so — of the address's `step=`, or of the step a changed run opened at.
 */
function notePastEnd(target, fromForm) {
  const shown = coreStep();
  if (shown >= target) return;
  const words = fromForm
    ? `The changed run ends at step ${shown}, before step ${target} shown last: showing its last step.`
    : `step=${target} is past the run's end: showing its last step, ${shown}.`;
  showMessage('info', words, 'sim');
}

/**
 * After a rebuild opened a big run short of the step it was to open at:
 * computes on in slices (the view paused on the steps computed so far),
 * shows the step, and plays on if the run was to play. As with a goto,
 * play, pause, a step or another goto meanwhile cancels it.
 */
function continueTo(step, resume, fromForm) {
  setPlaying(false, false);
  computeThen(step, () => {
    notePastEnd(step, fromForm);
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
  // A goto still computing, cancelled: the host's commands queued behind it go too.
  if (state.computingAhead) state.embedApi?.dropWaiting();
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

/** Shows the first step of the next phase (the core's `next_phase_step`), paused as any goto. */
export function nextPhase() {
  const step = state.sim?.next_phase_step();
  if (step !== undefined) goTo(step);
}

export function stepForward() {
  setPlaying(false);
  if (running()) afterSteps(advance(1), tweenMs(300));
}

export function stepBack() {
  if (!state.snapshot) return;
  // At step 0 there is no step to show: back only pauses (no state message, SPEC §7: one per step shown).
  if (shownStep() === 0) {
    if (state.playing) setPlaying(false);
    return;
  }
  goTo(shownStep() - 1, tweenMs(300));
}

/** Play / pause; at the end of the run, play again from step 0. */
export function togglePlay() {
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

export function resetRun() {
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

/** Plays or pauses; `byUser`: also the choice for the next runs. */
export function setPlaying(on, byUser = true) {
  cancelGoto();
  const pausing = state.playing && !on;
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
  // Playing, the chart follows a few times a second; on a pause it shows
  // the counters' step at once (else it could stay a few steps behind
  // them). Already paused, the callers that change the step update it.
  if (pausing) updateChart(true);
}

/** The animation loop (one requestAnimationFrame each): plays the steps due at playSpeed, draws when dirty. */
export function loop(now) {
  const dt = Math.min(0.25, (now - (state.lastFrame ?? now)) / 1000);
  state.lastFrame = now;
  // The run's length, measured a slice a frame until known: the pace and the computed band follow.
  if (state.sim && !state.pace?.known && measure()) {
    updateTimeline();
    updateNextPhase();
  }
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

/** Runs to the end in slices, so the page stays responsive on big runs. */
export function finishRun() {
  if (!running()) return;
  const slice = () => {
    const done = advance(1e9, 40);
    afterSteps(done, 0);
    if (running() && !state.playing) setTimeout(slice, 0);
  };
  slice();
}
