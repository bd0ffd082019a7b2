#!/usr/bin/env bash
# The data of issue #27's figure (docs/algorithms/flashsort.md, "Against
# bitonic"): bitonic and flashsort on butterfly:D, D = 4..14 (the page's
# largest butterfly is D = 14: 245,760 nodes, its limit 2^18), sort-random,
# seeds 1..5, edge queues of q = 2 (flashsort's default). One `routesim
# sweep` CSV row per run (steps, max_queue, phases, ...): bitonic and
# flashsort's default (light loading: Columnsort of lightly loaded sorts)
# in OUT.csv, flashsort --loading full in OUT-full.csv.
#   scripts/sorting_sweep.sh [OUT.csv]   (default docs/data/sorting-butterfly.csv)
# Env: ROUTESIM (the binary, default target/release/routesim), SEEDS (1..5).
# Then: python3 scripts/plot_sorting.py docs/data/sorting-butterfly.csv docs/figures/sorting-butterfly.png
set -euo pipefail
out=${1:-docs/data/sorting-butterfly.csv}
bin=${ROUTESIM:-target/release/routesim}
"$bin" sweep --topology 'butterfly:{N}' --n 4..14 --algorithm bitonic,flashsort \
  --workload sort-random --seeds "${SEEDS:-1..5}" --out "$out"
"$bin" sweep --topology 'butterfly:{N}' --n 4..14 --algorithm flashsort --loading full \
  --workload sort-random --seeds "${SEEDS:-1..5}" --out "${out%.csv}-full.csv"
echo "wrote $out and ${out%.csv}-full.csv" >&2
