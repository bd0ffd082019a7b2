// Predict, then watch (SPEC §7 `predict`, `predict-submit`,
// `predict-result`): a lesson that asks for a number before its run (the
// core's `lesson.predict`: the question and what is measured) opens
// paused; the guess is read and set beside the run's measured value by the
// core (`Simulation.predict_result`: difference, ratio and the words), and
// shown once the run is over. A guess that is not a number is named beside
// the input.

import { $, state, running } from './state.js';
import { setPlaying } from './run.js';
import { updateExplain } from './view.js';
import { showSpeed } from './pace.js';

/** The lesson the box was set up for (the guess given for it is `state.guess`, text). */
let shownFor = null;

/** Sets up the box: submit on the button or Enter in the input. */
export function setupPredict() {
  $('predict-submit').addEventListener('click', submit);
  $('predict').addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      submit();
    }
  });
}

function submit() {
  const lesson = state.lesson;
  if (!lesson?.predict || !state.sim) return;
  const text = $('predict').value;
  try {
    state.sim.predict_result(lesson.id, text); // the core reads the guess (or names what is wrong)
  } catch (e) {
    showError(e.message);
    return;
  }
  showError('');
  state.guess = text.trim();
  updatePredict();
  // The check and the run's length, held back until now, are shown.
  updateExplain(true);
  showSpeed();
  if (running() && !state.playing) setPlaying(true);
}

function showError(message) {
  $('predict-error').textContent = message;
  $('predict-error').hidden = !message;
  if (message) $('predict').setAttribute('aria-invalid', 'true');
  else $('predict').removeAttribute('aria-invalid');
}

/** Shows the lesson's question, and once the run is over the guess beside the measured value. */
export function updatePredict() {
  const box = $('predict-box');
  if (!box) return;
  const lesson = state.lesson?.predict ? state.lesson : null;
  box.hidden = !lesson;
  if ((lesson?.id ?? null) !== shownFor) {
    shownFor = lesson?.id ?? null;
    state.guess = null;
    $('predict').value = '';
    showError('');
  }
  // The question is about the lesson's own run: a changed run (the lesson's note) is said beside it.
  const question = !lesson ? '' : state.lessonChanged
    ? `${lesson.predict.question} (This question is about the lesson's own run; the run shown is changed: see the lesson's note.)`
    : lesson.predict.question;
  if ($('predict-question').textContent !== question) $('predict-question').textContent = question;
  const result = $('predict-result');
  if (!lesson || state.guess === null || !state.sim) {
    // Over without a guess: the question would otherwise stay unanswered above a finished run.
    const over = lesson && state.sim && state.guess === null && !running();
    // The question asks for steps or a largest queue (`predict.measure`): "its measured value".
    // Embedded, in one line and without the question (style.css): the frame's height is the canvas's.
    const words = document.body.classList.contains('embed')
      ? 'Run over without a guess: Reset to guess.'
      : 'The run is over without a guess: what it measured is in the lesson\'s check below. Reset to guess and watch again.';
    result.textContent = over ? words : '';
    box.dataset.unanswered = String(!!over);
    for (const key of ['guess', 'measured', 'difference', 'ratio']) delete result.dataset[key];
    return;
  }
  if (running()) {
    result.textContent = `Your guess: ${state.guess}. Watch the run; the result comes at its end (or Run to end).`;
    // The guess only: a result measured before (the run's end, scrubbed
    // back from, or the last run's) is not this one's yet (SPEC §7: after the run).
    result.dataset.guess = String(state.guess);
    for (const key of ['measured', 'difference', 'ratio']) delete result.dataset[key];
    return;
  }
  try {
    const r = state.sim.predict_result(lesson.id, state.guess);
    result.textContent = r.text.charAt(0).toUpperCase() + r.text.slice(1);
    Object.assign(result.dataset, {
      guess: String(r.guess), measured: String(r.measured), difference: String(r.difference), ratio: String(r.ratio ?? ''),
    });
  } catch (e) {
    result.textContent = e.message;
  }
}
