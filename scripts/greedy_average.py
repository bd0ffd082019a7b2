#!/usr/bin/env python3
"""Greedy's average case in the permutation-routing lecture's own model,
measured over seeds (issue #28, item 5).

Every node of an n x n mesh sends one packet to an independent, uniformly
random node (the workload `random-destinations`); greedy XY routing with
farthest-first. The lecture: max queue <= 4 with probability
1 - O(log^4 n / n), a packet delayed z steps with probability O(e^(-z/6)),
every packet within d + O(log n). Each run is `routesim run --json --delays`
(the core's delay histogram: delay = delivery step - distance).

    python3 scripts/greedy_average.py [BIN] [SEEDS]
      (defaults: target/release/routesim, 40)

writes docs/data/greedy-average.csv (one row per run) and
docs/data/greedy-average-delays.csv (per size and delay z: packets delayed
exactly z, summed over the seeds; the fraction delayed >= z; e^(-z/6)) and
prints the per-size summary quoted in docs/algorithms/greedy.md.
"""
import csv
import json
import math
import subprocess
import sys

BIN = sys.argv[1] if len(sys.argv) > 1 else "target/release/routesim"
SEEDS = int(sys.argv[2]) if len(sys.argv) > 2 else 40
SIDES = [16, 32, 64, 128]

runs = []
delays = {}
for n in SIDES:
    total = {}
    for seed in range(1, SEEDS + 1):
        out = subprocess.run(
            [BIN, "run", "--json", "--delays", "--topology", f"mesh:{n}x{n}",
             "--workload", "random-destinations", "--seed", str(seed)],
            check=True, capture_output=True, text=True).stdout
        r = json.loads(out)
        hist = r["delay_histogram"]
        largest = max(z for z, _ in hist)
        for z, c in hist:
            total[z] = total.get(z, 0) + c
        runs.append({
            "side": n, "seed": seed, "packets": r["packets"], "steps": r["steps"],
            "max_queue": r["max_queue"], "max_delay": largest,
            "max_delay_over_log2n": round(largest / math.log2(n), 3),
            "delayed": sum(c for z, c in hist if z > 0),
        })
    delays[n] = total

with open("docs/data/greedy-average.csv", "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(runs[0].keys()))
    w.writeheader()
    w.writerows(runs)

with open("docs/data/greedy-average-delays.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["side", "delay", "packets", "fraction_at_least", "exp_minus_z_over_6"])
    for n in SIDES:
        total = delays[n]
        packets = sum(total.values())
        for z in range(0, max(total) + 1):
            at_least = sum(c for d, c in total.items() if d >= z) / packets
            w.writerow([n, z, total.get(z, 0), f"{at_least:.6f}", f"{math.exp(-z / 6):.6f}"])

print("| side | runs | max_queue ≤ 4 | max_queue (min–max) | largest delay (max over seeds) | c = largest / log₂ n (max) "
      "| P(delay ≥ 1) | C = max_z P(delay ≥ z)·e^(z/6), z ≥ 1 |")
print("|---|---|---|---|---|---|---|---|")
for n in SIDES:
    rs = [r for r in runs if r["side"] == n]
    total = delays[n]
    packets = sum(total.values())
    tail = lambda z: sum(c for d, c in total.items() if d >= z) / packets
    c_tail = max(tail(z) * math.exp(z / 6) for z in range(1, max(total) + 1))
    ok = sum(r["max_queue"] <= 4 for r in rs)
    qs = [r["max_queue"] for r in rs]
    print(f"| {n} | {len(rs)} | {ok}/{len(rs)} = {ok / len(rs):.0%} | {min(qs)}–{max(qs)} | {max(r['max_delay'] for r in rs)} "
          f"| {max(r['max_delay_over_log2n'] for r in rs):.2f} | {tail(1):.3f} | {c_tail:.3f} |")
