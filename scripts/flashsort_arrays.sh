#!/usr/bin/env bash
# Flashsort on d-dimensional meshes, both loadings, against the snake sort
# (docs/algorithms/flashsort.md, "d-dimensional arrays (§10)"): sort-random,
# seeds 1..5, the median steps, steps / (d·M) and the worst max_queue per
# network and loading.
#   scripts/flashsort_arrays.sh OUTDIR     writes OUTDIR/arrays-light.csv (with
#                                          the snake sort) and OUTDIR/arrays-full.csv,
#                                          and prints the Markdown table
set -euo pipefail
out=${1:?usage: scripts/flashsort_arrays.sh OUTDIR}
bin=${ROUTESIM:-target/release/routesim}
mkdir -p "$out"
for loading in light full; do
  algs=flashsort
  [ "$loading" = light ] && algs=flashsort,snake-sort
  "$bin" sweep --topology 'mesh:{n}x{n}' --n 8,16,32,64 --algorithm "$algs" --loading "$loading" \
    --workload sort-random --seeds 1..5 --out "$out/arrays-$loading.csv"
  "$bin" sweep --topology 'mesh:{n}x{n}x{n}' --n 4,8,16 --algorithm flashsort --loading "$loading" \
    --workload sort-random --seeds 1..5 --format csv | tail -n +2 >>"$out/arrays-$loading.csv"
done
python3 - "$out/arrays-light.csv" "$out/arrays-full.csv" <<'PY'
import csv, statistics, sys
from collections import defaultdict
runs = defaultdict(list)
queues = defaultdict(list)
order = []
for path, loading in zip(sys.argv[1:], ["light", "full"]):
    for r in csv.DictReader(open(path)):
        alg = r["algorithm"] + (f" ({loading})" if r["algorithm"] == "flashsort" else "")
        key = (r["topology"], alg)
        if key not in runs:
            order.append(key)
        assert r["delivered"] == r["packets"] and not r["error"], r
        runs[key].append(int(r["steps"]))
        queues[key].append(int(r["max_queue"]))
order.sort(key=lambda k: (k[0].count("x"), int(k[0].split(":")[1].split("x")[0]), k[1]))
print("| network | algorithm | d | M | median steps | steps / (d·M) | max_queue (worst) |")
print("|---|---|---|---|---|---|---|")
for topo, alg in order:
    sides = [int(s) for s in topo.split(":")[1].split("x")]
    d, m = len(sides), max(sides)
    med = statistics.median(runs[(topo, alg)])
    print(f"| {topo} | {alg} | {d} | {m} | {med:g} | {med / (d * m):.2f} | {max(queues[(topo, alg)])} |")
PY
