// What the controls do: a changed configuration applied (the core
// reconciles it, the run restarts), the buttons wired, lessons opened,
// instances loaded and downloaded.

import * as wasm from './pkg/routesim.js';
import { simConfig, namedAsShown, utf8Length } from './config.js';
import { fillLessonMenu, fillCompareMenu } from './lessons.js';
import { $, state, shownStatus } from './state.js';
import { showMessage, clearMessages, showFieldError, clearFieldErrors } from './messages.js';
import { fillSelect, refreshMenus, sliderToSpeed, kindOf, text, writeControls, readControls } from './form.js';
import { rebuild, stepForward, togglePlay, resetRun, setPlaying, finishRun } from './run.js';
import { updateExplain, updateRunTitle } from './view.js';
import { showSpeed, readPace } from './pace.js';
import { updatePredict } from './predict.js';
import { saveUrl, saveInstanceUrl } from './address.js';
import { count } from './words.js';

/**
 * Applies a changed configuration: the core makes it runnable (`reconcile`
 * switches an algorithm, policy or workload that cannot run, one message
 * line per switch; `changed` = 'workload': a workload of the other problem,
 * sorting or routing, switches the algorithm; 'algorithm': the network and
 * the workload follow the algorithm), then the run restarts. A configuration the core refuses
 * (a bad value) is named in the error line and the current run goes on.
 * Returns whether it was applied; when not, `refusal()` is the message.
 * A configuration applied is a valid change: what was said about the
 * address the page opened with no longer applies (unless this is that
 * address's own instance).
 */
export function applyConfig(candidate, instanceText, errorPrefix = 'Cannot run this configuration', source = 'form', changed = undefined) {
  clearMessages(source);
  lastRefusal = '';
  const refuse = (e) => {
    lastRefusal = namedAsShown(e.message);
    showMessage('error', `${errorPrefix}: ${lastRefusal}`, source);
    return false;
  };
  let reconciled;
  try {
    // A new text past the core's limit is refused by its length, not
    // copied in (the loaded one passed already: a form change re-sends it).
    if (instanceText && instanceText !== state.instanceText) wasm.check_instance_text(utf8Length(instanceText));
    reconciled = wasm.reconcile(simConfig(candidate, instanceText), changed);
  } catch (e) {
    return refuse(e);
  }
  // With an instance the core returns no workload fields: keep the form's.
  const config = instanceText ? { ...candidate, ...reconciled.config } : reconciled.config;
  // Built before anything changes: a run the core refuses to build (over
  // the page's size limits) leaves the current one on screen.
  let sim;
  try {
    sim = new wasm.Simulation(simConfig(config, instanceText));
  } catch (e) {
    return refuse(e);
  }
  clearMessages('reconcile');
  clearMessages('form');
  if (source !== 'url') clearMessages('url');
  // A refused instance or load-panel run is history once a run builds: the
  // error line shows errors of what is on screen (SPEC §7); the refused
  // text keeps its note beside its box. (They once stayed through every
  // later lesson and network.)
  clearMessages('instance');
  clearMessages('load');
  clearFieldErrors($('controls'));
  state.invalidField = false;
  state.config = config;
  const newInstance = state.instanceText !== instanceText;
  state.instanceText = instanceText;
  if (newInstance) {
    // The address's own instance= is kept as it came; another instance is encoded below.
    state.instanceParam = instanceText && state.urlInstance?.text === instanceText ? state.urlInstance.param : null;
    clearMessages('instance-url');
  }
  for (const m of reconciled.messages) showMessage('info', m, 'reconcile');
  // Paused mid-run, a changed run opens at the same step (another seed or
  // algorithm at the step being looked at); after a run's end it opens at
  // its start (it opened at the new run's end, with a note about a step=
  // nobody typed; the timeline audit of 2026-12-01).
  const ended = ['finished', 'stalled', 'step-limit'].includes(shownStatus());
  if (source !== 'url' && ended) state.page.step = 0;
  rebuild(state.autoplay, sim, source !== 'url');
  if (instanceText && state.topo) state.config.topology = state.topo.name;
  writeControls();
  refreshMenus();
  saveUrl();
  if (newInstance && !state.instanceParam) saveInstanceUrl();
  state.experiment?.sync();
  state.load?.sync();
  return true;
}

