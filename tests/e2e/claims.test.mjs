// Claims say what was checked (issue 25, problem 2), at 1280×800, 390×844
// and in a 400 px iframe: every claim line carries its verdict
// (`data-role="claim"`, `data-verdict`, SPEC §7), ✓/✗ only beside met or
// not-met; asymptotic claims are `measured` with their constant; the
// ks-wrap-torus lesson's check line says what it checks and is not "met";
// on a torus no claim reads "Not checked here", and where no paper bounds
// the algorithm the panel says so; greedy on a ring is judged by
// Kaufmann–Sibeyn §5 (Lemma 7 met, Lemma 8 measured).
// Run: node --test tests/e2e/claims.test.mjs (after ./build.sh).

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { openPage, embedPage } from './harness.mjs';

const VIEWS = [
  ['1280×800', { width: 1280, height: 800 }],
  ['390×844', { width: 390, height: 844 }],
  ['a 400 px iframe', null],
];

/** The page (or the iframe's frame) at `query` in `viewport` (`null`: a 400 px iframe). */
async function open(query, viewport) {
  if (viewport) {
    const { page, errors } = await openPage(query, viewport);
    return { page, doc: page, errors };
  }
  const { page, frame, errors } = await embedPage(query, { width: 400, height: 760 });
  return { page, doc: frame, errors };
}

/** Runs the shown run (and the one beside it) to the end, whether or not Setup is folded. */
async function finish(doc) {
  await doc.evaluate(() => document.getElementById('finish').click());
  await doc.waitForFunction(() => document.querySelector('[data-role="status"]').textContent === 'finished', null, { timeout: 90000 });
}

/** Every claim line: its verdict and its text. */
const claimLines = (doc) => doc.evaluate(() => [...document.querySelectorAll('[data-role="claim"]')]
  .map((el) => ({ verdict: el.dataset.verdict, text: el.innerText })));

function marksFollowVerdicts(lines, where) {
  const verdicts = ['pending', 'met', 'not-met', 'measured', 'not-applicable'];
  for (const { verdict, text } of lines) {
    assert.ok(verdicts.includes(verdict), `${where}: verdict ${verdict}`);
    if (/[✓✗]/.test(text)) assert.ok(['met', 'not-met'].includes(verdict), `${where}: "${text}" is ${verdict}`);
  }
}

