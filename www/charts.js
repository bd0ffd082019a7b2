// Charts, drawn by uPlot (vendored from the npm registry into www/vendor/
// by build.sh). Data is columnar: [[xs], [ys1], [ys2], …]. Every chart
// publishes what it draws in `registry[name] = {series, data}` (SPEC §7:
// `window.routesim.charts`), `series` naming each column of `data`, the x
// axis first, as uPlot's series do.

import uPlot from './vendor/uPlot.esm.js';

const PALETTE = ['#1f6fd1', '#e0891b', '#1a9e5a', '#8e44ad', '#c0392b', '#16a2b8', '#d35493', '#7f8c8d'];

function sizeOf(el, height) {
  return { width: Math.max(260, Math.floor(el.clientWidth || 480)), height };
}

/** Draws `data` on `plot` and publishes it as `registry[name]`. */
function publish(registry, name, plot, data) {
  plot.setData(data);
  registry[name] = { series: plot.series.map((s) => s.label), data };
}

/**
 * The live run chart: packets in flight (left axis) and max queue (right
 * axis) per step; in the compare view both runs' series, named by
 * algorithm (the second run dashed).
 */
export function runChart(el, registry, height = 220, compact = false) {
  const options = (names) => {
    const series = [{ label: 'step' }];
    const dashes = [undefined, [6, 4]];
    const colours = [[PALETTE[0], PALETTE[1]], [PALETTE[2], PALETTE[3]]];
    (names ?? [null]).forEach((name, i) => {
      const prefix = name ? `${name} ` : '';
      series.push(
        { label: `${prefix}in flight`, stroke: colours[i][0], width: 2, dash: dashes[i], fill: i === 0 ? 'rgba(31,111,209,0.08)' : undefined },
        { label: `${prefix}max queue`, stroke: colours[i][1], width: 2, dash: dashes[i], scale: 'queue', paths: uPlot.paths.stepped({ align: 1 }) },
      );
    });
    return {
      ...sizeOf(el, height),
      title: names ? 'These runs, per step' : 'This run, per step',
      scales: { x: { time: false }, queue: { range: (u, min, max) => [0, Math.max(2, max)] } },
      axes: [
        { label: 'step' },
        { label: compact ? 'in flight' : 'packets in flight', stroke: PALETTE[0] },
        { label: 'max queue', scale: 'queue', side: 1, stroke: PALETTE[1], grid: { show: false } },
      ],
      series,
      legend: { live: true },
    };
  };
  const empty = (n) => Array.from({ length: n }, () => [0]);
  const handle = { chart: new uPlot(options(null), empty(3), el) };
  let shape = 'single';
  publish(registry, 'run', handle.chart, empty(3));
  /** The columns of one run, `n` steps long (a run that ended earlier is padded with gaps). */
  const columns = (stats, undeliveredAtStart, n) => {
    const inFlight = new Array(n + 1).fill(null);
    const queue = new Array(n + 1).fill(null);
    inFlight[0] = undeliveredAtStart;
    queue[0] = 0;
    for (let i = 0; i < stats.in_flight.length; i++) {
      inFlight[i + 1] = stats.in_flight[i];
      queue[i + 1] = stats.queue_series[i];
    }
    return [inFlight, queue];
  };
  return Object.assign(handle, {
    /**
     * `stats` = the wasm `stats()` object; `undeliveredAtStart` = packets in
     * flight at step 0; `other` = the second run `{name, stats,
     * undeliveredAtStart}` and `mainName` the first's algorithm, in the compare view.
     */
    update(stats, undeliveredAtStart, other = null, mainName = '') {
      const key = other ? JSON.stringify([mainName, other.name]) : 'single';
      if (key !== shape) {
        handle.chart.destroy();
        handle.chart = new uPlot(options(other ? [mainName, other.name] : null), empty(other ? 5 : 3), el);
        shape = key;
      }
      const n = Math.max(stats.in_flight.length, other ? other.stats.in_flight.length : 0);
      const xs = new Float64Array(n + 1);
      for (let i = 0; i <= n; i++) xs[i] = i;
      if (!other) {
        // One run: typed columns, as before.
        const inFlight = new Float64Array(n + 1);
        const queue = new Float64Array(n + 1);
        inFlight[0] = undeliveredAtStart;
        for (let i = 0; i < n; i++) {
          inFlight[i + 1] = stats.in_flight[i];
          queue[i + 1] = stats.queue_series[i];
        }
        publish(registry, 'run', handle.chart, [xs, inFlight, queue]);
        return;
      }
      publish(registry, 'run', handle.chart, [xs, ...columns(stats, undeliveredAtStart, n), ...columns(other.stats, other.undeliveredAtStart, n)]);
    },
    resize() {
      handle.chart.setSize(sizeOf(el, height));
    },
  });
}

