// What the page shows of the run: the canvas (size, view, frame), the
// counters, the run chart, the explain panel, the watched packet's line,
// the title, legend, play label and speed. It reads the run and never
// steps it (run.js does); it keeps only its drawing fields in `state`.

import { INTRO, isDefaultRun } from './config.js';
import { drawFrame, viewFor, shownAt } from './render.js';
import { renderExplain, markHiddenLines } from './explain.js';
import { hallHighlight } from './hall.js';
import { densities } from './heat.js';
import { shownHeight } from './geometry.js';
import { layout, butterflyShape } from './layout.js';
import { $, UNDELIVERED, state, running, shownStep, shownStatus, colorMode, guessPending } from './state.js';
import { showMessage } from './messages.js';

/**
 * Shows the legend entries (`data-mark`) of the marks the runs draw
 * besides packets (the core's `Simulation.marks()`: ghosts, end-of-stream,
 * edge queues), and on a grid of 3 or more dimensions those of its links
 * between slices; the others stay hidden.
 */
export function updateLegendMarks() {
  const marks = new Set([...(state.sim?.marks() ?? []), ...(state.compare?.active ? state.compare.sim?.marks() ?? [] : [])]);
  for (const el of document.querySelectorAll('#legend [data-mark]')) el.hidden = !marks.has(el.dataset.mark);
  // A grid of 3 or more dimensions, drawn as slices (layout.js): how its links between slices look.
  const slices = (state.lay?.sliceLabels?.length ?? 0) > 1;
  $('legend-slices').hidden = !slices;
  $('legend-slice-wrap').hidden = !(slices && state.topo?.wrap);
}

export function updatePlayLabel() {
  const on = state.playing;
  $('play').textContent = on ? 'Pause' : state.snapshot && !running() ? 'Replay' : 'Play';
}

export function updateCounters() {
  const s = state.snapshot;
  // With a second run beside it, the shown step is the pair's (both advance together).
  $('c-step').textContent = s ? shownStep() : '–';
  $('c-delivered').textContent = s ? `${s.delivered} / ${s.packets}` : '–';
  // The fixed points (source = destination), in the core's words.
  const note = s?.fixed_note ?? '';
  // (Embedded, a line that changes height refits the canvas: main.js startWhenSeen's ResizeObserver.)
  if ($('c-fixed').textContent !== note) $('c-fixed').textContent = note;
  $('c-inflight').textContent = s ? s.in_flight : '–';
  $('c-maxqueue').textContent = s ? s.max_queue : '–';
  // A lesson's question waiting for its guess keeps the bound out of view
  // too (lemma2-linear asks for the steps, which its bound equals).
  const waiting = guessPending();
  const progress = s && !waiting ? boundProgress() : null;
  // The bound as the figure once a run has finished, the runs against it in
  // smaller words under it (the core's `figure` and `words`).
  const bound = $('c-bound');
  const shown = waiting ? 'shown after your guess' : progress ? `${progress.figure}\n${progress.words}` : '–';
  if (bound.dataset.shown !== shown) {
    bound.dataset.shown = shown;
    if (!progress) bound.textContent = shown;
    else if (!progress.figure) bound.textContent = progress.words;
    else {
      const figure = document.createElement('span');
      figure.className = 'b-figure';
      figure.textContent = progress.figure;
      const words = document.createElement('span');
      words.className = 'b-words';
      words.replaceChildren(...ratioNodes(progress.words));
      bound.replaceChildren(figure, words);
    }
  }
  $('c-bound').title = progress ? progress.title : '';
  const status = shownStatus();
  $('c-status').textContent = status ?? '–';
  $('c-status').className = status ? `st-${status}` : 'st-none';
  // No phase: empty, as the report's and the state message's (style.css draws the dash).
  $('c-phase').textContent = s && s.phase ? s.phase : '';
  // With a second run beside it, the phase counter is the first run's: its label says whose.
  const phaseLabel = state.compare?.active && state.compare.names?.[0] ? `phase · ${state.compare.names[0]}` : 'phase';
  const dt = $('c-phase').previousElementSibling;
  if (dt && dt.textContent !== phaseLabel) dt.textContent = phaseLabel;
  state.compare?.caption(s, !state.playing, shownStep());
}

