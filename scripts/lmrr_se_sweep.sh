#!/usr/bin/env bash
# lmrr on shuffle-exchange:D (docs/algorithms/lmrr.md, "The shuffle-exchange
# (§5)"): random permutations, q = 2, one fixed seed, D = 6, 8, …, 16; and the
# bit-fixing baseline (unbounded queues) on the same instances where it runs
# (its rows have empty lmrr columns). max_queue: the most packets on one node. One CSV row per run, from `routesim run --json`:
# ratio = steps / (c + L + log N), c the run's leveled_congestion, L its
# dilation, log N its log_n.
#   scripts/lmrr_se_sweep.sh OUT.csv [DIMS] [SEED]   (defaults 6,8,10,12,14,16  1)
set -euo pipefail
out=${1:?usage: scripts/lmrr_se_sweep.sh OUT.csv [DIMS] [SEED]}
dims=${2:-6,8,10,12,14,16}
seed=${3:-1}
bin=${ROUTESIM:-target/release/routesim}
for d in ${dims//,/ }; do
  "$bin" run --topology "shuffle-exchange:$d" --workload random-permutation --seed "$seed" \
    --algorithm lmrr --queue-cap 2 --json
  echo
  # The baseline, unbounded queues; it may not run on the shuffle-exchange
  # yet (exit 2): then no row.
  "$bin" run --topology "shuffle-exchange:$d" --workload random-permutation --seed "$seed" \
    --algorithm bit-fixing --json 2>/dev/null || true
  echo
done | python3 -c '
import csv, json, sys
cols = ["network", "D", "nodes", "packets", "algorithm", "q", "steps", "c", "L", "levels", "logN", "ratio",
        "max_edge_queue", "good_fraction", "max_queue"]
w = csv.writer(sys.stdout, lineterminator="\n")
w.writerow(cols)
for line in sys.stdin:
    if not line.strip():
        continue
    r = json.loads(line)
    d = int(r["topology"].split(":")[1])
    row = {"network": "shuffle-exchange", "D": d, "nodes": 1 << d, "packets": r["packets"],
           "algorithm": r["algorithm"], "q": r["queue_cap"] or "", "steps": r["steps"], "max_queue": r["max_queue"]}
    if "leveled_congestion" in r:
        c, l, logn = r["leveled_congestion"], r["dilation"], r["log_n"]
        row.update(c=c, L=l, levels=r["levels"], logN=logn, ratio=round(r["steps"] / (c + l + logn), 3),
                   max_edge_queue=r["max_edge_queue"], good_fraction=round(r["good_fraction"], 4))
    w.writerow([row.get(k, "") for k in cols])
' > "$out"
