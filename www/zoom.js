// Zoom and pan of the network canvas: wheel (zoom about the pointer),
// pinch (two pointers), drag to pan (pointer events), keys on the focused
// canvas (+ / − zoom, 0 resets, Shift+arrows pan; the plain arrows and
// Space stay the timeline's) and the zoom buttons. This file keeps only
// the transform {k, tx, ty}: screen = (tx, ty) + k · (the fitted view); the
// view itself is made by geometry.js's viewFor.

const MAX_ZOOM = 64;
const STEP = 1.5; // one button press or key
const DRAG_PX = 4; // a press that moves less than this is a click
const PAN_PX = 40; // one Shift+arrow

/**
 * Wires zooming on `canvas` and its buttons (`buttons` = {zoomIn, zoomOut,
 * reset}: elements); `onChange()` is called after every change (redraw
 * then). Returns {transform(), reset(), zoomBy(f, [x, y]),
 * panBy(dx, dy), zoomed(), dragged()}: `dragged()` is true once after a
 * press that panned (its click is then not a click on a packet).
 */
export function setupZoom(canvas, onChange, buttons = {}) {
  const t = { k: 1, tx: 0, ty: 0 };
  const size = () => [canvas.clientWidth, canvas.clientHeight];

  /** Keeps the zoomed picture over the whole canvas (no empty margins beyond the fitted view). */
  function clamp() {
    const [w, h] = size();
    t.k = Math.min(MAX_ZOOM, Math.max(1, t.k));
    t.tx = Math.min(0, Math.max(w - t.k * w, t.tx));
    t.ty = Math.min(0, Math.max(h - t.k * h, t.ty));
  }

  function changed() {
    clamp();
    // Zoomed in, a one-finger drag pans the picture; at full view it scrolls the page.
    canvas.style.touchAction = t.k > 1 ? 'none' : 'pan-y';
    canvas.dataset.zoom = t.k.toFixed(3);
    onChange();
  }

  /** Zooms by `f` about the point (x, y) in CSS pixels (default: the centre). */
  function zoomBy(f, at) {
    const [w, h] = size();
    const [x, y] = at ?? [w / 2, h / 2];
    const k = Math.min(MAX_ZOOM, Math.max(1, t.k * f));
    const g = k / t.k;
    t.tx = x - g * (x - t.tx);
    t.ty = y - g * (y - t.ty);
    t.k = k;
    changed();
  }

  function panBy(dx, dy) {
    t.tx += dx;
    t.ty += dy;
    changed();
  }

  function reset() {
    t.k = 1;
    t.tx = 0;
    t.ty = 0;
    changed();
  }

  const local = (e) => {
    const r = canvas.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top];
  };

  canvas.addEventListener('wheel', (e) => {
    // At full view, scrolling down goes on scrolling the page.
    if (t.k <= 1 && e.deltaY > 0) return;
    e.preventDefault();
    const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1;
    zoomBy(Math.exp((-e.deltaY * unit) / 300), local(e));
  }, { passive: false });

  // Pointers: one pans (once it has moved a few pixels), two pinch.
  const down = new Map(); // pointerId -> [x, y]
  let start = null; // first pointer's press point
  let panning = false;
  let justDragged = false;
  let pinch = null; // {dist}

  canvas.addEventListener('pointerdown', (e) => {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    down.set(e.pointerId, local(e));
    if (down.size === 1) {
      start = local(e);
      panning = false;
    } else if (down.size === 2) {
      const [a, b] = [...down.values()];
      pinch = { dist: Math.hypot(a[0] - b[0], a[1] - b[1]) || 1 };
      panning = true;
    }
  });

  canvas.addEventListener('pointermove', (e) => {
    if (!down.has(e.pointerId)) return;
    const prev = down.get(e.pointerId);
    const now = local(e);
    down.set(e.pointerId, now);
    if (down.size >= 2 && pinch) {
      const [a, b] = [...down.values()];
      const dist = Math.hypot(a[0] - b[0], a[1] - b[1]) || 1;
      const mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
      zoomBy(dist / pinch.dist, mid);
      pinch.dist = dist;
      return;
    }
    if (!panning && Math.hypot(now[0] - start[0], now[1] - start[1]) >= DRAG_PX) {
      panning = true;
      canvas.setPointerCapture?.(e.pointerId);
    }
    if (panning && t.k > 1) panBy(now[0] - prev[0], now[1] - prev[1]);
  });

  const up = (e) => {
    if (!down.delete(e.pointerId)) return;
    if (down.size < 2) pinch = null;
    if (down.size === 0) {
      justDragged = panning;
      panning = false;
    }
  };
  canvas.addEventListener('pointerup', up);
  canvas.addEventListener('pointercancel', up);

  canvas.addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const arrows = { ArrowLeft: [PAN_PX, 0], ArrowRight: [-PAN_PX, 0], ArrowUp: [0, PAN_PX], ArrowDown: [0, -PAN_PX] };
    if (e.key === '+' || e.key === '=') zoomBy(STEP);
    else if (e.key === '-' || e.key === '_') zoomBy(1 / STEP);
    else if (e.key === '0') reset();
    else if (e.shiftKey && arrows[e.key]) panBy(...arrows[e.key]);
    else return;
    e.preventDefault();
    e.stopPropagation();
  });

  buttons.zoomIn?.addEventListener('click', () => zoomBy(STEP));
  buttons.zoomOut?.addEventListener('click', () => zoomBy(1 / STEP));
  buttons.reset?.addEventListener('click', reset);

  changed();
  return {
    transform: () => ({ ...t }),
    reset,
    zoomBy,
    panBy,
    zoomed: () => t.k > 1,
    /** True once after a press that panned or pinched: its click is not a pick. */
    dragged() {
      const d = justDragged;
      justDragged = false;
      return d;
    },
    /** After a resize: keeps the transform inside the new canvas. */
    fit: () => clamp(),
  };
}
