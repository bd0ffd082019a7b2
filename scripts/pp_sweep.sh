#!/usr/bin/env bash
# The Pietracaprina–Pucci figure's data: for each (l,k) pair of the
# acceptance list, one `routesim sweep` over sides 16..256 of greedy, pp-rand
# and pp-det on worst-lk and random-lk (seed 1), concatenated into one CSV.
#   scripts/pp_sweep.sh OUT.csv [SIDES]      (SIDES default 16,32,64,128,256)
set -euo pipefail
out=${1:?usage: scripts/pp_sweep.sh OUT.csv [SIDES]}
sides=${2:-16,32,64,128,256}
bin=${ROUTESIM:-target/release/routesim}
tmp=$(mktemp -d)
for lk in "1 16" "2 8" "4 4" "16 1" "16 16" "8 2"; do
  set -- $lk
  "$bin" sweep --topology 'mesh:{n}x{n}' --n "$sides" --algorithm greedy,pp-rand,pp-det \
    --workload worst-lk,random-lk --l "$1" --k "$2" --seeds 1 --out "$tmp/l$1_k$2.csv"
done
first=1
for f in "$tmp"/*.csv; do
  if [ $first = 1 ]; then cat "$f"; first=0; else tail -n +2 "$f"; fi
done > "$out"
rm -rf "$tmp"
