#!/usr/bin/env python3
"""The table for ks-level and ks-local (docs/algorithms/kaufmann-sibeyn.md) from scripts/ks_level_sweep.sh's CSVs.

Each row: steps / main term (min–max over workloads and seeds) and the largest
additive term (steps − main) in the theorem's units.
  ks-level: Corollary 4, (k/2+1)(n+ε), units (k/2+1)·√(n ln n) (ε = ceil(n/8));
            Theorem 1, (k+1)/2·n + kε/8, same units (rows marked eps=n, k·ε ≥ 4n).
  ks-local: Theorem 13 (torus) max{5L/2, kL} + max{L/2, kL/16};
            Theorem 14 (mesh) max{L, kL/8} + max{2L, kL}; units √(kL ln n).
"""
import csv
import math
import sys
from collections import defaultdict


def rows(path):
    with open(path) as f:
        lines = f.read().splitlines()
    header = lines[0].split(',')
    for line in lines[1:]:
        cells = next(csv.reader([line]))
        tag = cells[len(header):]
        yield dict(zip(header, cells)), (tag[0] if tag else '')


def main():
    level, local = sys.argv[1], sys.argv[2]
    table = defaultdict(list)
    for r, tag in rows(level):
        n, k, steps = int(r['side']), int(r['k']), int(r['steps'])
        unit = (k / 2 + 1) * math.sqrt(n * math.log(n))
        if tag:
            eps = int(tag.split('=')[1])
            if k * eps < 4 * n:
                continue
            m, what = (k + 1) / 2 * n + k / 8 * eps, 'Theorem 1 (ε = n)'
        else:
            eps = math.ceil(n / 8)
            m, what = (k / 2 + 1) * (n + eps), 'Corollary 4 (ε = ⌈n/8⌉)'
        table[('ks-level', what, f'n={n}', k)].append((steps / m, (steps - m) / unit))
    for r, tag in rows(local):
        n, k, steps = int(r['side']), int(r['k']), int(r['steps'])
        L = int(tag.split('=')[1])
        unit = math.sqrt(k * L * math.log(n))
        if r['topology'].startswith('torus'):
            m, what = max(2.5 * L, k * L) + max(L / 2, k * L / 16), 'Theorem 13 (torus)'
        else:
            m, what = max(L, k * L / 8) + max(2 * L, k * L), 'Theorem 14 (mesh)'
        table[('ks-local', what, f'n={n}, L={L}', k)].append((steps / m, (steps - m) / unit))
    print('| algorithm | theorem | network | k | steps / main term | largest additive term |')
    print('| --- | --- | --- | --- | --- | --- |')
    for key in sorted(table, key=lambda t: (t[0], t[1], int(t[2].split(',')[0][2:]), t[2], t[3])):
        vals = table[key]
        lo, hi = min(v[0] for v in vals), max(v[0] for v in vals)
        add = max(v[1] for v in vals)
        print(f'| `{key[0]}` | {key[1]} | {key[2]} | {key[3]} | {lo:.2f}–{hi:.2f} | {add:.2f} |')


if __name__ == '__main__':
    main()