for (const [name, viewport] of VIEWS) {
  test(`ks-wrap-torus at ${name}: the check says what it checks and is measured, not met`, async () => {
    const { page, doc, errors } = await open('?lesson=ks-wrap-torus', viewport);
    const check = doc.locator('[data-role="lesson-check"]');
    assert.equal(await check.getAttribute('data-verdict'), 'pending');
    await finish(doc);
    await doc.waitForFunction(() => document.querySelector('[data-role="lesson-check"]').dataset.verdict !== 'pending', null, { timeout: 10000 });
    assert.equal(await check.getAttribute('data-verdict'), 'measured');
    const text = await check.innerText();
    assert.match(text, /^Checked on this run: ks-wrap — the steps against Theorem 7's max\{2n, kn\/4\} as main term, plus a measured constant times √\(k·n·ln n\)/);
    assert.doesNotMatch(text.split('\n')[0], /— met/, 'the check line does not read "met"');
    const lines = await claimLines(doc);
    const theorem7 = lines.find((l) => /Theorem 7/.test(l.text));
    assert.equal(theorem7?.verdict, 'measured', JSON.stringify(lines));
    // The steps as the main term plus a measured constant in the claim's unit: "206 = 128 + 2.40·√(k·n·ln n)".
    assert.match(theorem7.text, /measured \d+ = 128 [+−] \d+\.\d\d·√\(k·n·ln n\)/);
    assert.doesNotMatch(theorem7.text, /[✓✗]/);
    marksFollowVerdicts(lines, name);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test(`on a torus at ${name}: claims judged or a reason, never "Not checked here"`, async () => {
    // WrapRoute's torus theorems, judged.
    const wrap = await open('?topology=torus:16x16&algorithm=ks-wrap&workload=random-kk&k=4', viewport);
    await finish(wrap.doc);
    await wrap.doc.waitForFunction(() => [...document.querySelectorAll('[data-role="claim"]')].some((el) => /Theorem 7/.test(el.innerText) && el.dataset.verdict === 'measured'), null, { timeout: 10000 });
    let text = await wrap.doc.locator('[data-role="explain"]').innerText();
    assert.doesNotMatch(text, /Not checked here/);
    const lines = await claimLines(wrap.doc);
    assert.ok(lines.some((l) => /Theorem 9/.test(l.text) && l.verdict === 'measured'), JSON.stringify(lines));
    marksFollowVerdicts(lines, name);
    assert.deepEqual(wrap.errors, []);
    await wrap.page.close();
    // Greedy on a torus: no paper bounds it there, and the panel says so.
    const greedy = await open('?topology=torus:16x16&algorithm=greedy&workload=random-permutation', viewport);
    await finish(greedy.doc);
    text = await greedy.doc.locator('[data-role="explain"]').innerText();
    assert.doesNotMatch(text, /Not checked here/);
    assert.match(text, /No paper in this collection bounds greedy on a torus/);
    const greedyLines = await claimLines(greedy.doc);
    assert.ok(greedyLines.length >= 1 && greedyLines.every((l) => l.verdict === 'not-applicable'), JSON.stringify(greedyLines));
    assert.ok(greedyLines.every((l) => /stated for/.test(l.text)), 'each claim says for which networks it is stated');
    assert.deepEqual(greedy.errors, []);
    await greedy.page.close();
  });
}

test('bit fixing: the worst-case claim is not applicable on a random permutation and measured on transpose', async () => {
  const random = await open('?topology=hypercube:6&algorithm=bit-fixing&workload=random-permutation', { width: 1280, height: 800 });
  await finish(random.doc);
  let lines = await claimLines(random.doc);
  const na = lines.find((l) => /oblivious lower bound/.test(l.text));
  assert.equal(na?.verdict, 'not-applicable');
  assert.match(na.text, /stated for transpose; this run routes random-permutation/);
  await random.page.close();
  const transpose = await open('?topology=hypercube:6&algorithm=bit-fixing&workload=transpose', { width: 1280, height: 800 });
  await finish(transpose.doc);
  lines = await claimLines(transpose.doc);
  const measured = lines.find((l) => /oblivious lower bound/.test(l.text));
  assert.equal(measured?.verdict, 'measured');
  assert.match(measured.text, /the measured constant is c = \d+\.\d/);
  marksFollowVerdicts(lines, 'transpose');
  assert.deepEqual([...random.errors, ...transpose.errors], []);
  await transpose.page.close();
});

test('greedy on a ring: Lemma 7 met with the arc it names, Lemma 8 measured, the linear-array lemmas stated for other runs', async () => {
  const { page, doc, errors } = await open('?topology=ring:16&workload=random-destinations&k=4&algorithm=greedy&play=0', { width: 1280, height: 800 });
  await finish(doc);
  await doc.waitForFunction(() => [...document.querySelectorAll('[data-role="claim"]')].some((el) => /Lemma 7/.test(el.innerText) && el.dataset.verdict !== 'pending'), null, { timeout: 10000 });
  const lines = await claimLines(doc);
  // An applying claim's line starts with its mark (✓, ≈) on a line of its own.
  const find = (name) => lines.find((l) => l.text.replace(/^[✓✗…≈]\n/, '').startsWith(`${name}:`));
  assert.equal(find('Lemma 7')?.verdict, 'met', JSON.stringify(lines));
  assert.match(find('Lemma 7').text, /= (\d+) \(n = 16\); the maximum is at the arc from node \d+ to node \d+ going (left|right)[^]*finished in \1 steps = \1 — met ✓/);
  for (const name of ['Lemma 10', 'Corollary 3']) assert.equal(find(name)?.verdict, 'met', name);
  assert.match(find('Lemma 8').text, /finished in \d+ steps, \d+ steps (above|below) the main term 8: \d+ = 8 [+−] \d+\.\d\d·√\(k·n·ln n\)/);
  assert.equal(find('Lemma 8').verdict, 'measured');
  // The claims stated for other runs, one line per reason: "Lemma 2, Lemma 4, …: stated for a linear array; this is ring:16".
  const linear = lines.find((l) => l.text.split(':')[0].split(', ').includes('Lemma 3'));
  assert.equal(linear?.verdict, 'not-applicable');
  assert.match(linear.text, /^Lemma 2, Lemma 4, Corollary 1, Corollary 2, Lemma 3, Lemma 5, Lemma 6: stated for a linear array; this is ring:16$/);
  marksFollowVerdicts(lines, 'ring');
  assert.deepEqual(errors, []);
  await page.close();
});
