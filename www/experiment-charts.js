// The experiment's charts (steps, ratio, largest queue against the varied
// parameter, log scales when the values span a decade) and their PNG
// export; uPlot and the shared parts from charts.js.

import uPlot from './vendor/uPlot.esm.js';
import { seriesStyle, fitted, logSplits, DASHED_MARKERS, drawOnTop, legendValue, accessible, sizeOf, publish } from './charts.js';

/**
 * The ratio chart's references: which of the core's per-point ratios it
 * draws, its title and its axis's label. `d`: the diameter's formula for
 * the network swept (`diameterFormula`), or null.
 */
export const RATIO_REFERENCES = {
  sqrt: { title: () => 'Ratio steps / √(ℓ·k·N)', axis: () => 'steps / √(ℓkN)', field: 'steps_over_sqrt_lkn' },
  diameter: {
    title: (d) => (d ? `Ratio steps / diameter (${d.formula} on ${d.network})` : 'Ratio steps / diameter'),
    axis: (d) => (d ? `steps / diameter (${d.formula})` : 'steps / diameter'),
    field: 'steps_over_diameter',
  },
  // On the networks whose bounds grow as log N (hypercube:D, butterfly:D —
  // N its 2^D rows, the keys of a sort — and shuffle-exchange:D): a ratio
  // that stays flat as D grows says the steps grow as D, or as D².
  log: { title: () => 'Ratio steps / D (dimension; flat for O(log N))', axis: () => 'steps / D', field: 'steps_over_log_n' },
  log2: { title: () => 'Ratio steps / D² (flat for O(log² N))', axis: () => 'steps / D²', field: 'steps_over_log_n_squared' },
};

/** The kinds whose experiments offer the ratios to D and D² (the core's `log_n` is D there, 0 elsewhere). */
export const LOG_KINDS = ['hypercube', 'butterfly', 'shuffle-exchange'];

/**
 * The diameter of the networks an experiment runs on, as a formula in
 * their size (`{formula, network}`: "2n − 2" on "an n×n mesh"), or null
 * for an unknown kind. `kind`: the topology's kind (the core's
 * `topology_kind`); `sides`: its parameter's numbers (16×16 → [16, 16]);
 * `vary`: the experiment's varied parameter — a size sweep makes every
 * side n (the core's size template), the others keep the network's sides.
 * The formulas are those of the core's `diameter()` per topology: Σ(side − 1)
 * on a mesh, Σ⌊side/2⌋ on a torus, D on a hypercube, 2D on a butterfly,
 * 2D − 1 on a shuffle-exchange graph.
 */
export function diameterFormula(kind, sides, vary) {
  const d = Math.max(1, sides.length);
  const square = vary === 'size' || sides.every((s) => s === sides[0]);
  // R×C on two sides, A×B×C… on more.
  const letters = d === 2 ? ['R', 'C'] : Array.from({ length: d }, (_, i) => String.fromCharCode(65 + i));
  const shape = square ? Array(d).fill('n').join('×') : letters.join('×');
  switch (kind) {
    case 'linear': return { formula: 'N − 1', network: 'a linear array of N nodes' };
    case 'ring': return { formula: '⌊N/2⌋', network: 'a ring of N nodes' };
    case 'hypercube': return { formula: 'D', network: 'a D-dimensional hypercube' };
    case 'butterfly': return { formula: '2D', network: 'a butterfly of dimension D' };
    case 'shuffle-exchange': return { formula: '2D − 1', network: 'a shuffle-exchange graph of dimension D' };
    case 'mesh':
      if (square) return { formula: d === 1 ? 'n − 1' : `${d}n − ${d}`, network: `an ${shape} mesh` };
      return { formula: `${letters.join(' + ')} − ${d}`, network: `an ${shape} mesh` };
    case 'torus':
      if (square) return { formula: `${d === 1 ? '' : d}⌊n/2⌋`, network: `an ${shape} torus` };
      return { formula: letters.map((l) => `⌊${l}/2⌋`).join(' + '), network: `an ${shape} torus` };
    default: return null;
  }
}

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
  let diameter = null; // the swept network's diameter formula (diameterFormula)

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
      opts = { title: reference.title(diameter), axes: axes(reference.axis(diameter)), series: [x, ...algSeries(algorithms)] };
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
      // A ratio to D of a sweep on the grids (no D there) has points but nothing to draw: say so.
      const none = name === 'ratio' && ref.startsWith('log') && points.length > 0 && columns[name].every((col) => col.every((v) => v === null));
      boxes[name].hint.hidden = points.length > 0 && !none;
      boxes[name].hint.textContent = none
        ? 'This sweep ran on a network without a dimension D = log₂ N: ratios to D and D² are drawn for hypercubes, butterflies and shuffle-exchange graphs.'
        : 'No points yet: choose the algorithms and the values above, then Run sweep.';
      boxes[name].note.textContent = chosen[name] === null ? '(auto)' : '';
      const key = JSON.stringify([algorithms, xLabel, name === 'ratio' ? [ref, diameter] : '', log, xLog]);
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
    /** Redraws the last chart for networks whose diameter is `formula` (diameterFormula's, or null). */
    setDiameter(formula) {
      if (JSON.stringify(formula) === JSON.stringify(diameter)) return;
      diameter = formula;
      draw(last, ref);
    },
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

