// The page's entry: loads the wasm module, reads the address (falling back
// from a run the core refuses), sets up the panels and starts the animation
// loop. The core decides: which algorithms and workloads can run
// (`choices`), what a change that makes the run impossible becomes
// (`reconcile`), every simulation result. The page only converts and draws
// what it gets: state.js, run.js, view.js, form.js, controls.js,
// pointer.js, address.js, messages.js.

import init, * as wasm from './pkg/routesim.js';
import { parseQuery, registerRunFields, registerIntro, defaultsFor } from './config.js';
import { runChart } from './charts.js';
import { setupExperiment } from './experiment.js';
import { setupLoad } from './load.js';
import { setupZoom } from './zoom.js';
import { Compare } from './compare.js';
import { setupTimeline } from './timeline.js';
import { setupEmbedApi } from './embed-api.js';
import { decodeInstance } from './url-instance.js';
import { $, state, shownStep, shownStatus } from './state.js';
import { showMessage, clearMessages } from './messages.js';
import { rebuild, goTo, stepForward, stepBack, togglePlay, resetRun, setPlaying, loop, nextPhase } from './run.js';
import { resizeCanvas, updateView, updateExplain, lessonId, stackedRestChanged } from './view.js';
import { paceLesson } from './pace.js';
import { setupPredict } from './predict.js';
import { refreshMenus, writeControls } from './form.js';
import { applyConfig, setupControls } from './controls.js';
import { saveUrl } from './address.js';
import { setupPointer } from './pointer.js';
import { setPalette } from './render.js';

// ---- experiment ------------------------------------------------------------

const experimentCache = { key: null, list: null };

/**
 * Which algorithms the experiment can run on the current network and
 * workload, as the core says in one call (`experiment_choices`): an
 * algorithm that accepts the network and routes the workload, and the few
 * it ticks at first (`preset`: the run's own algorithm, then others).
 * [{name, ok, reason, preset}]. Memoised on the whole config: the preset
 * follows the run's algorithm (a memo that left the algorithm out kept the
 * first algorithm's ticks after the run's changed).
 */
function experimentChoices() {
  const config = state.config;
  const key = JSON.stringify(config);
  if (experimentCache.key === key) return experimentCache.list;
  let list;
  try {
    list = wasm.experiment_choices(config);
  } catch (e) {
    list = state.catalogue.algorithms.map((a) => ({ name: a.name, ok: false, reason: e.message }));
  }
  experimentCache.key = key;
  experimentCache.list = list;
  return list;
}

// ---- boot --------------------------------------------------------------------

/**
 * A URL whose run fields each parse but whose run the core refuses to
 * build (e.g. a topology over the page's size limit) is bad in one of
 * them: the core says which (`blame_query`: the first of the URL's run
 * parameters whose default — the lesson's, else the page's — makes the run
 * build, else all of them), with its reason and the config to run; the page
 * shows its warning line and its reconcile lines. Called once, when the
 * address's run was refused.
 */
function fallBackFromUrl(search) {
  if (state.instanceText) return false;
  const blame = wasm.blame_query(state.config, search, defaultsFor(state.lesson, false).config);
  if (!blame) return false;
  // The switches made for the refused run no longer apply.
  clearMessages('reconcile');
  showMessage('warning', blame.warning, 'url');
  for (const m of blame.messages) showMessage('info', m, 'reconcile');
  state.config = blame.config;
  return true;
}

/**
 * Opens the run: with the URL's `instance=` (url-instance.js) if there is
 * one and the core takes it. `search`: the address as the page was opened
 * (the page has rewritten it from its config since).
 */
