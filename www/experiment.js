// The experiment view: a sweep over sizes (or ℓ = k) for several
// algorithms, run in a Web Worker, plotted against √(ℓkN) and the instance
// bound, exportable as CSV, JSON and PNG.

import { experimentCharts, chartsToPng } from './charts.js';

const DEFAULT_VALUES = {
  linear: '16,32,64,128',
  ring: '16,32,64,128',
  mesh: '8,16,32,64',
  torus: '8,12,16,24,32',
  hypercube: '3,4,5,6,7,8',
  butterfly: '2,3,4,5,6',
};
const MAX_STEPS = 1_000_000;

const $ = (id) => document.getElementById(id);

function download(name, blob) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

function csvField(v) {
  const s = v === null || v === undefined ? '' : String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * Wires the experiment section. `algorithms` = the wasm list; `current()`
 * returns the page's configuration (topology, workload, policy, l, k, seed, q).
 */
export function setupExperiment(algorithms, current) {
  const box = $('sweep-algorithms');
  for (const a of algorithms) {
    const label = document.createElement('label');
    label.className = 'check';
    label.title = `${a.description} (${a.topologies})`;
    label.innerHTML = `<input type="checkbox" value="${a.name}"> ${a.name}`;
    box.append(label);
  }
  const charts = experimentCharts($('sweep-steps'), $('sweep-ratio'), $('sweep-queue'));
  charts.build(algorithms.map((a) => a.name), $('sweep-ratio-ref').value);
  let worker = null;
  let results = [];
  let lastKind = null;
  let meta = null;

  const kindOf = (topology) => topology.split(':')[0];
  // On a new topology kind: default sizes, and tick the current algorithm
  // plus those whose registry entry names the kind.
  const syncValues = () => {
    const kind = kindOf(current().topology);
    if (kind === lastKind) return;
    if ($('sweep-vary').value === 'size') $('sweep-values').value = DEFAULT_VALUES[kind] ?? '8,16,32';
    for (const input of box.querySelectorAll('input')) {
      const info = algorithms.find((a) => a.name === input.value);
      input.checked = input.value === current().algorithm || info.topologies.includes(kind);
    }
    lastKind = kind;
  };
  syncValues();
  $('sweep-vary').addEventListener('change', () => {
    $('sweep-values').value = $('sweep-vary').value === 'size' ? DEFAULT_VALUES[kindOf(current().topology)] : '1,2,4,8,16';
  });

  function plan() {
    const config = current();
    const chosen = [...box.querySelectorAll('input:checked')].map((i) => i.value);
    if (!chosen.length) throw new Error('choose at least one algorithm');
    const values = $('sweep-values').value.split(',').map((s) => s.trim()).filter(Boolean);
    const bad = values.find((v) => !/^\d+$/.test(v) || Number(v) < 1);
    if (bad !== undefined || !values.length) throw new Error(`sweep values: "${bad ?? ''}" is not a whole number ≥ 1`);
    const seeds = Math.max(1, Math.min(20, Number($('sweep-seeds').value) || 1));
    const vary = $('sweep-vary').value;
    const [kind, size] = config.topology.split(':');
    const dims = size.split('x').length;
    const runs = [];
    values.forEach((v, point) => {
      const topology = vary === 'size'
        ? (kind === 'mesh' || kind === 'torus' ? `${kind}:${Array(Math.max(2, dims)).fill(v).join('x')}` : `${kind}:${v}`)
        : config.topology;
      const l = vary === 'lk' || vary === 'l' ? Number(v) : config.l;
      const k = vary === 'lk' || vary === 'k' ? Number(v) : config.k;
      for (let s = 0; s < seeds; s++) {
        for (const algorithm of chosen) {
          const c = { topology, algorithm, policy: config.policy, workload: config.workload, l, k, seed: config.seed + s };
          if (config.q !== null) c.queue_cap = config.q;
          runs.push({ point, value: v, config: c });
        }
      }
    });
    return { runs, chosen, vary, values, config };
  }

  function rows() {
    const byPoint = new Map();
    for (const { run, result } of results) {
      if (!result.ok || result.report.delivered !== result.report.packets) continue;
      const r = result.report;
      let row = byPoint.get(run.point);
      if (!row) {
        const lk = r.l * r.k;
        row = {
          point: run.point,
          sqrt_lkn: r.bounds.sqrt_lkn,
          diameter: r.bounds.reference?.diameter ?? null,
          nodes: Math.round((r.bounds.sqrt_lkn ** 2) / Math.max(1, lk)),
          bestSum: 0,
          bestN: 0,
          sums: {},
          queueSums: {},
          counts: {},
        };
        byPoint.set(run.point, row);
      }
      row.bestSum += r.bounds.best;
      row.bestN += 1;
      row.sums[r.algorithm] = (row.sums[r.algorithm] ?? 0) + r.steps;
      row.queueSums[r.algorithm] = (row.queueSums[r.algorithm] ?? 0) + r.max_queue;
      row.counts[r.algorithm] = (row.counts[r.algorithm] ?? 0) + 1;
    }
    return [...byPoint.values()]
      .sort((a, b) => a.sqrt_lkn - b.sqrt_lkn)
      .map((row) => ({
        nodes: row.nodes,
        sqrt_lkn: row.sqrt_lkn,
        diameter: row.diameter,
        best: row.bestSum / row.bestN,
        steps: Object.fromEntries(Object.keys(row.sums).map((a) => [a, row.sums[a] / row.counts[a]])),
        queue: Object.fromEntries(Object.keys(row.queueSums).map((a) => [a, row.queueSums[a] / row.counts[a]])),
      }));
  }

  function finish(message) {
    worker?.terminate();
    worker = null;
    $('sweep-run').disabled = false;
    $('sweep-cancel').disabled = true;
    $('sweep-status').textContent = message;
    const any = results.length > 0;
    for (const id of ['export-csv', 'export-json', 'export-png']) $(id).disabled = !any;
  }

  $('sweep-run').addEventListener('click', () => {
    syncValues();
    let p;
    try {
      p = plan();
    } catch (e) {
      $('sweep-status').textContent = e.message;
      return;
    }
    meta = p;
    results = [];
    charts.build(p.chosen, $('sweep-ratio-ref').value);
    charts.update(p.chosen, []);
    $('sweep-errors').textContent = '';
    $('sweep-progress').max = p.runs.length;
    $('sweep-progress').value = 0;
    $('sweep-status').textContent = `0 / ${p.runs.length} runs`;
    $('sweep-run').disabled = true;
    $('sweep-cancel').disabled = false;
    worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    const errors = new Map(); // algorithm -> {count, first message}
    worker.onmessage = (event) => {
      const msg = event.data;
      if (msg.type === 'fatal') {
        finish(msg.message);
      } else if (msg.type === 'result') {
        results.push({ run: msg.run, result: msg.result });
        const problem = !msg.result.ok ? msg.result.message : msg.result.status !== 'finished' ? `run ended ${msg.result.status}` : null;
        if (problem) {
          const alg = msg.run.config.algorithm;
          const seen = errors.get(alg) ?? { count: 0, first: `${problem} (on ${msg.run.config.topology})` };
          seen.count += 1;
          errors.set(alg, seen);
        }
        $('sweep-progress').value = msg.index + 1;
        $('sweep-status').textContent = `${msg.index + 1} / ${msg.total} runs`;
        $('sweep-errors').textContent = [...errors].map(([alg, e]) => `${alg}: ${e.count} run${e.count > 1 ? 's' : ''} refused or unfinished — ${e.first}`).join(' · ');
        charts.update(p.chosen, rows());
      } else if (msg.type === 'done') {
        const bad = [...errors.values()].reduce((n, e) => n + e.count, 0);
        finish(`done: ${results.length} runs${bad ? `, ${bad} refused or unfinished` : ''}`);
      }
    };
    worker.onerror = (e) => finish(`worker error: ${e.message ?? 'could not start'}`);
    worker.postMessage({ runs: p.runs, maxSteps: MAX_STEPS });
  });

  // Switching the ratio's reference redraws what the sweep has so far.
  $('sweep-ratio-ref').addEventListener('change', () => {
    const chosen = meta ? meta.chosen : algorithms.map((a) => a.name);
    charts.build(chosen, $('sweep-ratio-ref').value);
    charts.update(chosen, rows());
  });

  $('sweep-cancel').addEventListener('click', () => finish(`cancelled after ${results.length} runs`));

  const stamp = () => new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
  $('export-csv').addEventListener('click', () => {
    const head = ['algorithm', 'topology', 'workload', 'policy', 'l', 'k', 'seed', 'queue_cap', 'status', 'packets', 'delivered', 'steps', 'max_queue', 'best', 'sqrt_lkn', 'steps_over_sqrt_lkn', 'error'];
    const lines = [head.join(',')];
    for (const { run, result } of results) {
      const c = run.config;
      const r = result.ok ? result.report : null;
      lines.push([
        c.algorithm, c.topology, c.workload, c.policy, r?.l ?? c.l, r?.k ?? c.k, c.seed, c.queue_cap ?? '',
        result.ok ? result.status : 'refused', r?.packets, r?.delivered, r?.steps, r?.max_queue, r?.bounds.best,
        r?.bounds.sqrt_lkn, r ? (r.steps / r.bounds.sqrt_lkn).toFixed(4) : '', result.ok ? '' : result.message,
      ].map(csvField).join(','));
    }
    download(`routesim-sweep-${stamp()}.csv`, new Blob([lines.join('\n') + '\n'], { type: 'text/csv' }));
  });
  $('export-json').addEventListener('click', () => {
    const out = results.map(({ run, result }) => (result.ok ? { config: run.config, status: result.status, report: result.report } : { config: run.config, error: result.message }));
    download(`routesim-sweep-${stamp()}.json`, new Blob([JSON.stringify(out, null, 1)], { type: 'application/json' }));
  });
  $('export-png').addEventListener('click', async () => {
    const c = meta.config;
    const varied = { lk: 'ℓ=k', l: `k=${c.k}, ℓ`, k: `ℓ=${c.l}, k` }[meta.vary];
    const caption = `routesim sweep: ${c.workload}, policy ${c.policy}, ${meta.vary === 'size' ? `sizes ${meta.values.join(',')} of ${c.topology.split(':')[0]}, ℓ=${c.l}, k=${c.k}` : `${c.topology}, ${varied} in ${meta.values.join(',')}`}`;
    download(`routesim-sweep-${stamp()}.png`, await chartsToPng(charts.charts(), caption));
  });

  return {
    charts,
    syncValues,
    resize: () => charts.resize(),
    results: () => results,
  };
}
