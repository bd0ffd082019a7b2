#!/usr/bin/env node
// The page's engine against native (issue #29 item 2): times ONE run request
// natively on one thread and in wasm with the page's settings, in Node and
// in headless Chromium, and prints the medians and the ratio wasm/native.
// Only construction and run are timed: no process start, no wasm compilation
// (the module is compiled and instantiated before the clock starts).
//
//   node scripts/wasm-bench.mjs [--topologies mesh:256x256,mesh:512x512]
//     [--algorithm greedy] [--policy farthest-first]
//     [--workload random-permutation] [--seed 1] [--config '{"queue_cap":4}']
//     [--runs 5] [--warmup 1] [--targets native,node,chromium] [--pkg www/pkg]
//     [--native BIN] [--json]
//
// What is timed, per run (a fresh run each time):
// - native cli:    the CLI's request built and run to its end, as `routesim
//                  run` does (RunSpec::default(): no series), by the example
//                  examples/wasm_bench.rs (built here with cargo unless
//                  --native names its binary); thread CPU time and wall time;
// - native probe:  the page's request (series on) measured by the timeline's
//                  probe (a copy stepped to the end, no links): the work of
//                  the wasm `engine` line below, natively;
// - native page:   the page's request (RunSpec::browser(): series on) in a
//                  Timeline with its checkpoints, natively (same example);
// - node/chromium engine: `new Simulation(config)` + `measure(∞)`: the
//                  page's probe, which steps a copy to the end with series
//                  on, no links and no checkpoints (the engine and the series);
// - node/chromium page:   `new Simulation(config)` + `run_to_end(∞)`: the
//                  timeline computed to the end, checkpoints included (what
//                  stepping through the whole run on the page computes).
// Node reports process CPU time (and wall), Chromium wall time
// (performance.now()). The ratio divides a wasm median by the native cli
// median of the same clock: CPU for Node, wall for Chromium; a second ratio
// divides it by the native mode with the same settings (engine by native
// probe, page by native page): issue #29's "the same run ... with the
// page's settings". The runs go in
// paired rounds (one run of every mode and target per round); medians of --runs,
// after --warmup runs that are not counted (the first run of a fresh wasm
// instance also grows its memory and runs in V8's baseline tier until its
// functions are optimised: it is shown apart, as "cold", the page's first run).

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MAX = 4294967295; // u32::MAX steps: to the end
// As tests/e2e/harness.mjs launches it (importing that file would register test hooks).
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
];

function parseArgs(argv) {
  const opts = {
    topologies: 'mesh:256x256,mesh:512x512',
    algorithm: 'greedy',
    policy: 'farthest-first',
    workload: 'random-permutation',
    seed: '1',
    config: '{}',
    runs: '5',
    warmup: '1',
    targets: 'native,node,chromium',
    pkg: 'www/pkg',
    native: '',
    json: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const key = argv[i].replace(/^--/, '');
    if (!(key in opts) || !argv[i].startsWith('--')) throw new Error(`unknown argument '${argv[i]}'`);
    if (typeof opts[key] === 'boolean') opts[key] = true;
    else if (i + 1 < argv.length) opts[key] = argv[++i];
    else throw new Error(`--${key} needs a value`);
  }
  return opts;
}

/** Runs per mode: the counted ones and the warm-up ones before them. */
const total = (opts) => Number(opts.runs) + Number(opts.warmup);

/** Appends one round's times of target `who` (`{mode: {wall_ms, cpu_ms, …}}`) to `res[who]`. */
function append(res, who, modes) {
  res[who] ??= {};
  for (const [mode, row] of Object.entries(modes)) {
    const into = (res[who][mode] ??= { ...row, wall_ms: [], cpu_ms: [] });
    into.wall_ms.push(...row.wall_ms);
    into.cpu_ms.push(...(row.cpu_ms ?? []));
  }
}