/** Why the last applyConfig refused its configuration, in the core's words (empty: it did not). */
let lastRefusal = '';
export const refusal = () => lastRefusal;

/**
 * The fields whose change returns from a loaded instance to generated
 * workloads. Not config.js's WORKLOAD_FIELDS (dropped when an instance is
 * loaded), which also holds `locality` and `hotspot`: `locality` is also
 * ks-local's option, and changing it for ks-local must not drop the loaded
 * instance; a hotspot change keeps the instance too. One list for both
 * would change that.
 */
const WORKLOAD_FIELDS = ['topology', 'workload', 'l', 'k'];

function onConfigChange(event) {
  const id = event?.target?.id;
  if (id === 'color') {
    // The run's own default (by key for a sort, else by class) is left to the page, out of the address.
    const value = $('color').value;
    state.page.color = value === (state.keyShade ? 'key' : 'class') ? null : value;
    saveUrl();
    updateExplain(true);
    state.dirty = true;
    return;
  }
  if (id === 'kind') {
    const kind = $('kind').value;
    const size = state.catalogue.topologies.find((t) => t.name === kind)?.default_size ?? state.config.topology.split(':')[1] ?? '';
    $('topology').value = `${kind}:${size}`;
  }
  const candidate = readControls();
  // Changing what is routed returns from a loaded instance to generated workloads.
  const sameSource = WORKLOAD_FIELDS.every((key) => text(candidate[key]) === text(state.config[key]));
  // A control still refused from before is what a refusal now most likely
  // names (another field's edit does not make it valid).
  const before = $('config-form').querySelector('[aria-invalid="true"]');
  clearFieldErrors($('config-form'));
  // Playing, a changed run plays from its start (paused, it opens at the
  // step being looked at): the step the page opened at (?step=, a lesson's)
  // is long past (it reopened there, a form change after ?step=5 opening
  // every new run at step 5 — the page audit of 2026-12-02).
  const opensAt = state.page.step;
  if (state.playing) state.page.step = 0;
  // A workload chosen of the other problem (a sort after routing, or back)
  // switches the algorithm rather than itself (the core's reconcile).
  // The algorithm menu's choice leads too: the network and the workload follow it.
  const leader = id === 'workload' || id === 'algorithm' ? id : undefined;
  if (!applyConfig(candidate, sameSource ? state.instanceText : null, undefined, 'form', leader)) {
    $('kind').value = kindOf(state.config.topology);
    state.page.step = opensAt;
    // The refused control is marked where the user is, with the message
    // beside it (the error line, at the top, a narrow screen may have
    // scrolled away); the run on screen says it is the last valid one.
    const control = before ?? event?.target;
    if (control?.matches?.('input, select') && control.id !== 'kind') showFieldError(control, refusal());
    state.invalidField = true;
    updateRunTitle();
  }
}