/**
 * Each run's lower bound, `[{best, name, who}]` (the core's
 * `bounds_beside`): one entry (`name` and `who` empty) for a single run or
 * two runs with the same bound; beside a second run whose bound differs,
 * one per run, `name` its algorithm and `who` the run in a few words
 * ("lmrr with combining"). The scrubber's ticks and the run chart's dashed
 * lines say it.
 */
export function runBounds() {
  const pair = state.compare?.active ? state.compare.sim : null;
  if (!state.bounds || !state.sim) return [];
  if (!pair) return [{ best: state.bounds.best, name: '', who: '' }];
  // A run's bounds are fixed for its life: the pair of runs is the key.
  const key = [state.sim, pair];
  if (!key.every((k, i) => boundsMemo.key[i] === k)) boundsMemo.value = state.sim.bounds_beside(pair);
  boundsMemo.key = key;
  return boundsMemo.value;
}
const boundsMemo = { key: [], value: [] };

/**
 * Where the shown step stands against the lower bound, `{figure, words,
 * title}` (the bound counter): the core's `progress`, or `progress_with`
 * beside a second run — each run against its own bound where they differ
 * (combining, a sort's own destinations): "6 and 16" over "no algorithm can
 * finish before step 6 (lmrr with combining); 16 (bit-fixing without
 * combining)", then "lmrr: 9 steps = 1.50 × 6 · bit-fixing: 22 steps =
 * 1.38 × 16".
 */
export function boundProgress() {
  if (!(state.bounds && state.sim)) return null;
  const pair = state.compare?.active ? state.compare.sim : null;
  return pair ? state.sim.progress_with(pair) : state.sim.progress();
}

/**
 * The bound counter's words as nodes: each ratio with its "×" (and the
 * bound after it, "× 16") in a span that does not break, so that "×" never
 * stands alone on a line; a hyphenated name ("bit-fixing:") is not split
 * at its hyphen either.
 */
function ratioNodes(words) {
  const parts = String(words).split(/(=\s\S+\s×(?:\s\d+)?|\S+-\S+)/);
  return parts.filter(Boolean).map((part) => {
    if (!/^=\s\S+\s×|^\S+-\S+$/.test(part)) return part;
    const span = document.createElement('span');
    span.className = 'b-ratio';
    span.textContent = part;
    return span;
  });
}

/** The explain panel: the core's explanation of the run(s) and lesson, at most four times a second. */
export function updateExplain(force = false) {
  const now = performance.now();
  if (!force && now - state.lastExplain < 250) {
    // Not now: once the quarter second is over (so the last step is always explained).
    state.explainDue ??= setTimeout(() => updateExplain(true), 250 - (now - state.lastExplain));
    return;
  }
  clearTimeout(state.explainDue);
  state.explainDue = null;
  state.lastExplain = now;
  let view = null;
  if (state.sim) {
    // The default view is explained as the core's `intro`.
    const lesson = lessonId();
    try {
      view = state.compare?.active ? state.sim.explain_with(state.compare.sim, lesson) : state.sim.explain(lesson);
    } catch (e) {
      showMessage('error', e.message, 'sim');
    }
  }
  // The predict box asks the lesson's question, which is about the lesson's own run (predict.js).
  state.lessonChanged = view?.lesson?.changed ?? null;
  const rims = [!!view?.main.class_rims, !!view?.compare?.class_rims];
  if (rims.some((r, i) => r !== state.classRims[i])) {
    state.classRims = rims;
    state.dirty = true;
  }
  renderExplain($('explain'), view, colorMode(), state.lesson?.load ? state.loadCheck : null, guessPending());
  if (state.embed) markHiddenLines($('explain'));
  updateDeadlock(view);
  updateSortLine(view);
  renderLegend(view);
}

