#!/usr/bin/env bash
# The NoLRoute table of docs/algorithms/kaufmann-sibeyn.md (Kaufmann–Sibeyn §9.2, Theorem 15): ks-local
# with --locality unknown:L (the local-kk workload with locality L, which the
# nodes are not told) on n×n tori, farthest-first, phases separated; beside
# it the same instances (same seeds) with L told (--locality L, LocalRoute,
# Theorem 13), to show what not knowing L costs.
#   scripts/ks_nol_sweep.sh OUTDIR [SIDES] [SEEDS]   (SIDES default 16,32,64; SEEDS 1..3)
# Every L from 2 up to n/4 (powers of two), k = 4, 8, 16; and k = 64 at
# L = n/2 (kL > 16n: step 1.d runs). Writes OUTDIR/ks-nol.csv, each row
# tagged L=… and known or unknown, then prints the table
# (scripts/ks_nol_table.py).
set -euo pipefail
out=${1:?usage: scripts/ks_nol_sweep.sh OUTDIR [SIDES] [SEEDS]}
sides=${2:-16,32,64}
seeds=${3:-1..3}
bin=${ROUTESIM:-target/release/routesim}
mkdir -p "$out"
csv="$out/ks-nol.csv"
: >"$csv"
sweep() { # n L ks locality tag
  "$bin" sweep --topology "torus:$1x$1" --algorithm ks-local --workload local-kk --locality "$4" \
    --k "$3" --seeds "$seeds" --format csv >"$csv.part"
  [ -s "$csv" ] || head -n 1 "$csv.part" >"$csv"
  tail -n +2 "$csv.part" | sed "s/\$/,L=$2,$5/" >>"$csv"
}
for n in ${sides//,/ }; do
  L=2
  while [ $((4 * L)) -le "$n" ]; do
    sweep "$n" "$L" 4,8,16 "unknown:$L" unknown
    sweep "$n" "$L" 4,8,16 "$L" known
    L=$((2 * L))
  done
  sweep "$n" $((n / 2)) 64 "unknown:$((n / 2))" unknown
  sweep "$n" $((n / 2)) 64 "$((n / 2))" known
done
rm -f "$csv.part"
python3 "$(dirname "$0")/ks_nol_table.py" "$csv"
