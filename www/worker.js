// The experiment, off the main thread: the core's Experiment plans the grid
// and runs it point by point; after every run this worker posts the run's
// result and the core's chart data, and at the end the CSV of all rows.
//
// Messages in: {type: 'run', experiment} (what `new Experiment` takes),
// {type: 'cancel'} (stop after the current run). Out: {type: 'refused',
// message}, {type: 'start', total, chart}, {type: 'result', index, total,
// result, chart}, {type: 'done', runs, csv, chart, cancelled},
// {type: 'fatal', message}.
//
// The load curve (SPEC §6) likewise: in, {type: 'load', curve, lesson}
// (`curve` what `new LoadCurve` takes, `lesson` a lesson id or null); out,
// {type: 'refused', message}, {type: 'start', total, chart}, {type: 'row',
// index, total, row, chart, check} after every run and {type: 'done',
// runs, rows, chart, check, cancelled}; `check` is the core's live check
// of the lesson's load claims on the curve so far (null without one).

import init, { Experiment, LoadCurve } from './pkg/routesim.js';

const ready = init();
let cancelled = false;

// Lets a 'cancel' message in between two runs.
const yieldToMessages = () => new Promise((resolve) => setTimeout(resolve, 0));

self.onmessage = async (event) => {
  const msg = event.data;
  if (msg.type === 'cancel') {
    cancelled = true;
    return;
  }
  try {
    await ready;
  } catch (e) {
    self.postMessage({ type: 'fatal', message: `could not load the simulator: ${e.message}` });
    return;
  }
  if (msg.type === 'load') {
    await runLoad(msg.curve, msg.lesson);
    return;
  }
  let experiment;
  try {
    experiment = new Experiment(msg.experiment);
  } catch (e) {
    self.postMessage({ type: 'refused', message: e.message });
    return;
  }
  const total = experiment.len();
  self.postMessage({ type: 'start', total, chart: experiment.chart() });
  let index = 0;
  for (;;) {
    await yieldToMessages();
    if (cancelled) break;
    let result;
    try {
      result = experiment.run_next();
    } catch (e) {
      self.postMessage({ type: 'fatal', message: e.message });
      break;
    }
    if (result === undefined) break;
    self.postMessage({ type: 'result', index, total, result, chart: experiment.chart() });
    index += 1;
  }
  self.postMessage({ type: 'done', runs: index, csv: experiment.csv(), chart: experiment.chart(), cancelled });
  experiment.free();
};

/** Runs the core's LoadCurve point by point, posting each row, the chart and the lesson's check so far. */
async function runLoad(config, lesson) {
  let curve;
  try {
    curve = new LoadCurve(config);
  } catch (e) {
    self.postMessage({ type: 'refused', message: e.message });
    return;
  }
  const total = curve.len();
  self.postMessage({ type: 'start', total, chart: curve.chart() });
  const rows = [];
  const check = () => {
    try {
      return lesson ? curve.lesson_check(lesson) : null;
    } catch {
      return null;
    }
  };
  for (;;) {
    await yieldToMessages();
    if (cancelled) break;
    let row;
    try {
      row = curve.run_next();
    } catch (e) {
      self.postMessage({ type: 'fatal', message: e.message });
      break;
    }
    if (row === undefined) break;
    rows.push(row);
    self.postMessage({ type: 'row', index: rows.length - 1, total: curve.len(), row, chart: curve.chart(), check: check() });
  }
  self.postMessage({ type: 'done', runs: rows.length, rows, chart: curve.chart(), check: check(), cancelled });
  curve.free();
}
