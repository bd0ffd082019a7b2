#!/usr/bin/env python3
"""`--unknown-lk` (Pietracaprina–Pucci §3, ℓ and k unknown to the nodes) measured.

For pp-rand and pp-det, sides 16, 32, 64, the six (ℓ,k) pairs of the
acceptance list, worst-lk and random-lk, seeds 1–20: steps, the allowance
Σᵢ 24·√(ℓ·kᵢ·N) over kᵢ = 1, 2, 4, … up to the first kᵢ ≥ k (ℓ and k as
measured on the instance — what the nodes learn, what the guesses must
reach), steps/allowance, steps/√(ℓkN), max_queue, the guesses and why each
aborted attempt aborted.

    python3 scripts/pp_unknown_sweep.py OUT.csv [--sides 16,32,64] [--seeds 20]
"""
import argparse, csv, json, math, os, subprocess

BIN = os.environ.get("ROUTESIM", "target/release/routesim")
PAIRS = [(1, 16), (2, 8), (4, 4), (16, 1), (16, 16), (8, 2)]


def allowance(l, k, n):
    total, g = 0, 1
    while True:
        total += math.floor(24 * math.sqrt(l * g * n))
        if g >= k:
            return total
        g *= 2


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--sides", default="16,32,64")
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--det-seeds-64", type=int, default=5)
    a = ap.parse_args()
    # Rows come in the loops' order, so a resumed sweep skips as many
    # configurations as OUT.csv has rows.
    skip = 0
    if os.path.exists(a.out) and os.path.getsize(a.out):
        with open(a.out, newline="") as f:
            skip = len(list(csv.reader(f))) - 1
    with open(a.out, "a", newline="") as f:
        out = csv.writer(f)
        if f.tell() == 0:
            out.writerow(["algorithm", "side", "workload", "l", "k", "seed", "steps", "allowance",
                          "steps_over_allowance", "steps_over_sqrt_lkn", "max_queue", "guesses", "aborts"])
        for alg in ["pp-rand", "pp-det"]:
            for side in map(int, a.sides.split(",")):
                for w in ["worst-lk", "random-lk"]:
                    for l, k in PAIRS:
                        seeds = a.det_seeds_64 if (alg, side) == ("pp-det", 64) else a.seeds
                        for seed in range(1, seeds + 1):
                            if skip > 0:
                                skip -= 1
                                continue
                            args = ["--topology", f"mesh:{side}x{side}", "--workload", w, "--l", str(l),
                                    "--k", str(k), "--seed", str(seed)]
                            inst = json.loads(subprocess.run([BIN, "generate", *args], check=True,
                                                             capture_output=True, text=True).stdout)
                            n = side * side
                            outs, ins = [0] * n, [0] * n
                            for s, d in inst["packets"]:
                                outs[s] += 1
                                ins[d] += 1
                            ml, mk = max(outs), max(ins)
                            r = json.loads(subprocess.run([BIN, "run", "--algorithm", alg, *args, "--unknown-lk",
                                                           "--json"], check=True, capture_output=True,
                                                          text=True).stdout)
                            assert r["delivered"] == r["packets"]
                            al = allowance(max(ml, 1), mk, n)
                            g = r["guesses"]
                            out.writerow([alg, side, w, ml, mk, seed, r["steps"], al, round(r["steps"] / al, 4),
                                          round(r["steps"] / math.sqrt(ml * mk * n), 3), r["max_queue"],
                                          " ".join(str(x["k"]) for x in g),
                                          "; ".join(x["aborted"] for x in g if x.get("aborted"))])
                            f.flush()


if __name__ == "__main__":
    main()
