// The form: menus filled from the core's catalogue and marked with its
// choices, the algorithm's options box, and reading and writing the
// controls (values stay text for the core to read and check).

import * as wasm from './pkg/routesim.js';
import { simConfig } from './config.js';
import { markCompareMenu } from './lessons.js';
import { $, state, colorMode } from './state.js';
import { speedText, playSpeed } from './view.js';

export function fillSelect(select, list, describe = (item) => item.description ?? '') {
  select.replaceChildren(...list.map((item) => {
    const o = document.createElement('option');
    o.value = item.name;
    o.textContent = item.name;
    o.title = describe(item);
    o.dataset.about = o.title;
    return o;
  }));
}

/**
 * Enables the options the core says can run (`list` = [{name, ok, reason}];
 * null: all), with the reason as the title of the others. `leads`: every
 * option stays enabled, those that cannot run here greyed (`data-fits="0"`,
 * style.css) with the reason and what choosing them does — the algorithm
 * menu, whose choice the network and the workload follow (the core's
 * `reconcile_to_algorithm`), as they follow an address naming an algorithm,
 * and the workload menu, whose choice the network and the algorithm follow
 * (`reconcile_to_workload`).
 */
function markOptions(select, list, leads = '') {
  for (const o of select.options) {
    const choice = list?.find((c) => c.name === o.value);
    const fits = !choice || choice.ok;
    o.disabled = !fits && !leads;
    o.dataset.fits = fits ? '1' : '0';
    o.title = fits ? o.dataset.about : `${choice.reason}${leads}`;
  }
}

/** Asks the core which algorithms, policies and workloads can run now, and marks the menus. */
export function refreshMenus() {
  try {
    state.choices = wasm.choices(simConfig(state.config, state.instanceText));
  } catch {
    state.choices = null;
  }
  markOptions($('algorithm'), state.choices?.algorithms, ' — choosing it switches the network or the workload to one it runs');
  // With a loaded instance the workload menu is how to go back to generated workloads.
  markOptions($('workload'), state.instanceText ? null : state.choices?.workloads, ' — choosing it switches the network or the algorithm to one that runs it');
  markOptions($('policy'), state.choices?.policies);
  markCompareMenu($('compare'), state.choices?.algorithms, state.compareRefused);
}

/** The speed control spans 0.1 to 1000 steps/s, logarithmically (25 a decade). */
export function speedToSlider(speed) {
  return Math.round((Math.log10(Math.min(1000, Math.max(0.1, speed))) + 1) * 25);
}

export function sliderToSpeed(v) {
  const speed = 10 ** (v / 25 - 1);
  return speed < 10 ? Math.round(speed * 10) / 10 : Math.round(speed);
}

/** The kind of a topology name, as the core parses it ('' when it is not one). */
export const kindOf = (topology) => wasm.topology_kind(String(topology ?? '')) ?? '';
export const text = (v) => (v === undefined || v === null ? '' : String(v));

/**
 * The selected algorithm's options (the registry's `options`, each with its
 * config key and control: flag, choice or number), drawn under the
 * algorithm menu; the fieldset is hidden when it has none.
 */
function renderOptions() {
  const box = $('algo-options');
  const entry = state.catalogue.algorithms.find((a) => a.name === state.config.algorithm);
  const options = entry?.options ?? [];
  const key = JSON.stringify([entry?.name, options.map((o) => o.key)]);
  if (box.dataset.key !== key) {
    box.dataset.key = key;
    box.replaceChildren($('algo-options-legend'));
    $('algo-options-legend').textContent = `Options of ${entry?.name ?? ''}`;
    for (const o of options) {
      const label = document.createElement('label');
      label.title = o.summary;
      let input;
      if (o.control.kind === 'flag') {
        input = document.createElement('input');
        input.type = 'checkbox';
        label.classList.add('flag');
        label.append(input, ` ${o.name}`);
      } else if (o.control.kind === 'choice') {
        input = document.createElement('select');
        input.replaceChildren(...o.control.values.map((v) => new Option(v, v)));
        label.append(`${o.name} `, input);
      } else if (o.control.words?.length) {
        // A number or one of the option's words (e.g. locality: unknown):
        // a text box; the core checks what is typed.
        input = document.createElement('input');
        input.type = 'text';
        input.size = 12;
        input.placeholder = `${o.control.unset}; ${o.control.min}–${o.control.max} or ${o.control.words.join(', ')}`;
        label.append(`${o.name} `, input);
      } else {
        input = document.createElement('input');
        input.type = 'number';
        input.min = String(o.control.min);
        input.max = String(o.control.max);
        input.step = '1';
        input.placeholder = o.control.unset;
        label.append(`${o.name} `, input);
      }
      input.dataset.option = o.key;
      input.dataset.kind = o.control.kind;
      input.setAttribute('aria-label', `${o.name}: ${o.summary}`);
      input.dataset.role = `option-${o.name}`;
      box.append(label);
    }
  }
  box.hidden = options.length === 0;
  for (const input of box.querySelectorAll('[data-option]')) {
    const v = state.config[input.dataset.option];
    if (input.dataset.kind === 'flag') input.checked = v === true || v === 'true';
    else if (input.dataset.kind === 'choice') input.value = text(v) || input.options[0]?.value;
    else input.value = text(v);
  }
}

