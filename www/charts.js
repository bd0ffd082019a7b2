// Charts, drawn by uPlot (vendored from the npm registry into www/vendor/
// by build.sh). Data is columnar: [[xs], [ys1], [ys2], …].

import uPlot from './vendor/uPlot.esm.js';

const PALETTE = ['#1f6fd1', '#e0891b', '#1a9e5a', '#8e44ad', '#c0392b', '#16a2b8', '#d35493', '#7f8c8d'];

function sizeOf(el, height) {
  return { width: Math.max(260, Math.floor(el.clientWidth || 480)), height };
}

/** The live run chart: packets in flight (left axis) and max queue (right axis) per step. */
export function runChart(el, height = 220, compact = false) {
  const opts = {
    ...sizeOf(el, height),
    title: 'This run, per step',
    scales: { x: { time: false }, queue: { range: (u, min, max) => [0, Math.max(2, max)] } },
    axes: [
      { label: 'step' },
      { label: compact ? 'in flight' : 'packets in flight', stroke: PALETTE[0] },
      { label: 'max queue', scale: 'queue', side: 1, stroke: PALETTE[1], grid: { show: false } },
    ],
    series: [
      { label: 'step' },
      { label: 'in flight', stroke: PALETTE[0], width: 2, fill: 'rgba(31,111,209,0.08)' },
      { label: 'max queue', stroke: PALETTE[1], width: 2, scale: 'queue', paths: uPlot.paths.stepped({ align: 1 }) },
    ],
    legend: { live: true },
  };
  const chart = new uPlot(opts, [[0], [0], [0]], el);
  return {
    chart,
    /** `stats` = the wasm `stats()` object; `packets` = packets at step 0. */
    update(stats, undeliveredAtStart) {
      const n = stats.in_flight.length;
      const xs = new Float64Array(n + 1);
      const inFlight = new Float64Array(n + 1);
      const queue = new Float64Array(n + 1);
      inFlight[0] = undeliveredAtStart;
      for (let i = 0; i < n; i++) {
        xs[i + 1] = i + 1;
        inFlight[i + 1] = stats.in_flight[i];
        queue[i + 1] = stats.queue_series[i];
      }
      chart.setData([xs, inFlight, queue]);
    },
    resize() {
      chart.setSize(sizeOf(el, height));
    },
  };
}

/** The denominators the ratio chart offers: √(ℓkN), or the diameter (2·side − 2 on a side×side mesh). */
export const RATIO_REFERENCES = {
  sqrt: { title: 'Ratio steps / √(ℓ·k·N)', axis: 'steps / √(ℓkN)', of: (row) => row.sqrt_lkn },
  diameter: { title: 'Ratio steps / diameter (2n − 2 on an n×n mesh)', axis: 'steps / diameter', of: (row) => row.diameter },
};

/**
 * The experiment charts: measured steps against √(ℓkN) with the instance
 * bound `best` and the reference line y = √(ℓkN); the ratio of steps to
 * √(ℓkN) or to the diameter against N; and the largest queue against N.
 */
