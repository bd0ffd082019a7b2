// The page's pace (SPEC §7 `data-speed`, `computed`, `next-phase`). The
// core chooses the speed from the run's length (`Simulation.pace`: the run,
// or the longer of two beside each other, plays in the lesson's seconds,
// about 30 s by default) and measures that length with a copy stepping
// ahead (`Simulation.measure`), a slice per frame, without computing the
// timeline on. The user's speed (URL `speed`, the speed control) wins. The
// next-phase button shows the step where the core says the next phase
// opens (`Simulation.next_phase_step`). This file only asks and draws.

import { $, state, guessPending } from './state.js';

/** Measuring the run's length at a rebuild, ms (the rest a slice per frame). */
export const MEASURE_SYNC_MS = 120;
/** Measuring per animation frame, ms. */
const MEASURE_FRAME_MS = 4;

/** The runs shown: the main one and, in the compare view, the second. */
function runs() {
  return [state.sim, state.compare?.active ? state.compare.sim : null].filter(Boolean);
}

/** The lesson id the core paces by ('intro' for the default view), as view.js explains. */
let lessonOf = () => '';
export function paceLesson(fn) {
  lessonOf = fn;
}

/**
 * Measures the runs' length for about `budgetMs` (until it is known) and
 * reads the pace again; true when something changed.
 */
export function measure(budgetMs = MEASURE_FRAME_MS) {
  // Not while a goto computes in slices: its slices have the frame.
  if (!state.sim || state.pace?.known || state.computingAhead) return false;
  const t0 = performance.now();
  let chunk = 1;
  do {
    let known = true;
    for (const sim of runs()) known = sim.measure(chunk) !== undefined && known;
    if (known) break;
    chunk *= 2;
  } while (performance.now() - t0 < budgetMs);
  readPace();
  return true;
}

/** Reads the core's pace for the runs shown (null without a run) and shows it. */
export function readPace() {
  state.pace = null;
  if (state.sim) {
    try {
      const lesson = lessonOf();
      state.pace = state.compare?.active ? state.sim.pace_with(state.compare.sim, lesson) : state.sim.pace(lesson);
    } catch {
      state.pace = null;
    }
  }
  showSpeed();
}

/** Steps per second while playing: the user's speed, else the core's choice. */
export function playSpeed() {
  return state.page.speed ?? state.pace?.speed ?? 1;
}

export function speedText() {
  const speed = playSpeed();
  if (state.page.speed != null || !state.pace) return `${speed} steps/s`;
  const about = state.pace.known ? '' : '≈ ';
  // Before a lesson's guess the run's length would be its answer.
  if (guessPending()) return `${speed} steps/s (auto: the run in ~${state.pace.seconds} s)`;
  return `${speed} steps/s (auto: ${about}${state.pace.steps} steps in ~${state.pace.seconds} s)`;
}

/** The play button's `data-speed` and the speed label. */
export function showSpeed() {
  $('play').dataset.speed = String(playSpeed());
  $('speed-out').textContent = speedText();
}

/** Enables the next-phase button when the core knows a later phase (its step in the title). */
export function updateNextPhase() {
  const button = $('next-phase');
  if (!button) return;
  const step = state.sim ? state.sim.next_phase_step() : undefined;
  button.disabled = step === undefined;
  button.dataset.step = step === undefined ? '' : String(step);
  button.title = step === undefined ? 'no later phase (computed so far)' : `show step ${step}, where the next phase opens (N)`;
}