export function writeControls() {
  renderOptions();
  const c = state.config;
  $('kind').value = kindOf(c.topology);
  $('topology').value = text(c.topology);
  // A name too long for its half of the row (mesh:128x128 in the 1280 px panel, shuffle-exchange:6,
  // whose kind is long too) gets the kind and the name a line each, so neither is cut.
  const row = $('kind').parentElement;
  row.classList.remove('stack');
  const name = $('topology');
  row.classList.toggle('stack', $('kind').value === 'shuffle-exchange' || name.scrollWidth > name.clientWidth);
  $('algorithm').value = c.algorithm;
  $('policy').value = c.policy;
  $('workload').value = c.workload;
  $('l').value = text(c.l);
  $('k').value = text(c.k);
  showWorkloadParams(c.workload);
  $('seed').value = text(c.seed);
  $('q').value = text(c.queue_cap);
  showQueueCap(c.algorithm);
  $('color').value = colorMode();
  $('compare').value = state.page.compare ?? '';
  $('lesson').value = state.lesson?.id ?? '';
  $('speed').value = speedToSlider(playSpeed());
  $('speed-out').textContent = speedText();
}

/** The generator parameters the core says a workload reads (`catalogue().workloads[].reads`). */
function workloadReads(name) {
  return state.catalogue.workloads.find((w) => w.name === name)?.reads ?? ['l', 'k'];
}

/**
 * Disables the ℓ and k boxes a workload does not read, showing the value
 * it implies in the placeholder and the core's reason in the tooltip (a
 * box it reads shows its default, 1, until a value is typed)
 * (`catalogue().workloads[].unread`: a k-k workload has ℓ = k, a
 * permutation ℓ = k = 1).
 */
function showWorkloadParams(workload) {
  const reads = workloadReads(workload);
  const unread = state.catalogue.workloads.find((w) => w.name === workload)?.unread ?? {};
  for (const key of ['l', 'k']) {
    const input = $(key);
    const off = !reads.includes(key) && !state.instanceText;
    input.disabled = off;
    // Read but left empty: the default the run uses (SPEC §4: ℓ and k are 1 unless given).
    input.placeholder = off ? unread[key]?.implied ?? '' : '1';
    input.title = off ? unread[key]?.why ?? '' : '';
  }
}

/**
 * What the q box bounds, in its placeholder and tooltip: an algorithm that
 * keeps edge queues of its own (`catalogue().algorithms[].own_queue_cap`:
 * lmrr, flashsort) bounds those, q = its default when the box is empty — as
 * the run's label says (`edge queues q = 2`); the others bound node queues,
 * unbounded when it is empty.
 */
function showQueueCap(algorithm) {
  const own = state.catalogue.algorithms.find((a) => a.name === algorithm)?.own_queue_cap;
  const input = $('q');
  input.placeholder = own ? `${own} (edge queues)` : 'unbounded';
  input.closest('label').title = own
    ? `packets each incoming link's queue may hold (the algorithm's edge queues); empty = ${own}`
    : 'packets a node may hold in its working queue; empty = unbounded';
}

/** The form as a config object; values stay text for the core to read and check. */
export function readControls() {
  const c = { ...state.config };
  c.topology = $('topology').value.trim();
  c.algorithm = $('algorithm').value;
  c.policy = $('policy').value;
  c.workload = $('workload').value;
  // An empty ℓ or k is the workload's default (absent), not a value; one
  // the (new) workload does not read is dropped, so it does not linger in
  // the address.
  const reads = workloadReads(c.workload);
  for (const key of ['l', 'k']) {
    const v = $(key).value.trim();
    if (v === '' || !reads.includes(key)) delete c[key];
    else c[key] = v;
  }
  c.seed = $('seed').value.trim();
  // The options shown are the current algorithm's; a new algorithm's
  // options start at their defaults (the core drops those it does not take).
  if (c.algorithm === state.config.algorithm) {
    for (const input of $('algo-options').querySelectorAll('[data-option]')) {
      const key = input.dataset.option;
      // A menu's first value is the option's default: left out, like an empty box.
      if (input.dataset.kind === 'flag') {
        if (input.checked) c[key] = true;
        else delete c[key];
      } else if (input.dataset.kind === 'choice' && input.selectedIndex <= 0) delete c[key];
      else if (input.value.trim() === '') delete c[key];
      else c[key] = input.value.trim();
    }
  }
  const q = $('q').value.trim();
  if (q === '') delete c.queue_cap;
  else c.queue_cap = q;
  return c;
}
