// The embedding API (SPEC §7): the page posts
// `{type: "routesim:state", step, delivered, packets, status, phase}` to its
// parent window once after every step it shows (a `goto` shows one step,
// the target), and obeys `{type: "routesim:command", command, step}`
// messages: play, pause, step, back, reset, goto (with `step`, a whole
// number). A malformed command is ignored and named in the page's error
// line. Opened on its own (not in a frame), the page's parent is itself,
// so the messages are posted to its own window.

export const COMMANDS = ['play', 'pause', 'step', 'back', 'reset', 'goto'];

/** Why `data` is not a valid command (null when it is one). */
export function commandProblem(data) {
  if (typeof data !== 'object' || data === null) return 'the message is not an object';
  if (typeof data.command !== 'string') return 'it has no "command" string';
  if (!COMMANDS.includes(data.command)) {
    return `unknown command ${JSON.stringify(data.command)} (expected one of ${COMMANDS.join(', ')})`;
  }
  if (data.command === 'goto') {
    const step = data.step;
    const ok = (typeof step === 'number' && Number.isInteger(step) && step >= 0 && step <= 0xffffffff)
      || (typeof step === 'string' && /^\d{1,9}$/.test(step));
    if (!ok) return `goto needs "step", a whole number ≥ 0 (got ${JSON.stringify(step) ?? 'nothing'})`;
  }
  return null;
}

/** Does a message claim to be for us (so that a malformed one is worth reporting)? */
function addressedToUs(data) {
  if (typeof data === 'string') return data.startsWith('routesim:');
  if (typeof data !== 'object' || data === null) return false;
  if (typeof data.type === 'string') return data.type.startsWith('routesim:') && data.type !== 'routesim:state';
  return 'command' in data;
}

/**
 * Listens for commands. `actions` = {play(), pause(), step(), back(),
 * reset(), goto(step)}; `report(text)` shows a line in the error line,
 * `clear()` removes it. Returns {post(state)}: posts one state message.
 */
export function setupEmbedApi(actions, report, clear) {
  window.addEventListener('message', (event) => {
    const data = event.data;
    if (!addressedToUs(data)) return;
    const problem = data?.type === 'routesim:command' ? commandProblem(data) : 'its type is not "routesim:command"';
    if (problem) {
      report(`Ignored a malformed routesim:command message (${problem}): ${preview(data)}`);
      return;
    }
    clear();
    if (data.command === 'goto') actions.goto(Number(data.step));
    else actions[data.command]();
  });
  return {
    /** Posts `{type: "routesim:state", step, delivered, packets, status, phase}`. */
    post({ step, delivered, packets, status, phase }) {
      window.parent.postMessage({ type: 'routesim:state', step, delivered, packets, status, phase }, '*');
    },
  };
}

function preview(data) {
  let text;
  try {
    text = JSON.stringify(data);
  } catch {
    text = String(data);
  }
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}
