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

/** A message (or a part of it) as text, at most `max` characters. */
function preview(data, max = 120) {
  let text;
  try {
    // A BigInt (which JSON cannot write) as JS writes it, 12n, also inside an object.
    text = typeof data === 'bigint' ? `${data}n` : JSON.stringify(data, (_, v) => (typeof v === 'bigint' ? `${v}n` : v));
  } catch {
    text = undefined;
  }
  // undefined, NaN, ±Infinity and cyclic objects have no faithful JSON.
  if (text === undefined || (typeof data === 'number' && !Number.isFinite(data))) text = String(data);
  return text.length > max ? `${text.slice(0, max - 3)}…` : text;
}
