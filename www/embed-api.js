// The embedding API (SPEC §7): the page posts
// `{type: "routesim:state", step, delivered, packets, status, phase}` to its
// parent window once after every step it shows (a `goto` shows one step,
// the target), and obeys `{type: "routesim:command", command, step}`
// messages: play, pause, step, back, reset, goto (with `step`, a whole
// number from 0 to 2³² − 1; a step past the run's end shows its last). Any
// other message — not an object, another type, an unknown command, a goto
// without such a step — is a malformed command: ignored and named in the
// page's error line. Only the parent window commands: a message from any
// other window (a sibling frame, a frame of our own) is not for us and is
// passed over. Opened on its own (not in a frame), the page's parent is
// itself, so its own state messages come back to it, and so do the
// messages other scripts of the window post (browser extensions post
// theirs to every page): there only a message that looks meant for us — an
// object with a "routesim:" type or a "command" — is read, as a command or
// a malformed one; the rest are passed over.

export const COMMANDS = ['play', 'pause', 'step', 'back', 'reset', 'goto'];

/** The largest step a goto takes (the core counts steps in 32 bits). */
export const MAX_GOTO_STEP = 0xffffffff;

/** Why `data` is not a valid command (null when it is one). */
export function commandProblem(data) {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return 'the message is not an object';
  if (data.type !== 'routesim:command') return `its type is ${data.type === undefined ? 'missing' : preview(data.type, 60)}, not "routesim:command"`;
  if (typeof data.command !== 'string') return 'it has no "command" string';
  if (!COMMANDS.includes(data.command)) {
    return `unknown command ${preview(data.command, 60)} (expected one of ${COMMANDS.join(', ')})`;
  }
  if (data.command === 'goto') {
    const step = data.step;
    const ok = typeof step === 'number' && Number.isInteger(step) && step >= 0 && step <= MAX_GOTO_STEP;
    if (!ok) return `goto needs "step", a whole number from 0 to ${MAX_GOTO_STEP} (got ${preview(step, 40)})`;
  }
  return null;
}

/** Whether `data` is an object. */
const isObject = (data) => typeof data === 'object' && data !== null && !Array.isArray(data);

/** Our own state message, back from ourselves when the page is not in a frame. */
function ownState(data) {
  return isObject(data) && data.type === 'routesim:state';
}

/** On a page not in a frame: whether a message looks meant for the page (a "routesim:" type or a command). */
function meantForUs(data) {
  return isObject(data) && ((typeof data.type === 'string' && data.type.startsWith('routesim:')) || 'command' in data);
}

/**
 * Messages that arrive before the page has booted (a course page that
 * commands from the frame's `load` event: the wasm is still loading). The
 * module listens from the moment it is loaded; `ready()` replays them.
 */
const early = [];
const holdEarly = (event) => early.push(event);
window.addEventListener('message', holdEarly);

/** How often commands waiting for a goto's computation look again (ms). */
const WAIT_MS = 15;

/**
 * Listens for commands. `actions` = {play(), pause(), step(), back(),
 * reset(), goto(step), busy()}: `busy()` while a goto computes toward its
 * step (the commands after it wait, and are obeyed in order once it is
 * shown; a pause cancels it and them); `report(text)` shows a line in the error line,
 * `clear()` removes it. Returns {post(state), ready(current)}: `post`
 * posts one state message; until `ready` is called (the page has booted:
 * its run built, an embed's wait to be seen decided) the page's steps are
 * held, and `ready` posts one message for the step then shown, with its
 * status as it is then (`current()`), and obeys the commands that came
 * before it, in order.
 */
