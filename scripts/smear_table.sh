#!/usr/bin/env bash
# Queue smearing's table (docs/algorithms/kaufmann-sibeyn.md, "k-k routing: queue smearing"): ks-nowrap on n×n meshes and
# ks-wrap on n×n tori, random k-permutations and k-PR, without --smear, with
# --smear 1 and with --smear auto (m = ⌈k·log₂ n⌉, at most n); every figure
# the worst over both workloads and all seeds.
#   scripts/smear_table.sh OUTDIR [SIDES] [KS] [SEEDS]   (defaults 16,32,64,128  2,4,8,16  1..3)
# writes OUTDIR/smear-{off,1,auto}.csv and prints the Markdown table.
set -euo pipefail
out=${1:?usage: scripts/smear_table.sh OUTDIR [SIDES] [KS] [SEEDS]}
sides=${2:-16,32,64,128}
ks=${3:-2,4,8,16}
seeds=${4:-1..3}
bin=${ROUTESIM:-target/release/routesim}
mkdir -p "$out"
for smear in off 1 auto; do
  flag=()
  [ "$smear" = off ] || flag=(--smear "$smear")
  "$bin" sweep --topology 'mesh:{n}x{n}' --n "$sides" --algorithm ks-nowrap \
    --workload random-kk,point-reflection --k "$ks" --seeds "$seeds" "${flag[@]}" --out "$out/smear-$smear.csv"
  "$bin" sweep --topology 'torus:{n}x{n}' --n "$sides" --algorithm ks-wrap \
    --workload random-kk,point-reflection --k "$ks" --seeds "$seeds" "${flag[@]}" --format csv |
    tail -n +2 >>"$out/smear-$smear.csv"
done
python3 - "$out" <<'PY'
import csv, sys
from collections import defaultdict
out = sys.argv[1]
runs = {s: list(csv.DictReader(open(f"{out}/smear-{s}.csv"))) for s in ("off", "1", "auto")}
worst = defaultdict(lambda: defaultdict(int))
order = []
for s, rows in runs.items():
    for r in rows:
        key = (r["algorithm"], r["topology"].split(":")[0], int(r["side"]), int(r["k"]))
        if key not in order:
            order.append(key)
        w = worst[key]
        for col in ("steps", "max_load", "max_barrier_load", "smear_block"):
            if r.get(col):
                w[f"{s}:{col}"] = max(w[f"{s}:{col}"], int(r[col]))
        smears = sum(int(p.split(":")[1]) for p in r["phases"].split(";") if p.startswith("smear"))
        w[f"{s}:smear_steps"] = max(w[f"{s}:smear_steps"], smears)
print("| algorithm, network | n | k | off: steps | off: max_load | m = 1: steps | m = 1: max_load "
      "| m = 1: parked | m | auto: steps (in smears) | auto: max_load | auto: parked |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for key in order:
    a, kind, n, k = key
    w = worst[key]
    print(f"| {a}, {kind} | {n} | {k} | {w['off:steps']} | {w['off:max_load']} | {w['1:steps']} "
          f"| {w['1:max_load']} | {w['1:max_barrier_load']} | {w['auto:smear_block']} "
          f"| {w['auto:steps']} ({w['auto:smear_steps']}) | {w['auto:max_load']} | {w['auto:max_barrier_load']} |")
PY