export function setupControls() {
  const cat = state.catalogue;
  fillSelect($('kind'), cat.topologies, (t) => t.syntax);
  fillSelect($('algorithm'), cat.algorithms, (a) => `${a.summary} — ${a.accepts}`);
  fillSelect($('policy'), cat.policies);
  fillSelect($('workload'), cat.workloads);
  fillLessonMenu($('lesson'), state.lessons);
  fillCompareMenu($('compare'), cat.algorithms);
  writeControls();
  refreshMenus();
  $('lesson').addEventListener('change', () => openLesson($('lesson').value));
  $('compare').addEventListener('change', () => {
    clearMessages('url');
    state.page.compare = $('compare').value || null;
    rebuild();
    saveUrl();
  });
  $('config-form').addEventListener('change', onConfigChange);
  $('config-form').addEventListener('submit', (e) => {
    e.preventDefault();
    onConfigChange(e);
  });
  $('speed').addEventListener('input', () => {
    state.page.speed = sliderToSpeed(Number($('speed').value));
    showSpeed();
    saveUrl();
  });
  $('play').addEventListener('click', togglePlay);
  $('step').addEventListener('click', stepForward);
  $('finish').addEventListener('click', () => {
    setPlaying(false);
    finishRun();
  });
  $('reset').addEventListener('click', resetRun);
  $('load-instance').addEventListener('click', loadInstance);
  $('instance-file').addEventListener('change', async () => {
    const file = $('instance-file').files[0];
    if (!file) return;
    clearMessages('instance');
    clearFieldErrors($('instance-box'));
    try {
      // Asked before the file is read: a file past the core's text limit
      // would only fill the tab's memory and the text box.
      wasm.check_instance_text(file.size);
    } catch (e) {
      const text = `Instance file ${JSON.stringify(file.name)} refused: ${e.message}.`;
      $('instance-file').value = '';
      showMessage('error', text, 'instance');
      showFieldError($('instance-text'), text);
      return;
    }
    const text = await file.text();
    if (file.size > SHOWN_BYTES) {
      holdInstance({ name: file.name, size: file.size, text });
      $('instance-text').value = '';
    } else {
      holdInstance(null);
      $('instance-text').value = text;
    }
  });
  // Typing in the box sets a held file aside: the box is what Load reads.
  $('instance-text').addEventListener('input', () => holdInstance(null));
  $('download-instance').addEventListener('click', () => {
    if (!state.sim) return;
    const blob = new Blob([state.sim.instance_json()], { type: 'application/json' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `${state.topo.name.replace(':', '-')}-instance.json`;
    a.click();
  });
}

/**
 * Opens the lesson `id` (empty: leaves the lesson, keeping the run): its
 * preset — run, second algorithm, speed, start step — from the core.
 */
function openLesson(id) {
  clearMessages('lesson');
  clearMessages('url');
  if (!id) {
    state.lesson = null;
    state.loadCheck = null;
    state.load?.openLesson(null);
    saveUrl();
    updateRunTitle();
    updateExplain(true);
    updatePredict();
    readPace();
    return;
  }
  let lesson;
  try {
    lesson = wasm.lesson(id);
  } catch (e) {
    showMessage('error', `Lesson ${JSON.stringify(id)} ignored: ${e.message}.`, 'lesson');
    $('lesson').value = state.lesson?.id ?? '';
    return;
  }
  state.lesson = lesson;
  // The lesson paces its run (the core's pace for it); one asking for a
  // prediction opens paused until the guess is in.
  state.page.speed = null;
  state.page.compare = lesson.preset.compare ?? null;
  state.autoplay = !lesson.predict;
  // The lesson's start step: the run (and the one beside it) opens there, and plays on.
  state.page.step = lesson.preset.step ?? 0;
  state.page.play = state.autoplay;
  applyConfig(lesson.config, null);
  state.loadCheck = null;
  state.load?.openLesson(lesson);
}

/**
 * The longest instance file shown in the text box (bytes). Chromium lays
 * out a text box at about 2.5 MB a second (a 16 MB instance: six seconds of
 * a frozen tab), so a longer file is held, named under the box, and loaded
 * from there.
 */
const SHOWN_BYTES = 1 << 20;

/** The instance file read but not shown (`{name, size, text}`), or null. */
let heldInstance = null;

/** Holds `file` (or nothing) for the Load button, and says so under the box. */
function holdInstance(file) {
  heldInstance = file;
  const note = $('instance-held');
  note.hidden = !file;
  note.textContent = file
    ? `${JSON.stringify(file.name)} (${(file.size / 2 ** 20).toFixed(1)} MB) is read and ready: Load runs it. ` +
      'It is too long to show here; typing in the box sets it aside.'
    : '';
}

/**
 * Loads a SPEC §3 instance — the text box's, or a file held because it is
 * too long to show; the core checks it and makes the algorithm fit it. A
 * refusal is said beside the Load button (and in the error line).
 */
function loadInstance() {
  clearMessages('instance');
  clearFieldErrors($('instance-box'));
  const refused = (text) => {
    showFieldError($('instance-text'), text);
    $('instance-text-error').scrollIntoView({ block: 'nearest' });
  };
  const json = heldInstance?.text ?? $('instance-text').value;
  if (!json.trim()) {
    showMessage('error', 'Instance refused: the text box is empty.', 'instance');
    refused('Instance refused: the text box is empty.');
    return;
  }
  if (!applyConfig(state.config, json, 'Instance refused', 'instance')) {
    refused(`Instance refused: ${refusal()}`);
    return;
  }
  showMessage('info', `Loaded an instance with ${count(state.snapshot?.packets ?? 0, 'packet')} on ${state.topo?.name}. Changing topology or workload returns to generated workloads.`, 'instance');
}
