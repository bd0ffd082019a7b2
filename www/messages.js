// Messages: the error line (errors, warnings) and the information list
// above it, each message grouped by a source that clears its own.

import { $ } from './state.js';

/**
 * Shows a message; `source` groups messages so a rebuild can clear its own.
 * Errors and warnings (bad input that was ignored: a URL parameter, an
 * embedding command) go to the error line (`data-role="error"`, hidden
 * when empty), information (what the core switched, what was loaded) to
 * the message list above it.
 */
export function showMessage(kind, text, source = 'page') {
  const box = kind === 'info' ? $('messages') : $('errors');
  const div = document.createElement('div');
  div.className = `msg ${kind}`;
  div.dataset.source = source;
  const span = document.createElement('span');
  span.textContent = text;
  // Embedded, a message is one line (style.css), its whole text the line's
  // tooltip and shown in full on a click, so that a frame with several
  // keeps its canvas and claims in view.
  span.title = text;
  span.addEventListener('click', () => {
    div.classList.toggle('open');
    window.dispatchEvent(new Event('resize'));
  });
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'close';
  close.setAttribute('aria-label', 'dismiss');
  close.title = 'dismiss';
  // The × is drawn by style.css, so that the line's text is the message alone.
  close.addEventListener('click', () => {
    div.remove();
    syncErrorLine();
  });
  div.append(span, close);
  box.append(div);
  syncErrorLine();
}

export function clearMessages(source) {
  for (const el of document.querySelectorAll(`.msg[data-source="${source}"]`)) el.remove();
  syncErrorLine();
}

/**
 * Shows `text` beside `control` (SPEC §7's error line says it too): a
 * message element after the control's label (or its row of labels), the
 * control marked `aria-invalid` and described by the message.
 */
export function showFieldError(control, text) {
  const id = `${control.id || `option-${control.dataset.option ?? 'field'}`}-error`;
  let note = document.getElementById(id);
  if (!note) {
    note = document.createElement('p');
    note.id = id;
    note.className = 'field-error';
    note.dataset.role = 'field-error';
    let anchor = control.closest('label') ?? control;
    if (anchor.parentElement?.classList.contains('row')) anchor = anchor.parentElement;
    anchor.after(note);
  }
  note.textContent = text;
  note.hidden = false;
  control.setAttribute('aria-invalid', 'true');
  control.setAttribute('aria-describedby', id);
}

/** Clears the messages beside controls within `root` (all: the whole page) and their marks. */
export function clearFieldErrors(root = document) {
  for (const note of root.querySelectorAll('.field-error')) {
    if (note.dataset.keep) {
      note.textContent = '';
      note.hidden = true;
    } else {
      note.remove();
    }
  }
  for (const el of root.querySelectorAll('[aria-invalid]')) {
    el.removeAttribute('aria-invalid');
    if (el.getAttribute('aria-describedby')?.endsWith('-error')) el.removeAttribute('aria-describedby');
  }
}

function syncErrorLine() {
  $('errors').hidden = $('errors').childElementCount === 0;
}
