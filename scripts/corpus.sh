#!/usr/bin/env bash
# A corpus of CLI outputs for checking that a restructuring changes no result:
#
#   scripts/corpus.sh BIN OUTDIR      # e.g. target/release/routesim /tmp/corpus-before
#   diff -r /tmp/corpus-before /tmp/corpus-after
#
# Every run's `--json` report (and `--check-invariants` for a few), `generate`
# output and two sweeps (CSV and JSON lines) go into OUTDIR, one file each,
# with the exit code appended. Covers every policy, every topology kind, node
# and edge queue caps, every algorithm with its options, pp-* on four (l,k).
set -uo pipefail
bin=$1
out=$2
mkdir -p "$out"
n=0
record() { # name, then the arguments
  local name=$1
  shift
  "$bin" "$@" >"$out/$name.out" 2>"$out/$name.err"
  echo "exit $?" >>"$out/$name.out"
  n=$((n + 1))
}

for p in farthest-first farthest-origin farthest-total fifo random rank nearest-first; do
  record "greedy-mesh-$p" run --json --topology mesh:16x16 --workload random-permutation --policy "$p" --seed 3
  record "greedy-kk-$p" run --json --topology mesh:12x12 --workload random-kk --k 4 --policy "$p" --seed 2
  record "greedy-torus-$p" run --json --topology torus:10x10 --workload transpose --policy "$p"
  record "valiant-cube-$p" run --json --topology hypercube:6 --algorithm valiant --workload transpose --policy "$p" --seed 5
  record "bitfix-bfly-$p" run --json --topology butterfly:4 --algorithm bit-fixing --workload random-permutation --policy "$p"
done
for t in linear:40 ring:41 mesh:6x7 torus:5x9 mesh:4x4x4 torus:4x5x6 mesh:3x3x3x3 hypercube:7 butterfly:5; do
  for w in random-permutation bit-reversal tornado random-kk hotspot locality large-shift point-reflection; do
    a=greedy
    case $t in hypercube*) a=bit-fixing ;; butterfly*) a=bit-fixing ;; esac
    record "$a-$t-$w" run --json --topology "$t" --algorithm "$a" --workload "$w" --k 2 --seed 4
  done
  record "valiant-$t" run --json --topology "$t" --algorithm valiant --workload random-permutation --seed 6
done
for q in 1 2 3; do
  record "greedy-q$q" run --json --topology mesh:12x12 --workload random-kk --k 3 --queue-cap "$q"
  record "greedy-edgeq$q" run --json --topology mesh:12x12 --workload random-kk --k 3 --queue-cap "$q" --edge-queues
  record "greedy-torus-q$q" run --json --topology torus:9x9 --workload random-permutation --queue-cap "$q" --policy fifo
done
record greedy-reverse run --json --topology mesh:16x16 --workload transpose --reverse-order
record bitfix-reverse run --json --topology hypercube:8 --algorithm bit-fixing --workload transpose --reverse-order
record valiant-pipe run --json --topology mesh:16x16 --algorithm valiant --workload transpose --pipeline
record valiant-pipe-cube run --json --topology hypercube:8 --algorithm valiant --workload bit-reversal --pipeline
record greedy-worst run --json --topology mesh:20x20 --workload greedy-worst
record greedy-limit run --json --topology mesh:16x16 --workload transpose --max-steps 7
record greedy-checked run --json --check-invariants --topology mesh:8x8 --workload random-kk --k 3 --queue-cap 2
for a in rand-interval offline sort-route; do
  for w in random-permutation transpose bit-reversal point-reflection; do
    record "$a-$w" run --json --topology mesh:16x16 --algorithm "$a" --workload "$w" --seed 2
  done
done
record offline-torus run --json --topology torus:8x8 --algorithm offline --workload random-permutation
record offline-pipe run --json --topology mesh:8x8 --algorithm offline --workload random-permutation --pipeline
record randint-rect run --json --topology mesh:8x12 --algorithm rand-interval --workload random-permutation
for a in pp-rand pp-det; do
  for lk in "1 4" "4 1" "2 2" "2 8"; do
    set -- $lk
    record "$a-worst-$1-$2" run --json --topology mesh:16x16 --algorithm "$a" --workload worst-lk --l "$1" --k "$2"
    record "$a-random-$1-$2" run --json --topology mesh:16x16 --algorithm "$a" --workload random-lk --l "$1" --k "$2" --seed 3
  done
  record "$a-checked" run --json --check-invariants --topology mesh:8x8 --algorithm "$a" --workload random-lk --l 2 --k 2
done
record refuse-pp run --json --topology ring:8 --algorithm pp-rand --workload random-permutation
record refuse-wl run --json --topology mesh:4x6 --workload transpose
record gen-lk generate --topology mesh:8x8 --workload random-lk --l 2 --k 3 --seed 9
record gen-worst generate --topology mesh:8x8 --workload worst-lk --l 1 --k 4
"$bin" generate --topology mesh:8x8 --workload random-kk --k 2 --seed 7 >"$out/instance.json"
record instance-run run --json --instance "$out/instance.json" --algorithm greedy --policy fifo
record sweep-csv sweep --topology 'mesh:{n}x{n},torus:{n}x{n}' --n 4,8 --algorithm greedy,valiant,offline \
  --workload random-permutation,transpose --seeds 1..2 --jobs 2
record sweep-jsonl sweep --topology 'mesh:{n}x{n}' --n 8,16 --algorithm greedy,pp-rand --workload worst-lk \
  --l 1,2 --k 2,4 --format jsonl --jobs 2
echo "$n outputs in $out"
