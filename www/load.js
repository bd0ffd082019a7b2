// The load panel: latency against offered load (SPEC §6, chart `load`).
// The core's LoadCurve plans the grid (algorithms × rates) and runs it in
// the Web Worker point by point; this file only collects the form, shows
// progress and draws what comes back. Bad input: the core's message, in
// the page's error line. A lesson with a load curve (the core's
// `load_config`) fills the form, opens the panel and runs it; the core's
// live check of the lesson's claims on the curve (LoadCurve.lesson_check)
// comes back with every row, for the explain panel.

import { loadChart } from './load-chart.js';
import { layout } from './layout.js';
import { viewFor, drawFrame } from './render.js';

const $ = (id) => document.getElementById(id);

/**
 * Wires the load panel. `catalogue` = the wasm catalogue (its `patterns`
 * and each algorithm's `open_loop`); `current()` the page's run config
 * (the topology to start from); `limits` the wasm limits();
 * `charts` receives the chart's data as drawn (SPEC §7); `error(text)`
 * shows the core's message in the error line, `clear()` removes it;
 * `lesson()` the open lesson's id (or null), whose load check
 * `onCheck(check)` receives after every run (null when none).
 */
export function setupLoad({ catalogue, current, limits, charts: registry, wasm, error, clear, lesson = () => null, onCheck = () => {} }) {
  const box = $('load-algorithms');
  for (const a of catalogue.algorithms.filter((e) => e.open_loop)) {
    const option = document.createElement('option');
    option.value = a.name;
    option.textContent = a.name;
    $('watch-algorithm').append(option);
    const label = document.createElement('label');
    label.className = 'check';
    label.title = `${a.summary} (${a.accepts})`;
    label.dataset.about = label.title;
    const input = document.createElement('input');
    input.type = 'checkbox';
    input.value = a.name;
    input.checked = (catalogue.load_form?.algorithms ?? []).includes(a.name);
    label.append(input, ` ${a.name}`);
    box.append(label);
  }
  for (const name of catalogue.patterns) {
    for (const id of ['load-pattern', 'load-pattern2']) $(id).append(new Option(name, name));
  }
  if (limits?.load_max_nodes) $('load-max-nodes').textContent = String(limits.load_max_nodes);
  const chart = loadChart($('load-chart'), registry);
  let worker = null;
  let rows = [];
  let killTimer = null;
  // The topology box follows the page's network until edited by hand.
  let followed = current().topology;
  $('load-topology').value = followed;
  // The algorithms that run on the panel's network (the core's
  // load_choices) are enabled, the others unticked and disabled with the
  // core's reason; where one was unticked, or none is ticked, the core's
  // preset is ticked too (greedy and
  // Valiant on a mesh, Valiant and bit fixing on a hypercube: the form once
  // ticked greedy on a hypercube and its curve was refused).
  let fittedFor = null;
  const fit = () => {
    const name = $('load-topology').value.trim();
    if (name === fittedFor) return;
    let choices;
    try {
      choices = wasm.load_choices(name);
    } catch {
      return; // a bad name: the curve's run names it
    }
    fittedFor = name;
    const inputs = [...box.querySelectorAll('input')];
    const watch = $('watch-algorithm');
    let dropped = false;
    for (const c of choices) {
      const input = inputs.find((i) => i.value === c.name);
      if (input) {
        input.disabled = !c.ok;
        dropped ||= !c.ok && input.checked;
        if (!c.ok) input.checked = false;
        input.parentElement.title = c.ok ? input.parentElement.dataset.about : c.reason;
      }
      const option = [...watch.options].find((o) => o.value === c.name);
      if (option) option.disabled = !c.ok;
    }
    // A ticked algorithm that cannot run here gives way to the core's preset.
    if (dropped || !inputs.some((i) => i.checked)) {
      for (const c of choices) {
        const input = inputs.find((i) => i.value === c.name);
        if (input && c.preset) input.checked = true;
      }
    }
    if (watch.selectedOptions[0]?.disabled) {
      const first = choices.find((c) => c.preset) ?? choices.find((c) => c.ok);
      if (first) watch.value = first.name;
    }
  };
  const sync = () => {
    const topology = current().topology;
    if ($('load-topology').value === followed) $('load-topology').value = topology;
    followed = topology;
    fit();
  };
  // As the name is typed, so that a box ticked right after is not undone by
  // a fit on the box's blur.
  $('load-topology').addEventListener('input', fit);
  $('load-topology').addEventListener('change', fit);
  fit();

  function finish(message) {
    clearTimeout(killTimer);
    worker?.terminate();
    worker = null;
    $('load-run').disabled = false;
    $('load-cancel').disabled = true;
    $('load-status').textContent = message;
  }

  $('load-run').addEventListener('click', () => {
    clear();
    const algorithms = [...box.querySelectorAll('input:checked')].map((i) => i.value);
    if (!algorithms.length) {
      error('load curve: choose at least one algorithm');
      return;
    }
    const patterns = [...new Set([$('load-pattern').value, $('load-pattern2').value].filter(Boolean))];
    const curve = {
      topology: $('load-topology').value.trim(),
      algorithms: algorithms.join(','),
      patterns: patterns.join(','),
      rates: $('load-rates').value,
      warmup: $('load-warmup').value,
      measure: $('load-measure').value,
      drain: $('load-drain').value,
      seed: $('load-seed').value,
      up_to_saturation: $('load-stop').checked,
      policy: current().policy,
    };
    rows = [];
    chart.draw(null);
    $('load-notes').textContent = '';
    $('load-progress').max = 1;
    $('load-progress').value = 0;
    $('load-status').textContent = 'starting…';
    $('load-run').disabled = true;
    $('load-cancel').disabled = false;
    worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    worker.onmessage = (event) => {
      const msg = event.data;
      if (msg.type === 'fatal') {
        error(`load curve: ${msg.message}`);
        finish('failed');
      } else if (msg.type === 'refused') {
        error(`load curve: ${msg.message}`);
        finish('refused (see the error above)');
      } else if (msg.type === 'start') {
        $('load-progress').max = Math.max(1, msg.total);
        $('load-status').textContent = `0 / ${msg.total} runs`;
        chart.draw(msg.chart);
      } else if (msg.type === 'row') {
        rows.push(msg.row);
        // Up to saturation, the planned total shrinks as curves saturate.
        $('load-progress').max = Math.max(1, msg.total);
        $('load-progress').value = msg.index + 1;
        $('load-status').textContent = `${msg.index + 1} / ${msg.total} runs`;
        chart.draw(msg.chart);
        notes(msg.chart);
        onCheck(msg.check);
      } else if (msg.type === 'done') {
        rows = msg.rows;
        chart.draw(msg.chart);
        notes(msg.chart);
        onCheck(msg.check);
        finish(msg.cancelled ? `cancelled after ${msg.runs} runs` : `done: ${msg.runs} runs`);
      }
    };
    worker.onerror = (e) => finish(`worker error: ${e.message ?? 'could not start'}`);
    onCheck(null);
    worker.postMessage({ type: 'load', curve, lesson: lesson() });
  });

  /**
   * Per series: where it first saturated (the core's flags), and whether
   * no measured packet was delivered there (no latency: ringed on the top
   * edge).
   */
  function notes(c) {
    const rates = c.data[0];
    $('load-notes').textContent = c.series.slice(1).map((name, i) => {
      const j = c.saturated[i].indexOf(true);
      if (j < 0) return null;
      const none = c.data[i + 1][j] == null ? '; no measured packet delivered there: ringed on the top edge' : '';
      return `${name}: saturated at rate ${rates[j]} (drawn up to there${none})`;
    }).filter(Boolean).join(' · ');
  }

  $('load-cancel').addEventListener('click', () => {
    if (!worker) return;
    worker.postMessage({ type: 'cancel' });
    $('load-cancel').disabled = true;
    $('load-status').textContent = 'cancelling…';
    killTimer = setTimeout(() => finish(`cancelled after ${rows.length} runs`), 3000);
  });
  // A chart drawn while the panel was closed has no width: size it when opened.
  $('load-details').addEventListener('toggle', () => chart.resize());

  const watch = setupWatch({ catalogue, current, wasm, error, clear });

  // The panel's place: after the page's run, and for a lesson's curve
  // before the experiment, so that it comes next to the lesson.
  const panel = $('load');
  const home = { parent: panel.parentElement, next: panel.nextElementSibling };

  /**
   * Opens the lesson `l` (the core's lesson object, or null): with a load
   * curve (`l.load_config`), fills the form with it, opens the panel next
   * to the run and runs it; otherwise puts the panel back in its place.
   */
  function openLesson(l) {
    const config = l?.load_config;
    if (!config) {
      home.parent.insertBefore(panel, home.next);
      return;
    }
    $('experiment')?.before(panel);
    const algorithms = config.algorithms.split(',');
    for (const input of box.querySelectorAll('input')) input.checked = algorithms.includes(input.value);
    const [first, second = ''] = config.patterns.split(',');
    $('load-pattern').value = first;
    $('load-pattern2').value = second;
    $('load-topology').value = config.topology;
    $('load-rates').value = config.rates;
    for (const key of ['warmup', 'measure', 'drain', 'seed']) $(`load-${key}`).value = config[key];
    $('load-stop').checked = !!config.up_to_saturation;
    $('load-details').open = true;
    if (worker) finish('cancelled for the lesson');
    $('load-run').click();
  }

  return { chart, sync, resize: () => chart.resize(), rows: () => rows, watch, openLesson };
}