export function setupEmbedApi(actions, report, clear) {
  const handle = (event) => {
    if (event.source !== window.parent) return;
    const data = event.data;
    const framed = window.parent !== window;
    if (!framed && (ownState(data) || !meantForUs(data))) return;
    const problem = commandProblem(data);
    if (problem) {
      report(`Ignored a malformed routesim:command message (${problem}): ${preview(data)}`);
      return;
    }
    clear();
    // A goto still computing (a far step of a big run, in slices) is
    // obeyed before the commands after it: they wait for it, in order —
    // but a pause stops it (the host's way to cancel a far jump), and the
    // commands that waited behind it go with it.
    if (data.command === 'pause' && actions.busy?.()) {
      waiting.length = 0;
      obey(data);
      return;
    }
    if (waiting.length || actions.busy?.()) {
      waiting.push(data);
      if (waiting.length === 1) setTimeout(drain, WAIT_MS);
      return;
    }
    obey(data);
  };
  const obey = (data) => {
    if (data.command === 'goto') actions.goto(data.step);
    else actions[data.command]();
  };
  const waiting = [];
  const drain = () => {
    while (waiting.length && !actions.busy?.()) obey(waiting.shift());
    if (waiting.length) setTimeout(drain, WAIT_MS);
  };
  let booted = false;
  let held = false;
  const send = ({ step, delivered, packets, status, phase }) => {
    window.parent.postMessage({ type: 'routesim:state', step, delivered, packets, status, phase }, '*');
  };
  return {
    /** A goto still computing was cancelled on the page (a click): the host's commands waiting behind it go with it. */
    dropWaiting() {
      waiting.length = 0;
    },
    /** Posts `{type: "routesim:state", step, delivered, packets, status, phase}` (held until `ready`). */
    post(state) {
      if (booted) send(state);
      else held = true;
    },
    /** The page has booted: the held step's message (`current()`: the state now, or null), then the early commands. */
    ready(current) {
      if (booted) return;
      booted = true;
      window.removeEventListener('message', holdEarly);
      window.addEventListener('message', handle);
      const now = held ? current() : null;
      if (now) send(now);
      for (const event of early.splice(0)) handle(event);
    },
  };
}

/**
 * A message (or a part of it) as text, at most `max` characters: as
 * JavaScript would write it, so that what the error line quotes is what
 * was posted — NaN, ±Infinity, undefined and 12n as such (JSON writes the
 * first three null or leaves them out, and cannot write a BigInt), a value
 * met again inside itself as "(cyclic: …)", a Map, Set, Date, typed array or
 * other object postMessage carries by its kind. Never empty, never throws;
 * a long or deep message is cut short where the text passes `max`.
 */
function preview(data, max = 120) {
  let out = '';
  const full = () => out.length > max;
  const put = (text) => {
    if (!full()) out += text;
  };
  const ancestors = [];
  const write = (v) => {
    if (full()) return;
    if (typeof v === 'string') put(JSON.stringify(v.length > max ? v.slice(0, max) : v));
    else if (typeof v === 'bigint') put(`${v}n`);
    else if (typeof v === 'number') put(Object.is(v, -0) ? '-0' : String(v));
    else if (v === null || typeof v !== 'object') put(typeof v === 'function' ? 'a function' : String(v));
    else if (ancestors.includes(v)) put(v === ancestors[0] ? '(cyclic: the value itself)' : `(cyclic: an enclosing ${Array.isArray(v) ? 'array' : 'object'})`);
    else {
      ancestors.push(v);
      writeObject(v);
      ancestors.pop();
    }
  };
  const writeObject = (v) => {
    const tag = Object.prototype.toString.call(v).slice(8, -1);
    if (Array.isArray(v)) {
      // A hole stays a hole ([1,,3]), as JavaScript writes one.
      put('[');
      for (let i = 0; i < v.length && !full(); i++) {
        if (i) put(',');
        if (i in v) write(v[i]);
      }
      put(']');
    } else if (v instanceof Date) put(`Date(${Number.isNaN(v.getTime()) ? 'Invalid Date' : v.toISOString()})`);
    else if (v instanceof RegExp) put(String(v));
    else if (v instanceof Error) put(`${v.name}: ${v.message}`);
    else if (v instanceof Map) put(`Map(${v.size})`);
    else if (v instanceof Set) put(`Set(${v.size})`);
    else if (v instanceof ArrayBuffer) put(`ArrayBuffer(${v.byteLength} bytes)`);
    else if (ArrayBuffer.isView(v)) put(`${tag}(${v.length ?? v.byteLength})`);
    else if (tag !== 'Object') put(`a ${tag}`);
    else {
      put('{');
      let first = true;
      for (const k of Object.keys(v)) {
        if (full()) return;
        if (!first) put(',');
        first = false;
        put(`${JSON.stringify(k.length > max ? k.slice(0, max) : k)}:`);
        write(v[k]);
      }
      put('}');
    }
  };
  try {
    write(data);
  } catch {
    // A getter that throws, a proxy: nothing a posted message holds, but the line still quotes something.
    out ||= `a value of type ${typeof data}`;
  }
  if (!out) out = '(empty)';
  return out.length > max ? `${out.slice(0, max - 1)}…` : out;
}
