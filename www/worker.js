// The experiment, off the main thread: the core's Experiment plans the grid
// and runs it point by point; after every run this worker posts the run's
// result and the core's chart data, and at the end the CSV of all rows.
//
// Messages in: {type: 'run', experiment} (what `new Experiment` takes),
// {type: 'cancel'} (stop after the current run). Out: {type: 'refused',
// message}, {type: 'start', total, chart}, {type: 'result', index, total,
// result, chart}, {type: 'done', runs, csv, chart, cancelled},
// {type: 'fatal', message}.

import init, { Experiment } from './pkg/routesim.js';

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