/**
 * `text` in lines no wider than `width` in `ctx`'s current font: broken
 * at spaces, a word wider than a line broken between its characters.
 */
function wrapText(ctx, text, width) {
  const lines = [];
  let line = '';
  const fits = (t) => ctx.measureText(t).width <= width;
  for (const word of String(text).split(' ')) {
    const joined = line ? `${line} ${word}` : word;
    if (fits(joined)) {
      line = joined;
      continue;
    }
    if (line) lines.push(line);
    line = '';
    for (const ch of word) {
      if (line && !fits(line + ch)) {
        lines.push(line);
        line = '';
      }
      line += ch;
    }
  }
  lines.push(line);
  return lines;
}

/**
 * One PNG of several uPlot charts stacked: the caption, then per chart its
 * title, its canvas and its legend — every text wrapped within the image
 * (the legend's entries row after row, each a swatch in its series'
 * colour and dash, then its name), the image as tall as they need.
 */
export async function chartsToPng(charts, caption) {
  const dpr = window.devicePixelRatio || 1;
  const pad = 16 * dpr;
  const inner = Math.max(...charts.map((c) => c.ctx.canvas.width));
  const width = inner + 2 * pad;
  const font = (px, bold = false) => `${bold ? 'bold ' : ''}${px * dpr}px system-ui, sans-serif`;
  const lineH = 16 * dpr; // a caption's or legend's line
  const titleLineH = 18 * dpr;
  const swatchW = 28 * dpr; // the swatch, then a gap before the name
  const swatchGap = 6 * dpr;
  const entryGap = 16 * dpr; // between two entries on a row
  const out = document.createElement('canvas');
  const ctx = out.getContext('2d');

  // Lay out first (the canvas's size resets its context: draw after).
  ctx.font = font(12);
  const captionLines = wrapText(ctx, caption, inner);
  const blocks = charts.map((c) => {
    ctx.font = font(13, true);
    const title = wrapText(ctx, c.root.querySelector('.u-title')?.textContent ?? '', inner);
    ctx.font = font(12);
    // Entries on rows: an entry goes on the next row when the row has no room for it.
    const rows = [];
    let row = [];
    let x = 0;
    c.series.forEach((s, i) => {
      if (i === 0 || !s.show) return;
      const lines = wrapText(ctx, s.label, inner - swatchW - swatchGap);
      const w = swatchW + swatchGap + Math.max(...lines.map((l) => ctx.measureText(l).width));
      if (row.length && x + w > inner) {
        rows.push(row);
        row = [];
        x = 0;
      }
      row.push({ series: s, index: i, lines, x });
      x += w + entryGap;
    });
    if (row.length) rows.push(row);
    const legendH = rows.reduce((h, r) => h + Math.max(...r.map((e) => e.lines.length)) * lineH, 0);
    return { chart: c, title, rows, height: title.length * titleLineH + 6 * dpr + c.ctx.canvas.height + 6 * dpr + legendH + 14 * dpr };
  });
  const captionH = captionLines.length * lineH + 8 * dpr;
  out.width = width;
  out.height = Math.ceil(pad + captionH + blocks.reduce((h, b) => h + b.height, 0) + pad);

  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, out.width, out.height);
  ctx.textBaseline = 'alphabetic';
  ctx.fillStyle = '#111827';
  ctx.font = font(12);
  let y = pad;
  for (const line of captionLines) {
    ctx.fillText(line, pad, y + 12 * dpr);
    y += lineH;
  }
  y += 8 * dpr;
  for (const { chart: c, title, rows } of blocks) {
    ctx.font = font(13, true);
    ctx.fillStyle = '#111827';
    for (const line of title) {
      ctx.fillText(line, pad, y + 14 * dpr);
      y += titleLineH;
    }
    y += 6 * dpr;
    ctx.drawImage(c.ctx.canvas, pad, y);
    y += c.ctx.canvas.height + 6 * dpr;
    ctx.font = font(12);
    for (const row of rows) {
      for (const { series: s, index, lines, x } of row) {
        // The swatch: a stretch of the curve, in its colour, width and dash (as uPlot draws them: the width × dpr, the dash as given).
        ctx.save();
        ctx.strokeStyle = typeof s.stroke === 'function' ? s.stroke(c, index) : (s.stroke ?? '#000');
        ctx.lineWidth = Math.min(s.width ?? 2, 3) * dpr;
        ctx.setLineDash(s.dash ?? []);
        ctx.beginPath();
        ctx.moveTo(pad + x, y + 8 * dpr);
        ctx.lineTo(pad + x + swatchW, y + 8 * dpr);
        ctx.stroke();
        ctx.restore();
        ctx.fillStyle = '#111827';
        lines.forEach((line, j) => ctx.fillText(line, pad + x + swatchW + swatchGap, y + 12 * dpr + j * lineH));
      }
      y += Math.max(...row.map((e) => e.lines.length)) * lineH;
    }
    y += 14 * dpr;
  }
  return new Promise((resolve) => out.toBlob(resolve, 'image/png'));
}
