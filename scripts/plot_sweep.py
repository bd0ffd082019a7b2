#!/usr/bin/env python3
"""Plot a `routesim sweep` CSV: one line per algorithm, the worst case over
workloads and seeds at each size.

    python3 scripts/plot_sweep.py CSV OUT.png --x side --y steps/(2n-2) --y max_queue

Y expressions: a column name, or `steps/(2n-2)` (n = side),
`steps/sqrt_lkn`, `steps/ks_main` (steps over the main term of the
Kaufmann–Sibeyn theorem for the network: Theorem 2 on an n×n mesh,
max{3n, 2n + kn/4, kn/2}; Theorem 7 on an n×n torus, max{2n, kn/4};
Theorems 4 and 11 in d dimensions) or `ks_additive` ((steps − that main
term) / √(k·n·ln n)). Needs matplotlib (pip install matplotlib); it is a
figure-making tool, not part of the build or the tests.
"""
import argparse
import csv
import math
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def ks_main(row):
    """The main term of Kaufmann–Sibeyn's theorem for the row's network."""
    kind, sizes = row["topology"].split(":")
    d = sizes.count("x") + 1
    n, k = int(sizes.split("x")[0]), int(row["k"])
    if kind == "mesh":
        return max(3 * n, 2 * n + k * n / 4, k * n / 2) if d == 2 else max((2 * d - 1) * n, k * n / 2)
    return max(2 * n, k * n / 4) if d == 2 else max(2 * d * n, k * n / 4)


def value(row, expr):
    if expr == "steps/ks_main":
        return int(row["steps"]) / ks_main(row)
    if expr == "ks_additive":
        n = int(row["topology"].split(":")[1].split("x")[0])
        return (int(row["steps"]) - ks_main(row)) / math.sqrt(int(row["k"]) * n * math.log(n))
    if expr == "steps/(2n-2)":
        n = int(row["side"])
        return int(row["steps"]) / (2 * n - 2)
    if expr == "steps/sqrt_lkn":
        return float(row["steps_over_sqrt_lkn"])
    return float(row[expr])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("out")
    ap.add_argument("--x", default="side")
    ap.add_argument("--y", action="append", default=[])
    ap.add_argument("--group", default="algorithm", help="column(s), comma-separated, that name a line")
    ap.add_argument("--panel", default="", help="column(s) whose values get a panel each (a column of subplots)")
    ap.add_argument("--filter", action="append", default=[], help="COLUMN=VALUE rows to keep")
    ap.add_argument("--title", default="")
    ap.add_argument("--logy", action="append", default=[], help="y expressions drawn on a log scale")
    args = ap.parse_args()
    ys = args.y or ["steps/(2n-2)", "max_queue"]
    rows = [r for r in csv.DictReader(open(args.csv)) if not r.get("error")]
    for f in args.filter:
        col, want = f.split("=", 1)
        rows = [r for r in rows if r[col] == want]
    key_of = lambda r, cols: ", ".join(f"{c}={r[c]}" if len(cols) > 1 or c in ("l", "k") else r[c] for c in cols)
    group_cols = args.group.split(",")
    panel_cols = [c for c in args.panel.split(",") if c]
    panels = sorted({key_of(r, panel_cols) for r in rows}, key=lambda t: [int(x) if x.isdigit() else x for x in t.replace("=", ",").replace(" ", "").split(",")]) if panel_cols else [""]
    # One row per y expression and one column per panel; without panels, the
    # y expressions side by side.
    nrows, ncols = (len(ys), len(panels)) if panel_cols else (1, len(ys))
    fig, axes = plt.subplots(nrows, ncols, figsize=(4.2 * ncols + 1.5, 3.8 * nrows + 0.4), squeeze=False)
    for i, y in enumerate(ys):
        for j, panel in enumerate(panels):
            ax = axes[i][j] if panel_cols else axes[0][i]
            worst = defaultdict(dict)
            for r in rows:
                if panel_cols and key_of(r, panel_cols) != panel:
                    continue
                x = float(r[args.x])
                key = key_of(r, group_cols)
                worst[key][x] = max(worst[key].get(x, float("-inf")), value(r, y))
            for key in sorted(worst):
                pts = sorted(worst[key].items())
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=key)
            ax.set_xscale("log", base=2)
            if y in args.logy:
                ax.set_yscale("log", base=2)
            ax.set_xlabel(args.x)
            ax.set_ylabel(y + ("" if panel_cols else " (worst over workloads and seeds)"))
            if panel:
                ax.set_title(panel, fontsize=10)
            ax.grid(True, alpha=0.3)
            ax.legend(fontsize=7)
    if args.title:
        fig.suptitle(args.title)
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)


if __name__ == "__main__":
    main()
