#!/usr/bin/env bash
# The Kaufmann–Sibeyn figures' data (docs/algorithms/kaufmann-sibeyn.md, "k-k routing: Theorem 2's table"): Theorem 2's
# table on meshes and Theorem 7's on tori — ks-nowrap, ks-wrap and greedy
# on random k-permutations, k-LS and k-PR, k = 2, 4, 8, 16, farthest-first,
# phases separated — one CSV per kind of network; and Theorems 4 and 11:
# ks-nowrap on 3-D meshes and ks-wrap on 3-D tori of sides 8, 12, 16.
#   scripts/ks_sweep.sh OUTDIR [SIDES] [SEEDS]   (SIDES default 16,32,64,128; SEEDS 1..3)
# writes OUTDIR/ks-mesh.csv, OUTDIR/ks-torus.csv and OUTDIR/ks-3d.csv.
set -euo pipefail
out=${1:?usage: scripts/ks_sweep.sh OUTDIR [SIDES] [SEEDS]}
sides=${2:-16,32,64,128}
seeds=${3:-1..3}
bin=${ROUTESIM:-target/release/routesim}
mkdir -p "$out"
for kind in mesh torus; do
  "$bin" sweep --topology "$kind:{n}x{n}" --n "$sides" --algorithm ks-nowrap,ks-wrap,greedy \
    --workload random-kk,large-shift,point-reflection --k 2,4,8,16 --seeds "$seeds" \
    --out "$out/ks-$kind.csv"
done
"$bin" sweep --topology 'mesh:{n}x{n}x{n}' --n 8,12,16 --algorithm ks-nowrap \
  --workload random-kk,large-shift,point-reflection --k 2,4,8,16 --seeds "$seeds" --out "$out/ks-3d.csv"
"$bin" sweep --topology 'torus:{n}x{n}x{n}' --n 8,12,16 --algorithm ks-wrap \
  --workload random-kk,large-shift,point-reflection --k 2,4,8,16 --seeds "$seeds" --format csv |
  tail -n +2 >>"$out/ks-3d.csv"
