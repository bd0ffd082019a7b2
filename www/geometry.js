// Where things are on the canvas: the view (layout units to CSS pixels, with
// the zoom), points along a drawn link, and hit testing of nodes and packets.

import { viewMode } from './heat.js';

/**
 * Maps abstract layout units to canvas pixels (CSS pixels): the layout
 * fitted to the canvas, then `zoom` = {k, tx, ty} (zoom.js: screen =
 * (tx, ty) + k · fitted). `mode` is 'heat' when nodes would be too small
 * to draw one by one, else 'dots'.
 */
export function viewFor(lay, widthPx, heightPx, dpr = 1, zoom = { k: 1, tx: 0, ty: 0 }) {
  const margin = lay.hasWrap ? 46 : lay.margin ?? 28;
  const fitted = fitScale(lay.width, lay.height, widthPx, heightPx, margin);
  const scale = fitted * zoom.k;
  const ox = zoom.tx + zoom.k * ((widthPx - fitted * lay.width) / 2);
  const oy = zoom.ty + zoom.k * ((heightPx - fitted * lay.height) / 2);
  const nodePx = Math.max(1.5, Math.min(scale * lay.nodeScale, 44 * zoom.k));
  return { scale, ox, oy, nodePx, widthPx, heightPx, dpr, zoom: zoom.k, mode: viewMode(nodePx), cache: null };
}

/**
 * Pixels per layout unit for a drawing `width` × `height` units fitted
 * into `widthPx` × `heightPx` with `margin` px around it (at most 90).
 */
export function fitScale(width, height, widthPx, heightPx, margin) {
  const sx = (widthPx - 2 * margin) / Math.max(width, 1e-9);
  const sy = (heightPx - 2 * margin) / Math.max(height, 1e-9);
  return Math.min(sx, sy, 90);
}

/**
 * The height (CSS px) of a canvas `widthPx` wide showing a drawing
 * `width` × `height` units: the drawing's shape, within [least, room].
 */
export function shownHeight(width, height, widthPx, least, room) {
  return Math.round(Math.min(Math.max(widthPx * ((height + 1.2) / (width + 1.2)), least), room));
}

export function px(view, lay, v) {
  return [view.ox + lay.x[v] * view.scale, view.oy + lay.y[v] * view.scale];
}

/**
 * The control point [x, y] of the drawn link from a to b when it is a
 * curve (a quadratic Bézier from a to b), null when it is straight.
 */
export function controlPoint(view, lay, a, b) {
  const bend = lay.curve(a, b);
  if (!bend) return null;
  const [x1, y1] = px(view, lay, a);
  const [x2, y2] = px(view, lay, b);
  const flip = a < b ? 1 : -1;
  return [(x1 + x2) / 2 - (y2 - y1) * bend * flip, (y1 + y2) / 2 + (x2 - x1) * bend * flip];
}

/** The point a fraction `t` of the way along the drawn link from a to b. */
export function along(view, lay, a, b, t) {
  const [x1, y1] = px(view, lay, a);
  const [x2, y2] = px(view, lay, b);
  const c = controlPoint(view, lay, a, b);
  if (!c) return [x1 + (x2 - x1) * t, y1 + (y2 - y1) * t];
  const [cx, cy] = c;
  const u = 1 - t;
  return [u * u * x1 + 2 * u * t * cx + t * t * x2, u * u * y1 + 2 * u * t * cy + t * t * y2];
}

/**
 * Continues the current path from a's centre to b's along the drawn link
 * (a straight line, or the curve of a bent one); a wrap-around link is a
 * jump (moveTo), as it has no line to follow.
 */
export function pathTo(ctx, view, lay, a, b) {
  const [x2, y2] = px(view, lay, b);
  if (lay.isWrap(a, b)) {
    ctx.moveTo(x2, y2);
    return;
  }
  const c = controlPoint(view, lay, a, b);
  if (c) ctx.quadraticCurveTo(c[0], c[1], x2, y2);
  else ctx.lineTo(x2, y2);
}

/**
 * The point and unit direction `t` of the way along the directed link
 * from `a` to `b`, moved `off` pixels to the left of travel (the side
 * where drawLink draws that direction).
 */
export function onLink(view, lay, a, b, t, off) {
  const dt = 0.01;
  const [x0, y0] = along(view, lay, a, b, Math.max(0, t - dt));
  const [x1, y1] = along(view, lay, a, b, Math.min(1, t + dt));
  const len = Math.hypot(x1 - x0, y1 - y0) || 1;
  const ux = (x1 - x0) / len;
  const uy = (y1 - y0) / len;
  const [x, y] = along(view, lay, a, b, t);
  return [x - uy * off, y + ux * off, ux, uy];
}

/** The node nearest to a point (CSS pixels), or null if none is close. */
export function nodeAt(view, lay, mx, my) {
  const ux = (mx - view.ox) / view.scale;
  const uy = (my - view.oy) / view.scale;
  let best = null;
  let bestD = Infinity;
  for (let v = 0; v < lay.nodes; v++) {
    const d = (lay.x[v] - ux) ** 2 + (lay.y[v] - uy) ** 2;
    if (d < bestD) {
      bestD = d;
      best = v;
    }
  }
  const limit = Math.max(view.nodePx * 0.75, 6) / view.scale;
  return bestD <= limit * limit ? best : null;
}

/** The packet whose dot is nearest to a point, within a few pixels. */
export function packetAt(dots, mx, my) {
  if (!dots) return null;
  let best = null;
  let bestD = 64;
  for (let p = 0; p < dots.length / 2; p++) {
    const x = dots[2 * p];
    if (Number.isNaN(x)) continue;
    const d = (x - mx) ** 2 + (dots[2 * p + 1] - my) ** 2;
    if (d < bestD) {
      bestD = d;
      best = p;
    }
  }
  return best;
}
