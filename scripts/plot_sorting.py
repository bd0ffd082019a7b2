#!/usr/bin/env python3
"""Plot issue #27's figure from scripts/sorting_sweep.sh's CSVs (bitonic and
flashsort on butterfly:D, sort-random, several seeds; flashsort's default
light loading in OUT.csv, --loading full in OUT-full.csv): (1) flashsort's
steps / D, both loadings, and (2) bitonic's steps / D², the median over the
seeds with the min–max band, against D; (3) the steps of all three, with
where each flashsort line would cross bitonic's if the trends held; (4) the
largest node queue (max_queue) of each, against the light loading's stated
bound 4q + 1; (5) where the light flashsort's steps go. Prints the figures
the docs quote.

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


GROUPS = ["candidates", "splitters", "slots", "intervals", "leaf-sort", "offsets", "place", "transpose", "untranspose", "compare-exchange", "final-route"]
LIGHT, FULL = "flashsort", "flashsort --loading full"
SHOWN = {LIGHT: "flashsort (light loading, the default)", FULL: FULL, "bitonic": "bitonic"}
Q = 2


def load(path, steps, queues, phases, rename=None):
    """Adds to {algorithm: {D: [steps, ...]}} and {algorithm: {D: [max_queue,
    ...]}} the sweep's rows, and to flashsort's {D: [{phase group: steps},
    ...]} (a group sums its recursion levels and sorts)."""
    for r in csv.DictReader(open(path)):
        if r["error"] or r["stalled"] == "true":
            sys.exit(f"a run failed: {r}")
        d = int(r["topology"].split(":")[1])
        name = rename or r["algorithm"]
        steps[name][d].append(int(r["steps"]))
        queues[name][d].append(int(r["max_queue"]))
        if name == LIGHT:
            groups = dict.fromkeys(GROUPS, 0)
            for part in r["phases"].split(";"):
                label, n = part.rsplit(":", 1)
                groups[label.split(" ")[0]] += int(n)
            phases[d].append(groups)


def summary(per_d, scale):
    ds = sorted(per_d)
    med = [statistics.median(per_d[d]) / scale(d) for d in ds]
    lo = [min(per_d[d]) / scale(d) for d in ds]
    hi = [max(per_d[d]) / scale(d) for d in ds]
    return ds, med, lo, hi


def crossing(per_d):
    """Where a·D (a its steps/D at the largest D) would pass (D + 1)² − 1."""
    top = max(per_d)
    a = statistics.median(per_d[top]) / top
    return a, next((d for d in range(top, 4096) if a * d < (d + 1) ** 2 - 1), None)


def main(src, dst):
    steps = defaultdict(lambda: defaultdict(list))
    queues = defaultdict(lambda: defaultdict(list))
    phases = defaultdict(list)
    load(src, steps, queues, phases)
    load(src.replace(".csv", "-full.csv"), steps, queues, phases, rename=FULL)
    fs, full, bi = steps[LIGHT], steps[FULL], steps["bitonic"]
    fig, axes = plt.subplots(2, 3, figsize=(18, 9))
    axes = axes.flatten()
    # Steps per growth, median and min–max band: flashsort's (both
    # loadings) per D, bitonic's per D².
    for ax, series, scale, ylabel, title in [
        (axes[0], [(LIGHT, fs, "C0"), (FULL, full, "C1")], lambda d: d, "steps / D", "flashsort: steps / D (band: min–max)"),
        (axes[1], [("bitonic", bi, "C2")], lambda d: d * d, "steps / D²", "bitonic: steps / D²"),
    ]:
        for name, per_d, colour in series:
            ds, med, lo, hi = summary(per_d, scale)
            ax.plot(ds, med, "o-", label=f"{SHOWN[name]}: median of {len(per_d[ds[0]])} seeds", color=colour)
            ax.fill_between(ds, lo, hi, alpha=0.25, color=colour)
        ax.set_xlabel("D (butterfly:D, N = 2^D keys)")
        ax.set_ylabel(ylabel)
        ax.set_ylim(bottom=0)
        ax.set_title(title)
        ax.legend()
        ax.grid(alpha=0.3)
    ax = axes[2]
    for name, per_d, colour in [(LIGHT, fs, "C0"), (FULL, full, "C1"), ("bitonic", bi, "C2")]:
        ds, med, _, _ = summary(per_d, lambda d: 1)
        ax.plot(ds, med, "o-", label=SHOWN[name], color=colour)
    ax.set_yscale("log")
    ax.set_xlabel("D")
    ax.set_ylabel("steps (median, log scale)")
    ax.set_title("steps: bitonic first at every D up to 14")
    ax.legend()
    ax.grid(alpha=0.3)
    ax = axes[3]
    for name, colour in [(LIGHT, "C0"), (FULL, "C1"), ("bitonic", "C2")]:
        ds = sorted(queues[name])
        ax.plot(ds, [max(queues[name][d]) for d in ds], "o-", label=f"{SHOWN[name]} (worst of the seeds)", color=colour)
    ax.axhline(4 * Q + 1, color="C0", ls="--", label=f"light loading's bound 4q + λ, λ = 1 (q = {Q})")
    ax.set_xlabel("D")
    ax.set_ylabel("max_queue (most packets on one node)")
    ax.set_ylim(bottom=0)
    ax.set_title("node queues")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    ax = axes[4]
    ds = sorted(phases)
    bottom = [0.0] * len(ds)
    for i, g in enumerate(GROUPS):
        vals = [statistics.median(run[g] for run in phases[d]) / d for d in ds]
        if any(vals):
            ax.bar(ds, vals, bottom=bottom, label=g, color=plt.cm.tab20(i))
            bottom = [b + v for b, v in zip(bottom, vals)]
    ax.set_xlabel("D")
    ax.set_ylabel("steps / D (median per phase, four sorts together)")
    ax.set_title("flashsort (light): where the steps go")
    ax.legend(fontsize=7, ncol=2)
    ax.grid(alpha=0.3, axis="y")
    axes[5].axis("off")
    fig.suptitle("Sorting N = 2^D random keys on butterfly:D: Batcher's bitonic network against Flashsort by routing (LMRR §8)")
    fig.tight_layout()
    fig.savefig(dst, dpi=100)
    for name, per_d in [(LIGHT, fs), (FULL, full)]:
        ratio = (statistics.median(per_d[14]) / 14) / (statistics.median(per_d[12]) / 12)
        print(f"{name} steps/D median: D=12 {statistics.median(per_d[12]) / 12:.2f}, D=14 {statistics.median(per_d[14]) / 14:.2f}, ratio {ratio:.3f}")
        a, cross = crossing(per_d)
        print(f"  trend crossover ({a:.1f}·D against (D + 1)² − 1): D = {cross}")
    for d in sorted(fs):
        print(
            f"D={d}: light median {statistics.median(fs[d])} ({min(fs[d])}-{max(fs[d])}) max_queue {max(queues[LIGHT][d])}; "
            f"full {statistics.median(full[d])} max_queue {max(queues[FULL][d])}; bitonic {statistics.median(bi[d])}"
        )
    for d in (10, 12, 14):
        parts = ", ".join(f"{g} {statistics.median(run[g] for run in phases[d])}" for g in GROUPS)
        print(f"D={d} light phases (median steps, four sorts): {parts}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
