// The experiment sweep, off the main thread: runs each configuration to the
// end in its own wasm instance and posts every report back as it finishes.

import init, { Simulation } from './pkg/routesim.js';

const ready = init();

self.onmessage = async (event) => {
  const { runs, maxSteps } = event.data;
  try {
    await ready;
  } catch (e) {
    self.postMessage({ type: 'fatal', message: `could not load the simulator: ${e.message}` });
    return;
  }
  for (let i = 0; i < runs.length; i++) {
    const run = runs[i];
    let result;
    let sim = null;
    try {
      sim = new Simulation(run.config);
      const summary = sim.run_to_end(maxSteps);
      const report = sim.report();
      result = { ok: true, status: summary.status, report };
    } catch (e) {
      result = { ok: false, message: e.message };
    } finally {
      sim?.free();
    }
    self.postMessage({ type: 'result', index: i, total: runs.length, run, result });
  }
  self.postMessage({ type: 'done' });
};
