// End-to-end tests of the page's teaching (issue 12: every run explained,
// lessons, two algorithms side by side, a default that shows routing at
// once), in headless Debian Chromium driven by playwright-core, against
// the static server of server.mjs. Every text and number checked here is
// the core's (src/explain/, src/lessons/table.rs, the registry).
// Run: node --test tests/e2e/*.test.mjs (after ./build.sh).
// Screenshots at 1280×800 go to $TEACH_SHOTS (default tests/e2e/screenshots/).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';

import { here, server, browser, openPage } from './harness.mjs';

const shots = process.env.TEACH_SHOTS ?? path.join(here, 'screenshots');
mkdirSync(shots, { recursive: true });
const LESSONS = ['lemma2-linear', 'greedy-bounds', 'greedy-worst', 'bitfix-vs-valiant', 'sort-route', 'offline-hall', 'pp-constant-queues', 'pp-det-colouring', 'deadlock', 'ks-nowrap', 'ks-wrap-torus', 'ks-smear', 'locality', 'nol-estimate', 'ks-level', 'cut-through', 'lmrr-butterfly', 'lmrr-shuffle-exchange', 'bitonic-vs-flashsort', 'valiant-load', 'rand-interval', 'lmrr-mesh', 'combining', 'greedy-average'];

/** Opens the page at `query` (harness.mjs `openPage`). */
const open = (query, viewport = { width: 1280, height: 800 }) => openPage(query, viewport);

const role = (page, name) => page.locator(`[data-role="${name}"]`);
const explainText = (page) => role(page, 'explain').innerText();
const finished = (page, timeout = 60000) => page.waitForFunction(
  () => document.querySelector('[data-role="status"]').textContent === 'finished', null, { timeout },
);
/** Both runs' step counters (the engines' own), and the two captions' shown steps. */
const steps = (page) => page.evaluate(() => {
  const s = window.routesim;
  return {
    main: s.sim.summary().step,
    other: s.compare.sim ? s.compare.sim.summary().step : null,
    mainRunning: s.sim.summary().status === 'running',
    otherRunning: s.compare.sim ? s.compare.sim.summary().status === 'running' : false,
    captions: [...document.querySelectorAll('.cmp-caption')].map((c) => Number(c.dataset.step)),
    shown: Number(document.querySelector('[data-role="step-count"]').textContent),
  };
});

