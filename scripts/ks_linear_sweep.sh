#!/usr/bin/env bash
# Kaufmann–Sibeyn §5 on greedy (docs/algorithms/kaufmann-sibeyn.md, "§5: routing
# on a linear array and a ring"): random-destinations (k packets from every node
# to independent random nodes) on linear arrays and rings, k = 1, 2, 4, 8, 16,
# policies farthest-first, fifo, random and nearest-first; and one worm of F = 2,
# 4, 8 flits from every node (k = 1, --flits F), farthest-first and fifo.
#   scripts/ks_linear_sweep.sh OUTDIR [SIDES] [SEEDS]   (SIDES default 32,64,128,256,512; SEEDS 1..20)
# writes OUTDIR/ks-linear.csv and OUTDIR/ks-linear-worms.csv (some of the
# sweep's columns; the worms' with a flits column); scripts/ks_linear_table.py OUTDIR prints the docs' table.
set -euo pipefail
out=${1:?usage: scripts/ks_linear_sweep.sh OUTDIR [SIDES] [SEEDS]}
sides=${2:-32,64,128,256,512}
seeds=${3:-1..20}
bin=${ROUTESIM:-target/release/routesim}
mkdir -p "$out"
# The sweep's columns the table reads, and a few to look at.
cols=1,2,5,6,7,8,9,11,15,16,24,28
"$bin" sweep --topology 'linear:{n},ring:{n}' --n "$sides" --workload random-destinations \
  --k 1,2,4,8,16 --policy farthest-first,fifo,random,nearest-first --seeds "$seeds" --format csv |
  cut -d, -f"$cols" >"$out/ks-linear.csv"
first=1
for f in 2 4 8; do
  "$bin" sweep --topology 'linear:{n},ring:{n}' --n "$sides" --workload random-destinations --k 1 \
    --flits "$f" --policy farthest-first,fifo --seeds "$seeds" --format csv | cut -d, -f"$cols" |
    awk -v f="$f" -v first="$first" 'NR == 1 { if (first) print $0 ",flits"; next } { print $0 "," f }'
  first=0
done >"$out/ks-linear-worms.csv"
