// The experiment view: one parameter (size, ℓ = k, ℓ or k) varied for
// several algorithms. The core's Experiment plans and runs the grid in a
// Web Worker and aggregates the chart points; this file only collects the
// form, shows progress and draws what comes back. Exports: the core's CSV,
// the results as JSON, the charts as PNG.

import { experimentCharts, chartsToPng, diameterFormula, LOG_KINDS } from './experiment-charts.js';
import { kindOf } from './form.js';

const $ = (id) => document.getElementById(id);

/**
 * The diameter's formula (experiment-charts.js `diameterFormula`) for an
 * experiment on `config`'s network varying `vary`: the kind is the core's,
 * the sides the numbers of the topology's parameter (`mesh:8x16` → 8, 16).
 */
function diameterOf(config, vary) {
  const sides = String(config.topology ?? '').split(':')[1]?.split('x').map(Number) ?? [];
  return diameterFormula(kindOf(config.topology), sides, vary);
}

function download(name, blob) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/**
 * Wires the experiment section. `catalogue` = the wasm catalogue; `current()`
 * returns the page's run config (the experiment's base); `runnable()` the
 * core's verdict per algorithm on it ([{name, ok, reason}]); `registry`
 * receives the charts' data as drawn (SPEC §7).
 */
export function setupExperiment({ catalogue, current, runnable, charts: registry }) {
  /** The experiment's default sizes for a topology kind (the core's catalogue). */
  const sweepSizes = (kind) => catalogue.topologies.find((t) => t.name === kind)?.sweep_sizes;
  const box = $('sweep-algorithms');
  for (const a of catalogue.algorithms) {
    const label = document.createElement('label');
    label.className = 'check';
    label.title = `${a.summary} (${a.accepts})`;
    label.dataset.about = label.title;
    const input = document.createElement('input');
    input.type = 'checkbox';
    input.value = a.name;
    label.append(input, ` ${a.name}`);
    box.append(label);
  }
  const charts = experimentCharts({ steps: $('sweep-steps'), ratio: $('sweep-ratio'), queue: $('sweep-queue') }, registry);
  let worker = null;
  let results = []; // what run_next() returned, in order
  let csv = null; // the core's CSV of the rows, once the worker is done
  let sent = null; // the last experiment asked for
  let lastKind = null;
  let lastTicks = null;
  let killTimer = null;

  /**
   * After a configuration change: default values for a new topology kind;
   * the boxes of algorithms that cannot run are disabled and unticked (the
   * reason as their title); when that verdict or the current algorithm
   * changes, the few the core chooses (`preset`: the run's algorithm and
   * up to three more that can run) are ticked again, the others unticked.
   */
  const sync = () => {
    const config = current();
    const kind = kindOf(config.topology);
    if (kind !== lastKind) {
      if ($('sweep-vary').value === 'size') $('sweep-values').value = sweepSizes(kind) ?? $('sweep-values').value;
      lastKind = kind;
    }
    nameDiameter();
    const list = runnable();
    const ticks = JSON.stringify([config.algorithm, list.map((a) => [a.name, a.ok, !!a.preset])]);
    for (const input of box.querySelectorAll('input')) {
      const choice = list.find((a) => a.name === input.value);
      const ok = choice?.ok ?? false;
      input.disabled = !ok;
      input.parentElement.title = ok ? input.parentElement.dataset.about : choice?.reason ?? '';
      input.parentElement.classList.toggle('disabled', !ok);
      if (!ok) input.checked = false;
      else if (ticks !== lastTicks) input.checked = !!choice.preset;
    }
    lastTicks = ticks;
  };
  /**
   * The "Ratio to" menu names the diameter's formula for the next sweep
   * (the current network, the chosen vary); the ratio chart that of the
   * sweep it draws (before the first, the next one's).
   */
  const nameDiameter = () => {
    const now = current();
    const next = diameterOf(now, $('sweep-vary').value);
    $('sweep-ratio-ref').querySelector('option[value="diameter"]').textContent = next ? `diameter (${next.formula})` : 'diameter';
    charts.setDiameter(sent ? diameterOf(sent.base, sent.vary) : next);
    // D and D² are offered where the network's D is log₂ N: the sweep drawn's or the next one's.
    const logs = [sent?.base, now].some((config) => config && LOG_KINDS.includes(kindOf(config.topology)));
    const menu = $('sweep-ratio-ref');
    for (const option of menu.querySelectorAll('option[data-log]')) {
      option.hidden = !logs;
      option.disabled = !logs;
    }
    if (!logs && menu.selectedOptions[0]?.disabled) {
      menu.value = 'sqrt';
      charts.setReference('sqrt');
    }
  };
  sync();
  $('sweep-vary').addEventListener('change', () => {
    $('sweep-values').value = $('sweep-vary').value === 'size' ? sweepSizes(kindOf(current().topology)) ?? '8,16,32' : '1,2,4,8,16';
    nameDiameter();
  });

  function finish(message) {
    clearTimeout(killTimer);
    worker?.terminate();
    worker = null;
    $('sweep-run').disabled = false;
    $('sweep-cancel').disabled = true;
    $('sweep-status').textContent = message;
    $('export-csv').disabled = csv === null || results.length === 0;
    $('export-json').disabled = results.length === 0;
    $('export-png').disabled = results.length === 0;
  }

  $('sweep-run').addEventListener('click', () => {
    sync();
    const chosen = [...box.querySelectorAll('input:checked')].map((i) => i.value);
    if (!chosen.length) {
      $('sweep-status').textContent = 'choose at least one algorithm';
      return;
    }
    sent = {
      base: current(),
      vary: $('sweep-vary').value,
      values: $('sweep-values').value,
      algorithms: chosen.join(','),
      seeds: $('sweep-seeds').value,
    };
    results = [];
    csv = null;
    nameDiameter();
    charts.autoScales();
    charts.draw(null, $('sweep-ratio-ref').value);
    $('sweep-errors').textContent = '';
    $('sweep-progress').max = 1;
    $('sweep-progress').value = 0;
    $('sweep-status').textContent = 'starting…';
    $('sweep-run').disabled = true;
    $('sweep-cancel').disabled = false;
    for (const id of ['export-csv', 'export-json', 'export-png']) $(id).disabled = true;
    worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    const errors = new Map(); // algorithm -> {count, first message}
    worker.onmessage = (event) => {
      const msg = event.data;
      if (msg.type === 'fatal') {
        finish(msg.message);
      } else if (msg.type === 'refused') {
        finish(`refused: ${msg.message}`);
      } else if (msg.type === 'start') {
        $('sweep-progress').max = Math.max(1, msg.total);
        $('sweep-status').textContent = `0 / ${msg.total} runs`;
        charts.draw(msg.chart, $('sweep-ratio-ref').value);
      } else if (msg.type === 'result') {
        const r = msg.result;
        results.push(r);
        const problem = !r.ok ? r.message : r.status !== 'finished' ? `run ended ${r.status}` : null;
        if (problem) {
          const alg = r.row.algorithm;
          const seen = errors.get(alg) ?? { count: 0, first: `${problem} (on ${r.row.topology})` };
          seen.count += 1;
          errors.set(alg, seen);
        }
        $('sweep-progress').value = msg.index + 1;
        $('sweep-status').textContent = `${msg.index + 1} / ${msg.total} runs`;
        $('sweep-errors').textContent = [...errors].map(([alg, e]) => `${alg}: ${e.count} run${e.count > 1 ? 's' : ''} refused or unfinished — ${e.first}`).join(' · ');
        charts.draw(msg.chart, $('sweep-ratio-ref').value);
      } else if (msg.type === 'done') {
        csv = msg.csv;
        charts.draw(msg.chart, $('sweep-ratio-ref').value);
        const bad = [...errors.values()].reduce((n, e) => n + e.count, 0);
        finish(msg.cancelled
          ? `cancelled after ${msg.runs} runs`
          : `done: ${msg.runs} runs${bad ? `, ${bad} refused or unfinished` : ''}`);
      }
    };
    worker.onerror = (e) => finish(`worker error: ${e.message ?? 'could not start'}`);
    worker.postMessage({ type: 'run', experiment: sent });
  });

  // Switching the ratio's reference redraws what the experiment has so far.
  $('sweep-ratio-ref').addEventListener('change', () => charts.setReference($('sweep-ratio-ref').value));

  // Cancel stops after the current run (the worker then sends the CSV so
  // far); a run that takes too long is cut short, without the CSV.
  $('sweep-cancel').addEventListener('click', () => {
    if (!worker) return;
    worker.postMessage({ type: 'cancel' });
    $('sweep-cancel').disabled = true;
    $('sweep-status').textContent = 'cancelling…';
    killTimer = setTimeout(() => finish(`cancelled after ${results.length} runs`), 3000);
  });

  const stamp = () => new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
  $('export-csv').addEventListener('click', () => {
    download(`routesim-experiment-${stamp()}.csv`, new Blob([csv], { type: 'text/csv' }));
  });
  $('export-json').addEventListener('click', () => {
    download(`routesim-experiment-${stamp()}.json`, new Blob([JSON.stringify({ experiment: sent, runs: results }, null, 1)], { type: 'application/json' }));
  });
  $('export-png').addEventListener('click', async () => {
    const b = sent.base;
    const caption = `routesim experiment on ${b.topology}: ${sent.vary} in ${sent.values}, workload ${b.workload}, policy ${b.policy}, ℓ=${b.l ?? '–'}, k=${b.k ?? '–'}, ${sent.seeds} seed(s) from ${b.seed}`;
    download(`routesim-experiment-${stamp()}.png`, await chartsToPng(charts.charts(), caption));
  });

  return {
    charts,
    sync,
    resize: () => charts.resize(),
    results: () => results,
  };
}
