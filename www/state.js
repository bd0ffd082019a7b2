// The page's shared state: the one `state` object (also `window.routesim`,
// the end-to-end tests' hook) and small accessors that only read it.

import { DEFAULT_CONFIG, PAGE_DEFAULTS } from './config.js';

export const $ = (id) => document.getElementById(id);
export const UNDELIVERED = 0xffffffff;

export const state = {
  config: { ...DEFAULT_CONFIG }, // the run: a wasm config object, as the core returns it
  page: { ...PAGE_DEFAULTS }, // speed, color (null: by key for a sort, else by class), play
  embed: false,
  guess: null, // a lesson's prediction as given (text), null before one (predict.js)
  catalogue: null, // wasm catalogue(): topologies, algorithms, policies, workloads
  choices: null, // wasm choices(config) for the current run
  sim: null,
  gotoJob: 0, // bumped by every goto and play/pause: a goto still computing stops when it changes
  computingAhead: false, // a goto's slices have moved the core past the step shown
  topo: null,
  lay: null,
  view: null,
  snapshot: null,
  prevPositions: null,
  destinations: null,
  sources: null,
  keyShade: null, // a sort's keys as colour shades (render.js keyShades); null for routing
  legendView: null, // the explanation the legend was last drawn from (view.js renderLegend; redrawn when the zoom changes)
  classRims: [false, false], // per run: coloured by destination, rim each packet in its class colour (the core's class_rims)
  bounds: null,
  instanceText: null, // a loaded instance replaces topology + workload
  playing: true, // the animation runs
  autoplay: true, // the user's last play/pause: a new run starts playing if true
  stepsDue: 0,
  anim: { start: 0, duration: 0 },
  watched: null,
  trail: null,
  watchNote: '', // the core's line on the watched packet's delay claim (Simulation.watch_note), per packet and step
  watchNoteKey: null,
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
  compareRefused: null, // the second algorithm kept from the address or menu that the last rebuild could not run (run.js)
  lessonChanged: null, // the core's note when the run shown is not the open lesson's own (view.js, predict.js)
  lessons: [], // wasm lessons(): the lesson menu
  lastExplain: 0,
  explainDue: null,
  timeline: null, // timeline.js: scrubber, phase bands, keyboard
  embedApi: null, // embed-api.js: state messages out, commands in
  hall: null, // hall.js: the plan's bipartite graph ({graph, run, chosen}), for a run that plans with one
  instanceParam: null, // the loaded instance as `instance=` (url-instance.js), when it fits the address
};
window.routesim = state; // for the end-to-end tests and the curious

/** Whether the run (or the second run beside it) still runs. */
export function running() {
  return !!state.sim && !!state.snapshot && (state.snapshot.status === 'running' || !!state.compare?.running());
}

/** With a second run beside the first, the pair's shown step and status as the core has them (`{step, status}`), else null. */
function pair() {
  return state.compare?.active && state.compare.sim && state.sim ? state.sim.pair(state.compare.sim) : null;
}

/** The shown step: the run's, or with a second run beside it the pair's (the core's `pair`). */
export function shownStep() {
  const s = state.snapshot;
  if (!s) return 0;
  return pair()?.step ?? s.step;
}

/**
 * Whether a lesson's question waits for its guess: the lesson asks one, none
 * is given, and the run is still at step 0. Until then the page keeps the
 * answer out of view (the lesson's check and its bound values, the speed
 * label's step count); stepping or playing without a guess shows them.
 */
export function guessPending() {
  return !!state.lesson?.predict && state.guess === null && !!state.sim && shownStep() === 0;
}

/** SPEC §7: running, paused, finished, stalled or step-limit (the core's status names; `paused` is the page's). */
export function shownStatus() {
  const s = state.snapshot;
  if (!s) return null;
  const status = pair()?.status ?? s.status;
  return status === 'running' && !state.playing ? 'paused' : status;
}

/**
 * How packets are coloured: the page's `color` (class, destination, or
 * key), by default by key for a sort (its packets carry keys) and by class
 * otherwise; a run without keys is never coloured by key.
 */
export function colorMode() {
  const keyed = !!state.keyShade;
  const chosen = state.page.color ?? (keyed ? 'key' : 'class');
  return chosen === 'key' && !keyed ? 'class' : chosen;
}
