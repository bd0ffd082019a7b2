// The explain panel (SPEC §7 `data-role="explain"`): draws what the core's
// `Simulation.explain` / `explain_with` returns — the lesson and its live
// check (for a lesson with a load curve, also LoadCurve.lesson_check's
// check on the curve, from the worker), the two runs' verdict, each algorithm in words with its claims
// evaluated on this instance and where the run stands, the current phase,
// the destination key when colouring by destination, and the terms. Every word and
// number comes from the core (the registry, src/explain/, src/lessons.rs);
// this file only lays them out.

import { count } from './words.js';

const VERDICT_MARK = { met: '✓', 'not-met': '✗', pending: '…', measured: '≈', 'not-applicable': '–' };

const esc = (text) => String(text ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/** The paper's short name: the title in the registry's "file (title)". */
function paperTitle(paper) {
  const m = /\(([^)]*)\)\s*$/.exec(paper);
  return m ? m[1] : paper;
}

/** Each claim as a line with its verdict (SPEC §7 `data-role="claim"`): the ones that apply, with the bound for this
 * instance and where the run stands; then the ones stated for other runs, each with why; and, when none applies, the
 * core's reason (e.g. no paper bounds the algorithm on this network). */
function claimsHtml(run) {
  const applies = run.claims.filter((c) => c.verdict !== 'not-applicable');
  const items = applies.map((c) => `<li class="v-${c.verdict}" data-role="claim" data-verdict="${esc(c.verdict)}" title="${esc(c.text)}"><span class="mark" aria-hidden="true">${VERDICT_MARK[c.verdict]}</span>`
    + `<span><b>${esc(c.name)}</b>: <span class="x-outcome">${esc(c.outcome)}</span><span class="x-headline">${esc(c.headline)}</span><br><span class="x-line">${esc(c.line)}</span></span></li>`);
  // The claims stated for other runs, one line per reason ("Lemma 7, Lemma 8: stated for a ring; …").
  const byReason = new Map();
  for (const c of run.claims.filter((c) => c.verdict === 'not-applicable')) {
    const why = c.line.replace(/^does not apply: /, '');
    byReason.set(why, [...(byReason.get(why) ?? []), c]);
  }
  const others = [...byReason].map(([why, cs]) => {
    const title = cs.length === 1 ? cs[0].text : cs.map((c) => `${c.name}: ${c.text}`).join('\n');
    return `<li class="v-not-applicable" data-role="claim" data-verdict="not-applicable" title="${esc(title)}"><b>${esc(cs.map((c) => c.name).join(', '))}</b>: ${esc(why)}</li>`;
  });
  return (run.unclaimed ? `<p class="x-unclaimed" title="${esc(run.unclaimed)}">${esc(run.unclaimed)}</p>` : '')
    + (items.length ? `<ul class="x-claims">${items.join('')}</ul>` : '')
    + (others.length ? `<div class="x-na"><p>Stated for other runs:</p><ul>${others.join('')}</ul></div>` : '');
}

/** Coloured by destination or by a sort's key, what the colours mean (the classes are in the legend under the canvas, view.js). */
function legendHtml(run, colorMode) {
  const text = colorMode === 'destination' ? run.destination_key : colorMode === 'key' ? run.sort?.key : null;
  return text ? `<p class="x-legend"><span class="x-key" aria-hidden="true"></span> ${esc(text)}</p>` : '';
}

/**
 * The delivered packets' delays as a small bar chart (SPEC §7 `data-role="delay-histogram"`): the core's `delays`
 * (counts per delay, from the simulated arrivals; present when a claim on every packet's delay applies), drawn as
 * they are; `data-counts` carries the counts.
 */
function delaysHtml(d) {
  if (!d) return '';
  const W = 300, base = 58, n = Math.max(d.counts.length, 1), bw = W / n;
  const top = Math.max(1, ...d.counts);
  const bars = d.counts.map((c, z) => {
    const h = c ? Math.max(1, ((base - 12) * c) / top) : 0;
    const x = z * bw;
    const label = n <= 24 && c ? `<text x="${(x + bw / 2).toFixed(1)}" y="${(base - h - 2).toFixed(1)}">${c}</text>` : '';
    return `<rect x="${(x + 0.5).toFixed(1)}" y="${(base - h).toFixed(1)}" width="${Math.max(0.6, bw - 1).toFixed(1)}" height="${h.toFixed(1)}"><title>delay ${z}: ${count(c, 'packet')}</title></rect>${label}`;
  }).join('');
  // One bar stands in the middle, where the axis's name goes: its tick joins the name.
  const ticks = n === 1
    ? `<text x="${W / 2}" y="70" class="x-axis">delay (steps): 0</text>`
    : `<text x="${(bw / 2).toFixed(1)}" y="70">0</text><text x="${(W - bw / 2).toFixed(1)}" y="70">${n - 1}</text>`
      + `<text x="${W / 2}" y="70" class="x-axis">delay (steps)</text>`;
  return `<figure class="x-delays" data-role="delay-histogram" data-counts="${d.counts.join(',')}"><figcaption><b>Delays</b> — ${esc(d.caption)}</figcaption>`
    + `<svg viewBox="0 0 ${W} 72" role="img" aria-label="${esc(`histogram of the delays: ${d.counts.map((c, z) => `${count(c, 'packet')} delayed ${z}`).join(', ')}`)}">${bars}${ticks}</svg></figure>`;
}

