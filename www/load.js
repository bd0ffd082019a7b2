// The load panel: latency against offered load (SPEC §6, chart `load`).
// The core's LoadCurve plans the grid (algorithms × rates) and runs it in
// the Web Worker point by point; this file only collects the form, shows
// progress and draws what comes back. Bad input: the core's message, in
// the page's error line.

import { loadChart } from './charts.js';

const $ = (id) => document.getElementById(id);

/**
 * Wires the load panel. `catalogue` = the wasm catalogue (its `patterns`
 * and each algorithm's `open_loop`); `current()` the page's run config
 * (the topology to start from); `limits` the wasm limits();
 * `charts` receives the chart's data as drawn (SPEC §7); `error(text)`
 * shows the core's message in the error line, `clear()` removes it.
 */
export function setupLoad({ catalogue, current, limits, charts: registry, error, clear }) {
  const box = $('load-algorithms');
  for (const a of catalogue.algorithms.filter((e) => e.open_loop)) {
    const label = document.createElement('label');
    label.className = 'check';
    label.title = `${a.summary} (${a.accepts})`;
    const input = document.createElement('input');
    input.type = 'checkbox';
    input.value = a.name;
    input.checked = a.name === 'greedy' || a.name === 'valiant';
    label.append(input, ` ${a.name}`);
    box.append(label);
  }
  for (const name of catalogue.patterns) {
    const option = document.createElement('option');
    option.value = name;
    option.textContent = name;
    $('load-pattern').append(option);
  }
  if (limits?.load_max_nodes) $('load-max-nodes').textContent = String(limits.load_max_nodes);
  const chart = loadChart($('load-chart'), registry);
  let worker = null;
  let rows = [];
  let killTimer = null;
  // The topology box follows the page's network until edited by hand.
  let followed = current().topology;
  $('load-topology').value = followed;
  const sync = () => {
    const topology = current().topology;
    if ($('load-topology').value === followed) $('load-topology').value = topology;
    followed = topology;
  };

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
    const curve = {
      topology: $('load-topology').value.trim(),
      algorithms: algorithms.join(','),
      patterns: $('load-pattern').value,
      rates: $('load-rates').value,
      warmup: $('load-warmup').value,
      measure: $('load-measure').value,
      drain: $('load-drain').value,
      seed: $('load-seed').value,
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
        $('load-progress').value = msg.index + 1;
        $('load-status').textContent = `${msg.index + 1} / ${msg.total} runs`;
        chart.draw(msg.chart);
        notes(msg.chart);
      } else if (msg.type === 'done') {
        rows = msg.rows;
        chart.draw(msg.chart);
        notes(msg.chart);
        finish(msg.cancelled ? `cancelled after ${msg.runs} runs` : `done: ${msg.runs} runs`);
      }
    };
    worker.onerror = (e) => finish(`worker error: ${e.message ?? 'could not start'}`);
    worker.postMessage({ type: 'load', curve });
  });

  /** Per series: where it first saturated (the core's flags). */
  function notes(c) {
    const rates = c.data[0];
    $('load-notes').textContent = c.series.slice(1).map((name, i) => {
      const j = c.saturated[i].indexOf(true);
      return j < 0 ? null : `${name}: saturated at rate ${rates[j]} (drawn up to there)`;
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

  return { chart, sync, resize: () => chart.resize(), rows: () => rows };
}