/**
 * A sort's line under the counters (`data-role="sort-verdict"`): its goal
 * while it runs, then the core's verdict from the report's `sorted` and
 * `steps` ("sorted ✓ in 16 steps — label order: …"); `data-sorted` is
 * `true`, `false` or empty while running. Two runs: a line each, named,
 * carrying `data-run` (0 the main run, 1 the one beside it).
 */
function updateSortLine(view) {
  const runs = [view?.main, view?.compare].map((run, i) => ({ run, i })).filter(({ run }) => run?.sort);
  const el = $('sort-verdict');
  const lines = runs.map(({ run }) => (view.compare ? `${run.algorithm}: ${run.sort.line}` : run.sort.line));
  if (el.textContent !== lines.join('')) {
    el.replaceChildren(...runs.map(({ i }, k) => {
      const span = document.createElement('span');
      span.textContent = lines[k];
      // The compact view gives each line one row; its whole text is the tooltip.
      span.title = lines[k];
      if (view.compare) span.dataset.run = String(i);
      return span;
    }));
  }
  el.hidden = !runs.length;
  const over = runs.length && runs.every(({ run }) => run.sort.sorted !== null);
  el.dataset.sorted = over ? String(runs.every(({ run }) => run.sort.sorted)) : '';
}

/**
 * The colour menu shows how packets are coloured now; "key" is offered
 * only for a sort (its packets carry keys).
 */
export function updateColorControl() {
  const key = $('color').querySelector('option[value="key"]');
  key.disabled = !state.keyShade;
  key.title = key.disabled ? 'only a sort\'s packets carry keys (the sort-* workloads)' : 'a sequential scale from the lowest key to the highest';
  $('color').value = colorMode();
}

/**
 * SPEC §7 `deadlock`: shown while the shown step is a stall — the core's
 * one line naming the wait-for cycle's nodes (`stall.headline`: its only
 * numbers are their ids) and, beside it, its explanation (`stall.text`).
 * The canvas draws the cycle (marks.js, from the snapshot's `deadlock`).
 */
function updateDeadlock(view) {
  const two = !!view?.compare;
  const stalls = [view?.main, view?.compare].filter((run) => run?.stall);
  const line = (run, key) => (two ? `${run.algorithm}: ${run.stall[key]}` : run.stall[key]);
  for (const [id, key] of [['deadlock', 'headline'], ['deadlock-why', 'text']]) {
    const text = stalls.map((run) => line(run, key)).join(' ');
    if ($(id).textContent !== text) $(id).textContent = text;
    $(id).hidden = !stalls.length;
  }
}

