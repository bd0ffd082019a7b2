// Accessibility check for the end-to-end tests: injects axe-core (npm,
// node_modules/axe-core/axe.min.js) into a Playwright page or frame and
// runs the WCAG 2 A/AA rules. Reusable by every view's test:
//
//   import { assertAccessible } from './axe.mjs';
//   await assertAccessible(page, 'compare view');
//
// fails on any serious or critical violation, naming rule and elements.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let source = null;

/** The WCAG 2 A and AA rule tags (2.0, 2.1, 2.2). */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * Runs axe-core in `target` (a Playwright Page or Frame) and returns the
 * violations of impact `impacts`, each {id, impact, help, nodes: [selector…]}.
 * `options.include`: a CSS selector to check only part of the page.
 */
export async function axeViolations(target, { impacts = ['serious', 'critical'], include = null, tags = WCAG_TAGS } = {}) {
  source ??= await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  if (!(await target.evaluate(() => typeof window.axe === 'object'))) {
    await target.addScriptTag({ content: source });
  }
  const results = await target.evaluate(async ([sel, runTags]) => window.axe.run(sel ? { include: [sel] } : document, {
    runOnly: { type: 'tag', values: runTags },
    resultTypes: ['violations'],
  }), [include, tags]);
  return results.violations
    .filter((v) => impacts.includes(v.impact))
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')) }));
}

/** Fails if `target` has a serious or critical WCAG 2 A/AA violation; `what` names the view. */
export async function assertAccessible(target, what, options = {}) {
  const found = await axeViolations(target, options);
  const lines = found.map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.slice(0, 5).join(', ')}`);
  assert.deepEqual(lines, [], `${what}: accessibility violations`);
}