/** The ratio chart's references: which of the core's per-point ratios it draws. */
export const RATIO_REFERENCES = {
  sqrt: { title: 'Ratio steps / √(ℓ·k·N)', axis: 'steps / √(ℓkN)', field: 'steps_over_sqrt_lkn' },
  diameter: { title: 'Ratio steps / diameter (2n − 2 on an n×n mesh)', axis: 'steps / diameter', field: 'steps_over_diameter' },
};

/**
 * The experiment charts, drawn from the core's `Experiment.chart()`
 * ({x_label, algorithms, points: [{x, sqrt_lkn, best, steps[],
 * max_queue[], steps_over_sqrt_lkn[], steps_over_diameter[]}]}): measured
 * steps with √(ℓkN) and the instance bound `best`; the ratio of steps to
 * √(ℓkN) or to the diameter; the largest queue. The x axis is the varied
 * parameter. Nothing is computed here: every number is the core's.
 */
export function experimentCharts(els, registry, height = 300) {
  const plots = { steps: null, ratio: null, queue: null };
  let shape = null;
  let last = null;
  let ref = 'sqrt';

  function build(algorithms, xLabel, reference) {
    for (const p of Object.values(plots)) p?.destroy();
    const algSeries = algorithms.map((name, i) => ({
      label: name,
      stroke: PALETTE[i % PALETTE.length],
      width: 2,
      points: { show: true, size: 7 },
      spanGaps: true,
    }));
    const x = { label: xLabel || 'x' };
    const empty = (n) => Array.from({ length: n }, () => []);
    plots.steps = new uPlot({
      ...sizeOf(els.steps, height),
      title: `Measured steps${xLabel ? ` vs ${xLabel}` : ''}`,
      scales: { x: { time: false } },
      axes: [{ label: x.label }, { label: 'steps (mean over seeds)' }],
      series: [
        x,
        { label: '√(ℓkN)', stroke: '#6b7280', width: 1.5, dash: [2, 4], points: { show: true, size: 4 }, spanGaps: true },
        { label: 'best', stroke: '#111827', width: 1.5, dash: [6, 4], points: { show: true, size: 5 }, spanGaps: true },
        ...algSeries,
      ],
    }, empty(algorithms.length + 3), els.steps);
    plots.ratio = new uPlot({
      ...sizeOf(els.ratio, height),
      title: reference.title,
      scales: { x: { time: false } },
      axes: [{ label: x.label }, { label: reference.axis }],
      series: [{ ...x }, ...algSeries.map((s) => ({ ...s }))],
    }, empty(algorithms.length + 1), els.ratio);
    plots.queue = new uPlot({
      ...sizeOf(els.queue, height),
      title: `Largest queue (max_queue)${xLabel ? ` vs ${xLabel}` : ''}`,
      scales: { x: { time: false } },
      axes: [{ label: x.label }, { label: 'max_queue (mean over seeds)' }],
      series: [{ ...x }, ...algSeries.map((s) => ({ ...s }))],
    }, empty(algorithms.length + 1), els.queue);
  }

  /** Draws `chart` (the core's chart(), or null for none yet); `refName`: the ratio's reference. */
  function draw(chart, refName = ref) {
    last = chart;
    ref = RATIO_REFERENCES[refName] ? refName : 'sqrt';
    const reference = RATIO_REFERENCES[ref];
    const algorithms = chart?.algorithms ?? [];
    const xLabel = chart?.x_label ?? '';
    const key = JSON.stringify([algorithms, xLabel, ref]);
    if (key !== shape) {
      build(algorithms, xLabel, reference);
      shape = key;
    }
    const points = chart?.points ?? [];
    const xs = points.map((p) => p.x);
    const column = (f) => points.map((p) => f(p) ?? null);
    const perAlgorithm = (field) => algorithms.map((_, i) => column((p) => p[field][i]));
    publish(registry, 'steps', plots.steps, [xs, column((p) => p.sqrt_lkn), column((p) => p.best), ...perAlgorithm('steps')]);
    publish(registry, 'ratio', plots.ratio, [xs, ...perAlgorithm(reference.field)]);
    publish(registry, 'queue', plots.queue, [xs, ...perAlgorithm('max_queue')]);
  }

  draw(null);
  return {
    draw,
    /** Redraws the last chart with another ratio reference. */
    setReference: (refName) => draw(last, refName),
    charts: () => [plots.steps, plots.ratio, plots.queue],
    resize() {
      plots.steps?.setSize(sizeOf(els.steps, height));
      plots.ratio?.setSize(sizeOf(els.ratio, height));
      plots.queue?.setSize(sizeOf(els.queue, height));
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
