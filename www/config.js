// The page's configuration: defaults, and the URL query string both ways.
// The run's fields (topology, algorithm, …) are the core's config object:
// the wasm module reads them from the URL (`parse_query`), makes them
// runnable (`reconcile`) and names every bad one. This file parses only the
// page's own keys (speed, color, play, step, compare, lesson, embed; `instance` is
// url-instance.js's) and writes the state back, keeping every parameter it
// does not own.

import { MAX_GOTO_STEP } from './embed-api.js';

/** The page's own settings (not run fields); `compare`: the algorithm run beside the first (null: none). */
export const PAGE_DEFAULTS = Object.freeze({
  speed: null, // steps per second; null: the core's pace (the run plays in about 30 s, pace.js)
  color: null, // class, destination or key; null: by key for a sort, by class otherwise (state.js colorMode)
  play: true,
  compare: null,
  step: 0, // the step the view opens at
});

/**
 * The run the page shows when opened without parameters (a wasm config
 * object), and the defaults of the fields a URL does not name: the core's
 * `intro` view (src/lessons.rs), registered at boot by `registerIntro`
 * before any address is read — the page keeps no copy of it. Today it puts
 * `offline` beside `greedy` on `greedy-worst` at 2 steps/s: the papers'
 * trade-off at once (greedy optimal in time with one queue growing linearly
 * in the side, offline slower with queues of at most 3), in the explain
 * panel's words.
 */
export let DEFAULT_CONFIG = Object.freeze({});

/** What the default view (no run parameter, no lesson) adds to the defaults: its pace and its second algorithm. */
export let INTRO = Object.freeze({ speed: null, compare: null });

/** Takes the default view from the core's `intro` lesson (`wasm.lesson('intro')`). */
export function registerIntro(lesson) {
  DEFAULT_CONFIG = Object.freeze({ ...lesson.config });
  INTRO = Object.freeze({ speed: null, compare: lesson.preset.compare ?? null });
}

export const COLOR_MODES = ['class', 'destination', 'key'];

/**
 * SPEC §7's URL keys of run fields (the core's `parse_query` reads them),
 * each with its config key: filled from the core's catalogue (`fields`, the
 * request's own list) by `registerRunFields` before any address is read.
 * Only used to write the address back and to tell an unknown parameter
 * from one the core reads.
 */
// No prototype: `key in RUN_KEYS` for an address key such as `constructor`
// or `toString` is false (they were taken for run fields and dropped unnamed).
const RUN_KEYS = Object.create(null);
const PAGE_KEYS = ['speed', 'color', 'play', 'step', 'instance', 'embed', 'compare', 'lesson'];

/**
 * Registers the run fields the core's catalogue says a URL carries
 * (`fields`: [{query, key}]: topology, algorithm, …, q and the algorithms'
 * options such as `phases`), so that the address is read and written for
 * every one of them. Called once, when the module is loaded.
 */
export function registerRunFields(fields, algorithms = []) {
  for (const { query, key } of fields ?? []) RUN_KEYS[query] = key;
  for (const { name, options } of algorithms) {
    OPTION_TAKERS[name] = new Set((options ?? []).map((o) => o.key));
    // `locality` is also a workload's parameter: not only an option.
    for (const o of options ?? []) if (o.key !== 'locality') ALGORITHM_OPTIONS.add(o.key);
  }
}

/** The config keys of the algorithms' options, and which algorithm takes which (from the catalogue). */
const ALGORITHM_OPTIONS = new Set();
const OPTION_TAKERS = {};

/**
 * Whether the address leaves out `field`: an algorithm's option that the
 * run's algorithm does not take and the config does not hold (a lesson's
 * preset set it for the lesson's algorithm; the core drops it for this
 * one, so writing it empty would only be refused on reload).
 */
function optionNotTaken(config, field) {
  const takes = OPTION_TAKERS[config.algorithm];
  return ALGORITHM_OPTIONS.has(field) && takes !== undefined && !takes.has(field) && text(config[field]) === '';
}

/**
 * A core message that names a run field by its config key (`invalid
 * queue_cap '0': …`, as `Simulation` reads it) with the name the page
 * shows and the address carries (`invalid q '0': …`).
 */
export function namedAsShown(message) {
  return message.replace(/\binvalid ([a-z_]+) '/, (whole, key) => {
    const query = Object.keys(RUN_KEYS).find((q) => RUN_KEYS[q] === key);
    return query && query !== key ? `invalid ${query} '` : whole;
  });
}

const INTEGER = /^\d+$/;

const text = (v) => (v === undefined || v === null ? '' : String(v));

/** Whether `config` is the default run (on every field the URL carries). */
export function isDefaultRun(config) {
  return Object.values(RUN_KEYS).every((field) => text(config[field]) === text(DEFAULT_CONFIG[field]));
}

/**
 * What a URL is read against and written back against: `lesson`'s preset
 * (the core's lesson object) when there is one; else the default run, at
 * the default view's pace and with its second algorithm when `intro` (the
 * URL names no run field), else at the page's defaults.
 */
