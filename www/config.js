// The page's configuration: defaults, and the URL query string both ways.
// Names (algorithms, policies, workloads, topology kinds) always come from
// the wasm module's lists; nothing here hard-codes them except the defaults.

/** The default algorithm: the best one available. Change it here only. */
export const DEFAULT_ALGORITHM = 'pp-rand';

/** What the page shows when opened without parameters. */
export const DEFAULTS = Object.freeze({
  topology: 'mesh:16x16',
  algorithm: DEFAULT_ALGORITHM,
  policy: 'farthest-first',
  workload: 'random-lk',
  l: 2,
  k: 2,
  seed: 1,
  q: null, // queue capacity; null = unbounded
  speed: 8, // steps per second
  color: 'class',
  play: true,
});

/** A size to start from when the user switches topology kind. */
export const DEFAULT_SIZES = {
  linear: '32',
  ring: '32',
  mesh: '16x16',
  torus: '16x16',
  hypercube: '6',
  butterfly: '4',
};

export const COLOR_MODES = ['class', 'destination'];

const INTEGER = /^\d+$/;

/**
 * Reads the configuration from a query string. Every bad parameter gives a
 * message naming it and its value, and the default is used instead.
 * `lists` = {algorithms, policies, workloads} (arrays of {name}),
 * `checkTopology(name)` throws the core's error for a bad topology.
 * Returns {config, embed, messages}.
 */
export function parseQuery(search, lists, checkTopology) {
  const params = new URLSearchParams(search);
  const config = { ...DEFAULTS };
  const messages = [];
  const bad = (key, value, why) => {
    const fallback = DEFAULTS[key] === null ? 'unbounded' : DEFAULTS[key];
    messages.push(`URL parameter ${key}=${JSON.stringify(value)} ignored: ${why} — using ${fallback}.`);
  };
  const oneOf = (key, list) => {
    if (!params.has(key)) return;
    const value = params.get(key);
    const names = list.map((x) => x.name ?? x);
    if (names.includes(value)) config[key] = value;
    else bad(key, value, `expected one of ${names.join(', ')}`);
  };
  const known = new Set(['topology', 'algorithm', 'policy', 'workload', 'l', 'k', 'seed', 'q', 'speed', 'color', 'play', 'embed']);
  for (const key of params.keys()) {
    if (!known.has(key)) messages.push(`Unknown URL parameter ${key}=${JSON.stringify(params.get(key))} ignored.`);
  }
  if (params.has('topology')) {
    const value = params.get('topology');
    try {
      checkTopology(value);
      config.topology = value;
    } catch (e) {
      bad('topology', value, e.message);
    }
  }
  oneOf('algorithm', lists.algorithms);
  oneOf('policy', lists.policies);
  oneOf('workload', lists.workloads);
  oneOf('color', COLOR_MODES);
  for (const key of ['l', 'k', 'speed']) {
    if (!params.has(key)) continue;
    const value = params.get(key);
    if (INTEGER.test(value) && Number(value) >= 1 && Number(value) <= 1e6) config[key] = Number(value);
    else bad(key, value, 'expected a whole number from 1 to 1000000');
  }
  if (params.has('seed')) {
    const value = params.get('seed');
    if (INTEGER.test(value) && Number.isSafeInteger(Number(value))) config.seed = Number(value);
    else bad('seed', value, 'expected a non-negative whole number');
  }
  if (params.has('q')) {
    const value = params.get('q');
    if (value === '' || value === 'inf') config.q = null;
    else if (INTEGER.test(value) && Number(value) >= 1 && Number(value) <= 1e6) config.q = Number(value);
    else bad('q', value, 'expected a queue capacity of at least 1 (or empty for unbounded)');
  }
  if (params.has('play')) {
    const value = params.get('play');
    if (value === '0' || value === '1') config.play = value === '1';
    else bad('play', value, 'expected 0 or 1');
  }
  const embed = params.get('embed') === '1';
  if (params.has('embed') && !['0', '1'].includes(params.get('embed'))) {
    messages.push(`URL parameter embed=${JSON.stringify(params.get('embed'))} ignored: expected 0 or 1.`);
  }
  return { config, embed, messages };
}

/** The query string for a configuration (only what differs from the defaults). */
export function toQuery(config, embed) {
  const params = new URLSearchParams();
  for (const key of ['topology', 'algorithm', 'policy', 'workload', 'l', 'k', 'seed', 'q', 'speed', 'color']) {
    if (config[key] !== DEFAULTS[key]) params.set(key, config[key] === null ? '' : String(config[key]));
  }
  if (embed) params.set('embed', '1');
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The config object `new Simulation(...)` takes. */
export function simConfig(config) {
  const out = {
    topology: config.topology,
    algorithm: config.algorithm,
    policy: config.policy,
    workload: config.workload,
    l: config.l,
    k: config.k,
    seed: config.seed,
  };
  if (config.q !== null) out.queue_cap = config.q;
  return out;
}
