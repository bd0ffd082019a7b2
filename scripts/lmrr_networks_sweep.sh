#!/usr/bin/env bash
# The data of issue #26's figure (docs/algorithms/lmrr.md, "d-dimensional
# meshes" and "The shuffle-exchange (§5)"): lmrr through random
# intermediates (Valiant paths on meshes, a random good necklace on the
# shuffle-exchange) on the networks of LMRR §5–§6, one
# random permutation per network (seed fixed), edge queues of q, and the
# network family's baseline on the same instance beside it. One CSV row per
# network, from `routesim run --json`:
#   network, family, d_or_D (a mesh's dimension d, a shuffle-exchange's D),
#   nodes, packets, algorithm, paths, q, seed, steps, c (Theorem 2.9's, on
#   the leveled network: the report's leveled_congestion), L (dilation),
#   levels, logN, ratio = steps / (c + L + logN), max_edge_queue, max_queue
#   (lmrr's most packets on one node), good_fraction (shuffle-exchange), and
#   the baseline's name, steps and largest queue (max_queue).
#   scripts/lmrr_networks_sweep.sh [OUT.csv]   (default docs/data/lmrr-networks.csv)
# Env: ROUTESIM (the binary, default target/release/routesim), SEED (1), Q (2).
# A network the CLI refuses as too large is skipped with a note on stderr.
#
# Each family is one function printing "FAMILY TOPOLOGY D_OR_D NODES BASELINE
# PATHS" lines (PATHS: valiant, or a word for the CSV when lmrr has no choice); FAMILIES lists the functions run. A new family adds its function
# and its name to FAMILIES.
set -euo pipefail
out=${1:-docs/data/lmrr-networks.csv}
bin=${ROUTESIM:-target/release/routesim}
seed=${SEED:-1}
q=${Q:-2}

# d-dimensional meshes (§6): d = 2, 3, 4, sides 4, 8, 16, 32 (mesh:32x32x32x32,
# 2^20 nodes, is the largest: within MAX_NODES = 2^26 and its paths, about
# 2.8·10^8 nodes in all, within MAX_PATH_NODES = 2^30); baseline greedy.
mesh_networks() {
  for d in 2 3 4; do
    for side in 4 8 16 32; do
      local sides=$side nodes=$side
      for _ in $(seq 2 "$d"); do sides="${sides}x$side"; nodes=$((nodes * side)); done
      echo "mesh mesh:$sides $d $nodes greedy valiant"
    done
  done
}

# The shuffle-exchange (§5): D = 6, 8, …, 16; lmrr's route always passes a
# random good necklace (no --paths choice); baseline bit-fixing's classic route.
se_networks() {
  for d in 6 8 10 12 14 16; do
    echo "shuffle-exchange shuffle-exchange:$d $d $((1 << d)) bit-fixing random-necklace"
  done
}

FAMILIES=(mesh_networks se_networks)

# One network: lmrr --paths valiant and the baseline, as one JSON line.
run_network() {
  local family=$1 topology=$2 size=$3 nodes=$4 baseline=$5 paths=$6
  local common=(--topology "$topology" --workload random-permutation --seed "$seed" --json)
  local lmrr base flags=()
  [ "$paths" = valiant ] && flags=(--paths valiant)
  if ! lmrr=$("$bin" run "${common[@]}" --algorithm lmrr "${flags[@]}" --queue-cap "$q" 2>/tmp/lmrr-networks.err); then
    echo "skipped $topology: $(cat /tmp/lmrr-networks.err)" >&2
    return 0
  fi
  base=$("$bin" run "${common[@]}" --algorithm "$baseline")
  python3 -c '
import json, sys
family, size, nodes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
lmrr, base = json.loads(sys.argv[4]), json.loads(sys.argv[5])
print(json.dumps({"family": family, "size": size, "nodes": nodes, "paths": sys.argv[6], "lmrr": lmrr, "base": base}))' \
    "$family" "$size" "$nodes" "$lmrr" "$base" "$paths"
}

for family in "${FAMILIES[@]}"; do
  "$family"
done | while read -r family topology size nodes baseline paths; do
  run_network "$family" "$topology" "$size" "$nodes" "$baseline" "$paths"
done | python3 -c '
import csv, json, sys
cols = ["network", "family", "d_or_D", "nodes", "packets", "algorithm", "paths", "q", "seed", "steps", "c", "L", "levels",
        "logN", "ratio", "max_edge_queue", "max_queue", "good_fraction", "baseline", "baseline_steps",
        "baseline_max_queue"]
w = csv.writer(sys.stdout, lineterminator="\n")
w.writerow(cols)
for line in sys.stdin:
    x = json.loads(line)
    r, b = x["lmrr"], x["base"]
    c, l, logn = r["leveled_congestion"], r["dilation"], r["log_n"]
    good = r.get("good_fraction")
    w.writerow([r["topology"], x["family"], x["size"], x["nodes"], r["packets"], r["algorithm"], x["paths"],
                r["edge_queue_cap"], r["seed"], r["steps"], c, l, r["levels"], logn, round(r["steps"] / (c + l + logn), 4),
                r["max_edge_queue"], r["max_queue"], "" if good is None else round(good, 4), b["algorithm"],
                b["steps"], b["max_queue"]])
' > "$out"
rm -f /tmp/lmrr-networks.err

# The issue's acceptance: every ratio within 1.15 × the one at the previous
# size of its family (and d, on meshes), and max_edge_queue ≤ q on every run.
python3 - "$out" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
last = {}
for r in rows:
    # Meshes grow by side at a fixed d; the shuffle-exchange by D itself.
    key = (r["family"], r["d_or_D"] if r["family"] == "mesh" else "")
    ratio = float(r["ratio"])
    note = ""
    if key in last:
        growth = ratio / last[key]
        note = f"×{growth:.3f}" + (" (more than 1.15)" if growth > 1.15 else "")
    last[key] = ratio
    queue = "" if int(r["max_edge_queue"]) <= int(r["q"]) else "  max_edge_queue > q!"
    print(f"{r['network']:>22}  ratio {ratio:.3f} {note}{queue}", file=sys.stderr)
EOF
