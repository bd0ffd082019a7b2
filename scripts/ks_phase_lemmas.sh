#!/usr/bin/env bash
# Kaufmann–Sibeyn's per-phase lemmas and average cases, a wider sweep than
# tests/it/ks_phase_lemmas.rs and tests/it/ks_average.rs (issue 28, items 2
# and 4; docs/algorithms/kaufmann-sibeyn.md, "Per-phase lemmas and average
# cases, measured"): each claim's main term against the steps of the phases
# it names (Lemma 27: the most packets over one link in phase 2, from `run
# --json`'s phase_link_load), the additive term in its unit.
#   scripts/ks_phase_lemmas.sh OUTDIR [SEEDS]   (SEEDS default 1..5)
# writes OUTDIR/raw-*.csv and OUTDIR/ks-phase-lemmas.csv (the summary,
# committed as docs/data/ks-phase-lemmas.csv) and prints the Markdown table.
set -euo pipefail
out=${1:?usage: scripts/ks_phase_lemmas.sh OUTDIR [SEEDS]}
seeds=${2:-1..5}
bin=${ROUTESIM:-target/release/routesim}
mkdir -p "$out"
kk=random-kk,large-shift,point-reflection
"$bin" sweep --topology 'mesh:{n}x{n}' --n 16,32,48 --algorithm ks-nowrap --policy farthest-first,fifo \
  --workload "$kk" --k 2,4,8,16 --seeds "$seeds" --out "$out/raw-nowrap.csv"
"$bin" sweep --topology 'mesh:{n}x{n}x{n}' --n 6,8,12 --algorithm ks-nowrap --workload "$kk" --k 6,12,24 \
  --seeds "$seeds" --out "$out/raw-nowrap3.csv"
"$bin" sweep --topology 'torus:{n}x{n},torus:{n}x{n}x{n}' --n 8,12,16 --algorithm ks-wrap --workload "$kk" \
  --k 4,8,16 --seeds "$seeds" --out "$out/raw-wrap.csv"
"$bin" sweep --topology 'torus:{n}x{n}' --n 16,32,48 --algorithm ks-nowrap --workload "$kk" --k 2,4,8,16 \
  --seeds "$seeds" --out "$out/raw-nowrap-torus.csv"
"$bin" sweep --topology 'mesh:{n}x{n},mesh:{n}x{n}x{n}' --n 8,12,16 --algorithm ks-nowrap --no-randomize \
  --workload random-kk --k 4,8,16 --seeds "$seeds" --out "$out/raw-bare.csv"
"$bin" sweep --topology 'mesh:{n}x{n}' --n 16,32,48 --algorithm ks-wrap --workload random-kk --k 4,8,16 \
  --seeds "$seeds" --out "$out/raw-wrap-mesh.csv"
# LocalRoute: run --json, for phase_link_load.
: >"$out/raw-local.jsonl"
for n in 16 32 48; do
  for l in 2 4 8; do
    for k in 4 8 16; do
      for seed in $(seq "${seeds%%..*}" "${seeds##*..}"); do
        "$bin" run --json --topology "torus:${n}x${n}" --algorithm ks-local --workload local-kk --locality "$l" \
          --k "$k" --seed "$seed" | tr -d '\n' >>"$out/raw-local.jsonl"
        echo >>"$out/raw-local.jsonl"
      done
    done
  done
done
python3 - "$out" <<'PY'
import csv, json, math, sys
from collections import defaultdict
out = sys.argv[1]
rows = defaultdict(list)  # claim key -> [(measured, main, unit)]
meta = {}

def note(key, what, measured, main, unit):
    rows[key].append((measured, main, unit))
    meta.setdefault(key, what)

def phases(r):
    return [(p.split(":")[0], int(p.split(":")[1])) for p in r["phases"].split(";") if p]

def sides(topology):
    s = [int(x) for x in topology.split(":")[1].split("x")]
    return s[0], len(s)

def runs(name):
    for r in csv.DictReader(open(f"{out}/{name}")):
        assert r["delivered"] == r["packets"] and not r["error"], r
        yield r

def kn(r):
    n, d = sides(r["topology"])
    k = max(int(r["instance_l"]), int(r["instance_k"]), 1)
    return n, d, k, math.sqrt(k * n * math.log(n))

