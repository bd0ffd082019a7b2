#!/usr/bin/env bash
# The dynamic-load figure's data (docs/algorithms/load.md): latency against
# offered load for greedy and valiant on mesh:16x16 (uniform, transpose) and
# torus:16x16 (uniform, tornado), from `routesim load` (SPEC §6); one CSV row
# per (topology, algorithm, pattern, rate), ideal_throughput in every row.
#   scripts/load_sweep.sh OUT.csv [RATES] [SEED]
set -euo pipefail
out=${1:?usage: scripts/load_sweep.sh OUT.csv [RATES] [SEED]}
rates=${2:-0.01,0.02,0.03,0.04,0.05,0.06,0.07,0.08,0.09,0.1,0.11,0.12,0.13,0.14,0.16,0.18,0.2,0.22,0.24,0.26,0.3,0.35,0.4,0.45,0.5}
seed=${3:-1}
bin=${ROUTESIM:-target/release/routesim}
tmp=$(mktemp -d)
"$bin" load --topology mesh:16x16 --algorithm greedy,valiant --pattern uniform,transpose \
  --rate "$rates" --seed "$seed" --out "$tmp/mesh.csv"
"$bin" load --topology torus:16x16 --algorithm greedy,valiant --pattern uniform,tornado \
  --rate "$rates" --seed "$seed" --out "$tmp/torus.csv"
{ cat "$tmp/mesh.csv"; tail -n +2 "$tmp/torus.csv"; } > "$out"
rm -r "$tmp"
echo "$(($(wc -l < "$out") - 1)) rows in $out"