/** Moves the first `warmup` times of every mode of `modes` to `cold_*`. */
function dropWarmup(modes, warmup) {
  for (const row of Object.values(modes)) {
    for (const clock of ['wall_ms', 'cpu_ms']) {
      const all = row[clock] ?? [];
      row[`cold_${clock}`] = all.slice(0, warmup);
      row[clock] = all.slice(warmup);
    }
  }
  return modes;
}

const median = (xs) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** The native times: {cli: {wall_ms, cpu_ms, steps, packet_hops}, page: {…}}. */
function nativeTimes(bin, config, runs) {
  const out = execFileSync(bin, [JSON.stringify(config), String(runs)], { encoding: 'utf8', maxBuffer: 1 << 24 });
  const modes = {};
  for (const line of out.trim().split('\n')) {
    const row = JSON.parse(line);
    modes[row.mode] = row;
  }
  return modes;
}

/**
 * Times the page's wasm API on `config` (in Node or in the page): `engine`
 * (new Simulation + measure to the end) and `page` (new Simulation +
 * run_to_end). `wasm` is the module namespace (already initialised);
 * `cpu` a function returning CPU ms, or null.
 */
function wasmTimes(wasm, config, runs, cpu, max) {
  const out = {};
  for (const mode of ['engine', 'page']) {
    const row = { mode, wall_ms: [], cpu_ms: [], steps: 0 };
    for (let i = 0; i < runs; i++) {
      const c0 = cpu ? cpu() : 0;
      const t0 = performance.now();
      const sim = new wasm.Simulation(config);
      if (mode === 'engine') row.steps = sim.measure(max);
      else row.steps = sim.run_to_end(max).step;
      const t1 = performance.now();
      const c1 = cpu ? cpu() : 0;
      sim.free();
      row.wall_ms.push(t1 - t0);
      if (cpu) row.cpu_ms.push(c1 - c0);
    }
    out[mode] = row;
  }
  return out;
}

async function nodeTimes(opts, config, runs) {
  const pkg = path.resolve(root, opts.pkg);
  const wasm = await import(pathToFileURL(path.join(pkg, 'routesim.js')).href);
  // Compilation and instantiation, outside the clock.
  await wasm.default({ module_or_path: readFileSync(path.join(pkg, 'routesim_bg.wasm')) });
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e3;
  };
  return wasmTimes(wasm, config, runs, cpu, MAX);
}

/** A browser session serving `pkg` (the page's build); `times(config)` runs in a page. */
async function chromiumSession(opts) {
  const { chromium } = await import('playwright-core');
  const { startServer } = await import('../tests/e2e/server.mjs');
  const server = await startServer(path.resolve(root, path.dirname(opts.pkg)));
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const page = await browser.newPage();
  // A document of the same origin without scripts of its own.
  await page.goto(`${server.url}${path.basename(opts.pkg)}/routesim.d.ts`);
  const pkgUrl = `${server.url}${path.basename(opts.pkg)}/routesim.js`;
  await page.evaluate(async (url) => {
    const wasm = await import(url);
    await wasm.default();
    globalThis.benchWasm = wasm;
  }, pkgUrl);
  return {
    times: (config, runs) =>
      page.evaluate(
        ({ config, runs, source, max }) => {
          // The same timing function as in Node, sent as text.
          const f = new Function(`return (${source})`)();
          return f(globalThis.benchWasm, config, runs, null, max);
        },
        { config, runs, source: `${wasmTimes}`, max: MAX },
      ),
    close: async () => {
      await browser.close();
      await server.close();
    },
  };
}

