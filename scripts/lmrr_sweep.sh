#!/usr/bin/env bash
# The lmrr figure's data (docs/algorithms/lmrr.md, "Measured"): lmrr on
# side × side meshes and butterfly:D (direct and Valiant paths), and greedy /
# bit-fixing on the same instances, on random permutations, transpose and
# bit-reversal, seeds 1..3; one CSV row per run, from `routesim run --json`
# (the sweep's CSV has no lmrr columns). Derived columns: clogn = c + L + log N,
# steps_over_clogn, excess = steps − log n and loglog = log n / log log n
# (Theorem 4.2, butterflies); series names a line of the figures.
#   scripts/lmrr_sweep.sh OUT.csv [SIDES] [DIMS] [SEEDS]
#   (defaults 8,16,32,64,128  4,6,8,10,12,14  1,2,3)
set -euo pipefail
out=${1:?usage: scripts/lmrr_sweep.sh OUT.csv [SIDES] [DIMS] [SEEDS]}
sides=${2:-8,16,32,64,128}
dims=${3:-4,6,8,10,12,14}
seeds=${4:-1,2,3}
bin=${ROUTESIM:-target/release/routesim}
runs=$(mktemp)
for s in ${sides//,/ }; do
  for w in random-permutation transpose bit-reversal; do
    for seed in ${seeds//,/ }; do
      echo "mesh:${s}x${s} $w $seed lmrr direct"
      echo "mesh:${s}x${s} $w $seed greedy -"
    done
  done
done >> "$runs"
for d in ${dims//,/ }; do
  for w in random-permutation transpose bit-reversal; do
    for seed in ${seeds//,/ }; do
      echo "butterfly:$d $w $seed lmrr direct"
      echo "butterfly:$d $w $seed lmrr valiant"
      echo "butterfly:$d $w $seed bit-fixing -"
    done
  done
done >> "$runs"
while read -r topology workload seed algorithm paths; do
  extra=()
  if [ "$paths" != - ]; then extra=(--paths "$paths"); fi
  "$bin" run --topology "$topology" --workload "$workload" --seed "$seed" --algorithm "$algorithm" \
    "${extra[@]}" --json | python3 -c '
import json, math, sys
r = json.load(sys.stdin)
r["paths"] = sys.argv[1]
print(json.dumps(r))' "$paths"
done < "$runs" | python3 -c '
import csv, json, math, sys
cols = ["topology", "series", "kind", "nodes", "side", "dim", "algorithm", "paths", "workload", "seed", "packets", "delivered",
        "steps", "max_queue", "queue_cap", "congestion", "leveled_congestion", "dilation", "levels", "log_n", "ranks", "max_edge_queue",
        "ghosts", "eos", "clogn", "steps_over_clogn", "excess", "loglog"]
w = csv.writer(sys.stdout, lineterminator="\n")
w.writerow(cols)
for line in sys.stdin:
    r = json.loads(line)
    kind, size = r["topology"].split(":")
    r["kind"] = kind
    if kind == "mesh":
        r["side"] = int(size.split("x")[0]); r["nodes"] = r["side"] ** 2; r["dim"] = ""
    else:
        d = int(size); r["dim"] = d; r["side"] = ""; r["nodes"] = (d + 1) << d
        r["excess"] = r["steps"] - d
        r["loglog"] = round(d / math.log2(d), 4)
    if "congestion" in r:
        # Theorem 2.9 c + L + log N, c on the leveled network (leveled_congestion).
        r["clogn"] = r["leveled_congestion"] + r["dilation"] + r["log_n"]
        r["steps_over_clogn"] = round(r["steps"] / r["clogn"], 4)
    if r["algorithm"] != "lmrr":
        r["paths"] = ""
        r["series"] = r["algorithm"]
    elif kind == "butterfly":
        direct = r["paths"] == "direct"
        r["series"] = "lmrr butterfly " + r["paths"] + (", " + r["workload"] if direct else "")
    else:
        r["series"] = "lmrr " + kind
    w.writerow(["" if r.get(c) is None else r.get(c, "") for c in cols])
' > "$out"
rm -f "$runs"
