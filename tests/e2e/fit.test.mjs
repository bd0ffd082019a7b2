// End-to-end tests of what fits where (audit): on a 390×844 phone every
// lesson's Play button is on the first screen (two stacked canvases, a
// two-line run name and the lesson's line above it); in a 400×600 frame
// every line of a lesson's check is either shown whole or counted by a
// visible marker ("↓ 3 more") that scrolls to it, and the frame does not
// scroll; in a 360 px frame the buttons keep apart.
// Run: node --test tests/e2e/fit.test.mjs (after ./build.sh).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';

import { shots, browser, server, openPage, embedPage, watchErrors } from './harness.mjs';

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

test('390×844 phone: every lesson shows its Play button on the first screen', async () => {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(server.url);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
  const ids = await page.evaluate(async () => (await import('./pkg/routesim.js')).lessons().map((l) => l.id));
  assert.ok(ids.length >= 20, `only ${ids.length} lessons`);
  const late = [];
  for (const id of ids) {
    await page.goto(`${server.url}?lesson=${id}`);
    await page.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const at = await page.evaluate(() => {
      const play = document.querySelector('[data-role="play"]').getBoundingClientRect();
      const canvases = [...document.querySelectorAll('[data-role="network"]')].map((c) => c.getBoundingClientRect());
      return { top: play.top + scrollY, bottom: play.bottom + scrollY, canvases: canvases.map((c) => [c.width, c.height]), width: document.documentElement.scrollWidth };
    });
    if (at.bottom > 844) late.push(`${id}: Play at ${Math.round(at.top)}–${Math.round(at.bottom)}`);
    assert.ok(at.width <= 390, `${id}: the page is ${at.width} px wide`);
    // The canvases stay big enough to read.
    for (const [w, h] of at.canvases) assert.ok(w >= 160 && h >= 150, `${id}: a canvas of ${Math.round(w)} × ${Math.round(h)} px`);
    if (id === 'lmrr-shuffle-exchange') await page.screenshot({ path: path.join(shots, 'fit-phone-lmrr-shuffle-exchange.png') });
  }
  assert.deepEqual(late, [], 'Play below the first screen');
  assert.deepEqual(errors, []);
  await context.close();
});

/**
 * The lesson check's lines in the frame: for each, whether it is shown
 * whole (inside the list's box, above the marker when one shows, inside
 * the frame); and the marker: its text and whether it shows in the frame.
 */
const checkLines = (frame) => frame.evaluate(() => {
  const list = document.querySelector('[data-role="lesson-check"] ul');
  const box = list.getBoundingClientRect();
  const mark = document.querySelector('[data-role="more-claims"]');
  const markBox = mark?.getBoundingClientRect();
  const markShown = !!mark && mark.checkVisibility() && markBox.height > 0 && markBox.top >= 0 && markBox.bottom <= innerHeight + 0.5;
  const floor = Math.min(box.bottom, innerHeight, markShown ? markBox.top : Infinity);
  const lines = [...list.querySelectorAll('[data-role="claim"]')].map((li) => {
    const r = li.getBoundingClientRect();
    return { text: li.textContent.slice(0, 60), whole: r.top >= box.top - 0.5 && r.bottom <= floor + 0.5, below: r.bottom > floor + 0.5 };
  });
  return {
    lines,
    mark: markShown ? mark.textContent : null,
    scrolls: document.scrollingElement.scrollHeight > innerHeight + 1,
    slack: innerHeight - document.body.getBoundingClientRect().bottom,
  };
});

