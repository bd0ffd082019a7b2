#!/usr/bin/env python3
"""Plot issue #27's figure from scripts/sorting_sweep.sh's CSV (bitonic and
flashsort on butterfly:D, sort-random, several seeds): (1) flashsort's
steps / D and (2) bitonic's steps / D², the median over the seeds with the
min–max band, against D; (3) the steps of both, with where flashsort's
line would cross bitonic's if both trends held. Prints the figures the docs
quote.

    python3 scripts/plot_sorting.py docs/data/sorting-butterfly.csv docs/figures/sorting-butterfly.png

Needs matplotlib; a figure-making tool, not part of the build or the tests.
"""
import csv
import statistics
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


GROUPS = ["candidates", "splitters", "intervals", "leaf-sort", "offsets", "final-route"]


def load(path):
    """{algorithm: {D: [steps, ...]}} from the sweep's rows, and flashsort's
    {D: [{phase group: steps}, ...]} (a group sums its recursion levels)."""
    steps = defaultdict(lambda: defaultdict(list))
    phases = defaultdict(list)
    for r in csv.DictReader(open(path)):
        if r["error"] or r["stalled"] == "true":
            sys.exit(f"a run failed: {r}")
        d = int(r["topology"].split(":")[1])
        steps[r["algorithm"]][d].append(int(r["steps"]))
        if r["algorithm"] == "flashsort":
            groups = dict.fromkeys(GROUPS, 0)
            for part in r["phases"].split(";"):
                name, n = part.rsplit(":", 1)
                groups[name.split(" ")[0]] += int(n)
            phases[d].append(groups)
    return steps, phases


def summary(per_d, scale):
    ds = sorted(per_d)
    med = [statistics.median(per_d[d]) / scale(d) for d in ds]
    lo = [min(per_d[d]) / scale(d) for d in ds]
    hi = [max(per_d[d]) / scale(d) for d in ds]
    return ds, med, lo, hi


def main(src, dst):
    steps, phases = load(src)
    fs, bi = steps["flashsort"], steps["bitonic"]
    fig, axes = plt.subplots(1, 4, figsize=(20, 4.4))
    for ax, (name, per_d, scale, label) in zip(
        axes[:2],
        [
            ("flashsort", fs, lambda d: d, "steps / D"),
            ("bitonic", bi, lambda d: d * d, "steps / D²"),
        ],
    ):
        ds, med, lo, hi = summary(per_d, scale)
        ax.plot(ds, med, "o-", label=f"{name}: median of {len(per_d[ds[0]])} seeds")
        ax.fill_between(ds, lo, hi, alpha=0.25, label="min–max")
        ax.set_xlabel("D (butterfly:D, N = 2^D keys)")
        ax.set_ylabel(label)
        ax.set_ylim(bottom=0)
        ax.set_title(f"{name}: {label}")
        ax.legend()
        ax.grid(alpha=0.3)
    ax = axes[2]
    for name, per_d in [("flashsort", fs), ("bitonic", bi)]:
        ds, med, _, _ = summary(per_d, lambda d: 1)
        ax.plot(ds, med, "o-", label=name)
    # The trends: flashsort ≈ a·D (its last two sizes), bitonic (D + 1)² − 2.
    ds = sorted(fs)
    a = statistics.median(fs[ds[-1]]) / ds[-1]
    cross = next((d for d in range(ds[-1], 64) if a * d < (d + 1) ** 2 - 2), None)
    ax.set_xlabel("D")
    ax.set_ylabel("steps (median)")
    ax.set_title("steps; no crossover up to D = 14")
    ax.legend()
    ax.grid(alpha=0.3)
    # Where flashsort's steps go: each phase group's median steps / D.
    ax = axes[3]
    ds = sorted(phases)
    bottom = [0.0] * len(ds)
    for g in GROUPS:
        vals = [statistics.median(run[g] for run in phases[d]) / d for d in ds]
        ax.bar(ds, vals, bottom=bottom, label=g)
        bottom = [b + v for b, v in zip(bottom, vals)]
    ax.set_xlabel("D")
    ax.set_ylabel("steps / D (median per phase)")
    ax.set_title("flashsort: where the steps go")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3, axis="y")
    fig.suptitle("Sorting N = 2^D random keys on butterfly:D: Batcher's bitonic network against Flashsort by routing (LMRR §8)")
    fig.tight_layout()
    fig.savefig(dst, dpi=110)
    ratio = (statistics.median(fs[14]) / 14) / (statistics.median(fs[12]) / 12)
    print(f"flashsort steps/D median: D=12 {statistics.median(fs[12]) / 12:.2f}, D=14 {statistics.median(fs[14]) / 14:.2f}, ratio {ratio:.3f}")
    for d in ds:
        print(f"D={d}: flashsort median {statistics.median(fs[d])} ({min(fs[d])}-{max(fs[d])}), bitonic {statistics.median(bi[d])}")
    for d in (10, 12, 14):
        parts = ", ".join(f"{g} {statistics.median(run[g] for run in phases[d])}" for g in GROUPS)
        print(f"D={d} flashsort phases (median steps): {parts}")
    print(f"trend crossover (flashsort {a:.1f}·D against (D + 1)² − 2): D = {cross}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