for r in runs("raw-nowrap.csv"):
    n, d, k, u = kn(r)
    ph = dict(phases(r))
    outer = max(ph["phase1-randomize"], ph["phase3-route"])
    if r["policy"] == "farthest-first":
        note("Lemma 16", "ks-nowrap, n×n mesh", ph["phase1-randomize"], max(n, k * n / 8), u)
        note("Lemma 17", "ks-nowrap, n×n mesh", ph["phase2-route"], max(n, k * n / 4), u)
        note("Lemma 18", "ks-nowrap, n×n mesh", ph["phase3-route"], max(n, k * n / 8), u)
    note("Lemma 20", "ks-nowrap, n×n mesh, farthest-first and fifo", outer, max(n, k * n / 8 + n / (2 * k) + n / 2), u)
    note("Lemma 21", "ks-nowrap, n×n mesh, farthest-first and fifo", ph["phase2-route"], max(n, k * n / 4 + n / 2), u)
for r in runs("raw-nowrap3.csv"):
    n, d, k, u = kn(r)
    p = phases(r)
    first = next(i for i, (name, _) in enumerate(p) if name.endswith("-route"))
    note("Lemma 22", "ks-nowrap, n×n×n mesh", max(s for i, (_, s) in enumerate(p) if i != first), max(n, k * n / (4 * d)), u)
    note("Lemma 23", "ks-nowrap, n×n×n mesh", p[first][1], max(n, k * n / (2 * d)), u)
for r in runs("raw-wrap.csv"):
    n, d, k, u = kn(r)
    note("Lemma 25", "ks-wrap, n×n and n×n×n tori", max(s for _, s in phases(r)), max(n, k * n / (8 * d)), u)
for r in runs("raw-nowrap-torus.csv"):
    n, d, k, u = kn(r)
    note("§8 on the torus", "ks-nowrap, n×n torus", int(r["steps"]), 3 * k * n / 8, u)
for r in runs("raw-bare.csv"):
    n, d, k, u = kn(r)
    note("§7.4 without randomizing", "ks-nowrap --no-randomize, n×n and n×n×n meshes, random-kk", int(r["steps"]), k * n / 4, d * u)
for r in runs("raw-nowrap.csv"):
    n, d, k, u = kn(r)
    if r["workload"] == "random-kk" and r["policy"] == "farthest-first":
        note("§7.4 on average", "ks-nowrap, n×n mesh, random-kk", int(r["steps"]), (2 * d - 1) * k * n / (4 * d), d * u)
for r in runs("raw-wrap-mesh.csv"):
    n, d, k, u = kn(r)
    note("§8.1 on average", "ks-wrap, n×n mesh, random-kk", int(r["steps"]), k * n / 2, u)
for line in open(f"{out}/raw-local.jsonl"):
    r = json.loads(line)
    n = int(r["topology"].split(":")[1].split("x")[0])
    k, L = max(r["l"], r["k"]), r["locality"]
    u = math.sqrt(k * L * math.log(n))
    ph = {p["name"]: (i, p["steps"]) for i, p in enumerate(r["phases"])}
    what = "ks-local, n×n torus, local-kk, L known"
    note("Lemma 26", what, ph["phase1-randomize"][1], max(L / 2, k / 2 * L / 8), u)
    note("Lemma 27", what, r["phase_link_load"][ph["phase2-route"][0]], k / 2 * L, u)
    note("Lemma 28", what, ph["phase2-route"][1], max(L, k / 2 * L), u)
    note("Lemma 29", what, ph["phase3-route"][1], max(1.5 * L, k / 2 * L), u)

with open(f"{out}/ks-phase-lemmas.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["claim", "instances", "runs", "max_measured_over_main", "max_constant"])
    print("| claim | instances | runs | measured / main term (max) | constant (max) |")
    print("|---|---|---|---|---|")
    for key, vals in rows.items():
        ratio = max(m / main for m, main, _ in vals)
        const = max((m - main) / unit for m, main, unit in vals)
        w.writerow([key, meta[key], len(vals), f"{ratio:.2f}", f"{const:.2f}"])
        print(f"| {key} | {meta[key]} | {len(vals)} | {ratio:.2f} | {const:.2f} |")
PY
