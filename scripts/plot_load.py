#!/usr/bin/env python3
"""Latency against offered load from `scripts/load_sweep.sh`'s CSV (SPEC §6).

One panel per topology; one line per (algorithm, pattern): the mean latency
of the delivered measured packets against the injection rate R (the `rate`
column, per node per step, as on the page), up to and including its first
saturated rate; a dotted vertical line at each ideal throughput λ* and a
dashed horizontal one at each zero-load latency (the mean hop count at the
lowest rate).

x is `rate`, not `offered`: λ* is a rate R, while `offered` is averaged
over all nodes, counting those that the pattern maps to themselves and
that generate nothing (the 16 diagonal nodes of mesh:16x16 transpose:
offered = 0.9375·R), so on the `offered` axis a curve sits left of its λ*.

    python3 scripts/plot_load.py docs/data/load.csv docs/figures/load.png
"""
import csv
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(src, dst):
    series = defaultdict(list)
    with open(src) as f:
        for row in csv.DictReader(f):
            series[(row["topology"], row["algorithm"], row["pattern"])].append(row)
    topologies = sorted({k[0] for k in series})
    fig, axes = plt.subplots(1, len(topologies), figsize=(6 * len(topologies), 4.5), squeeze=False)
    colours = {}
    for ax, topo in zip(axes[0], topologies):
        for key in sorted(k for k in series if k[0] == topo):
            rows = sorted(series[key], key=lambda r: float(r["rate"]))
            xs, ys = [], []
            for r in rows:
                if r["latency_mean"]:
                    xs.append(float(r["rate"]))
                    ys.append(float(r["latency_mean"]))
                if r["saturated"] == "true":
                    break
            label = f"{key[1]} {key[2]}"
            colour = colours.setdefault(label, f"C{len(colours)}")
            ax.plot(xs, ys, "o-", ms=3, color=colour, label=label)
            if rows[0]["ideal_throughput"]:  # empty when no packet crosses a link
                ax.axvline(float(rows[0]["ideal_throughput"]), color=colour, ls=":", lw=1)
            ax.axhline(float(rows[0]["hops_mean"]), color=colour, ls="--", lw=0.8)
        ax.set_yscale("log")
        ax.set_xlabel("injection rate R (packets per node per step)")
        ax.set_ylabel("mean latency (steps)")
        ax.set_title(f"{topo}: dotted = ideal throughput, dashed = zero-load latency")
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(dst, dpi=110)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