export function defaultsFor(lesson, intro) {
  if (lesson) {
    const p = lesson.preset;
    // A lesson paces its run itself (its `seconds`, the core's pace); one
    // with a prediction opens paused, until the guess is in.
    return { config: lesson.config, speed: null, compare: p.compare ?? null, step: p.step, play: !lesson.predict };
  }
  return {
    config: DEFAULT_CONFIG,
    speed: null,
    compare: intro ? INTRO.compare : PAGE_DEFAULTS.compare,
    step: 0,
  };
}

/** How many unknown URL parameters the page names one by one. */
const MAX_NAMED_UNKNOWN = 5;

/** A text from the address as a message shows it: at most 80 characters, the rest counted. */
function short(text, max = 80) {
  return text.length > max ? `${text.slice(0, max - 1)}… (${text.length} characters)` : text;
}

/**
 * Reads the URL. `wasm` = the module (`parse_query`, `reconcile`, `lesson`, `catalogue`).
 * Returns {config, page, embed, lesson, warnings, switches, errors}:
 * warnings name bad parameters, switches the core's switches of fields the
 * address names (e.g. an algorithm that cannot run on the topology the
 * address also names), errors an unknown
 * lesson (for the error line); `lesson` is the core's lesson object (or
 * null) and `page.step` the step the view opens at (the URL's `step`, else
 * the lesson's start step, else 0). A lesson's preset is the base the
 * other parameters change; with no run field and no lesson the page opens
 * the default view (INTRO).
 */
export function parseQuery(search, wasm) {
  const params = new URLSearchParams(search);
  const warnings = [];
  const errors = [];
  // A page parameter given twice: the last one counts, as for the run's
  // parameters (whose repeats the core names).
  for (const key of PAGE_KEYS) {
    const all = params.getAll(key);
    if (all.length < 2) continue;
    warnings.push(`URL parameter ${key} is given more than once: the last one, ${key}=${JSON.stringify(all.at(-1))}, is used.`);
    params.set(key, all.at(-1));
  }
  let lesson = null;
  if (params.get('lesson')) {
    try {
      lesson = wasm.lesson(params.get('lesson'));
    } catch (e) {
      errors.push(`URL parameter lesson=${JSON.stringify(params.get('lesson'))} ignored: ${e.message} — no lesson opened.`);
    }
  }
  if (params.has('lesson') && !params.get('lesson')) {
    errors.push('URL parameter lesson="" ignored: no lesson named — no lesson opened.');
  }
  const defaults = defaultsFor(lesson, ![...params.keys()].some((key) => key in RUN_KEYS));
  // Unknown parameters, each named shortened, and at most a few named one
  // by one (an address of thousands of them is one line, not thousands).
  const unknown = [...new Set(params.keys())].filter((key) => !(key in RUN_KEYS) && !PAGE_KEYS.includes(key));
  for (const key of unknown.slice(0, MAX_NAMED_UNKNOWN)) {
    warnings.push(`Unknown URL parameter ${short(key)}=${short(JSON.stringify(params.get(key)))} ignored.`);
  }
  if (unknown.length > MAX_NAMED_UNKNOWN) {
    warnings.push(`${unknown.length - MAX_NAMED_UNKNOWN} more unknown URL parameters ignored.`);
  }

  // Run fields: the core's parse_query, which sets every field and then
  // reconciles once, saying only the switches of fields the address names:
  // the others are the defaults' (a lesson's or the default view's), which
  // the reader did not choose, and follow the named ones silently. The base
  // is first reconciled to the asked topology (an address naming a
  // workload but no algorithm asks for the workload's problem: a sort
  // switches a routing algorithm, the core's reconcile with `changed` =
  // 'workload').
  const lead = params.has('workload') && !params.has('algorithm') ? 'workload' : undefined;
  let base = defaults.config;
  if (params.has('topology') || lead) {
    const asked = { ...defaults.config };
    if (params.has('topology')) asked.topology = params.get('topology');
    if (lead) asked.workload = params.get('workload');
    try {
      base = wasm.reconcile(asked, lead).config;
    } catch {
      // A bad topology or workload: parse_query names it below.
    }
  }
  const parsed = wasm.parse_query(search, base);
  // The core's switches (a field that cannot run with the others, switched)
  // apart: they no longer apply if the run they were made for is refused.
  const switches = parsed.switches;
  warnings.push(...parsed.messages.filter((m) => !switches.includes(m)));
  // A run field the core refused is as if not given (its default is used):
  // an address whose run fields were all refused opens the default view,
  // its second run included.
  const shown = lesson ? defaults : defaultsFor(null, parsed.named.length === 0);

  // The page's own keys.
  const page = { ...PAGE_DEFAULTS, speed: shown.speed, compare: shown.compare, step: shown.step, play: shown.play ?? true };
  /** Names a bad page parameter and the default used instead, as the URL would spell it. */
  const bad = (key, value, why) => {
    const used = {
      play: page.play ? '1' : '0',
      compare: page.compare ?? 'none',
      speed: page.speed ?? 'the pace chosen from the run (about 30 s)',
      color: page.color ?? 'key for a sort, else class',
    }[key] ?? page[key];
    warnings.push(`URL parameter ${key}=${JSON.stringify(value)} ignored: ${why} — using ${used}.`);
  };
  if (params.has('speed')) {
    const value = params.get('speed');
    // Any decimal spelling of a number (1000, 1e3, 12.5).
    const n = /^\s*[\d.]+(e[+-]?\d+)?\s*$/i.test(value) ? Number(value) : NaN;
    if (Number.isFinite(n) && n >= 0.1 && n <= 1e6) page.speed = n;
    else bad('speed', value, 'expected a number of steps per second from 0.1 to 1000000');
  }
  if (params.has('color')) {
    const value = params.get('color');
    if (COLOR_MODES.includes(value)) page.color = value;
    else bad('color', value, `expected one of ${COLOR_MODES.join(', ')}`);
  }
  if (params.has('play')) {
    const value = params.get('play');
    if (value === '0' || value === '1') page.play = value === '1';
    else bad('play', value, 'expected 0 or 1');
  }
  if (params.has('compare')) {
    // An algorithm the core's registry does not name is a bad value; whether
    // a named one can run on the instance the core says when it builds the
    // second run (an information, not an error).
    const value = params.get('compare').trim();
    const names = wasm.catalogue().algorithms.map((a) => a.name);
    if (value === '' || value === 'none') page.compare = null;
    else if (names.includes(value)) page.compare = value;
    else bad('compare', value, `unknown algorithm (expected none or one of ${names.join(', ')})`);
  }
  if (params.has('step')) {
    // Read as the other numbers are (spaces around it ignored) and up to the
    // largest step a goto command takes: past the run's end shows its last.
    const value = params.get('step');
    const trimmed = value.trim();
    if (INTEGER.test(trimmed) && Number(trimmed) <= MAX_GOTO_STEP) page.step = Number(trimmed);
    else bad('step', value, `expected a whole number from 0 to ${MAX_GOTO_STEP}`);
  }
  const embed = params.get('embed') === '1';
  if (params.has('embed') && !['0', '1'].includes(params.get('embed'))) {
    warnings.push(`URL parameter embed=${JSON.stringify(params.get('embed'))} ignored: expected 0 or 1 — using 0 (the full page).`);
  }
  return { config: parsed.config, page, embed, lesson, warnings, switches, errors };
}