/** Steps the load mode advances per animation frame. */
const STEPS_PER_FRAME = 2;

/**
 * The load mode (SPEC §6, issue #16): one open-loop run (the core's
 * LoadSim) of the chosen algorithm at one rate on the panel's pattern,
 * topology and seed, drawn with render.js on its own canvas as the main
 * canvas is drawn, a few steps per frame, with a live line of the core's
 * counts. Any error stops it with the core's message in the error line.
 */
function setupWatch({ current, wasm, error, clear }) {
  const canvas = $('watch-canvas');
  let sim = null;
  let lay = null;
  let view = null;
  let playing = false;
  let frame = 0;

  function stop(message) {
    playing = false;
    cancelAnimationFrame(frame);
    $('watch-pause').textContent = 'Resume';
    $('watch-pause').disabled = !sim;
    if (message) error(`load mode: ${message}`);
  }

  function size() {
    if (!lay) return;
    const dpr = window.devicePixelRatio || 1;
    const w = canvas.clientWidth || 600;
    const h = canvas.clientHeight || 380;
    canvas.width = Math.round(w * dpr);
    canvas.height = Math.round(h * dpr);
    view = viewFor(lay, w, h, dpr);
  }

  function show(stats) {
    const latency = stats.mean_latency == null ? '–' : stats.mean_latency.toFixed(2);
    const out = $('watch-stats');
    out.textContent = `step ${stats.step} · injected ${stats.injected} · delivered ${stats.delivered} · in flight ${stats.in_flight} · mean latency ${latency} · largest queue ${stats.max_queue}`;
    for (const key of ['step', 'injected', 'delivered', 'in_flight']) out.dataset[key] = String(stats[key]);
  }

  function draw() {
    if (!sim || !view) return;
    const snapshot = sim.snapshot();
    const ctx = canvas.getContext('2d');
    ctx.setTransform(view.dpr, 0, 0, view.dpr, 0, 0);
    // Ids are reused once delivered: no glide from a previous position
    // (it may be another packet's), only the slots still in flight drawn.
    drawFrame(ctx, view, lay, {
      snapshot,
      prevPositions: null,
      t: 1,
      colorMode: 'class',
      destinations: null,
      trail: null,
      watched: null,
      hover: null,
      queueScale: Math.max(4, snapshot.max_queue),
    });
  }

  function tick() {
    if (!playing || !sim) return;
    try {
      show(sim.step(STEPS_PER_FRAME));
      draw();
    } catch (e) {
      stop(e.message);
      return;
    }
    frame = requestAnimationFrame(tick);
  }

  $('watch-run').addEventListener('click', () => {
    clear();
    stop(null);
    sim?.free();
    sim = null;
    const config = {
      topology: $('load-topology').value.trim(),
      algorithm: $('watch-algorithm').value,
      pattern: $('load-pattern').value,
      rate: $('watch-rate').value,
      seed: $('load-seed').value,
      policy: current().policy,
    };
    try {
      sim = new wasm.LoadSim(config);
      lay = layout(wasm.topology(config.topology));
    } catch (e) {
      sim?.free();
      sim = null;
      $('watch-pause').disabled = true;
      error(`load mode: ${e.message}`);
      return;
    }
    canvas.parentElement.hidden = false;
    size();
    show(sim.stats());
    draw();
    playing = true;
    $('watch-pause').textContent = 'Pause';
    $('watch-pause').disabled = false;
    frame = requestAnimationFrame(tick);
  });

  $('watch-pause').addEventListener('click', () => {
    if (!sim) return;
    if (playing) {
      stop(null);
    } else {
      playing = true;
      $('watch-pause').textContent = 'Pause';
      frame = requestAnimationFrame(tick);
    }
  });

  window.addEventListener('resize', () => {
    size();
    draw();
  });

  return { running: () => playing, stats: () => sim?.stats() ?? null };
}