function runHtml(run, colorMode, { brief, claims }) {
  const phase = run.phase
    ? `<p class="x-phase"><b>Phase</b> <code>${esc(run.phase.name)}</code>${run.phase.text ? ` — ${esc(run.phase.text)}` : ''}</p>`
    : '';
  const description = brief
    ? `<details class="x-more"><summary>${esc(run.summary)}</summary><p>${esc(run.description)}</p></details>`
    : `<p class="x-desc">${esc(run.description)}</p>`;
  return `<div class="x-run"><h3><span class="x-alg">${esc(run.algorithm)}</span> <span class="x-progress">${esc(run.progress)}</span></h3>`
    + `${description}${claims ? claimsHtml(run) : ''}${delaysHtml(run.delays)}${phase}${legendHtml(run, colorMode)}`
    + `<p class="x-cite">${esc(paperTitle(run.paper))} — ${esc(run.section)}</p></div>`;
}

// An embed shows each check in one line: its short form (outcome first), the whole line as its tooltip.
const checkItems = (checks, role = '') => checks.map((c) => `<li class="v-${c.verdict}"${role} data-verdict="${esc(c.verdict)}" title="${esc(c.text)}"><span class="mark" aria-hidden="true">${VERDICT_MARK[c.verdict]}</span>`
  + `<span class="x-check-text">${esc(c.text)}</span>${c.short ? `<span class="x-check-short">${esc(c.short)}</span>` : ''}</li>`).join('');

/** A lesson's load curve and the core's check of its claims on it (`load`: LoadCurve.lesson_check, or null before the first run). */
function loadCheckHtml(load) {
  // An embed runs no load curves (the full page's load panel does): it says
  // where the check is instead of a verdict that would stay pending.
  if (document.body.classList.contains('embed')) {
    return '<p class="x-check-title" data-role="load-elsewhere">This lesson checks its claims on load curves, which run in the full simulator (the link under the canvas).</p>';
  }
  const verdict = load?.verdict ?? 'pending';
  const runs = load ? ` (${load.runs} of ${load.planned} runs)` : ' (starting…)';
  return `<p class="x-check-title">Checked live on the load curves below${runs}: <span class="x-verdict v-${verdict}" data-role="load-verdict" data-verdict="${verdict}">${esc(verdict.replace('-', ' '))}</span></p>`
    + `<ul class="x-checks" data-role="load-check">${load ? checkItems(load.checks) : ''}</ul>`;
}

/**
 * A check's lines in a box that, in a frame, scrolls when they outnumber
 * its room (style.css, view.js fitChecks); its marker (`x-more-mark`, shown
 * then) says how many lines the box hides below ("↓ 3 more") and scrolls to them.
 */
const checksBox = (items) => `<div class="x-checks-box"><ul class="x-checks">${items}</ul>`
  + '<button type="button" class="x-more-mark" data-role="more-claims" hidden></button></div>';

/**
 * Marks each check box of `el` whose list hides lines (an embed's box is
 * a few lines high): `data-more` on the box (the list then keeps room for
 * the marker under its last line), and its marker reads "↓ N more" (N: the
 * lines not wholly above it), or "↑ N above" scrolled to the end. Called
 * after each drawing and resize; the list's scrolling calls it too.
 */
export function markHiddenLines(el) {
  for (const box of el.querySelectorAll('.x-checks-box')) {
    const list = box.querySelector('.x-checks');
    const mark = box.querySelector('.x-more-mark');
    if (!list || !mark) continue;
    if (!list.dataset.marked) {
      list.dataset.marked = '1';
      list.addEventListener('scroll', () => markHiddenLines(box.parentElement), { passive: true });
      mark.addEventListener('click', () => list.scrollBy({ top: Math.max(16, list.clientHeight - mark.offsetHeight - 16) }));
    }
    const over = list.scrollHeight > list.clientHeight + 1;
    if (over !== (box.dataset.more === 'true')) {
      box.dataset.more = String(over);
      // A list that scrolls takes the keyboard's focus (its arrows scroll it).
      if (over) list.tabIndex = 0;
      else list.removeAttribute('tabindex');
    }
    let text = '';
    if (over) {
      if (mark.hidden) {
        mark.textContent = '↓';
        mark.hidden = false;
      }
      const top = list.getBoundingClientRect().top;
      // The marker covers the list's bottom strip: a line reaching into it is not shown whole.
      const bottom = mark.getBoundingClientRect().top;
      const items = [...list.children];
      const below = items.filter((li) => li.getBoundingClientRect().bottom > bottom + 1).length;
      const above = items.filter((li) => li.getBoundingClientRect().top < top - 1).length;
      text = below ? `↓ ${below} more` : above ? `↑ ${above} above` : '';
      mark.setAttribute('aria-label', below ? `${count(below, 'more line')}: show them` : `${count(above, 'line')} above`);
    }
    if (mark.textContent !== text) mark.textContent = text;
    mark.hidden = !text;
  }
}

