// The experiment's charts (steps, ratio, largest queue against the varied
// parameter, log scales when the values span a decade) and their PNG
// export; uPlot and the shared parts from charts.js.

import uPlot from './vendor/uPlot.esm.js';
import { seriesStyle, fitted, logSplits, DASHED_MARKERS, drawOnTop, legendValue, accessible, sizeOf, publish } from './charts.js';

/** The ratio chart's references: which of the core's per-point ratios it draws. */
export const RATIO_REFERENCES = {
  sqrt: { title: 'Ratio steps / √(ℓ·k·N)', axis: 'steps / √(ℓkN)', field: 'steps_over_sqrt_lkn' },
  diameter: { title: 'Ratio steps / diameter (2n − 2 on an n×n mesh)', axis: 'steps / diameter', field: 'steps_over_diameter' },
};

/** Whether the positive values of `columns` span more than a decade (then a log scale reads better). */
export function spansDecade(columns) {
  let lo = Infinity;
  let hi = 0;
  for (const col of columns) {
    for (const v of col) {
      if (v > 0) {
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
    }
  }
  return hi > 0 && hi / lo > 10;
}

const CHART_NAMES = ['steps', 'ratio', 'queue'];

/**
 * The steps chart's references by series index: grey dotted √(ℓkN) and
 * black dashed, wider `best` — colours no algorithm's curve has.
 */
const REFERENCES = {
  1: { stroke: '#6b7280', width: 1.5, dash: [2, 4], point: 2 },
  2: { stroke: '#111827', width: 3, dash: [7, 4], point: 3 },
};

/**
 * The experiment charts, drawn from the core's `Experiment.chart()`
 * ({x_label, algorithms, points: [{x, sqrt_lkn, best, steps[],
 * max_queue[], steps_over_sqrt_lkn[], steps_over_diameter[]}]}): measured
 * steps with √(ℓkN) and the instance bound `best`; the ratio of steps to
 * √(ℓkN) or to the diameter; the largest queue. The x axis is the varied
 * parameter. Nothing is computed here: every number is the core's.
 *
 * Scales: a chart whose values span more than a decade is drawn on log
 * scales (y; x too when the varied parameter spans a decade), so that
 * √(ℓkN), the bound and a fast algorithm do not lie flat on 0 beside a
 * slow one. Each chart has a "log scale" box: automatic until ticked or
 * unticked by hand. `registry[name].log` says which scale is drawn.
 */
export function experimentCharts(els, registry, height = 300) {
  const plots = { steps: null, ratio: null, queue: null };
  const shapes = { steps: null, ratio: null, queue: null };
  const chosen = { steps: null, ratio: null, queue: null }; // the reader's log choice; null: automatic
  const boxes = {};
  let last = null;
  let ref = 'sqrt';

  for (const name of CHART_NAMES) {
    const bar = document.createElement('div');
    bar.className = 'chart-tools';
    const label = document.createElement('label');
    label.className = 'check';
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.dataset.log = name;
    const note = document.createElement('span');
    note.className = 'hint';
    label.append(box, ' log scale ', note);
    label.title = 'automatic: log when the values span more than a decade; tick or untick to choose';
    bar.append(label);
    els[name].prepend(bar);
    // Before the first point, a line over the empty plot says how to fill it.
    const hint = document.createElement('p');
    hint.className = 'chart-empty';
    hint.dataset.role = 'chart-empty';
    hint.textContent = 'No points yet: choose the algorithms and the values above, then Run sweep.';
    els[name].append(hint);
    boxes[name] = { box, note, hint };
    box.addEventListener('change', () => {
      chosen[name] = box.checked;
      draw(last, ref);
    });
  }

  // Every series its own (colour, dash) pair; an algorithm keeps its pair on every chart.
  const algSeries = (algorithms) => algorithms.map((name, i) => ({
    label: name,
    ...seriesStyle(i),
    width: 2,
    points: { show: true, size: 7 },
    spanGaps: true,
    value: legendValue(() => ''),
  }));

  /** (Re)builds chart `name` with its series and scales. */
  function build(name, algorithms, xLabel, reference, log, xLog) {
    plots[name]?.destroy();
    const x = { label: xLabel || 'the varied value', value: legendValue(() => '') };
    // Axes fitted to the data: a log axis ends at the data's last value, not at the next power of 10.
    const scales = {
      x: { time: false, distr: xLog ? 3 : 1, range: fitted(xLog) },
      y: log ? { distr: 3, range: fitted(true) } : { distr: 1 },
    };
    // A log axis ticks at round values (1, 2, 5 × 10^e) within its fitted range.
    const axes = (yLabel) => [
      { label: x.label, ...(xLog ? { splits: logSplits } : {}) },
      { label: yLabel, ...(log ? { splits: logSplits } : {}) },
    ];
    const empty = (n) => Array.from({ length: n }, () => []);
    const el = els[name];
    let opts;
    if (name === 'steps') {
      opts = {
        title: `Measured steps${xLabel ? ` vs ${xLabel}` : ''}`,
        axes: axes('steps (mean over seeds)'),
        series: [
          x,
          { label: '√(ℓkN)', ...REFERENCES[1], points: { show: true, size: 4 }, spanGaps: true, value: legendValue(() => '') },
          { label: 'best', ...REFERENCES[2], points: { show: true, size: 6 }, spanGaps: true, value: legendValue(() => '') },
          ...algSeries(algorithms),
        ],
        // The references are drawn again over the curves: best is never hidden under one.
        hooks: { draw: [drawOnTop(REFERENCES)] },
      };
    } else if (name === 'ratio') {
      opts = { title: reference.title, axes: axes(reference.axis), series: [x, ...algSeries(algorithms)] };
    } else {
      opts = {
        title: `Largest queue (max_queue)${xLabel ? ` vs ${xLabel}` : ''}`,
        axes: axes('max_queue (mean over seeds)'),
        series: [x, ...algSeries(algorithms)],
      };
    }
    plots[name] = new uPlot({ ...sizeOf(el, height), scales, legend: { live: true, markers: DASHED_MARKERS }, ...opts }, empty(opts.series.length), el);
    accessible(plots[name]);
  }

  /** Draws `chart` (the core's chart(), or null for none yet); `refName`: the ratio's reference. */
  function draw(chart, refName = ref) {
    last = chart;
    ref = RATIO_REFERENCES[refName] ? refName : 'sqrt';
    const reference = RATIO_REFERENCES[ref];
    const algorithms = chart?.algorithms ?? [];
    const xLabel = chart?.x_label ?? '';
    const points = chart?.points ?? [];
    const xs = points.map((p) => p.x);
    const column = (f) => points.map((p) => f(p) ?? null);
    const perAlgorithm = (field) => algorithms.map((_, i) => column((p) => p[field][i]));
    const columns = {
      steps: [column((p) => p.sqrt_lkn), column((p) => p.best), ...perAlgorithm('steps')],
      ratio: perAlgorithm(reference.field),
      queue: perAlgorithm('max_queue'),
    };
    const xDecade = xs.every((v) => v > 0) && spansDecade([xs]);
    for (const name of CHART_NAMES) {
      const auto = spansDecade(columns[name]);
      const log = chosen[name] ?? auto;
      const xLog = log && xDecade;
      boxes[name].box.checked = log;
      boxes[name].hint.hidden = points.length > 0;
      boxes[name].note.textContent = chosen[name] === null ? '(auto)' : '';
      const key = JSON.stringify([algorithms, xLabel, name === 'ratio' ? ref : '', log, xLog]);
      if (key !== shapes[name]) {
        build(name, algorithms, xLabel, reference, log, xLog);
        shapes[name] = key;
      }
      // A log scale has no place for 0: such a point is left out (null) there.
      const ys = log ? columns[name].map((col) => col.map((v) => (v > 0 ? v : null))) : columns[name];
      publish(registry, name, plots[name], [xs, ...ys]);
      registry[name].log = log;
      // Each series' colour and dash as drawn (no two series of a chart share both).
      registry[name].styles = plots[name].series.slice(1).map((s, i) => ({
        stroke: typeof s.stroke === 'function' ? s.stroke(plots[name], i + 1) : s.stroke,
        dash: s.dash ?? [],
        width: s.width,
      }));
    }
  }

  draw(null);
  return {
    draw,
    /** Redraws the last chart with another ratio reference. */
    setReference: (refName) => draw(last, refName),
    /** Back to automatic scales (a new experiment). */
    autoScales() {
      for (const name of CHART_NAMES) chosen[name] = null;
    },
    charts: () => CHART_NAMES.map((name) => plots[name]),
    resize() {
      for (const name of CHART_NAMES) plots[name]?.setSize(sizeOf(els[name], height));
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