test('the default view delivers within 10 s, finishes within 40 s, and says what it shows', async () => {
  // Packets whose source is their destination are delivered at step 0: the
  // default view must show others arriving. Count those first, paused.
  const paused = await open('?play=0');
  const atStart = parseInt(await role(paused.page, 'delivered').first().innerText(), 10);
  assert.ok(atStart < 256);
  await paused.page.close();

  const t0 = Date.now();
  const { page, errors } = await open('');
  // Packets arrive within 10 s of opening, by the page's own counters.
  await page.waitForFunction((n) => parseInt(document.querySelector('[data-role="delivered"]').textContent, 10) > n, atStart, { timeout: 10000 });
  const firstDelivery = Date.now() - t0;
  assert.ok(firstDelivery < 10000, `first delivery after ${firstDelivery} ms`);
  // The default is the core's intro view: the same run, offline beside greedy.
  const intro = await page.evaluate(async () => {
    const wasm = await import('./pkg/routesim.js');
    const lesson = wasm.lesson('intro');
    const c = window.routesim.config;
    return {
      lesson,
      config: { topology: c.topology, algorithm: c.algorithm, workload: c.workload, policy: c.policy, seed: c.seed },
      compare: window.routesim.page.compare,
      speed: window.routesim.page.speed,
    };
  });
  for (const key of ['topology', 'algorithm', 'workload', 'policy', 'seed']) {
    assert.equal(String(intro.config[key]), String(intro.lesson.config[key]), key);
  }
  assert.equal(intro.compare, intro.lesson.preset.compare);
  // The default view is paced by the core (no user speed): it plays in the intro's seconds.
  assert.equal(intro.speed, null);
  assert.ok(intro.lesson.preset.seconds >= 20 && intro.lesson.preset.seconds <= 40, 'the intro plays in 20–40 s');
  assert.equal(await role(page, 'network').count(), 2, 'the default view shows two runs side by side');
  const text = await explainText(page);
  assert.ok(text.includes(intro.lesson.title), 'the explain panel does not say what the default shows');
  assert.match(text, /≤ 2n − 2 = 30 steps for this instance/);
  assert.match(text, /≤ 3n − 3 = 45 steps for this instance/);
  assert.match(text, /largest queue = 2⌊\(n − 2\)\/3⌋ \+ 1 = 9 for this instance/);
  await page.waitForTimeout(Math.max(0, 4000 - (Date.now() - t0)));
  await page.screenshot({ path: path.join(shots, 'teach-default.png') });
  await finished(page, 40000 - (Date.now() - t0));
  const total = Date.now() - t0;
  assert.ok(total < 40000, `the default run took ${total} ms`);
  const verdict = await role(page, 'compare-verdict').innerText();
  assert.match(verdict, /^greedy: 15 steps, largest queue 9 · offline: \d+ steps, largest queue [0-3]$/);
  assert.match(await explainText(page), /greedy is faster \(15 < \d+ steps\) but offline needs less room \(largest queue [0-3] < 9\) ✓/);
  assert.equal(page.url(), server.url, 'the default view has no URL parameters');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the explain panel names the claim with the instance\'s number and updates its verdict', async () => {
  const { page, errors } = await open('?topology=mesh:16x16&algorithm=greedy&workload=transpose&play=0');
  assert.equal(await role(page, 'network').count(), 1);
  let text = await explainText(page);
  assert.match(text, /the 2n − 2 bound: ≤ 2n − 2 = 30 steps \(n = 16\)/);
  assert.match(text, /step 0: \d+ \/ 256 delivered; the claim allows ≤ 30 — not yet decided/);
  assert.match(text, /Lemma 2/, 'claims that do not apply are still named');
  assert.match(text, /Phase route — packets move along their row/);
  // The terms are in a <details>, closed at first.
  assert.match(await role(page, 'explain').textContent(), /farthest-first: when packets want the same link/);
  assert.match(text, /each packet first travels along its row/i);
  await role(page, 'step-forward').click();
  await page.waitForFunction(() => /step 1: /.test(document.querySelector('[data-role="explain"]').innerText));
  await page.click('#finish');
  await finished(page);
  await page.waitForFunction(() => /finished in \d+ steps ≤ 30 — met ✓/.test(document.querySelector('[data-role="explain"]').innerText));
  // Colouring by destination gives the key instead of the class legend.
  await page.selectOption('#color', 'destination');
  text = await explainText(page);
  assert.match(text, /a packet's colour is its destination, on the scale under the canvas: darkest for node 0/);
  // The scale under the canvas, with its ends; the text names no hue the legend would have to list (SPEC §7).
  assert.match(await role(page, 'legend-key').innerText(), /colour = destination \(node 0 → last\): 0 … 255/);
  assert.doesNotMatch(text, /\b(red|orange|yellow|green|blue|purple)\b/i);
  assert.deepEqual(errors, []);
  await page.close();
});

test('an O() claim shows the measured constant; pp names its phase and colour classes', async () => {
  const { page, errors } = await open('?topology=mesh:16x16&algorithm=pp-rand&workload=random-lk&l=2&k=2&play=0');
  assert.match(await explainText(page), /O\(√\(ℓkN\)\) steps = c·32 \(ℓ = 2, k = 2, N = 256\)/);
  // Pietracaprina–Pucci state constant queues with no constant: O(1), the constant measured.
  assert.match(await explainText(page), /queues O\(1\) = c·1/);
  // Step 100 is in colour class 0's phases (the run takes about 300 steps).
  await page.evaluate(() => window.routesim.sim.step(100));
  await page.click('[data-role="step-forward"]');
  await page.waitForFunction(() => /colour class 0/.test(document.querySelector('[data-role="explain"]').innerText));
  // The legend (issue 25: no longer in the explain panel) names the colour classes with their colour words.
  await page.waitForFunction(() => /green: colour class 1/.test(document.querySelector('[data-role="legend"]').textContent));
  await page.click('#finish');
  await finished(page);
  await page.waitForFunction(() => /the measured constant is c = \d+\.\d/.test(document.querySelector('[data-role="explain"]').innerText));
  assert.deepEqual(errors, []);
  await page.close();
});

// `deadlock` stalls on purpose (its check: it stalls on a wait-for cycle): deadlock.test.mjs runs it.
for (const id of LESSONS.filter((l) => l !== 'deadlock')) {
  test(`lesson ${id} loads from ?lesson= and its live check passes on its preset`, async () => {
    const { page, errors } = await open(`?lesson=${id}`);
    const lesson = await page.evaluate((i) => window.routesim.lessons.find((l) => l.id === i), id);
    assert.ok(lesson, id);
    assert.equal(await role(page, 'lesson').inputValue(), id);
    assert.equal(await role(page, 'algorithm').inputValue(), lesson.preset.algorithm);
    assert.equal(await role(page, 'topology').inputValue(), lesson.preset.topology);
    assert.equal(await role(page, 'workload').inputValue(), lesson.preset.workload);
    assert.equal(await role(page, 'network').count(), lesson.preset.compare ? 2 : 1);
    let text = await explainText(page);
    assert.ok(text.includes(lesson.title) && text.includes(lesson.text.slice(0, 60)), `${id}: the lesson is not explained`);
    if (lesson.predict) {
      // A lesson that asks for a guess keeps the answer out of view until
      // then: its check (bounds and values) and the run's length in the
      // speed label; a step without a guess shows them.
      assert.match(text, /This run's check, with its bounds for this instance, appears once you have guessed/);
      assert.doesNotMatch(await page.locator('#speed-out').innerText(), /\d+ steps in/, id);
      // The lower bound too (lemma2-linear's steps equal it).
      assert.equal(await page.locator('#c-bound').innerText(), 'shown after your guess', id);
      await page.click('#step');
      await page.waitForFunction(() => !/appears once you have guessed/.test(document.querySelector('[data-role="lesson-check"]').textContent));
      assert.doesNotMatch(await page.locator('#c-bound').innerText(), /after your guess/, id);
      text = await explainText(page);
    }
    assert.match(text, /Checked on this run: .+ — not yet decided/);
    assert.equal(await role(page, 'lesson-check').getAttribute('data-verdict'), 'pending');
    assert.ok(await role(page, 'lesson-check').locator('li').count() >= 1);
    if (id === 'bitfix-vs-valiant') await page.screenshot({ path: path.join(shots, 'teach-lesson.png') });
    await page.click('#finish');
    await finished(page, 120000);
    // Passes: met when every check is an exact bound met; measured when a check is asymptotic (never "met" then).
    await page.waitForFunction(() => ['met', 'measured'].includes(document.querySelector('[data-role="lesson-check"]')?.dataset.verdict), null, { timeout: 10000 });
    const checks = await role(page, 'lesson-check').innerText();
    assert.ok(!/✗/.test(checks), `${id}: ${checks}`);
    const verdicts = await role(page, 'lesson-check').locator('li').evaluateAll((lis) => lis.map((li) => li.dataset.verdict));
    const verdict = await role(page, 'lesson-check').getAttribute('data-verdict');
    assert.equal(verdict, verdicts.includes('measured') ? 'measured' : 'met', `${id}: ${verdicts}`);
    if (verdict === 'measured') assert.doesNotMatch(checks, /— met ✓\n/, `${id}: ${checks}`);
    if (id === 'lemma2-linear') {
      assert.match(checks, /Lemma 2: T = max_\{i<j\}\(j − i \+ h\(i,j\)\) = (\d+) for this instance; measured \1 ✓/);
    }
    if (id === 'ks-smear') {
      // The lesson's option is the form's, and the panel measures Theorem 6 as the text says.
      assert.equal(await page.locator('[data-role="option-smear"]').inputValue(), 'auto');
      assert.match(await explainText(page), /Theorem 6: packets at a node when a phase opens ≤ k \+ O\(1\)[^]*6 = k \+ 2/);
      assert.match(page.url(), /lesson=ks-smear/);
      assert.doesNotMatch(page.url(), /smear=/, 'the lesson\'s own option is written into the address');
    }
    assert.match(page.url(), new RegExp(`lesson=${id}`));
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('the lesson menu opens a lesson; an unknown lesson id is named in the error line', async () => {
  const { page, errors } = await open('?lesson=no-such-lesson&play=0');
  const error = await role(page, 'error').innerText();
  assert.match(error, /lesson="no-such-lesson"/);
  assert.match(error, /lemma2-linear/, 'the message lists the lessons');
  assert.match(error, /— no lesson opened\./, 'the message says what is used instead');
  assert.equal(await role(page, 'lesson').inputValue(), '');
  const options = await role(page, 'lesson').locator('option').evaluateAll((os) => os.map((o) => o.value));
  assert.deepEqual(options, ['', ...LESSONS]);
  await page.selectOption('[data-role="lesson"]', 'offline-hall');
  await page.waitForFunction(() => document.querySelector('[data-role="algorithm"]').value === 'offline');
  assert.match(page.url(), /lesson=offline-hall/);
  assert.match(await explainText(page), /Off-line routing in 3n − 3 steps/);
  // A change keeps the lesson and is written over its preset.
  await page.fill('#seed', '4');
  await page.locator('#seed').dispatchEvent('change');
  await page.waitForFunction(() => /seed=4/.test(location.search));
  assert.match(page.url(), /lesson=offline-hall/);
  assert.deepEqual(errors.filter((e) => !/no-such-lesson/.test(e)), []);
  await page.close();
});

test('two algorithms side by side stay on the same step and end in one verdict', async () => {
  const { page, errors } = await open('?topology=mesh:16x16&algorithm=sort-route&workload=random-permutation&compare=offline&speed=40');
  assert.equal(await role(page, 'network').count(), 2);
  assert.equal(await page.locator('[data-role="network"]').first().getAttribute('id'), 'network', 'the first canvas is the main algorithm\'s');
  assert.equal(await role(page, 'compare').inputValue(), 'offline');
  let sampled = 0;
  for (let i = 0; i < 8; i++) {
    const s = await steps(page);
    if (s.mainRunning && s.otherRunning) {
      assert.equal(s.main, s.other, `step counters differ: ${JSON.stringify(s)}`);
      sampled++;
    }
    assert.equal(s.captions[0], s.captions[1], 'the two canvases show different steps');
    assert.equal(s.captions[0], s.shown);
    await page.waitForTimeout(150);
  }
  assert.ok(sampled >= 3, `too few samples while both ran: ${sampled}`);
  const chart = await page.evaluate(() => window.routesim.charts.run.series);
  assert.deepEqual(chart, ['step', 'sort-route in flight', 'sort-route max queue this step', 'offline in flight', 'offline max queue this step']);
  await page.screenshot({ path: path.join(shots, 'teach-compare.png') });
  await page.click('#finish');
  await finished(page);
  const reports = await page.evaluate(() => [window.routesim.sim.report(), window.routesim.compare.sim.report()]);
  const verdict = await role(page, 'compare-verdict').innerText();
  assert.equal(verdict, `sort-route: ${reports[0].steps} steps, largest queue ${reports[0].max_queue} · offline: ${reports[1].steps} steps, largest queue ${reports[1].max_queue}`);
  const s = await steps(page);
  assert.equal(s.shown, Math.max(reports[0].steps, reports[1].steps));
  // Removing the second run returns to one canvas.
  await page.selectOption('[data-role="compare"]', '');
  assert.equal(await role(page, 'network').count(), 1);
  assert.match(page.url(), /compare=none|^((?!compare).)*$/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a compare algorithm that cannot run is said in one line and the single view shown', async () => {
  const { page, errors } = await open('?topology=mesh:16x16&algorithm=greedy&workload=random-kk&k=2&compare=offline&play=0');
  assert.equal(await role(page, 'network').count(), 1);
  const infos = await page.locator('.msg.info > span').allInnerTexts();
  const about = infos.filter((m) => m.includes('offline'));
  assert.equal(about.length, 1, infos.join(' | '));
  assert.ok(!about[0].includes('\n'));
  assert.match(about[0], /No second run: .*permutation.* — showing greedy alone\./);
  // The compare menu keeps the choice (it runs again where it can) and says it does not run here.
  const picked = await page.locator('[data-role="compare"]').evaluate((s) => [s.value, s.selectedOptions[0].text, s.selectedOptions[0].disabled]);
  assert.deepEqual(picked.slice(0, 2), ['offline', 'offline (cannot run here)']);
  // An algorithm no one knows is a bad URL parameter (SPEC §7): named in the error line, its default (none) used.
  const bad = await open('?topology=mesh:8x8&algorithm=greedy&workload=transpose&compare=teleport&play=0');
  assert.match(await role(bad.page, 'error').innerText(), /compare="teleport"/);
  assert.equal(await role(bad.page, 'network').count(), 1);
  assert.deepEqual([...errors, ...bad.errors], []);
  await page.close();
  await bad.page.close();
});

test('an algorithm\'s options are drawn from the registry, read from and written to the URL', async () => {
  const { page, errors } = await open('?topology=mesh:16x16&algorithm=ks-nowrap&workload=random-kk&k=4&phases=coalesced&play=0');
  const box = role(page, 'algorithm-options');
  assert.ok(await box.isVisible(), 'ks-nowrap has options');
  assert.match(await box.innerText(), /Options of ks-nowrap/);
  assert.equal(await role(page, 'option-phases').inputValue(), 'coalesced');
  assert.equal(await role(page, 'phase').innerText(), 'coalesced', 'the run is coalesced: one phase');
  // Back to separated: the first phase is the randomization, and the URL drops the default.
  await page.selectOption('[data-role="option-phases"]', 'separated');
  await page.waitForFunction(() => !/phases=/.test(location.search));
  assert.equal(await role(page, 'phase').innerText(), 'phase1-randomize');
  // Coalesced again, then an algorithm without that option: dropped, and said so.
  await page.selectOption('[data-role="option-phases"]', 'coalesced');
  await page.waitForFunction(() => /phases=coalesced/.test(location.search));
  await page.selectOption('[data-role="algorithm"]', 'greedy');
  await page.waitForFunction(() => !/phases=/.test(location.search) && !/algorithm=/.test(location.search));
  assert.match(await page.locator('#messages').innerText(), /phases applies only to ks-nowrap, ks-wrap(, [a-z-]+)* — dropped for greedy/);
  assert.match(await box.innerText(), /Options of greedy/);
  assert.equal(await role(page, 'option-reverse-order').isChecked(), false);
  await page.check('[data-role="option-reverse-order"]');
  await page.waitForFunction(() => /reverse-order=true/.test(location.search));
  // pp-rand's one option (Pietracaprina–Pucci §3): the nodes are not told ℓ and k.
  await page.selectOption('[data-role="algorithm"]', 'pp-rand');
  await page.waitForFunction(() => /Options of pp-rand/.test(document.querySelector('[data-role="algorithm-options"]').innerText));
  assert.equal(await role(page, 'option-unknown-lk').isChecked(), false);
  // An algorithm with no option hides the box: a sort (the menu then offers the sorts).
  await page.selectOption('[data-role="workload"]', 'sort-random');
  await page.waitForFunction(() => document.querySelector('[data-role="algorithm-options"]').hidden);
  assert.deepEqual(errors, []);
  await page.close();
});

test('ks-local\'s locality takes a number or unknown in the form (NoLRoute), and a bad word is named', async () => {
  const { page, errors } = await open('?topology=torus:16x16&algorithm=ks-local&workload=local-kk&k=4&locality=2&play=0');
  const box = role(page, 'option-locality');
  assert.equal(await box.inputValue(), '2');
  assert.match(await box.getAttribute('placeholder'), /unknown/);
  await box.fill('unknown:2');
  await box.press('Enter');
  await page.waitForFunction(() => /locality=unknown(%3A|:)2/.test(location.search));
  assert.equal(await box.inputValue(), 'unknown:2');
  // NoLRoute's first phase, which the known-locality run does not have.
  assert.equal(await role(page, 'phase').innerText(), 'phase1ab-randomize');
  await box.fill('sometimes');
  await box.press('Enter');
  await page.waitForFunction(() => /locality/.test(document.querySelector('#errors').innerText));
  assert.match(await page.locator('#errors').innerText(), /locality.*sometimes.*unknown/s);
  assert.match(page.url(), /locality=unknown(%3A|:)2/, 'the run and its address are kept');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a lesson opened with other values says what the run changes of its own, above the lesson text', async () => {
  const { page, errors } = await open('?lesson=bitonic-vs-flashsort&topology=hypercube:4&play=0');
  const note = role(page, 'lesson-changed');
  await note.waitFor();
  assert.match(await note.innerText(), /not the lesson's own: topology hypercube:4 \(the lesson's: butterfly:6\)/);
  // Above the lesson's text, which still speaks of butterfly:6.
  const order = await page.evaluate(() => {
    const box = document.querySelector('.x-lesson');
    const ps = [...box.querySelectorAll(':scope > p')];
    return ps.map((p) => (p.dataset.role === 'lesson-changed' ? 'note' : p.textContent.includes('butterfly:6') ? 'text' : 'other'));
  });
  assert.ok(order.indexOf('note') >= 0 && order.indexOf('note') < order.indexOf('text'), order.join(','));
  // The lesson's prediction question is about its own run: said beside it.
  assert.match(await page.locator('#predict-question').innerText(), /about the lesson's own run; the run shown is changed/);
  // The lesson's own run says nothing.
  await page.goto(server.url + '?lesson=bitonic-vs-flashsort&play=0');
  await page.waitForSelector('body[data-ready="1"]');
  assert.equal(await role(page, 'lesson-changed').count(), 0);
  assert.doesNotMatch(await page.locator('#predict-question').innerText(), /the run shown is changed/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('color=key on a run without keys is said in one line and the packets coloured by class', async () => {
  const { page, errors } = await open('?topology=mesh:8x8&workload=random-permutation&color=key&play=0');
  const infos = await page.locator('.msg.info > span').allInnerTexts();
  assert.equal(infos.filter((m) => /Colour by key needs a sort's keys/.test(m)).length, 1, infos.join(' | '));
  assert.ok((await role(page, 'legend-class').count()) > 0, 'coloured by class: the legend lists the classes');
  // A sort has keys: no such line.
  await page.goto(server.url + '?topology=mesh:8x8&workload=sort-random&algorithm=snake-sort&color=key&play=0');
  await page.waitForSelector('body[data-ready="1"]');
  const after = await page.locator('.msg.info > span').allInnerTexts();
  assert.ok(!after.some((m) => /Colour by key needs/.test(m)), after.join(' | '));
  assert.deepEqual(errors, []);
  await page.close();
});

test('an address ℓ or k the workload does not read is named once, then leaves the boxes and the address', async () => {
  const { page, errors } = await open('?topology=mesh:8x8&workload=random-permutation&l=2&k=3&play=0');
  const error = await role(page, 'error').innerText();
  assert.match(error, /URL parameter l=2 has no effect: random-permutation is a permutation/);
  assert.match(error, /URL parameter k=3 has no effect/);
  const boxes = await page.evaluate(() => ['l', 'k'].map((id) => {
    const el = document.getElementById(id);
    return [el.value, el.disabled, el.placeholder];
  }));
  assert.deepEqual(boxes, [['', true, '1'], ['', true, '1']]);
  assert.doesNotMatch(page.url(), /[?&][lk]=/);
  assert.deepEqual(errors.filter((e) => !/has no effect/.test(e)), []);
  await page.close();
});

test('an option of the lesson\'s algorithm leaves the address when another algorithm is chosen (reloading it says nothing)', async () => {
  for (const [lesson, algorithm, key] of [
    ['bitonic-vs-flashsort', 'bitonic', 'loading'],
    ['cut-through', 'offline', 'flits'],
    ['ks-level', 'greedy', 'superior'],
  ]) {
    const { page, errors } = await open(`?lesson=${lesson}&play=0`);
    await page.selectOption('[data-role="algorithm"]', algorithm);
    await page.waitForFunction((a) => new URL(location.href).searchParams.get('algorithm') === a, algorithm);
    const params = new URL(page.url()).searchParams;
    assert.ok(!params.has(key), `${lesson} + ${algorithm}: ${page.url()}`);
    await page.goto(page.url());
    await page.waitForSelector('body[data-ready="1"]');
    const error = await role(page, 'error').evaluate((el) => (el.hidden ? '' : el.innerText.trim()));
    assert.equal(error, '', `${lesson} + ${algorithm} reloaded`);
    assert.equal(await page.locator('[data-role="algorithm"]').inputValue(), algorithm);
    assert.deepEqual(errors, []);
    await page.close();
  }
});
