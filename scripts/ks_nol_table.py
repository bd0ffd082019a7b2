#!/usr/bin/env python3
"""The NoLRoute table (docs/algorithms/kaufmann-sibeyn.md) from scripts/ks_nol_sweep.sh's CSV.

One row per (n, L, k): NoLRoute's steps (L unknown) against Theorem 15's main
term max{n, kL/16} + kL, the largest additive term (steps − main) in units of
√((n + kL)·ln n), the same after E = max{n/2, min{n, kn/16}} (phase 3 undoing
step 1.b's ±8n/k randomization, which the theorem's sum leaves out; 0 when
step 1.d ran, kL > 16n), and LocalRoute's steps on the same instances (L
known). L is the workload's; local-kk's instances move at most L along an
axis, and the table takes that L (step 1.d's condition uses the estimate,
equal to L here for powers of two).
"""
import csv
import math
import sys
from collections import defaultdict


def main():
    with open(sys.argv[1]) as f:
        lines = f.read().splitlines()
    header = lines[0].split(',')
    table = defaultdict(lambda: {'unknown': [], 'known': []})
    for line in lines[1:]:
        cells = next(csv.reader([line]))
        r = dict(zip(header, cells))
        L, which = int(cells[len(header)].split('=')[1]), cells[len(header) + 1]
        table[(int(r['side']), L, int(r['k']))][which].append(int(r['steps']))
    print('| n | L | k | Theorem 15 main term | E | steps, L unknown | steps / main | additive term | '
          'additive after E | steps, L known |')
    print('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |')
    for (n, L, k) in sorted(table):
        runs = table[(n, L, k)]
        main = max(n, k * L / 16) + k * L
        unit = math.sqrt((n + k * L) * math.log(n))
        u, kn = runs['unknown'], runs['known']
        e = max(n / 2, min(n, k * n / 16)) if k * L <= 16 * n else 0
        add = max((s - main) / unit for s in u)
        after = max((s - main - e) / unit for s in u)
        print(f'| {n} | {L} | {k} | {main:g} | {e:g} | {min(u)}–{max(u)} | {min(u) / main:.2f}–{max(u) / main:.2f} '
              f'| {add:.2f} | {after:.2f} | {min(kn)}–{max(kn)} |')


if __name__ == '__main__':
    main()