test('400×600 frame: every line of the lesson check is shown whole or counted by a visible "↓ N more" that scrolls to it', async () => {
  for (const query of ['?embed=1&lesson=ks-nowrap&play=0&step=30', '?embed=1&lesson=ks-smear&play=0&step=30', '?embed=1&lesson=locality&play=0&step=10', '?embed=1&play=0']) {
    const { page, frame, errors } = await embedPage(query, { width: 400, height: 600 });
    await page.waitForTimeout(300);
    const at = await checkLines(frame);
    assert.ok(at.lines.length >= 3, `${query}: ${at.lines.length} check lines`);
    assert.equal(at.scrolls, false, `${query}: the frame scrolls`);
    const below = at.lines.filter((l) => !l.whole).length;
    if (below) {
      assert.ok(at.mark, `${query}: ${below} check lines hidden (${at.lines.filter((l) => !l.whole).map((l) => l.text).join(' | ')}) and no marker says so`);
      assert.equal(at.mark, `↓ ${below} more`, `${query}: the marker`);
      // The frame's room went to the list first: less than a line and the body's margin is left empty.
      assert.ok(at.slack < 26, `${query}: ${Math.round(at.slack)} px of the frame left empty while lines are hidden`);
      // The marker scrolls to them; at the end of the list, the last line (the lesson's point) is shown whole.
      for (let i = 0; i < 6 && (await checkLines(frame)).lines.at(-1).whole === false; i++) {
        await frame.locator('[data-role="more-claims"]').click();
        await page.waitForTimeout(150);
      }
      const end = await checkLines(frame);
      assert.equal(end.lines.at(-1).whole, true, `${query}: the last line never shows`);
      assert.match(end.mark ?? '', /^↑ \d+ above$/, `${query}: at the end the marker says "${end.mark}"`);
    } else {
      assert.equal(at.mark, null, `${query}: a marker with nothing hidden`);
    }
    if (query.includes('ks-nowrap')) await page.screenshot({ path: path.join(shots, 'fit-embed-ks-nowrap.png') });
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('360 px frame: the buttons keep apart and show their whole labels', async () => {
  for (const width of [360, 400]) {
    const { page, frame, errors } = await embedPage('?embed=1&lesson=lmrr-shuffle-exchange&play=0', { width, height: 600 });
    // Paused at the start (Play), and at the end (Replay, a longer label).
    for (const when of ['start', 'end']) {
      if (when === 'end') {
        await frame.click('#finish');
        await frame.waitForFunction(() => document.querySelector('[data-role="status"]').textContent === 'finished', null, { timeout: 30000 });
      }
      const buttons = await frame.locator('.toolbar button').evaluateAll((bs) => bs.filter((b) => b.checkVisibility()).map((b) => {
        const r = b.getBoundingClientRect();
        return { text: b.textContent, left: r.left, right: r.right, top: r.top, clipped: b.scrollWidth > b.clientWidth + 0.5 };
      }));
      assert.ok(buttons.length >= 5);
      for (const b of buttons) {
        assert.equal(b.clipped, false, `${width} px, ${when}: "${b.text}" does not fit its button`);
        assert.ok(b.left >= 0 && b.right <= width, `${width} px, ${when}: "${b.text}" at ${b.left}…${b.right}`);
      }
      for (let i = 1; i < buttons.length; i++) {
        const [a, b] = [buttons[i - 1], buttons[i]];
        if (Math.abs(a.top - b.top) < 2) assert.ok(b.left - a.right >= 3, `${width} px, ${when}: "${a.text}" and "${b.text}" ${Math.round(b.left - a.right)} px apart`);
      }
    }
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('the lesson line over a phone\'s run is one line, the lesson\'s whole title in its tooltip', async () => {
  const { page, errors } = await openPage('?lesson=lmrr-shuffle-exchange&play=0', PHONE.viewport, { isMobile: true, hasTouch: true });
  const link = page.locator('#lesson-banner a');
  const box = await link.boundingBox();
  const line = await link.evaluate((a) => parseFloat(getComputedStyle(a).lineHeight) || 1.25 * parseFloat(getComputedStyle(a).fontSize));
  assert.ok(box.height < 1.6 * line, `the lesson line is ${box.height} px high`);
  const title = await page.evaluate(() => window.routesim.lesson.title);
  assert.ok((await link.getAttribute('title')).includes(title));
  assert.deepEqual(errors, []);
  await page.close();
});
