// The pointer on the network canvas: hovering a node shows its tooltip,
// clicking a packet follows its route.

import * as wasm from './pkg/routesim.js';
import { nodeAt, packetAt } from './geometry.js';
import { $, UNDELIVERED, state } from './state.js';
import { showMessage } from './messages.js';
import { updateWatchInfo } from './view.js';

function pointer(event) {
  const rect = $('network').getBoundingClientRect();
  return [event.clientX - rect.left, event.clientY - rect.top];
}

/** Node `v` in its network's own terms, as the core describes it. */
function coordsText(v) {
  try {
    return wasm.describe_node(state.topo.name, v);
  } catch {
    return '';
  }
}

function onHover(event) {
  if (!state.lay || !state.view) return;
  const [mx, my] = pointer(event);
  const v = nodeAt(state.view, state.lay, mx, my);
  const tip = $('tooltip');
  if (v !== state.hover) state.dirty = true;
  state.hover = v;
  if (v === null) {
    tip.hidden = true;
    return;
  }
  const s = state.snapshot;
  let html = `<b>node ${v}</b> <span class="dim">${coordsText(v)}</span>`;
  if (s) {
    const here = [];
    for (let p = 0; p < s.positions.length && here.length < 13; p++) {
      if (s.positions[p] === v && s.delivered_at[p] === UNDELIVERED) here.push(p);
    }
    html += `<br>working queue: <b>${s.queues[v]}</b> · waiting at source: <b>${s.waiting[v]}</b>`;
    if (here.length) {
      const items = here.slice(0, 12).map((p) => `#${p} → ${state.destinations[p]}`);
      html += `<br><span class="dim">${items.join(', ')}${here.length > 12 ? ', …' : ''}</span>`;
    }
  }
  tip.innerHTML = html;
  tip.hidden = false;
  const wrap = tip.parentElement.getBoundingClientRect();
  const left = Math.min(mx + 14, wrap.width - tip.offsetWidth - 4);
  const top = my + 14 + tip.offsetHeight > wrap.height ? my - tip.offsetHeight - 10 : my + 14;
  tip.style.left = `${Math.max(0, left)}px`;
  tip.style.top = `${Math.max(0, top)}px`;
}

function onClick(event) {
  if (!state.sim || state.zoom.dragged()) return;
  const [mx, my] = pointer(event);
  const p = packetAt(state.dots, mx, my);
  try {
    state.trail = p === null ? null : state.sim.watch(p);
    if (p === null) state.sim.watch(undefined);
    state.watched = p;
  } catch (e) {
    showMessage('error', e.message, 'sim');
  }
  updateWatchInfo();
  state.dirty = true;
}

/** Hover, leave and click on the network canvas. */
export function setupPointer(canvas) {
  canvas.addEventListener('mousemove', onHover);
  canvas.addEventListener('mouseleave', () => {
    state.hover = null;
    $('tooltip').hidden = true;
    state.dirty = true;
  });
  canvas.addEventListener('click', onClick);
}