export function experimentCharts(stepsEl, ratioEl, queueEl, height = 300) {
  let steps = null;
  let ratio = null;
  let queue = null;
  let reference = RATIO_REFERENCES.sqrt;
  function build(algorithms, ref = 'sqrt') {
    steps?.destroy();
    ratio?.destroy();
    queue?.destroy();
    reference = RATIO_REFERENCES[ref] ?? RATIO_REFERENCES.sqrt;
    const algSeries = algorithms.map((name, i) => ({
      label: name,
      stroke: PALETTE[i % PALETTE.length],
      width: 2,
      points: { show: true, size: 7 },
      spanGaps: true,
    }));
    steps = new uPlot({
      ...sizeOf(stepsEl, height),
      title: 'Measured steps vs √(ℓ·k·N)',
      scales: { x: { time: false } },
      axes: [{ label: '√(ℓ·k·N)' }, { label: 'steps' }],
      series: [
        { label: '√(ℓkN)' },
        ...algSeries,
        { label: 'lower bound best', stroke: '#111827', width: 1.5, dash: [6, 4], points: { show: true, size: 5 }, spanGaps: true },
        { label: 'y = √(ℓkN)', stroke: '#6b7280', width: 1.5, dash: [2, 4], points: { show: false } },
      ],
    }, [[], ...algorithms.map(() => []), [], []], stepsEl);
    ratio = new uPlot({
      ...sizeOf(ratioEl, height),
      title: reference.title,
      scales: { x: { time: false } },
      axes: [{ label: 'nodes N' }, { label: reference.axis }],
      series: [{ label: 'N' }, ...algSeries.map((s) => ({ ...s }))],
    }, [[], ...algorithms.map(() => [])], ratioEl);
    queue = new uPlot({
      ...sizeOf(queueEl, height),
      title: 'Largest queue (max_queue) vs N',
      scales: { x: { time: false } },
      axes: [{ label: 'nodes N' }, { label: 'max_queue (mean over seeds)' }],
      series: [{ label: 'N' }, ...algSeries.map((s) => ({ ...s }))],
    }, [[], ...algorithms.map(() => [])], queueEl);
  }
  return {
    build,
    /**
     * `rows` = sweep points sorted by size: {nodes, sqrt_lkn, diameter, best,
     * steps: {alg: mean or null}, queue: {alg: mean or null}}.
     */
    update(algorithms, rows) {
      const xs = rows.map((r) => r.sqrt_lkn);
      const nodes = rows.map((r) => r.nodes);
      const perAlg = algorithms.map((a) => rows.map((r) => r.steps[a] ?? null));
      steps.setData([xs, ...perAlg, rows.map((r) => r.best), xs.slice()]);
      const denominators = rows.map((r) => reference.of(r));
      ratio.setData([nodes, ...perAlg.map((ys) => ys.map((y, i) => (y === null || !denominators[i] ? null : y / denominators[i])))]);
      queue.setData([nodes, ...algorithms.map((a) => rows.map((r) => r.queue[a] ?? null))]);
    },
    charts: () => [steps, ratio, queue],
    resize() {
      steps?.setSize(sizeOf(stepsEl, height));
      ratio?.setSize(sizeOf(ratioEl, height));
      queue?.setSize(sizeOf(queueEl, height));
    },
  };
}

/** One PNG of several uPlot charts stacked (their canvases plus titles and legends as text). */
export async function chartsToPng(charts, caption) {
  const dpr = window.devicePixelRatio || 1;
  const pad = 16 * dpr;
  const widths = charts.map((c) => c.ctx.canvas.width);
  const width = Math.max(...widths) + 2 * pad;
  const legendH = 22 * dpr;
  const titleH = 24 * dpr;
  const height = charts.reduce((h, c) => h + c.ctx.canvas.height + legendH + titleH, 0) + 2 * pad + 20 * dpr;
  const out = document.createElement('canvas');
  out.width = width;
  out.height = height;
  const ctx = out.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = '#111827';
  ctx.font = `${12 * dpr}px system-ui, sans-serif`;
  ctx.fillText(caption, pad, pad + 4 * dpr);
  let y = pad + 20 * dpr;
  for (const c of charts) {
    ctx.font = `bold ${13 * dpr}px system-ui, sans-serif`;
    ctx.fillStyle = '#111827';
    ctx.fillText(c.root.querySelector('.u-title')?.textContent ?? '', pad, y + 14 * dpr);
    y += titleH;
    ctx.drawImage(c.ctx.canvas, pad, y);
    y += c.ctx.canvas.height;
    let x = pad;
    ctx.font = `${12 * dpr}px system-ui, sans-serif`;
    c.series.forEach((s, i) => {
      if (i === 0 || !s.show) return;
      ctx.fillStyle = typeof s.stroke === 'function' ? s.stroke(c, i) : (s.stroke ?? '#000');
      ctx.fillRect(x, y + 8 * dpr, 14 * dpr, 3 * dpr);
      ctx.fillStyle = '#111827';
      ctx.fillText(s.label, x + 18 * dpr, y + 14 * dpr);
      x += (ctx.measureText(s.label).width + 34 * dpr);
    });
    y += legendH;
  }
  return new Promise((resolve) => out.toBlob(resolve, 'image/png'));
}
