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

function syncErrorLine() {
  $('errors').hidden = $('errors').childElementCount === 0;
}