/**
 * The query string for a state: only what differs from the defaults the
 * URL will be read against (`lesson`'s preset, the default view's, or the
 * page's); `play=0` while the user has paused, `step` the step the view
 * opens at, `instance` a loaded instance (url-instance.js), and every
 * parameter of `current` (the address's query) that the page does not own,
 * kept as it was.
 */
export function toQuery(config, page, embed, { lesson = null, current = '', instance = null } = {}) {
  const params = new URLSearchParams();
  const defaults = defaultsFor(lesson, !lesson && isDefaultRun(config));
  if (lesson) params.set('lesson', lesson.id);
  for (const [key, field] of Object.entries(RUN_KEYS)) {
    if (optionNotTaken(config, field)) continue;
    if (text(config[field]) !== text(defaults.config[field])) params.set(key, text(config[field]));
  }
  if (page.speed != null) params.set('speed', String(page.speed));
  if (page.color !== PAGE_DEFAULTS.color) params.set('color', page.color);
  if ((page.compare ?? null) !== defaults.compare) params.set('compare', page.compare ?? 'none');
  if (!page.play) params.set('play', '0');
  if ((page.step ?? 0) !== defaults.step) params.set('step', String(page.step ?? 0));
  if (instance) params.set('instance', instance);
  if (embed) params.set('embed', '1');
  for (const [key, value] of new URLSearchParams(current)) {
    if (!(key in RUN_KEYS) && !PAGE_KEYS.includes(key)) params.append(key, value);
  }
  const query = params.toString();
  return query ? `?${query}` : '';
}

/**
 * The fields of a config that describe a generated workload (dropped when an
 * instance is loaded, as the core's `RunSpec::with_instance` drops them).
 * Not controls.js's WORKLOAD_FIELDS (the fields whose change leaves a loaded
 * instance): `locality` and `hotspot` are dropped here but changing them
 * keeps the instance there — `locality` is also ks-local's option, which
 * must not drop a loaded instance, and a hotspot has nothing to change with
 * one. One list for both would change what a change of either does.
 */
const WORKLOAD_FIELDS = ['topology', 'workload', 'l', 'k', 'locality', 'hotspot'];

/**
 * The UTF-8 length of `text`, the bytes the core counts against its text
 * limit: the page asks the core (`check_instance_text`) with it before the
 * text is copied into wasm, so a pasted text past the limit costs no wasm
 * memory. A UTF-16 unit below 0x80 is one byte, below 0x800 two, half of a
 * surrogate pair two (the pair: four), any other three.
 */
export function utf8Length(text) {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) bytes += c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 1 : 2;
  }
  return bytes;
}

/** The config object `new Simulation(...)` takes: the run's config, or the loaded instance with the run's other fields. */
export function simConfig(config, instanceText) {
  if (!instanceText) return { ...config };
  const out = { ...config, instance: instanceText };
  for (const key of WORKLOAD_FIELDS) delete out[key];
  return out;
}
