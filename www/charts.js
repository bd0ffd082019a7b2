// Charts, drawn by uPlot (vendored from the npm registry into www/vendor/
// by build.sh). Data is columnar: [[xs], [ys1], [ys2], …]. Every chart
// publishes what it draws in `registry[name] = {series, data}` (SPEC §7:
// `window.routesim.charts`), `series` naming each column of `data`, the x
// axis first, as uPlot's series do.

import uPlot from './vendor/uPlot.esm.js';

/** Okabe–Ito colours (distinguishable with the common colour-vision deficiencies); markers differ too. */
const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#56B4E9', '#E69F00', '#000000', '#999933'];
const DASHES = [undefined, [8, 3], [2, 3], [8, 3, 2, 3]];

/** Whole-number tick steps (steps, packets and queues are counts). */
const WHOLE = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1e3, 2e3, 2500, 5e3, 1e4, 2e4, 25e3, 5e4, 1e5, 2e5, 5e5, 1e6, 2e6, 5e6, 1e7];

/**
 * A legend cell's text: the value under the cursor, or `idle(u, i)` when
 * the cursor is off the chart (uPlot would show "--").
 */
const legendValue = (idle, format = (v) => v) => (u, v, i, idx) => (idx == null ? idle(u, i) : v == null ? '' : format(v));

/** The last value of series `i` (what a live chart shows when not hovered); a run that ended earlier shows its last one. */
const lastValue = (u, i) => {
  const col = u.data[i];
  for (let j = (col?.length ?? 0) - 1; j >= 0; j--) if (col[j] != null) return col[j];
  return '';
};

/**
 * For screen readers and keyboards: the chart's canvas is a picture named
 * by the chart's title and its series; legend entries toggle their series
 * with the keyboard too (uPlot's are mouse only), each a focusable button
 * that says whether it is shown.
 */
function accessible(plot) {
  const names = plot.series.slice(1).map((s) => s.label).join(', ');
  plot.ctx.canvas.setAttribute('role', 'img');
  plot.ctx.canvas.setAttribute('aria-label', `${plot.root.querySelector('.u-title')?.textContent ?? 'chart'}: ${names} against ${plot.series[0].label}`);
  plot.root.querySelectorAll('.u-legend .u-series').forEach((row, i) => {
    if (i === 0) return; // the x series
    row.tabIndex = 0;
    row.setAttribute('role', 'button');
    const sync = () => row.setAttribute('aria-pressed', String(plot.series[i].show));
    sync();
    row.addEventListener('click', () => setTimeout(sync));
    row.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter' && e.key !== ' ') return;
      e.preventDefault();
      e.stopPropagation();
      plot.setSeries(i, { show: !plot.series[i].show });
      sync();
    });
  });
}

function sizeOf(el, height) {
  return { width: Math.max(260, Math.floor(el.clientWidth || 480)), height };
}

/**
 * Draws `data` on `plot` and publishes it as `registry[name]`; `data`'s
 * columns read as plain arrays (SPEC §7), converted from typed arrays
 * when first read.
 */
function publish(registry, name, plot, data) {
  plot.setData(data);
  const entry = { series: plot.series.map((s) => s.label) };
  if (data.every(Array.isArray)) {
    entry.data = data;
  } else {
    let plain;
    Object.defineProperty(entry, 'data', { enumerable: true, get: () => (plain ??= data.map((col) => Array.from(col))) });
  }
  registry[name] = entry;
}

/**
 * The live run chart: packets in flight (left axis) and max queue (right
 * axis) per step; in the compare view both runs' series, named by
 * algorithm (the second run in other colours and dashed). Both y axes
 * start at 0; every tick is a whole number; the legend names the series
 * and shows their values at the cursor, else at the shown step
 * (`showStep`: the timeline can show an earlier step than the latest
 * computed), else the latest ones.
 */