const escape = (text) => String(text ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/**
 * The legend's packet classes (SPEC §7 `legend-class`): one entry per class
 * the canvas draws now, from the core's explanation — its colour word and
 * name ("blue: colour class 0") and `data-colour`, the colour the canvas
 * draws it with; each run's classes under its name in the compare view.
 * Coloured by destination, the classes of a run whose packets fall into
 * several (the core's `class_rims`) as the rims the canvas draws them with;
 * no classes otherwise (the explain panel gives the key).
 */
function renderLegend(view) {
  const el = $('legend-classes');
  state.legendView = view;
  const mode = colorMode();
  // Zoomed out (heat map) no dot is drawn: the classes show as each cell's
  // small square (heat.js), and the legend lists them as the class colouring does, not as rims.
  const rims = mode === 'destination' && state.view?.mode !== 'heat';
  const shown = (run) => mode === 'class' || (mode === 'destination' && run.class_rims);
  const all = !view || mode === 'key' ? [] : view.compare ? [view.main, view.compare] : [view.main];
  const runs = all.map((run, i) => ({ run, i })).filter(({ run }) => shown(run));
  // Coloured by key: the scale from the lowest key to the highest, and no tick (delivered keys stay drawn);
  // by destination: the same scale from node 0 to the last node (the explain text names its ends, not hues).
  const sort = mode === 'key' ? view?.main.sort : null;
  const nodes = mode === 'destination' ? state.topo?.nodes : null;
  $('legend-key').hidden = !sort && !nodes;
  // The cells' squares tell classes apart only where the legend lists more
  // than one (an embed, short of room, leaves it to the legend, whose colours name the squares' classes).
  heatLegend(!state.embed && runs.reduce((n, { run }) => n + run.classes.length, 0) > 1);
  $('legend-delivered').hidden = !!sort;
  const what = sort ? 'colour = key (low → high)' : 'colour = destination (node 0 → last)';
  if ($('key-what').textContent !== what) $('key-what').textContent = what;
  const ends = sort ? [String(sort.low), String(sort.high)] : nodes ? ['0', String(nodes - 1)] : ['', ''];
  if ($('key-low').textContent !== ends[0] || $('key-high').textContent !== ends[1]) [$('key-low').textContent, $('key-high').textContent] = ends;
  const html = runs.map(({ run, i }) => {
    const swatch = (c) => (rims ? `<span class="swatch rim" aria-hidden="true" style="border-color:${c.colour}"></span>`
      : `<span class="swatch s-${c.shape}" aria-hidden="true" style="background:${c.colour}"></span>`);
    const items = run.classes.map((c) => `<span class="key" data-role="legend-class" data-run="${i}" data-class="${c.class}" data-colour="${c.colour}">`
      + `${swatch(c)}${escape(rims ? `${c.word} rim: ${c.name}` : c.label)}</span>`);
    if (all.length < 2) return `<span class="legend-run" data-run="${i}">${items.join('')}</span>`;
    // The run's name stays on the line of its first class (a line never ends on "offline:").
    const lead = `<span class="legend-lead"><span class="legend-alg">${escape(run.algorithm)}:</span>${items[0] ?? ''}</span>`;
    return `<span class="legend-run" data-run="${i}">${lead}${items.slice(1).join('')}</span>`;
  }).join('');
  if (el.dataset.html !== html) {
    el.innerHTML = html;
    el.dataset.html = html;
  }
}

export function updateChart(force) {
  const now = performance.now();
  if (!state.chart || (!force && now - state.lastChart < 200)) return;
  state.lastChart = now;
  if (!state.sim) {
    state.chart.update({ in_flight: [], queue_series: [] }, 0);
    return;
  }
  state.chart.update(state.sim.stats(), state.undeliveredAtStart, state.compare?.chartData(), state.config.algorithm);
}

export function updateWatchInfo() {
  const el = $('watch-info');
  if (state.watched === null || !state.trail) {
    el.textContent = state.sim ? 'Click a packet to follow its route.' : '';
    el.dataset.text = '';
    return;
  }
  const p = state.watched;
  const route = [...state.trail];
  const shown = route.length > 24 ? [...route.slice(0, 10), '…', ...route.slice(-10)] : route;
  const delivered = state.snapshot.delivered_at[p] !== UNDELIVERED ? ` — delivered at step ${state.snapshot.delivered_at[p]}` : '';
  const text = `Packet #${p}: ${state.sources[p]} → ${state.destinations[p]}${delivered}. Route so far (${route.length - 1} hops): ${shown.join(' → ')}`;
  // The core's line for a claim on every packet's delay (bit fixing's delay ≤ |S|), asked once per packet and step.
  const key = `${p}:${shownStep()}:${state.snapshot.delivered}`;
  if (state.watchNoteKey !== key) {
    state.watchNoteKey = key;
    state.watchNote = state.sim?.watch_note() ?? '';
  }
  if (el.dataset.text === text + state.watchNote) return;
  el.dataset.text = text + state.watchNote;
  const note = document.createElement('span');
  note.dataset.role = 'watch-claim';
  note.textContent = state.watchNote;
  el.replaceChildren(text, ...(state.watchNote ? [document.createElement('br'), note] : []));
}

/** Whether the compare view's canvases stack (style.css: narrower than 600 px, except in an embed). */
export const STACKED = '(max-width: 600px)';

/**
 * Sizes the network canvas(es): the wrap's width, a height from the
 * layout's shape within the room the screen leaves (embedded: what the
 * frame leaves beside the rest; two stacked canvases share it). The
 * drawing buffer always has the displayed size (× devicePixelRatio), so
 * a canvas is shown at its drawing's aspect ratio at every size (SPEC §7).
 */
export function resizeCanvas() {
  const canvas = $('network');
  const wrap = canvas.parentElement;
  const w = Math.max(120, wrap.clientWidth);
  let h = w;
  if (state.lay) {
    const stacked = state.compare?.active && !state.embed && window.matchMedia(STACKED).matches;
    // Embedded, the room is counted with the lesson's check lines at their usual height (fitChecks).
    const checks = state.embed ? checksNow() : null;
    let room = state.embed ? window.innerHeight - embedRest() + (checks ? checks.now - checks.usual : 0) : window.innerHeight * 0.72;
    const frameLeaves = room;
    // Stacked on a phone, both canvases and the buttons under them fit the
    // first screen: each ≈ 30 % of it, less where the run's name, the
    // lesson's line and the captions take more.
    if (stacked) room = Math.min(window.innerHeight * 0.3, stackedRoom());
    const least = state.embed ? 110 : stacked ? 150 : 220;
    room = Math.max(state.embed || stacked ? least : 320, room);
    // A butterfly too tall for the room lies across it, where that draws every node (layout.js butterflyShape).
    const shape = butterflyShape(state.topo, w, room, least);
    if (JSON.stringify(shape) !== JSON.stringify(state.lay.shape ?? null)) state.lay = layout(state.topo, shape);
    const { width, height } = state.lay;
    h = shownHeight(width, height, w, least, room);
    // The check lines take what the canvas leaves; what they leave (whole lines only) goes back to the canvas.
    if (checks) h = shownHeight(width, height, w, least, h + fitChecks(checks, frameLeaves - h));
  }
  const dpr = window.devicePixelRatio || 1;
  showAt(canvas, w, h);
  canvas.width = Math.round(w * dpr);
  canvas.height = Math.round(h * dpr);
  state.canvasSize = [w, h];
  state.zoom?.fit();
  updateView();
}

/**
 * Shows `canvas` at the width of its box and at the aspect ratio of its
 * `w` × `h` CSS px drawing, so that it keeps its shape even before the next
 * resize catches up with its box.
 */
export function showAt(canvas, w, h) {
  canvas.style.width = '100%';
  canvas.style.height = 'auto';
  canvas.style.aspectRatio = `${w} / ${h}`;
}

/**
 * Stacked (a phone's compare view), the height each canvas may take so
 * that the Play button's bottom stays on the first screen: the screen less
 * what the page has above that bottom besides the canvases, shared by the
 * canvases. Remembers that height of the rest (`stackedRestChanged`).
 */
function stackedRoom() {
  const canvases = [$('network'), state.compare?.canvas].filter(Boolean);
  const rest = stackedRest(canvases);
  lastStackedRest = rest;
  return Math.floor((window.innerHeight - rest - 6) / canvases.length);
}
let lastStackedRest = null;

function stackedRest(canvases) {
  const drawn = canvases.reduce((sum, c) => sum + c.getBoundingClientRect().height, 0);
  return Math.ceil($('play').getBoundingClientRect().bottom + window.scrollY - drawn);
}

/**
 * Whether what stands above the Play button besides the stacked canvases
 * (the run's name, the lesson's line, the captions, a message) changed
 * height since the canvases were sized: main.js refits them then.
 */
export function stackedRestChanged() {
  const stacked = state.compare?.active && !state.embed && window.matchMedia(STACKED).matches;
  if (!stacked || !state.lay) return false;
  return Math.abs(stackedRest([$('network'), state.compare.canvas].filter(Boolean)) - (lastStackedRest ?? -1)) >= 1;
}

/**
 * Embedded, the lesson's check lines (`.x-checks`): their height now and
 * their usual height (all of them, up to 8em: style.css), CSS px; null
 * before the panel has any.
 */
function checksNow() {
  const list = document.querySelector('#explain .x-checks');
  if (!list) return null;
  const style = getComputedStyle(list);
  const em = parseFloat(style.fontSize);
  // The lines' own height: the list less the room it keeps under them for its marker.
  const content = list.scrollHeight - (parseFloat(style.paddingBottom) || 0);
  return { now: list.getBoundingClientRect().height, usual: Math.min(content, 8 * em), content, em, lines: list.children.length };
}

/**
 * Embedded, the check lines take what the frame has left (`spare` px: more
 * than the canvas its shape keeps smaller leaves, or less when even the
 * smallest canvas leaves too little, down to about two lines), so that
 * none hides while the frame has room and the frame never scrolls; the
 * marker then counts the lines still hidden (explain.js markHiddenLines).
 * Returns the px the lines leave of `spare` (they show whole lines).
 */
function fitChecks(checks, spare) {
  const least = Math.min(checks.usual, 2.6 * checks.em);
  let height = Math.max(least, checks.usual + spare);
  if (checks.content > height + 1 && checks.lines) {
    // Some lines stay hidden: whole lines, and the marker's strip (a line high, style.css) where the next one starts.
    const line = checks.content / checks.lines;
    const strip = 1.3 * checks.em;
    height = Math.max(least, Math.floor((height - strip) / line) * line + strip);
  }
  const max = `${Math.floor(height)}px`;
  if (document.body.style.getPropertyValue('--checks-max') !== max) document.body.style.setProperty('--checks-max', max);
  markHiddenLines($('explain'));
  return Math.max(0, checks.usual + spare - Math.floor(height));
}

/** The height of the compact view without its network canvas row (CSS px). */
function embedRest() {
  // In a frame the compare canvases stand side by side: one canvas's height is the drawing's share.
  const drawn = $('network').getBoundingClientRect().height;
  return Math.ceil(document.body.getBoundingClientRect().height - drawn) + 2;
}

/** The view of the current layout at the canvas's size and the current zoom (the second canvas, if any, shares both). */
export function updateView() {
  const [w, h] = state.canvasSize ?? [240, 240];
  const dpr = window.devicePixelRatio || 1;
  const zoom = state.zoom?.transform();
  state.view = state.lay ? viewFor(state.lay, w, h, dpr, zoom) : null;
  state.compare?.resize(state.lay, w, h, dpr, zoom);
  state.dirty = true;
  // The shading means what the view draws: a node's working queue (dots),
  // or a cell's packets per node, those waiting at their source included
  // (heat.js, when nodes would be too small to draw).
  // Zoomed out the packets are not drawn: the shading's line says how to
  // see them (the classes keep their true colours; the line only grows in
  // that mode, so the canvas it shrinks stays zoomed out: no flicker).
  // The classes' swatches follow the view too: rims on dots, the class colouring's own on cells.
  renderLegend(state.legendView);
}

/**
 * The shading's legend line, as the canvas shades: a node's working queue;
 * zoomed out, a cell's packets per node — or, a sort coloured by key, each
 * cell in its keys' mean colour on the key's ramp (render.js drawKeyCells).
 * `squares`: the legend lists more than one class, which the heat map's
 * small squares (heat.js drawMajorities) tell apart: the line says what
 * they are.
 */
function heatLegend(squares) {
  const heat = state.view?.mode === 'heat';
  const byKey = heat && colorMode() === 'key' && !!state.keyShade;
  const text = byKey
    ? "each cell in its keys' mean colour, on the key's scale (nodes too small for keys: zoom in to see them)"
    : heat ? `packets per node, waiting at the source included${squares ? "; a cell's small square: the class most of its packets belong to" : ''} (nodes too small for packets: zoom in to see them)` : 'queue occupancy';
  if ($('legend-heat-text').textContent !== text) $('legend-heat-text').textContent = text;
  $('legend').classList.toggle('zoomed-out', heat);
  $('legend-heat').classList.toggle('by-key', byKey);
}

/**
 * Names what is shown, in the core's words (`Simulation.label`): algorithm
 * · topology · workload as the title, and under it the values the run uses
 * (ℓ, k, seed, q, policy, options). While a field of the form holds a value
 * the core refused (`state.invalidField`), a note says the run on screen is
 * the last valid one, with those values.
 */
export function updateRunTitle() {
  const c = state.config;
  let label = null;
  try {
    label = state.sim?.label(state.compare?.active ? state.compare.algorithm : undefined) ?? null;
  } catch {
    label = null;
  }
  if (label) {
    $('run-title').textContent = label.run;
    $('run-values').textContent = label.values;
  } else {
    const workload = state.instanceText ? 'loaded instance' : c.workload;
    $('run-title').textContent = [c.algorithm, state.topo?.name ?? c.topology, workload].join(' · ');
    $('run-values').textContent = '';
  }
  const note = $('run-note');
  note.hidden = !(state.invalidField && label);
  note.textContent = note.hidden ? '' : `Showing the last valid run: ${label.run} · ${label.values}. Correct the marked field to run it.`;
  // Folded (narrow screens), Setup still says what run it sets up.
  $('setup-summary').textContent = $('run-title').textContent;
  // Narrow, the lesson's panel is below the canvas: its title over the run says there is one (style.css).
  const banner = $('lesson-banner');
  const title = state.lesson?.title ?? '';
  banner.hidden = !title;
  // One line (style.css: the title cut with an ellipsis, the whole in the
  // tooltip), so that a phone's first screen keeps the canvases and the buttons.
  const words = title ? `↓ Lesson below: ${title}` : '';
  if (banner.firstElementChild.textContent !== words) {
    banner.firstElementChild.textContent = words;
    banner.firstElementChild.title = words;
  }
}

export function draw(now) {
  const canvas = $('network');
  const ctx = canvas.getContext('2d');
  const dpr = window.devicePixelRatio || 1;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  if (!state.lay || !state.view) {
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.fillStyle = '#6b7280';
    ctx.font = '14px system-ui, sans-serif';
    ctx.fillText('Nothing to draw: see the message above.', 20, 30);
    return;
  }
  const { duration, start } = state.anim;
  const t = duration > 0 ? Math.min(1, (now - start) / duration) : 1;
  // Zoomed out beside a second run: one density scale for both heat maps.
  const heatScale = state.compare?.active && state.view.mode === 'heat' && state.snapshot
    ? Math.max(densities(state.view, state.lay, state.snapshot).top, state.compare.heatTop(state.lay))
    : 0;
  state.dots = drawFrame(ctx, state.view, state.lay, {
    snapshot: state.compare?.active ? shownAt(state.snapshot, shownStep()) : state.snapshot,
    prevPositions: state.prevPositions,
    t,
    colorMode: colorMode(),
    classRims: state.classRims[0],
    destinations: state.destinations,
    keyShade: state.keyShade,
    trail: state.trail,
    watched: state.watched,
    hover: state.hover,
    highlight: hallHighlight(0),
    queueScale: state.snapshot ? Math.max(4, state.snapshot.max_queue, state.compare?.maxQueue() ?? 0) : 4,
    heatScale,
  });
  const more = state.compare?.draw(now, state.lay, {
    colorMode: colorMode(),
    classRims: state.classRims[1],
    keyShade: state.keyShade,
    highlight: hallHighlight(1),
    queueScale: state.snapshot ? Math.max(4, state.snapshot.max_queue, state.compare.maxQueue()) : 4,
    heatScale,
  });
  state.dirty = t < 1 || !!more;
}

// Steps per second while playing and its label: the core's pace (pace.js).
export { playSpeed, speedText } from './pace.js';

/** The lesson the core explains and paces the run by: the open lesson, 'intro' for the default view, else none. */
export function lessonId() {
  const intro = !state.lesson && isDefaultRun(state.config) && state.page.compare === INTRO.compare && !state.instanceText;
  return state.lesson?.id ?? (intro ? 'intro' : '');
}