async function openInstanceFromUrl(param, search) {
  if (param !== null) {
    try {
      const json = await decodeInstance(param, wasm.limits().max_bytes);
      state.urlInstance = { text: json, param };
      if (applyConfig(state.config, json, 'The instance in the URL was refused', 'url')) return;
    } catch (e) {
      showMessage('warning', `URL parameter instance ignored: ${e.message}.`, 'url');
    }
    state.instanceParam = null;
    saveUrl();
  }
  rebuild();
  if (!state.sim && fallBackFromUrl(search)) {
    rebuild();
    writeControls();
    refreshMenus();
    saveUrl();
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
  const palette = wasm.palette();
  setPalette(palette);
  document.documentElement.style.setProperty('--lit', palette.lit);
  document.documentElement.style.setProperty('--control', palette.control);
  registerRunFields(state.catalogue.fields, state.catalogue.algorithms);
  state.lessons = wasm.lessons();
  registerIntro(wasm.lesson('intro'));
  const search = location.search;
  const parsed = parseQuery(search, wasm);
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
  // Source 'reconcile': a fall-back from a refused run clears them (fallBackFromUrl).
  for (const m of parsed.switches) showMessage('warning', m, 'reconcile');
  setupControls();
  foldSetup();
  saveUrl();
  state.chart = runChart($('run-chart'), state.charts, state.embed ? 160 : 190, state.embed);
  if (state.embed) {
    // The compact view draws only the run chart: the others' data, as drawn, is none
    // (and the load chart's y_max, which SPEC §7 says charts.load carries, none either).
    for (const el of document.querySelectorAll('[data-role="chart"]')) {
      state.charts[el.dataset.chart] ??= el.dataset.chart === 'load' ? { series: [], data: [], y_max: null } : { series: [], data: [] };
    }
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
  setupPointer(canvas);
  // The canvases follow their column's width (a window resize, a scroll bar
  // that comes or goes); stacked on a phone, also the height of what stands
  // above the buttons (a two-line name, the captions, a message), so that
  // the buttons stay on the first screen.
  let stageWidth = 0;
  const follow = new ResizeObserver(() => {
    const width = canvas.closest('.stage').clientWidth;
    if ((width !== stageWidth || stackedRestChanged()) && state.lay) resizeCanvas();
    stageWidth = width;
  });
  follow.observe(canvas.closest('.stage'));
  follow.observe(document.body);
  window.addEventListener('resize', () => {
    resizeCanvas();
    state.chart.resize();
    state.experiment?.resize();
    state.load?.resize();
  });
  paceLesson(lessonId);
  setupPredict();
  $('next-phase').addEventListener('click', nextPhase);
  state.timeline = setupTimeline({ scrubber: $('scrubber'), bands: $('scrub-bands'), back: $('step-back'), computed: $('computed'), timeline: $('timeline') },
    { goto: goTo, back: stepBack, forward: stepForward, toggle: togglePlay, nextPhase });
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
    busy: () => state.computingAhead,
  }, (text) => {
    clearMessages('embed');
    showMessage('error', text, 'embed');
  }, () => clearMessages('embed'));
  await openInstanceFromUrl(instanceParam, search);
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
  if (state.embed) startWhenSeen();
  // The first step's message says what the page shows now (an embed
  // waiting to be seen is paused); then the commands sent while it booted.
  state.embedApi.ready(() => (state.snapshot ? { ...state.snapshot, step: shownStep(), status: shownStatus() } : null));
  document.body.dataset.ready = '1';
  requestAnimationFrame(loop);
}

/**
 * Embedded, a run that would play waits, paused with its Play button,
 * until its frame is scrolled into view (IntersectionObserver: for a frame,
 * against the course page's viewport), so that a short run does not end
 * before anyone looks; a play, pause or command from the user first
 * cancels the wait. As the other lines grow or shrink, the canvas takes
 * the height the frame leaves.
 */
function startWhenSeen() {
  // Any line that grows (a caption's numbers, a claim, a message) shrinks the canvas; the canvas's own change settles at once.
  // A refit can change the rest too (a canvas small enough for the heat map
  // adds the heat map's legend line): refit until the rest holds still.
  const bodyHeight = () => document.body.getBoundingClientRect().height;
  const canvasHeight = () => $('network').getBoundingClientRect().height;
  let last = -1;
  const fit = () => {
    for (let i = 0; i < 3; i++) {
      const [body, canvas] = [bodyHeight(), canvasHeight()];
      resizeCanvas();
      // The frame changed by the canvas's change alone: the rest held still.
      if (Math.abs(bodyHeight() - body - (canvasHeight() - canvas)) < 1) break;
    }
    last = Math.round(bodyHeight());
  };
  new ResizeObserver(() => {
    if (Math.round(bodyHeight()) !== last) fit();
  }).observe(document.body);
  if (!state.playing) return;
  setPlaying(false, false);
  if (typeof IntersectionObserver !== 'function') return;
  const played = state.gotoJob;
  const seen = new IntersectionObserver((entries) => {
    if (!entries.some((e) => e.isIntersecting)) return;
    seen.disconnect();
    // Untouched since (gotoJob counts every play, pause and goto): play.
    if (state.gotoJob === played && !state.playing) togglePlay();
  }, { threshold: 0.5 });
  seen.observe($('network'));
}

/** Narrow screens show the run, then the lesson and claims; Setup starts folded to its summary line (style.css). */
function foldSetup() {
  if (window.matchMedia('(max-width: 700px)').matches) $('setup-fold').open = false;
}

boot();
