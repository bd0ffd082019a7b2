// The page's address: the configuration, page settings and lesson written
// into the URL (config.js's toQuery), and a loaded instance when it fits.

import { toQuery } from './config.js';
import { URL_LIMIT, encodeInstance } from './url-instance.js';
import { $, state } from './state.js';
import { showMessage, clearMessages } from './messages.js';

/** Writes the address now: the run, the page settings, the lesson, the instance if it fits; the full page's link. */
export function saveUrl() {
  clearTimeout(state.urlTimer);
  const query = toQuery(state.config, state.page, state.embed, { lesson: state.lesson, current: location.search, instance: state.instanceParam });
  history.replaceState(null, '', `${location.pathname}${query}`);
  const full = new URL(location.href);
  full.searchParams.delete('embed');
  $('open-full').href = full.toString();
}

/** Writes the address soon (moves of the view come many a second; browsers throttle replaceState). */
export function saveUrlSoon() {
  clearTimeout(state.urlTimer);
  state.urlTimer = setTimeout(saveUrl, 150);
}

/**
 * Puts the loaded instance into the address (compressed, url-instance.js)
 * if the address stays within URL_LIMIT characters; else says in one line
 * that the link cannot carry it.
 */
export async function saveInstanceUrl() {
  clearMessages('instance-url');
  const text = state.instanceText;
  if (!text || !state.sim) return;
  const param = await encodeInstance(state.sim.instance_json());
  if (state.instanceText !== text) return; // replaced meanwhile
  const query = toQuery(state.config, state.page, state.embed, { lesson: state.lesson, current: location.search, instance: param });
  const length = new URL(`${location.pathname}${query}`, location.href).href.length;
  if (length <= URL_LIMIT) {
    state.instanceParam = param;
    saveUrl();
  } else {
    showMessage('info', `This link cannot carry the loaded instance: its address would be ${length.toLocaleString('en')} characters, over the limit of ${URL_LIMIT.toLocaleString('en')} (download the instance to share it).`, 'instance-url');
  }
}