export function runChart(el, registry, height = 220, compact = false) {
  // From 0, with a little room above the highest point so the curve does not run along the frame.
  const fromZero = (least) => (u, min, max) => [0, Math.max(least, Math.ceil((max ?? 0) * 1.08))];
  let shown = null; // the shown step (null: the latest)
  /** Series `i`'s value at the shown step (a run that ended earlier: its last one). */
  const shownValue = (u, i) => {
    const col = u.data[i];
    if (shown === null || !col) return lastValue(u, i);
    for (let j = Math.min(shown, col.length - 1); j >= 0; j--) if (col[j] != null) return col[j];
    return '';
  };
  const options = (names) => {
    const series = [{ label: 'step', value: legendValue(shownValue) }];
    // Per run: [in flight, max queue] colours and dashes (classes differ by more than colour).
    const colours = [[PALETTE[0], PALETTE[1]], [PALETTE[2], PALETTE[3]]];
    const dashes = [[undefined, DASHES[1]], [DASHES[2], DASHES[3]]];
    (names ?? [null]).forEach((name, i) => {
      const prefix = name ? `${name} ` : '';
      series.push(
        { label: `${prefix}in flight`, stroke: colours[i][0], width: 2, dash: dashes[i][0], fill: i === 0 ? 'rgba(0,114,178,0.08)' : undefined, value: legendValue(shownValue) },
        { label: `${prefix}max queue`, stroke: colours[i][1], width: 2, dash: dashes[i][1], scale: 'queue', paths: uPlot.paths.stepped({ align: 1 }), value: legendValue(shownValue) },
      );
    });
    return {
      ...sizeOf(el, height),
      title: names ? 'These runs, per step' : 'This run, per step',
      scales: { x: { time: false, range: (u, min, max) => [0, Math.max(1, max ?? 0)] }, y: { range: fromZero(1) }, queue: { range: fromZero(2) } },
      axes: [
        { label: 'step', incrs: WHOLE },
        { label: compact ? 'in flight' : 'packets in flight', stroke: PALETTE[0], incrs: WHOLE },
        { label: 'max queue', scale: 'queue', side: 1, stroke: PALETTE[1], grid: { show: false }, incrs: WHOLE },
      ],
      series,
      legend: { live: true },
    };
  };
  const empty = (n) => Array.from({ length: n }, () => [0]);
  // `handle.onCreate(plot)`, if set, is called with every chart made after the first (timeline.js draws on each).
  const make = (names) => {
    const plot = new uPlot(options(names), empty(names ? 5 : 3), el);
    accessible(plot);
    handle?.onCreate?.(plot);
    return plot;
  };
  let handle = null;
  handle = { chart: make(null), onCreate: null };
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
        handle.chart = make(other ? [mainName, other.name] : null);
        shape = key;
      }
      const n = Math.max(stats.in_flight.length, other ? other.stats.in_flight.length : 0);
      const xs = new Float64Array(n + 1);
      for (let i = 0; i <= n; i++) xs[i] = i;
      if (!other) {
        // One run: typed columns.
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
    /** The legend shows the values at `step` (when the cursor is off the chart). */
    showStep(step) {
      if (shown === step) return;
      shown = step;
      if (handle.chart.cursor.idx == null) handle.chart.setLegend({ idx: null }, false);
    },
  });
}

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
    box.addEventListener('change', () => {
      chosen[name] = box.checked;
      draw(last, ref);
    });
    boxes[name] = { box, note };
  }

  const algSeries = (algorithms) => algorithms.map((name, i) => ({
    label: name,
    stroke: PALETTE[i % PALETTE.length],
    dash: DASHES[Math.floor(i / 2) % DASHES.length],
    width: 2,
    points: { show: true, size: 7 },
    spanGaps: true,
    value: legendValue(() => ''),
  }));

  /** (Re)builds chart `name` with its series and scales. */
  function build(name, algorithms, xLabel, reference, log, xLog) {
    plots[name]?.destroy();
    const x = { label: xLabel || 'x', value: legendValue(() => '') };
    const scales = { x: { time: false, distr: xLog ? 3 : 1 }, y: { distr: log ? 3 : 1 } };
    const axes = (yLabel) => [{ label: x.label }, { label: yLabel }];
    const empty = (n) => Array.from({ length: n }, () => []);
    const el = els[name];
    let opts;
    if (name === 'steps') {
      opts = {
        title: `Measured steps${xLabel ? ` vs ${xLabel}` : ''}`,
        axes: axes('steps (mean over seeds)'),
        series: [
          x,
          { label: '√(ℓkN)', stroke: '#555555', width: 1.5, dash: [2, 4], points: { show: true, size: 4 }, spanGaps: true, value: legendValue(() => '') },
          { label: 'best', stroke: '#111827', width: 1.5, dash: [6, 4], points: { show: true, size: 5 }, spanGaps: true, value: legendValue(() => '') },
          ...algSeries(algorithms),
        ],
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
    plots[name] = new uPlot({ ...sizeOf(el, height), scales, legend: { live: true }, ...opts }, empty(opts.series.length), el);
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

/** The load chart's y axis ends at most at this many times the largest zero-load latency. */
const Y_CAP = 8;

/** Height of a λ* label's row above the load chart (CSS px). */
const LABEL_ROW = 14;

/**
 * The load chart (SPEC §7 `data-chart="load"`), drawn from the core's
 * `LoadCurve.chart()` ({series: ['offered', 'greedy uniform', …], data:
 * [[rates], [mean latency per rate]…], ideal[], zero_load[],
 * saturated[][]}): mean latency against the rate per series, each
 * series' ideal throughput λ* as a dashed vertical line and its zero-load
 * latency as a dotted horizontal line, in the series' colour. Nothing is
 * computed here; `registry.load` = {series, data, ideal, zero_load,
 * saturated}, the data as drawn.
 */
export function loadChart(el, registry, height = 340) {
  let plot = null;
  let shape = null;
  let last = null;
  const colour = (i) => PALETTE[i % PALETTE.length];
  /** Draws the reference lines of `last` over the plot area. */
  const drawLines = (u) => {
    if (!last) return;
    const { ctx, bbox } = u;
    const dpr = devicePixelRatio;
    ctx.save();
    ctx.font = `${11 * dpr}px system-ui, sans-serif`;
    // The λ* values, one row per series in the band above the plot (left
    // of their line, where the curve has not yet risen), never over data.
    last.ideal.forEach((x, i) => {
      if (x == null || !u.series[i + 1].show) return;
      const px = u.valToPos(x, 'x', true);
      const ty = bbox.top - (LABEL_ROW * (last.ideal.length - i) - 11) * dpr;
      ctx.fillStyle = colour(i);
      const text = `λ* ${x.toFixed(3)}`;
      const left = px - ctx.measureText(text).width - 5 * dpr >= bbox.left;
      ctx.textAlign = left ? 'right' : 'left';
      ctx.fillText(text, px + (left ? -5 : 5) * dpr, ty);
    });
    ctx.textAlign = 'left';
    ctx.beginPath();
    ctx.rect(bbox.left, bbox.top - LABEL_ROW * last.ideal.length * dpr, bbox.width, bbox.height + LABEL_ROW * last.ideal.length * dpr);
    ctx.clip();
    ctx.lineWidth = 1.5 * dpr;
    last.ideal.forEach((x, i) => {
      if (x == null || !u.series[i + 1].show) return;
      const px = u.valToPos(x, 'x', true);
      ctx.strokeStyle = colour(i);
      // From its label's row down through the plot.
      ctx.setLineDash([7 * dpr, 4 * dpr]);
      ctx.beginPath();
      ctx.moveTo(px, bbox.top - (LABEL_ROW * (last.ideal.length - i) - 4) * dpr);
      ctx.lineTo(px, bbox.top + bbox.height);
      ctx.stroke();
      ctx.setLineDash([]);
    });
    ctx.beginPath();
    ctx.rect(bbox.left, bbox.top, bbox.width, bbox.height);
    ctx.clip();
    last.zero_load.forEach((y, i) => {
      if (y == null || !u.series[i + 1].show) return;
      const py = u.valToPos(y, 'y', true);
      ctx.strokeStyle = colour(i);
      ctx.setLineDash([2 * devicePixelRatio, 3 * devicePixelRatio]);
      ctx.beginPath();
      ctx.moveTo(bbox.left, py);
      ctx.lineTo(bbox.left + bbox.width, py);
      ctx.stroke();
    });
    // The first saturated rate of each series: a ring and "saturated".
    ctx.setLineDash([]);
    // Labels already written, so that two series saturating at the same
    // point (or on the top edge) do not write over each other.
    const placed = [];
    const free = (x0, y0, w, h) => placed.every(([a, b, c, d]) => x0 + w <= a || a + c <= x0 || y0 + h <= b || b + d <= y0);
    last.saturated.forEach((flags, i) => {
      const j = flags.indexOf(true);
      const y = u.data[i + 1]?.[j];
      if (j < 0 || y == null || !u.series[i + 1].show) return;
      const px = u.valToPos(u.data[0][j], 'x', true);
      // Past the top of the plot: on its edge, the latency said.
      const top = u.scales.y.max;
      const above = y > top;
      const py = u.valToPos(above ? top : y, 'y', true) + (above ? 9 * dpr : 0);
      ctx.strokeStyle = colour(i);
      ctx.beginPath();
      ctx.arc(px, py, 8 * devicePixelRatio, 0, 2 * Math.PI);
      ctx.stroke();
      ctx.fillStyle = colour(i);
      // Narrow (a phone): the latency alone beside a ring on the edge.
      const narrow = bbox.width < 480 * dpr;
      const text = above ? `${narrow ? '' : 'saturated '}↑ ${Math.round(y)}` : 'saturated';
      // Right of the ring, or left of it where the plot ends.
      const width = ctx.measureText(text).width;
      const right = px + (11 * dpr) + width <= bbox.left + bbox.width;
      const x0 = right ? px + 11 * dpr : px - 11 * dpr - width;
      let ty = py + 4 * dpr;
      while (!free(x0, ty - 10 * dpr, width, 13 * dpr)) ty += 13 * dpr;
      placed.push([x0, ty - 10 * dpr, width, 13 * dpr]);
      ctx.textAlign = 'left';
      ctx.fillText(text, x0, ty);
      ctx.textAlign = 'left';
    });
    ctx.restore();
  };
  const build = (names) => {
    plot?.destroy();
    const series = [
      { label: 'rate λ', value: legendValue(() => '') },
      ...names.map((name, i) => ({
        label: name,
        stroke: colour(i),
        width: 2,
        points: { show: true, size: 7 },
        value: legendValue(() => '', (v) => v.toFixed(2)),
      })),
    ];
    // The x range takes in every ideal line, the y range every zero-load line, both from 0.
    const xRange = (u, min, max) => {
      const hi = Math.max(max ?? 0, ...(last?.ideal ?? []).filter((v) => v != null));
      return [0, hi > 0 ? hi * 1.08 : 1];
    };
    // … up to Y_CAP × the largest zero-load latency at most, so that the
    // zero-load lines (Valiant's about twice greedy's) stay apart; a curve
    // past it leaves through the top, its ring drawn at the edge with the
    // latency written beside it.
    const yRange = (u, min, max) => {
      const floor = Math.max(0, ...(last?.zero_load ?? []).filter((v) => v != null));
      const hi = Math.min(Math.max(max ?? 0, floor), floor > 0 ? floor * Y_CAP : Infinity);
      return [0, hi > 0 ? Math.ceil(hi * 1.1) : 10];
    };
    plot = new uPlot({
      ...sizeOf(el, height),
      title: 'Mean latency against offered load',
      // Room above the plot for one λ* label per series.
      padding: [LABEL_ROW * names.length + 6, null, null, null],
      scales: { x: { time: false, range: xRange }, y: { range: yRange } },
      axes: [{ label: 'rate λ (packets per node per step)' }, { label: 'mean latency (steps)' }],
      series,
      legend: { live: true },
      hooks: { draw: [drawLines] },
    }, Array.from({ length: series.length }, () => []), el);
    accessible(plot);
  };
  /** Draws `chart` (the core's chart(), or null for none yet). */
  function draw(chart) {
    last = chart ?? { series: ['offered'], data: [[]], ideal: [], zero_load: [], saturated: [] };
    const names = last.series.slice(1);
    const key = JSON.stringify(names);
    if (key !== shape) {
      build(names);
      shape = key;
    }
    publish(registry, 'load', plot, last.data);
    Object.assign(registry.load, { ideal: last.ideal, zero_load: last.zero_load, saturated: last.saturated, y_max: plot.scales.y.max ?? null });
  }
  draw(null);
  return {
    draw,
    chart: () => plot,
    resize: () => plot?.setSize(sizeOf(el, height)),
  };
}
