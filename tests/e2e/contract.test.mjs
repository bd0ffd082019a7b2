// SPEC §7 statement by statement, where an audit of the page found it not
// kept: bad URL parameters named in the error line (also a run the core
// refuses to build), → on a focused scrubber, the embedding API's malformed
// messages in a 400 px iframe (exactly one state message per shown step),
// and every chart container's data published in the compact view.
// Run: node --test tests/e2e/contract.test.mjs (after ./build.sh).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';

import { shots, openPage, embedPage, sendMessage } from './harness.mjs';

const role = (page, name) => page.locator(`[data-role="${name}"]`);
const shownStep = async (page) => Number(await role(page, 'step-count').innerText());
/** The error line's text ('' when it is hidden). */
const errorLine = (page) => role(page, 'error').evaluate((el) => (el.hidden ? '' : el.innerText.trim()));

test('unknown URL parameters are named shortened, a few one by one, the rest counted; an empty lesson is named', async () => {
  const long = 'z'.repeat(5000);
  const many = Array.from({ length: 300 }, (_, i) => `junk${i}=1`).join('&');
  const { page, errors } = await openPage(`?topology=mesh:8x8&play=0&${long}=1&lesson=&${many}`);
  const line = await errorLine(page);
  assert.ok(line.length < 2000, `the error line is ${line.length} characters long`);
  assert.match(line, /Unknown URL parameter z{20,}… \(5000 characters\)="1" ignored\./);
  assert.match(line, /Unknown URL parameter junk0="1" ignored\./);
  assert.match(line, /296 more unknown URL parameters ignored\./);
  assert.match(line, /URL parameter lesson="" ignored: no lesson named/);
  assert.equal(await role(page, 'topology').inputValue(), 'mesh:8x8');
  assert.deepEqual(errors, []);
  await page.close();
});

