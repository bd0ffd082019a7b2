#!/usr/bin/env python3
"""The §5 table for greedy on linear arrays and rings (docs/algorithms/kaufmann-sibeyn.md)
from scripts/ks_linear_sweep.sh's CSVs.

For each lemma and policy: steps / main term (min–max over sides, k and seeds)
and the largest additive term (steps − main) in the lemma's unit, √(k·n·ln n)
(F·√(n·ln n) for the worms), k the packets each node sends (the l column).
  Lemma 3  (linear, farthest-first) max{n, kn/4}
  Lemma 5  (linear, any)            max{n, kn/4 + n/(4k) + n/2}
  Lemma 8  (ring, farthest-first)   max{n/2, kn/8}
  Lemma 11 (ring, any)              kn/8 + n/2
  Lemma 6  (linear, worms of F)     max{n, Fn/4 + n/(4F) + n/2}
  Lemma 12 (ring, worms of F)       Fn/8 + n/2
"""
import csv
import math
import sys
from collections import defaultdict


def main():
    out = sys.argv[1]
    table = defaultdict(list)

    def add(lemma, kind, policy, steps, m, unit):
        table[(lemma, kind, policy)].append((steps / m, (steps - m) / unit))

    with open(f'{out}/ks-linear.csv') as f:
        for r in csv.DictReader(f):
            n, k, steps, policy = int(r['nodes']), int(r['l']), int(r['steps']), r['policy']
            kind = r['topology'].split(':')[0]
            unit = math.sqrt(k * n * math.log(n))
            if kind == 'linear':
                if policy == 'farthest-first':
                    add('Lemma 3', kind, policy, steps, max(n, k * n / 4), unit)
                add('Lemma 5', kind, policy, steps, max(n, k * n / 4 + n / (4 * k) + n / 2), unit)
            else:
                if policy == 'farthest-first':
                    add('Lemma 8', kind, policy, steps, max(n / 2, k * n / 8), unit)
                add('Lemma 11', kind, policy, steps, k * n / 8 + n / 2, unit)
    with open(f'{out}/ks-linear-worms.csv') as f:
        for r in csv.DictReader(f):
            n, fl, steps, policy = int(r['nodes']), int(r['flits']), int(r['steps']), r['policy']
            kind = r['topology'].split(':')[0]
            unit = fl * math.sqrt(n * math.log(n))
            if kind == 'linear':
                add('Lemma 6', kind, policy, steps, max(n, fl * n / 4 + n / (4 * fl) + n / 2), unit)
            else:
                add('Lemma 12', kind, policy, steps, fl * n / 8 + n / 2, unit)
    print('| lemma | network | policy | runs | steps / main term | largest additive term |')
    print('| --- | --- | --- | --- | --- | --- |')
    for (lemma, kind, policy), v in sorted(table.items(), key=lambda kv: (int(kv[0][0].split()[1]), kv[0][2])):
        ratios = [a for a, _ in v]
        extra = max(b for _, b in v)
        print(f'| {lemma} | {kind} | {policy} | {len(v)} | {min(ratios):.2f}–{max(ratios):.2f} | {extra:.2f} |')


if __name__ == '__main__':
    main()
