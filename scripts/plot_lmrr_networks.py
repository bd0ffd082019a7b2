#!/usr/bin/env python3
"""Plot issue #26's figure from scripts/lmrr_networks_sweep.sh's CSV: per
network family (and, where it has several sizes per dimension, per
dimension d), against the number of nodes, (1) lmrr's steps / (c + L +
log N), (2) lmrr's steps and the baseline's, (3) lmrr's largest edge queue
and the baseline's largest queue.

    python3 scripts/plot_lmrr_networks.py docs/data/lmrr-networks.csv docs/figures/lmrr-networks.png

Needs matplotlib; a figure-making tool, not part of the build or the tests.
"""
import csv
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def series(rows):
    """Rows by line label: `family d=…` where a family has several
    networks per d_or_D (meshes), else the family (D grows with size)."""
    by_family = defaultdict(list)
    for r in rows:
        by_family[r["family"]].append(r)
    lines = {}
    for family, rs in by_family.items():
        per_d = len({r["d_or_D"] for r in rs}) < len(rs)
        for r in rs:
            label = f"{family} d={r['d_or_D']}" if per_d else family
            lines.setdefault(label, []).append(r)
    return lines


def main():
    src, out = sys.argv[1], sys.argv[2]
    rows = list(csv.DictReader(open(src)))
    lines = series(rows)
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.4))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, (label, rs) in enumerate(sorted(lines.items())):
        rs = sorted(rs, key=lambda r: int(r["nodes"]))
        x = [int(r["nodes"]) for r in rs]
        colour = colours[i % len(colours)]
        axes[0].plot(x, [float(r["ratio"]) for r in rs], marker="o", color=colour, label=label)
        axes[1].plot(x, [int(r["steps"]) for r in rs], marker="o", color=colour, label=f"lmrr, {label}")
        axes[1].plot(x, [int(r["baseline_steps"]) for r in rs], marker="x", ls="--", color=colour,
                     label=f"{rs[0]['baseline']}, {label}")
        axes[2].plot(x, [int(r["max_edge_queue"]) for r in rs], marker="o", color=colour, label=f"lmrr, {label}")
        axes[2].plot(x, [int(r["baseline_max_queue"]) for r in rs], marker="x", ls="--", color=colour,
                     label=f"{rs[0]['baseline']}, {label}")
    q = rows[0]["q"] if rows else "q"
    titles = [
        "lmrr through random intermediates: steps / (c + L + log N)",
        "steps: lmrr (solid) and the baseline (dashed)",
        f"largest queue: lmrr's edge queues (q = {q}), the baseline's",
    ]
    for ax, title in zip(axes, titles):
        ax.set_xscale("log", base=2)
        ax.set_xlabel("nodes")
        ax.set_title(title, fontsize=10)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=6)
    axes[1].set_yscale("log", base=2)
    axes[2].set_yscale("log", base=2)
    axes[0].set_ylim(bottom=0)
    fig.suptitle(f"random permutations, seed {rows[0]['seed'] if rows else ''}", fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    main()