test('URL keys named like built-in object properties (constructor, toString) are unknown parameters, named', async () => {
  const { page, errors } = await openPage('?topology=mesh:8x8&play=0&constructor=1&toString=x&__proto__=2');
  const line = await errorLine(page);
  for (const key of ['constructor', 'toString', '__proto__']) {
    assert.match(line, new RegExp(`Unknown URL parameter ${key}="[^"]*" ignored\\.`), line);
  }
  assert.equal(await role(page, 'topology').inputValue(), 'mesh:8x8');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a run with no phase shows an empty phase counter (as its state message), drawn as a dash', async () => {
  const { page, errors } = await openPage('?topology=mesh:8x8&algorithm=greedy&workload=transpose&play=0');
  const phase = role(page, 'phase');
  // Greedy names its phase; the counter and the core agree whatever it is.
  const core = await page.evaluate(() => window.routesim.sim.snapshot().phase ?? '');
  assert.equal(await phase.innerText(), core);
  // With the phase text removed (as when a run has none) the dash is drawn, not written.
  await phase.evaluate((el) => { el.textContent = ''; });
  assert.equal(await phase.evaluate((el) => getComputedStyle(el, '::before').content), '"–"');
  assert.equal(await phase.evaluate((el) => el.textContent), '');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a changed run opens at the step looked at when paused, and from its start when playing (not at the address\'s old step)', async () => {
  // Paused at step 5: another algorithm opens at step 5.
  const paused = await openPage('?topology=mesh:8x8&algorithm=greedy&workload=transpose&play=0&step=5');
  assert.equal(await shownStep(paused.page), 5);
  await paused.page.selectOption('[data-role="algorithm"]', 'offline');
  await paused.page.waitForFunction(() => new URL(location.href).searchParams.get('algorithm') === 'offline');
  assert.equal(await shownStep(paused.page), 5);
  assert.match(paused.page.url(), /[?&]step=5(&|$)/);
  // Playing from ?step=5: the new run starts over (the address drops step=).
  const playing = await openPage('?topology=mesh:8x8&algorithm=greedy&workload=transpose&step=5&speed=1');
  assert.ok((await shownStep(playing.page)) >= 5);
  await playing.page.selectOption('[data-role="algorithm"]', 'offline');
  await playing.page.waitForFunction(() => new URL(location.href).searchParams.get('algorithm') === 'offline');
  assert.ok((await shownStep(playing.page)) < 5, `the new run opened at step ${await shownStep(playing.page)}`);
  assert.doesNotMatch(playing.page.url(), /[?&]step=/);
  assert.deepEqual([...paused.errors, ...playing.errors], []);
  await paused.page.close();
  await playing.page.close();
});

test('every bad URL parameter is named with its value in the error line, its default used, and the page works', async () => {
  const bad = {
    topology: 'mesh:0x4', algorithm: 'teleport', policy: 'nope', workload: 'nope', l: 'abc', k: '-1', seed: 'x', q: '0',
    speed: '0', color: 'red', play: '2', step: 'abc', compare: 'teleport', embed: '2',
  };
  const { page, errors } = await openPage(`?${new URLSearchParams(bad)}`);
  const line = await errorLine(page);
  for (const [key, value] of Object.entries(bad)) {
    assert.ok(line.includes(`${key}="${value}"`), `${key}=${value} is not named in the error line: ${line}`);
  }
  assert.ok(!line.includes('×'), 'the error line\'s text is more than its messages');
  assert.equal(await page.locator('#messages .msg.warning').count(), 0, 'a bad parameter is outside the error line');
  // The defaults.
  assert.equal(await role(page, 'topology').inputValue(), 'mesh:16x16');
  assert.equal(await role(page, 'topology-kind').inputValue(), 'mesh');
  assert.equal(await role(page, 'algorithm').inputValue(), 'greedy');
  assert.equal(await page.locator('#policy').inputValue(), 'farthest-first');
  assert.equal(await role(page, 'workload').inputValue(), 'greedy-worst');
  assert.equal(await page.locator('#l').inputValue(), '');
  assert.equal(await page.locator('#k').inputValue(), '');
  assert.equal(await page.locator('#seed').inputValue(), '1');
  assert.equal(await page.locator('#q').inputValue(), '');
  assert.equal(await page.locator('#color').inputValue(), 'class');
  // Every run field refused, the address opens the default view: its second run (offline) is compare's default.
  assert.equal(await role(page, 'network').count(), 2, 'compare=teleport: not the default view\'s second run');
  assert.match(line, /compare="teleport" ignored: unknown algorithm .* — using offline\./);
  assert.ok(await page.locator('#controls').isVisible(), 'embed=2 gave the compact view');
  assert.equal(await role(page, 'status').innerText(), 'running', 'play=2 did not play (the default)');
  // The page works (the counters of the pair: the first step-count).
  const shownStep = async (at) => Number(await role(at, 'step-count').first().innerText());
  await role(page, 'step-forward').click();
  const at = await shownStep(page);
  assert.equal(await role(page, 'status').innerText(), 'paused');
  await role(page, 'step-forward').click();
  assert.equal(await shownStep(page), at + 1);
  assert.equal(await role(page, 'scrubber').inputValue(), String(at + 1));
  assert.deepEqual(errors, []);
  await page.close();
});

test('a URL run that parses but that the core refuses to build (a topology over the size limit) falls back to the default, named', async () => {
  const { page, errors } = await openPage('?topology=mesh:1024x1024&workload=random-permutation&seed=3&play=0');
  const line = await errorLine(page);
  assert.match(line, /topology="mesh:1024x1024"/);
  assert.match(line, /using mesh:16x16/);
  assert.doesNotMatch(line, /Cannot run this configuration/, 'the refused run is still reported as the current one');
  assert.equal(await role(page, 'topology').inputValue(), 'mesh:16x16');
  assert.equal(await role(page, 'workload').inputValue(), 'random-permutation', 'the good parameters are lost');
  assert.equal(await page.locator('#seed').inputValue(), '3');
  assert.equal(await role(page, 'status').innerText(), 'paused');
  assert.match(await role(page, 'delivered').innerText(), /^\d+ \/ 256/);
  await role(page, 'step-forward').click();
  assert.equal(await shownStep(page), 1);
  // The address is the run shown.
  const params = new URL(page.url()).searchParams;
  assert.equal(params.get('topology'), null);
  assert.equal(params.get('workload'), 'random-permutation');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a URL run whose fields each parse but whose run the core refuses (over the page\'s memory budget) blames the first parameter whose default builds (the core\'s blame_query)', async () => {
  // mesh:512x512 is within the page's node limit and every field parses,
  // but flashsort's run there needs more than the page's memory budget.
  const { page, errors } = await openPage('?topology=mesh:512x512&algorithm=flashsort&workload=sort-random&seed=3&play=0');
  const line = await errorLine(page);
  assert.match(line, /URL parameter topology="mesh:512x512" ignored: .*packets.* — using mesh:16x16\./);
  assert.doesNotMatch(line, /Cannot run this configuration/, 'the refused run is still reported as the current one');
  assert.equal(await role(page, 'topology').inputValue(), 'mesh:16x16');
  assert.equal(await page.locator('#seed').inputValue(), '3', 'the good parameters are lost');
  assert.equal(await role(page, 'status').innerText(), 'paused');
  await role(page, 'step-forward').click();
  assert.equal(await shownStep(page), 1);
  assert.equal(new URL(page.url()).searchParams.get('topology'), null);
  assert.deepEqual(errors, []);
  await page.close();
});

test('keyboard: with focus on the scrubber, → steps forward past the last step computed so far, ← steps back', async () => {
  const { page, errors } = await openPage('?topology=mesh:8x8&algorithm=greedy&workload=random-permutation&play=0');
  await role(page, 'scrubber').focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.equal(await shownStep(page), 2);
  assert.equal(await role(page, 'scrubber').getAttribute('max'), '2');
  assert.equal(await role(page, 'scrubber').inputValue(), '2');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await shownStep(page), 1);
  assert.equal(await role(page, 'scrubber').inputValue(), '1');
  await page.keyboard.press(' ');
  assert.equal(await role(page, 'status').innerText(), 'running');
  await page.keyboard.press(' ');
  assert.equal(await role(page, 'status').innerText(), 'paused');
  assert.deepEqual(errors, []);
  await page.close();
});

/** A course page with the compact view in a `width` px iframe (`embedPage`). */
const host = (query, width = 400, height = 760) => embedPage(query, { width, height });

const received = (page) => page.evaluate(() => window.got);

/** Sends `msg`; waits until `count` messages came (or 400 ms when none should); returns those that came. */
const send = (page, msg, count) => sendMessage(page, msg, count);

test('embedded in a 400 px iframe with step=3: one state message per shown step, commands obeyed, every malformed message reported', async () => {
  // speed=8: a user's speed (the core's pace would play this 14-step run at 0.47 steps/s, and the test plays 3 steps below).
  const { page, frame, errors } = await host('?embed=1&topology=mesh:8x8&algorithm=greedy&workload=random-permutation&play=0&step=3&speed=8');
  await page.waitForFunction(() => window.got.length >= 1);
  await page.waitForTimeout(400);
  const boot = await received(page);
  assert.equal(boot.length, 1, `the page opened with ${boot.length} messages: ${JSON.stringify(boot)}`);
  assert.deepEqual(boot[0], {
    type: 'routesim:state', step: 3, delivered: Number((await role(frame, 'delivered').innerText()).split(' ')[0]),
    packets: 64, status: 'paused', phase: await role(frame, 'phase').innerText(),
  });
  assert.equal(await shownStep(frame), 3);
  const command = (c, extra = {}) => ({ type: 'routesim:command', command: c, ...extra });
  const steps = (got) => got.map((s) => s.step);
  assert.deepEqual(steps(await send(page, command('step'), 1)), [4]);
  assert.deepEqual(steps(await send(page, command('back'), 1)), [3]);
  assert.deepEqual(steps(await send(page, command('goto', { step: 6 }), 1)), [6], 'a goto shows one step, the target');
  // Past the end: one message, the run's last step.
  const end = await send(page, command('goto', { step: 100000 }), 1);
  assert.equal(end.length, 1);
  assert.equal(end[0].status, 'finished');
  assert.equal(end[0].delivered, 64);
  assert.equal(await shownStep(frame), end[0].step);
  assert.deepEqual(steps(await send(page, command('reset'), 1)), [0]);
  assert.equal(await errorLine(frame), '');
  // Malformed: nothing moves, no state message, the error line names the problem; the page keeps working.
  const malformed = [
    [42, /not an object/],
    ['routesim:command', /not an object/],
    [null, /not an object/],
    [[1, 2], /not an object/],
    [{}, /type is missing/],
    [{ command: 'step' }, /type is missing/],
    [{ type: 'other', command: 'step' }, /type is "other"/],
    [{ type: 'routesim:cmd', command: 'step' }, /type is "routesim:cmd"/],
    [command('fly'), /unknown command "fly"/],
    [command(7), /no "command" string/],
    [command('goto'), /goto needs "step".*got undefined/],
    [command('goto', { step: -1 }), /got -1/],
    [command('goto', { step: 2.5 }), /got 2\.5/],
    [command('goto', { step: '3' }), /got "3"/],
    [command('goto', { step: 1e12 }), /got 1000000000000/],
    [command('goto', { step: Number.NaN }), /got NaN/],
    // A BigInt (structured clone carries it; JSON cannot) as JS writes it.
    [command('goto', { step: 3n }), /got 3n\)/],
    [command('goto', { step: { at: 3n } }), /got \{"at":3n\}/],
  ];
  for (const [msg, why] of malformed) {
    const shown = JSON.stringify(msg, (_, v) => (typeof v === 'bigint' ? `${v}n` : v));
    const got = await send(page, msg, 0);
    assert.deepEqual(got, [], `${shown} moved the run`);
    const line = await errorLine(frame);
    assert.match(line, /malformed routesim:command/, `${shown} is not reported`);
    assert.match(line, why, `${shown}: ${line}`);
  }
  assert.equal(await shownStep(frame), 0);
  assert.equal(await role(frame, 'status').innerText(), 'paused');
  // A huge command or type is quoted shortened: the line once repeated a
  // 200,000-character command whole and pushed the canvas 80,000 px down.
  for (const msg of [command('x'.repeat(200000)), { type: 'y'.repeat(200000), command: 'step' }]) {
    assert.deepEqual(await send(page, msg, 0), []);
    const line = await errorLine(frame);
    assert.match(line, /malformed routesim:command .*(unknown command "x+…|type is "y+…)/);
    assert.ok(line.length < 600, `the error line has ${line.length} characters`);
  }
  // A long report wraps within the 400 px frame, its dismiss button inside it too.
  await send(page, command('goto', { step: 'x'.repeat(80) }), 0);
  const fits = await frame.evaluate(() => {
    const line = document.querySelector('[data-role="error"]');
    const close = line.querySelector('.close').getBoundingClientRect();
    return { line: line.scrollWidth <= line.clientWidth, page: document.documentElement.scrollWidth <= window.innerWidth, close: close.right <= window.innerWidth && close.width > 0 };
  });
  assert.deepEqual(fits, { line: true, page: true, close: true }, 'the error line overflows the frame');
  // Still working: a good command is obeyed and clears the line.
  assert.deepEqual(steps(await send(page, command('step'), 1)), [1]);
  assert.equal(await errorLine(frame), '');
  // Playing: one message per shown step, in order, none twice.
  await send(page, command('play'), 3);
  await send(page, command('pause'), 0);
  const all = (await received(page)).filter((m) => m.type === 'routesim:state');
  const played = steps(all.slice(all.findLastIndex((s) => s.step === 1)));
  assert.ok(played.length >= 3, `played: ${played}`);
  assert.ok(played.every((s, i) => i === 0 || s > played[i - 1]), `steps repeat or go back while playing: ${played}`);
  assert.equal(await shownStep(frame), played.at(-1), 'the last message is not the step shown');
  assert.ok((await received(page)).every((m) => m.type === 'routesim:state'), 'the page posted something else');
  await page.screenshot({ path: path.join(shots, 'contract-embed-400.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the compact view publishes every chart container\'s data (window.routesim.charts)', async () => {
  const { page, frame, errors } = await host('?embed=1&topology=mesh:8x8&algorithm=greedy&workload=random-permutation&play=0');
  const charts = await frame.evaluate(() => [...document.querySelectorAll('[data-role="chart"]')].map((el) => {
    const c = window.routesim.charts[el.dataset.chart];
    return { name: el.dataset.chart, ok: !!c && Array.isArray(c.series) && Array.isArray(c.data) && c.data.every((col) => col.length === c.data[0].length) };
  }));
  assert.deepEqual(charts.map((c) => c.name).sort(), ['load', 'queue', 'ratio', 'run', 'steps']);
  for (const c of charts) assert.ok(c.ok, `window.routesim.charts.${c.name} is missing or not {series, data}`);
  const run = await frame.evaluate(() => window.routesim.charts.run.series);
  assert.deepEqual(run, ['step', 'in flight', 'max queue this step']);
  // SPEC §7: charts.load also carries y_max (none drawn here: null).
  assert.ok(await frame.evaluate(() => 'y_max' in window.routesim.charts.load), 'charts.load has no y_max in the compact view');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a far goto on a big network is computed in slices: the page answers meanwhile, then shows the target with one state message', async () => {
  // mesh:512x512 random-kk with k = 2 under greedy: about 1,004 steps of 524,288 packets, seconds of computing.
  // Not the transpose: its steps after 400 carry few packets, so the cancelled goto below (past the run's end)
  // could finish, and post, before the pause reached it.
  const { page, frame, errors } = await host('?embed=1&topology=mesh:512x512&algorithm=greedy&workload=random-kk&k=2&play=0');
  await page.waitForFunction(() => window.got.length >= 1);
  const before = (await received(page)).length;
  // A clock in the frame: a frozen page leaves a gap in its ticks.
  await frame.evaluate(() => {
    window.ticks = [];
    window.clock = setInterval(() => window.ticks.push(performance.now()), 20);
  });
  const t0 = Date.now();
  await page.evaluate(() => window.send({ type: 'routesim:command', command: 'goto', step: 400 }));
  await frame.waitForSelector('#messages .msg[data-source="goto"]', { timeout: 5000 });
  assert.match(await frame.locator('#messages').innerText(), /Computing step 400: \d+ computed so far/);
  await page.waitForFunction((n) => window.got.length > n, before, { timeout: 120000 });
  const took = Date.now() - t0;
  await page.waitForTimeout(300);
  const gaps = await frame.evaluate(() => {
    clearInterval(window.clock);
    return window.ticks.slice(1).map((t, i) => t - window.ticks[i]);
  });
  assert.ok(took > 1000, `the goto took ${took} ms: too fast to tell a frozen page`);
  assert.ok(Math.max(...gaps) < 600, `the page froze for ${Math.round(Math.max(...gaps))} ms of a ${took} ms goto`);
  const got = (await received(page)).slice(before);
  assert.deepEqual(got.map((m) => m.step), [400], 'a goto posts once, for its target');
  assert.equal(await shownStep(frame), 400);
  assert.equal(await frame.locator('#messages .msg[data-source="goto"]').count(), 0, 'the computing line stays');
  // Another far goto, cancelled by a pause: its line goes, nothing is posted, the view stays.
  const mid = (await received(page)).length;
  await page.evaluate(() => window.send({ type: 'routesim:command', command: 'goto', step: 100000 }));
  await frame.waitForSelector('#messages .msg[data-source="goto"]', { timeout: 5000 });
  await page.evaluate(() => window.send({ type: 'routesim:command', command: 'pause' }));
  await page.waitForTimeout(1500);
  assert.equal(await frame.locator('#messages .msg[data-source="goto"]').count(), 0);
  assert.equal((await received(page)).length, mid, 'a cancelled goto posted');
  assert.equal(await shownStep(frame), 400);
  assert.equal(await errorLine(frame), '');
  // The run goes on from the step shown, not from where the cancelled goto had computed to.
  await page.evaluate(() => window.send({ type: 'routesim:command', command: 'step' }));
  await page.waitForFunction((n) => window.got.length > n, mid, { timeout: 10000 });
  assert.deepEqual((await received(page)).slice(mid).map((m) => m.step), [401], 'a step after a cancelled goto');
  assert.equal(await shownStep(frame), 401);
  assert.deepEqual(errors, []);
  await page.close();
});

test('commands after a goto still computing wait for it and are obeyed in order', async () => {
  // mesh:256x256 random-kk k = 2 (131,072 packets): step 150 takes several slices to compute.
  const { page, frame, errors } = await host('?embed=1&topology=mesh:256x256&algorithm=greedy&workload=random-kk&k=2&play=0');
  await page.waitForFunction(() => window.got.length >= 1);
  const steps = async (from) => (await received(page)).slice(from).map((m) => m.step);
  let from = (await received(page)).length;
  // A click on the page that cancels the computing goto takes the host's
  // commands waiting behind it along (a review saw them replayed after a Reset).
  // The click is made in the frame the moment the computing line shows.
  const clicked = frame.evaluate(() => new Promise((resolve) => {
    const poll = setInterval(() => {
      if (!document.querySelector('#messages .msg[data-source="goto"]')) return;
      clearInterval(poll);
      document.querySelector('[data-role="reset"]').click();
      resolve();
    }, 2);
  }));
  await page.evaluate(() => {
    window.send({ type: 'routesim:command', command: 'goto', step: 5000 });
    window.send({ type: 'routesim:command', command: 'step' });
    window.send({ type: 'routesim:command', command: 'step' });
  });
  await clicked;
  await page.waitForTimeout(1500);
  assert.equal(await shownStep(frame), 0);
  assert.ok((await steps(from)).every((s) => s === 0), `${await steps(from)}`);
  from = (await received(page)).length;
  // An audit saw `back` dropped (150 shown) and `step` count from 0 (step 1 shown).
  await page.evaluate(() => {
    window.send({ type: 'routesim:command', command: 'goto', step: 150 });
    window.send({ type: 'routesim:command', command: 'back' });
  });
  await page.waitForFunction((n) => window.got.length >= n + 2, from, { timeout: 60000 });
  assert.deepEqual(await steps(from), [150, 149]);
  from = (await received(page)).length;
  await page.evaluate(() => {
    window.send({ type: 'routesim:command', command: 'goto', step: 300 });
    window.send({ type: 'routesim:command', command: 'step' });
    window.send({ type: 'routesim:command', command: 'step' });
  });
  await page.waitForFunction((n) => window.got.length >= n + 3, from, { timeout: 60000 });
  await page.waitForTimeout(300);
  assert.deepEqual(await steps(from), [300, 301, 302]);
  assert.equal(await shownStep(frame), 302);
  assert.equal(await errorLine(frame), '');
  assert.deepEqual(errors, []);
  await page.close();
});

test('an address that opens a big run at a far step computes it in slices after the page is drawn, then shows it', async () => {
  // Boot computes about 200 ms toward step 1000 of mesh:512x512 random-kk with k = 2 (524,288 packets; greedy
  // ends at 1004 with seed 1), then goes on in slices: far enough that the rest takes over a second even on a
  // fast, idle machine (the transpose, half the packets, came within 100 ms of that second).
  const { page, errors } = await openPage('?topology=mesh:512x512&algorithm=greedy&workload=random-kk&k=2&step=1000&play=0');
  await page.evaluate(() => {
    window.ticks = [];
    window.clock = setInterval(() => window.ticks.push(performance.now()), 20);
  });
  const t0 = Date.now();
  await page.waitForFunction(() => document.querySelector('[data-role="step-count"]').textContent.trim() === '1000', null, { timeout: 120000 });
  const took = Date.now() - t0;
  const gaps = await page.evaluate(() => {
    clearInterval(window.clock);
    return window.ticks.slice(1).map((t, i) => t - window.ticks[i]);
  });
  assert.ok(took > 1000, `the rest of the computing took ${took} ms: too fast to tell a frozen page`);
  assert.ok(Math.max(...gaps) < 600, `the page froze for ${Math.round(Math.max(...gaps))} ms while it computed`);
  assert.equal(await role(page, 'status').innerText(), 'paused');
  assert.equal(await role(page, 'scrubber').inputValue(), '1000', await role(page, 'scrubber').evaluate((s) => `max ${s.max} ${s.getAttribute('aria-valuetext')}`));
  assert.equal(await page.locator('#messages .msg[data-source="goto"]').count(), 0, 'the computing line stays');
  // The address follows the shown step (it is written a moment later).
  await page.waitForFunction(() => new URL(location.href).searchParams.get('step') === '1000', null, { timeout: 2000 });
  assert.equal(await errorLine(page), '');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a run opened at or past its end is shown finished and paused: its button says Replay, and the embed does not start it over', async () => {
  const query = '?topology=mesh:8x8&workload=random-permutation&step=1000';
  const { page, errors } = await openPage(query);
  assert.equal(await role(page, 'status').innerText(), 'finished');
  assert.equal(await role(page, 'play').innerText(), 'Replay');
  const last = await shownStep(page);
  assert.ok(last > 0 && last < 1000, `shown step ${last}`);
  assert.match(await page.locator('#messages').innerText(), new RegExp(`step=1000 is past the run's end: showing its last step, ${last}\\.`));
  await page.waitForTimeout(400);
  assert.equal(await shownStep(page), last, 'the finished run moved');
  assert.deepEqual(errors, []);
  await page.close();
  // Embedded (a run waits to be seen, then plays): the frame is in view, and stays on the last step.
  const host = await embedPage(`${query}&embed=1`);
  await host.page.waitForTimeout(600);
  assert.equal(await shownStep(host.frame), last, 'the embed started the finished run over');
  assert.equal(await role(host.frame, 'status').innerText(), 'finished');
  assert.equal(await role(host.frame, 'play').innerText(), 'Replay');
  assert.deepEqual(host.errors, []);
  await host.page.close();
});

test('only the parent window commands an embed; a page on its own passes over messages not meant for it', async () => {
  // A sibling frame of the course page sends a command to the simulator: not obeyed, not reported.
  const host = await embedPage('?topology=mesh:8x8&workload=random-permutation&play=0&embed=1');
  await host.page.evaluate(() => new Promise((resolve) => {
    const other = document.createElement('iframe');
    other.id = 'other';
    other.srcdoc = '<p>another widget</p>';
    other.onload = resolve;
    document.body.append(other);
  }));
  await host.page.evaluate(() => {
    // The sibling (same origin as the course page) posts to frames[0], the simulator.
    const other = document.getElementById('other').contentWindow;
    other.eval(`parent.frames[0].postMessage({ type: 'routesim:command', command: 'goto', step: 7 }, '*')`);
  });
  await host.page.waitForTimeout(400);
  assert.equal(await shownStep(host.frame), 0, 'a sibling frame moved the run');
  assert.equal(await errorLine(host.frame), '');
  // The parent's own command is obeyed.
  const got = await sendMessage(host.page, { type: 'routesim:command', command: 'goto', step: 3 }, 1, { list: 'states' });
  assert.deepEqual(got.map((s) => s.step), [3]);
  await host.page.close();
  // On its own: an extension's message is passed over; one meant for the page is read.
  const { page, errors } = await openPage('?topology=mesh:8x8&workload=random-permutation&play=0');
  await page.evaluate(() => window.postMessage({ source: 'react-devtools-content-script', payload: 1 }, '*'));
  await page.evaluate(() => window.postMessage('some-extension:ping', '*'));
  await page.waitForTimeout(300);
  assert.equal(await errorLine(page), '', 'a message not meant for the page was reported');
  await page.evaluate(() => window.postMessage({ type: 'routesim:command', command: 'fly' }, '*'));
  await page.waitForFunction(() => !document.querySelector('[data-role="error"]').hidden);
  assert.match(await errorLine(page), /malformed routesim:command .*unknown command "fly"/);
  await page.evaluate(() => window.postMessage({ type: 'routesim:command', command: 'goto', step: 4 }, '*'));
  await page.waitForFunction(() => document.querySelector('[data-role="step-count"]').innerText === '4');
  assert.deepEqual(errors, []);
  await page.close();
});

test('speed takes any decimal spelling of a number in range (1e3 = 1000)', async () => {
  const { page, errors } = await openPage('?topology=mesh:8x8&workload=random-permutation&speed=1e3&play=0');
  assert.equal(await errorLine(page), '');
  assert.equal(await role(page, 'play').getAttribute('data-speed'), '1000');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a run whose last packets are delivered where they stand (pp-rand, mesh:4x4) shows its last step finished, all delivered, in one message', async () => {
  // The core's report: 49 steps. Before, the page showed step 49 with 12 of 16 delivered, then an empty step 50.
  const { page, frame, errors } = await host('index.html?embed=1&topology=mesh:4x4&algorithm=pp-rand&workload=random-lk&l=1&k=3&seed=1&speed=20&compare=');
  await frame.waitForFunction(() => document.querySelector('[data-role="status"]').textContent === 'finished', null, { timeout: 30000 });
  assert.equal(await shownStep(frame), 49);
  assert.equal(await frame.locator('[data-role="scrubber"]').getAttribute('max'), '49');
  const last = await page.evaluate(() => window.states.filter((s) => s.step === 49));
  assert.deepEqual(last.map((s) => [s.delivered, s.packets, s.status]), [[16, 16, 'finished']]);
  // The run chart agrees with the counters: its last point is step 49 with nothing in flight.
  const chart = await frame.evaluate(() => {
    const c = window.routesim.charts.run;
    const col = (name) => [...c.data[c.series.indexOf(name)]];
    return { steps: col('step').at(-1), inFlight: col('in flight').at(-1) };
  });
  assert.deepEqual(chart, { steps: 49, inFlight: 0 });
  // Back two steps, then step by step: step 49 again arrives finished, and a step past the end posts nothing.
  await page.evaluate(() => { window.states.length = 0; });
  await send(page, { type: 'routesim:command', command: 'goto', step: 47 }, 1);
  await send(page, { type: 'routesim:command', command: 'step' }, 1);
  await send(page, { type: 'routesim:command', command: 'step' }, 1);
  await send(page, { type: 'routesim:command', command: 'step' });
  const states = await page.evaluate(() => window.states.map((s) => [s.step, s.delivered, s.status]));
  assert.deepEqual(states, [[47, 12, 'paused'], [48, 12, 'paused'], [49, 16, 'finished']]);
  assert.deepEqual(errors, []);
  await page.close();
});
