#!/usr/bin/env bash
# Flashsort on d-dimensional meshes against the snake sort
# (docs/algorithms/flashsort.md, "d-dimensional arrays (§10)"): sort-random,
# seeds 1..5, the median steps and steps / (d·M) per network.
#   scripts/flashsort_arrays.sh OUTDIR     writes OUTDIR/arrays.csv and prints the Markdown table
set -euo pipefail
out=${1:?usage: scripts/flashsort_arrays.sh OUTDIR}
bin=${ROUTESIM:-target/release/routesim}
mkdir -p "$out"
"$bin" sweep --topology 'mesh:{n}x{n}' --n 8,16,32,64 --algorithm flashsort,snake-sort \
  --workload sort-random --seeds 1..5 --out "$out/arrays.csv"
"$bin" sweep --topology 'mesh:{n}x{n}x{n}' --n 4,8,16 --algorithm flashsort \
  --workload sort-random --seeds 1..5 --format csv | tail -n +2 >>"$out/arrays.csv"
python3 - "$out/arrays.csv" <<'PY'
import csv, statistics, sys
from collections import defaultdict
runs = defaultdict(list)
queues = defaultdict(list)
order = []
for r in csv.DictReader(open(sys.argv[1])):
    key = (r["topology"], r["algorithm"])
    if key not in runs:
        order.append(key)
    assert r["delivered"] == r["packets"] and not r["error"], r
    runs[key].append(int(r["steps"]))
    queues[key].append(int(r["max_queue"]))
print("| network | algorithm | d | M | median steps | steps / (d·M) | max_queue (worst) |")
print("|---|---|---|---|---|---|---|")
for topo, alg in order:
    sides = [int(s) for s in topo.split(":")[1].split("x")]
    d, m = len(sides), max(sides)
    med = statistics.median(runs[(topo, alg)])
    print(f"| {topo} | {alg} | {d} | {m} | {med:g} | {med / (d * m):.2f} | {max(queues[(topo, alg)])} |")
PY
