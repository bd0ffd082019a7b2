// prefers-reduced-motion: with it, steps are shown at once (no packet
// sliding along its link between two steps).

const query = window.matchMedia('(prefers-reduced-motion: reduce)');

/** Whether the reader asked for reduced motion (follows changes of the setting). */
export const reducedMotion = () => query.matches;

/** How long to tween a step: `ms`, or 0 under reduced motion. */
export const tweenMs = (ms) => (query.matches ? 0 : ms);
