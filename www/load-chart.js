// The load chart: mean latency against offered load, with each series'
// λ*, zero-load latency and first saturated rate; uPlot and the shared
// parts from charts.js.

import uPlot from './vendor/uPlot.esm.js';
import { PALETTE, legendValue, accessible, sizeOf, publish } from './charts.js';

/** The load chart's y axis ends at most at this many times the largest zero-load latency (rounded up). */
const Y_CAP = 8;

/** Height of a λ* label's row above the load chart (CSS px). */
const LABEL_ROW = 14;

/**
 * The load chart (SPEC §7 `data-chart="load"`), drawn from the core's
 * `LoadCurve.chart()` ({series: ['offered', 'greedy uniform', …], data:
 * [[rates], [mean latency per rate]…], ideal[], zero_load[],
 * saturated[][]}): the mean latency of the delivered measured packets
 * against the rate per series, each series' ideal throughput λ* as a
 * dashed vertical line and its zero-load latency as a dotted horizontal
 * line, in the series' colour, and a ring on its first saturated rate (on
 * the top edge when its latency is past the axis or null). Nothing is
 * computed here; `registry.load` = {series, data, ideal, zero_load,
 * saturated}, the data as drawn.
 */
export function loadChart(el, registry, height = 340) {
  let plot = null;
  let shape = null;
  let last = null;
  const colour = (i) => PALETTE[i % PALETTE.length];
  /**
   * What drawLines drew last, in canvas pixels, for tests: `labels`
   * [{series, text, x, y, w, h}] (the λ* values), `lines` [{series, x,
   * top, bottom}] (the pieces of the λ* lines actually stroked) and
   * `rings` [{series, x, y, edge, text}] (the first saturated rates; `edge`
   * when drawn on the top edge).
   */
  let marks = { labels: [], lines: [], rings: [] };
  /** Draws the reference lines of `last` over the plot area. */
  const drawLines = (u) => {
    marks = { labels: [], lines: [], rings: [] };
    if (!last) return;
    const { ctx, bbox } = u;
    const dpr = devicePixelRatio;
    ctx.save();
    ctx.font = `${11 * dpr}px system-ui, sans-serif`;
    // The λ* values, one row per series in the band above the plot (left
    // of their line, where the curve has not yet risen), never over data.
    // The largest λ* on the top row, the smallest on the bottom one: a
    // line runs down from its own row through the rows below it, whose
    // labels end left of their own (smaller) λ*, so it misses them; a
    // label moved right of its line (no room on the left) may still lie
    // across a larger λ*'s line, which is left out behind the label.
    const order = last.ideal.map((x, i) => i).filter((i) => last.ideal[i] != null).sort((a, b) => last.ideal[b] - last.ideal[a] || a - b);
    const rows = order.length;
    const baseline = (row) => bbox.top - (LABEL_ROW * (rows - row) - 11) * dpr;
    const shown = order.filter((i) => u.series[i + 1].show);
    const labels = [];
    order.forEach((i, row) => {
      if (!u.series[i + 1].show) return;
      const x = last.ideal[i];
      const px = u.valToPos(x, 'x', true);
      const ty = baseline(row);
      ctx.fillStyle = colour(i);
      const text = `λ* ${x.toFixed(3)}`;
      const width = ctx.measureText(text).width;
      const left = px - width - 5 * dpr >= bbox.left;
      ctx.textAlign = left ? 'right' : 'left';
      ctx.fillText(text, px + (left ? -5 : 5) * dpr, ty);
      labels.push({ series: i, text, x: left ? px - 5 * dpr - width : px + 5 * dpr, y: ty - 10 * dpr, w: width, h: 13 * dpr });
    });
    marks.labels = labels;
    ctx.textAlign = 'left';
    ctx.beginPath();
    ctx.rect(bbox.left, bbox.top - LABEL_ROW * last.ideal.length * dpr, bbox.width, bbox.height + LABEL_ROW * last.ideal.length * dpr);
    ctx.clip();
    ctx.lineWidth = 1.5 * dpr;
    const dash = [7 * dpr, 4 * dpr];
    shown.forEach((i) => {
      const px = u.valToPos(last.ideal[i], 'x', true);
      // From its label's row down through the plot, around the other series' labels.
      const start = baseline(order.indexOf(i)) + 7 * dpr;
      const end = bbox.top + bbox.height;
      const gaps = labels
        .filter((l) => l.series !== i && px >= l.x - 2 * dpr && px <= l.x + l.w + 2 * dpr)
        .map((l) => [l.y - 1 * dpr, l.y + l.h + 1 * dpr])
        .sort((a, b) => a[0] - b[0]);
      let from = start;
      const pieces = [];
      for (const [a, b] of gaps) {
        if (b <= from || a >= end) continue;
        if (a > from) pieces.push([from, a]);
        from = Math.max(from, b);
      }
      if (from < end) pieces.push([from, end]);
      ctx.strokeStyle = colour(i);
      ctx.setLineDash(dash);
      for (const [a, b] of pieces) {
        // The dashes keep their phase across a gap.
        ctx.lineDashOffset = -(a - start);
        ctx.beginPath();
        ctx.moveTo(px, a);
        ctx.lineTo(px, b);
        ctx.stroke();
        marks.lines.push({ series: i, x: px, top: a, bottom: b });
      }
      ctx.lineDashOffset = 0;
      ctx.setLineDash([]);
    });
    ctx.restore();
    ctx.save();
    ctx.font = `${11 * dpr}px system-ui, sans-serif`;
    ctx.lineWidth = 1.5 * dpr;
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
    ctx.restore();
    ctx.save();
    ctx.font = `${11 * dpr}px system-ui, sans-serif`;
    ctx.lineWidth = 1.5 * dpr;
    // The first saturated rate of each series: a ring and "saturated",
    // not clipped to the plot (a ring just below the top edge stays whole).
    ctx.setLineDash([]);
    // Labels already written, so that two series saturating at the same
    // point (or on the top edge) do not write over each other.
    const placed = [];
    const free = (x0, y0, w, h) => placed.every(([a, b, c, d]) => x0 + w <= a || a + c <= x0 || y0 + h <= b || b + d <= y0);
    last.saturated.forEach((flags, i) => {
      const j = flags.indexOf(true);
      if (j < 0 || !u.series[i + 1].show) return;
      // No latency: no measured packet was delivered within the drain;
      // ringed on the top edge like a point beyond the axis.
      const y = u.data[i + 1]?.[j] ?? null;
      const px = u.valToPos(u.data[0][j], 'x', true);
      // Past the top of the plot: on its edge, the latency said.
      const top = u.scales.y.max;
      const above = y == null || y > top;
      const py = u.valToPos(above ? top : y, 'y', true) + (above ? 9 * dpr : 0);
      ctx.strokeStyle = colour(i);
      ctx.beginPath();
      ctx.arc(px, py, 8 * devicePixelRatio, 0, 2 * Math.PI);
      ctx.stroke();
      ctx.fillStyle = colour(i);
      // Narrow (a phone): the latency alone beside a ring on the edge.
      const narrow = bbox.width < 480 * dpr;
      const beyond = y == null ? 'none delivered' : Math.round(y);
      const text = above ? `${narrow ? '' : 'saturated '}↑ ${beyond}` : 'saturated';
      // Right of the ring, or left of it where the plot ends.
      const width = ctx.measureText(text).width;
      const right = px + (11 * dpr) + width <= bbox.left + bbox.width;
      const x0 = right ? px + 11 * dpr : px - 11 * dpr - width;
      let ty = py + 4 * dpr;
      while (!free(x0, ty - 10 * dpr, width, 13 * dpr)) ty += 13 * dpr;
      placed.push([x0, ty - 10 * dpr, width, 13 * dpr]);
      ctx.textAlign = 'left';
      ctx.fillText(text, x0, ty);
      marks.rings.push({ series: i, x: px, y: py, edge: above, text });
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
    // The y range: 10 % above the largest latency, but ending at Y_CAP ×
    // the largest zero-load latency (rounded up to a whole step) at most,
    // so that the zero-load lines (Valiant's about twice greedy's) stay
    // apart; a curve past it leaves through the top, its ring drawn at the
    // edge with the latency written beside it.
    const yRange = (u, min, max) => {
      const floor = Math.max(0, ...(last?.zero_load ?? []).filter((v) => v != null));
      const hi = Math.max(max ?? 0, floor);
      if (!(hi > 0)) return [0, 10];
      return [0, Math.min(Math.ceil(hi * 1.1), floor > 0 ? Math.ceil(floor * Y_CAP) : Infinity)];
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
    marks: () => marks,
    resize: () => plot?.setSize(sizeOf(el, height)),
  };
}