function lessonHtml(status, load, pending) {
  const { lesson } = status;
  // A run opened with other values than the lesson's (the core's `changed`): said above its text.
  const changed = status.changed ? `<p class="x-changed" data-role="lesson-changed">${esc(status.changed)}</p>` : '';
  // The check comes right under the title, before the lesson's text: what
  // the run is checked against and whether it met it are in view at once,
  // not below the panel's fold (at 1280×800 the text alone filled it).
  return `<div class="x-lesson"><h3>${esc(lesson.title)}</h3>${changed}`
    // The check line: what is checked, in the core's words, and its verdict (SPEC §7 `lesson-check`).
    // Before the guess a lesson asks for, its check (whose bounds and values give the answer) waits.
    + (pending
      ? `<div class="x-check" data-role="lesson-check" data-verdict="pending"><p class="x-check-title">This run's check, with its bounds for this instance, appears once you have guessed (or step the run).</p></div>`
      : `<div class="x-check" data-role="lesson-check" data-verdict="${status.verdict}"><p class="x-check-title"><span class="x-check-what" title="${esc(status.title)}">${esc(status.title)}</span><span class="x-sep"> — </span>`
        + `<span class="x-verdict v-${status.verdict}">${esc(status.verdict_text)}</span></p>`
        + checksBox(checkItems(status.checks, ' data-role="claim"')) + '</div>')
    + (lesson.load ? loadCheckHtml(load) : '')
    + `<p>${esc(lesson.text)}</p>`
    + `<p class="x-cite">${esc(paperTitle(lesson.paper))} — ${esc(lesson.section)}</p></div>`;
}

function termsHtml(run) {
  const rows = run.terms.map((t) => `<dt>${esc(t.term)}</dt><dd>${esc(t.text)}</dd>`).join('');
  return `<details class="x-terms"><summary>What ℓ, k, the policy and the bounds mean here</summary><dl>${rows}</dl></details>`;
}

/** The HTML last drawn into each panel, so an unchanged explanation is not redrawn. */
const drawn = new WeakMap();

/**
 * Draws `view` (the core's explanation) into `el`. `colorMode`: the
 * packets' colouring (`class`, `destination` or `key`); `load`: for a lesson with
 * a load curve, the core's check on it so far. Keeps open <details> open.
 */
export function renderExplain(el, view, colorMode, load = null, pending = false) {
  if (!view) {
    el.innerHTML = '<p class="dim">Nothing runs: see the message above.</p>';
    return;
  }
  const two = !!view.compare;
  const html = [
    view.lesson ? lessonHtml(view.lesson, load, pending) : '',
    two ? `<p class="x-compare${view.verdict ? ' done' : ''}" data-role="compare-verdict">${view.verdict ? esc(view.verdict) : `Side by side on the same instance, at the same step: <b>${esc(view.main.algorithm)}</b> <span class="x-wide">on the left</span><span class="x-narrow">above</span>, <b>${esc(view.compare.algorithm)}</b> <span class="x-wide">on the right</span><span class="x-narrow">below</span>. The verdict appears when both have finished.`}</p>` : '',
    // With a lesson, its checks are the claims checked live; the runs say what they do.
    `<div class="x-runs${two ? ' two' : ''}">${runHtml(view.main, colorMode, { brief: two || !!view.lesson, claims: !view.lesson })}`
      + `${two ? runHtml(view.compare, colorMode, { brief: true, claims: !view.lesson }) : ''}</div>`,
    termsHtml(view.main),
  ].join('');
  if (html === drawn.get(el)) return;
  const open = [...el.querySelectorAll('details')].map((d) => d.open);
  const focused = [...el.querySelectorAll('summary')].indexOf(document.activeElement);
  el.innerHTML = html;
  drawn.set(el, html);
  el.querySelectorAll('details').forEach((d, i) => {
    if (open[i]) d.open = true;
  });
  if (focused >= 0) el.querySelectorAll('summary')[focused]?.focus();
}
