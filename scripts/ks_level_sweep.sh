#!/usr/bin/env bash
# The LevelRoute and LocalRoute table of docs/algorithms/kaufmann-sibeyn.md (Kaufmann–Sibeyn §6, §9.1):
#   ks-level on n×n meshes, random k-permutations, k-LS and k-PR, k = 2..16,
#     ε = ceil(n/8) (Corollary 4) and ε = n (Theorem 1's improved version
#     wherever k·ε ≥ 4n), farthest-first, phases separated;
#   ks-local on 32×32 and 64×64 tori and meshes, local-kk, L = 2, 4, 8, k = 2..16.
#   scripts/ks_level_sweep.sh OUTDIR [SIDES] [SEEDS]   (SIDES default 16,32,64; SEEDS 1..3)
# writes OUTDIR/ks-level.csv and OUTDIR/ks-local.csv, then prints the table
# (scripts/ks_level_table.py).
set -euo pipefail
out=${1:?usage: scripts/ks_level_sweep.sh OUTDIR [SIDES] [SEEDS]}
sides=${2:-16,32,64}
seeds=${3:-1..3}
bin=${ROUTESIM:-target/release/routesim}
mkdir -p "$out"
"$bin" sweep --topology 'mesh:{n}x{n}' --n "$sides" --algorithm ks-level \
  --workload random-kk,large-shift,point-reflection --k 2,4,8,16 --seeds "$seeds" --out "$out/ks-level.csv"
# Theorem 1: ε = n (one sweep per side, since ε is one value per sweep).
for n in ${sides//,/ }; do
  "$bin" sweep --topology "mesh:${n}x${n}" --algorithm ks-level --epsilon "$n" \
    --workload random-kk,large-shift,point-reflection --k 4,8,16 --seeds "$seeds" --format csv |
    tail -n +2 | sed "s/\$/,eps=$n/" >>"$out/ks-level.csv"
done
# One sweep per L (one value per sweep); each row tagged with its L.
head -n 1 "$out/ks-level.csv" >"$out/ks-local.csv"
for kind in torus mesh; do
  for L in 2 4 8; do
    "$bin" sweep --topology "$kind:{n}x{n}" --n 32,64 --algorithm ks-local --workload local-kk \
      --locality "$L" --k 2,4,8,16 --seeds "$seeds" --format csv |
      tail -n +2 | sed "s/\$/,L=$L/" >>"$out/ks-local.csv"
  done
done
python3 "$(dirname "$0")/ks_level_table.py" "$out/ks-level.csv" "$out/ks-local.csv"