const fmt = (ms) => (Number.isFinite(ms) ? `${ms.toFixed(1).padStart(8)} ms` : '       – ');

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const targets = new Set(opts.targets.split(','));
  const extra = JSON.parse(opts.config);
  let native = null;
  if (targets.has('native')) {
    native = opts.native;
    if (!native) {
      execFileSync('cargo', ['build', '--release', '--quiet', '--example', 'wasm_bench'], { cwd: root, stdio: 'inherit' });
      native = path.join(root, 'target/release/examples/wasm_bench');
    }
  }
  const chrome = targets.has('chromium') ? await chromiumSession(opts) : null;
  const results = [];
  try {
    for (const topology of opts.topologies.split(',')) {
      const config = {
        topology,
        algorithm: opts.algorithm,
        policy: opts.policy,
        workload: opts.workload,
        seed: Number(opts.seed),
        ...extra,
      };
      const res = { config, runs: Number(opts.runs) };
      // Paired rounds: one run of every mode on every target per round, so
      // that a busy spell of the machine hits all of them alike.
      for (let round = 0; round < total(opts); round++) {
        if (native) append(res, 'native', nativeTimes(native, config, 1));
        if (targets.has('node')) append(res, 'node', await nodeTimes(opts, config, 1));
        if (chrome) append(res, 'chromium', await chrome.times(config, 1));
      }
      for (const who of ['native', 'node', 'chromium']) if (res[who]) dropWarmup(res[who], Number(opts.warmup));
      results.push(res);
      if (!opts.json) print(res);
    }
  } finally {
    await chrome?.close();
  }
  if (opts.json) console.log(JSON.stringify(results, null, 1));
}

function print(res) {
  const steps = res.native?.cli.steps ?? res.node?.page.steps ?? res.chromium?.page.steps;
  const hops = res.native?.cli.packet_hops;
  const c = res.config;
  console.log(
    `\n${c.topology} ${c.algorithm} ${c.policy} ${c.workload} seed ${c.seed}: ${steps} steps` +
      (hops ? `, ${(hops / 1e6).toFixed(2)} M packet-hops` : '') +
      ` — medians of ${res.runs} runs (construction + run)`,
  );
  const base = res.native?.cli;
  const baseCpu = base ? median(base.cpu_ms) : NaN;
  const baseWall = base ? median(base.wall_ms) : NaN;
  // `same`: the native mode doing the same work with the same settings
  // (the wasm engine line's is native probe, the page line's native page).
  const line = (name, row, clock, same) => {
    const cpu = median(row.cpu_ms);
    const wall = median(row.wall_ms);
    const ratio = clock === 'cpu' ? cpu / baseCpu : wall / baseWall;
    const r = Number.isFinite(ratio) ? `  ${clock === 'cpu' ? 'CPU' : 'wall'} ratio to native cli ${ratio.toFixed(2)}×` : '';
    const like = same && (clock === 'cpu' ? cpu / median(same.cpu_ms) : wall / median(same.wall_ms));
    const s = Number.isFinite(like) ? `, to native with the same settings ${like.toFixed(2)}× (${(1 / like).toFixed(2)} × native)` : '';
    const rate = hops && Number.isFinite(clock === 'cpu' ? cpu : wall) ? `  ${(hops / ((clock === 'cpu' ? cpu : wall) * 1e3)).toFixed(1).padStart(6)} M hops/s` : '';
    const cold = row.cold_wall_ms?.length ? `  (first run: wall ${row.cold_wall_ms[0].toFixed(0)} ms)` : '';
    console.log(`  ${name.padEnd(16)} CPU ${fmt(cpu)}  wall ${fmt(wall)}${rate}${r}${s}${cold}`);
  };
  if (res.native) {
    line('native cli', res.native.cli, 'cpu');
    line('native probe', res.native.probe, 'cpu');
    line('native page', res.native.page, 'cpu');
  }
  if (res.node) {
    line('node engine', res.node.engine, 'cpu', res.native?.probe);
    line('node page', res.node.page, 'cpu', res.native?.page);
  }
  if (res.chromium) {
    line('chromium engine', res.chromium.engine, 'wall', res.native?.probe);
    line('chromium page', res.chromium.page, 'wall', res.native?.page);
  }
  for (const [who, row] of [['node', res.node?.page], ['chromium', res.chromium?.page]]) {
    if (row && steps !== undefined && row.steps !== steps) console.log(`  WARNING: ${who} ran ${row.steps} steps, native ${steps}`);
  }
}

await main();
