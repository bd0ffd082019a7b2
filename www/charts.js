// Charts, drawn by uPlot (vendored from the npm registry into www/vendor/
// by build.sh): what every chart shares, and the live run chart. Data is
// columnar: [[xs], [ys1], [ys2], …]. Every chart publishes what it draws in
// `registry[name] = {series, data}` (SPEC §7: `window.routesim.charts`),
// `series` naming each column of `data`, the x axis first, as uPlot's
// series do. The experiment's charts are in experiment-charts.js, the
// load chart in load-chart.js.

import uPlot from './vendor/uPlot.esm.js';

/** Okabe–Ito colours (distinguishable with the common colour-vision deficiencies); markers differ too. */
export const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#56B4E9', '#E69F00', '#000000', '#999933'];
export const DASHES = [undefined, [8, 3], [2, 3], [8, 3, 2, 3]];

/** The colours of a chart's own series: the palette without black, which (with grey) marks references. */
const SERIES_COLOURS = PALETTE.filter((c) => c !== '#000000');

/**
 * Series i's stroke and dash: colour and dash both cycle (7 colours, 4
 * dashes), so no two of the first 28 series share the pair.
 */
export function seriesStyle(i) {
  return { stroke: SERIES_COLOURS[i % SERIES_COLOURS.length], dash: DASHES[i % DASHES.length] };
}

/**
 * A scale's range fitted to the data: [min, max] (a log scale with a
 * little room, not the decades around it; one value gets room around it).
 */
export function fitted(log) {
  return (u, min, max) => {
    if (min == null || max == null) return log ? [1, 10] : [0, 1];
    if (log) return min === max ? [min / 2, max * 2] : [min / 1.12, max * 1.12];
    if (min === max) return [min - 1, max + 1];
    const pad = (max - min) * 0.03;
    return [min - pad, max + pad];
  };
}

/**
 * A log axis's ticks at round values (1, 2 and 5 × 10^e; every digit when
 * the range holds fewer than two of those) within a fitted range, where
 * uPlot's own would start at the range's first value (107, 1,070, …).
 */
export function logSplits(u, axisIdx, min, max) {
  const ticks = (digits) => {
    const out = [];
    for (let e = Math.floor(Math.log10(min)); 10 ** e <= max; e++) {
      for (const m of digits) {
        const v = Number((m * 10 ** e).toPrecision(12));
        if (v >= min && v <= max) out.push(v);
      }
    }
    return out;
  };
  const round = ticks([1, 2, 5]);
  if (round.length >= 2) return round;
  const every = ticks([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  return every.length >= 1 ? every : [min, max];
}

/** uPlot's legend markers drawn with each series' dash (CSS: solid, dashed, dotted). */
export const DASHED_MARKERS = {
  dash: (u, i) => {
    const dash = u.series[i].dash;
    if (!dash?.length) return 'solid';
    return dash[0] <= 2 ? 'dotted' : 'dashed';
  },
};

/**
 * A uPlot draw hook that draws the series `styles` names ({index: {stroke,
 * width, dash}}) again, on top of the others: a reference line (a bound)
 * stays visible where a curve runs along it.
 */
export function drawOnTop(styles) {
  return (u) => {
    const dpr = window.devicePixelRatio || 1;
    const { ctx } = u;
    const { left, top, width, height } = u.bbox;
    ctx.save();
    ctx.beginPath();
    ctx.rect(left, top, width, height);
    ctx.clip();
    for (const [key, style] of Object.entries(styles)) {
      const i = Number(key);
      if (!u.series[i]?.show) continue;
      const xs = u.data[0] ?? [];
      const ys = u.data[i] ?? [];
      const points = [];
      for (let j = 0; j < xs.length; j++) {
        if (ys[j] == null || xs[j] == null) continue;
        points.push([u.valToPos(xs[j], 'x', true), u.valToPos(ys[j], 'y', true)]);
      }
      ctx.strokeStyle = style.stroke;
      ctx.fillStyle = style.stroke;
      ctx.lineWidth = style.width * dpr;
      ctx.setLineDash((style.dash ?? []).map((d) => d * dpr));
      ctx.beginPath();
      points.forEach(([x, y], j) => (j ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
      ctx.stroke();
      ctx.setLineDash([]);
      for (const [x, y] of points) {
        ctx.beginPath();
        ctx.arc(x, y, (style.point ?? 2.5) * dpr, 0, 2 * Math.PI);
        ctx.fill();
      }
    }
    ctx.restore();
  };
}

/** Whole-number tick steps (steps, packets and queues are counts). */
const WHOLE = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1e3, 2e3, 2500, 5e3, 1e4, 2e4, 25e3, 5e4, 1e5, 2e5, 5e5, 1e6, 2e6, 5e6, 1e7];

/**
 * A legend cell's text: the value under the cursor, or `idle(u, i)` when
 * the cursor is off the chart (uPlot would show "--").
 */
export const legendValue = (idle, format = (v) => v) => (u, v, i, idx) => (idx == null ? idle(u, i) : v == null ? '' : format(v));

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
export function accessible(plot) {
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

export function sizeOf(el, height) {
  return { width: Math.max(260, Math.floor(el.clientWidth || 480)), height };
}

/**
 * Draws `data` on `plot` and publishes it as `registry[name]`; `data`'s
 * columns read as plain arrays (SPEC §7), converted from typed arrays
 * when first read.
 */
export function publish(registry, name, plot, data) {
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
/** A y axis's width: room for its longest tick label ("16,000") and its title, so no label is cut. */
const labelRoom = (u, values) => 28 + 7 * Math.max(3, ...(values ?? []).map((v) => String(v).length));

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
        { label: `${prefix}max queue this step`, stroke: colours[i][1], width: 2, dash: dashes[i][1], scale: 'queue', paths: uPlot.paths.stepped({ align: 1 }), value: legendValue(shownValue) },
      );
    });
    return {
      ...sizeOf(el, height),
      title: names ? 'These runs, per step' : 'This run, per step',
      scales: { x: { time: false, range: (u, min, max) => [0, Math.max(1, max ?? 0)] }, y: { range: fromZero(1) }, queue: { range: fromZero(2) } },
      axes: [
        { label: 'step', incrs: WHOLE },
        { label: compact ? 'in flight' : 'packets in flight', stroke: PALETTE[0], incrs: WHOLE, size: labelRoom },
        { label: 'max queue', scale: 'queue', side: 1, stroke: PALETTE[1], grid: { show: false }, incrs: WHOLE, size: labelRoom },
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
