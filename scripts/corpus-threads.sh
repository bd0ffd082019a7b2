#!/usr/bin/env bash
# The CLI corpus (scripts/corpus.sh) at 1, 2 and 4 threads, the parallel
# step forced on every instance (ROUTESIM_PARALLEL_MIN=0): `run` and
# `sweep` get `--threads N`. Every output must equal the 1-thread one (a
# sweep's stderr may add the warning that jobs x threads exceed the cores).
#
#   scripts/corpus-threads.sh BIN OUTDIR   # OUTDIR/t1, OUTDIR/t2, OUTDIR/t4
#   diff -r /tmp/cb OUTDIR/t1              # and the base corpus, as usual
set -uo pipefail
bin=$(realpath "$1")
out=$2
here=$(dirname "$0")
mkdir -p "$out"
for t in 1 2 4; do
  wrap="$out/routesim-t$t"
  cat >"$wrap" <<WRAP
#!/usr/bin/env bash
case "\$1" in
  run | sweep) cmd=\$1; shift; exec "$bin" "\$cmd" --threads $t "\$@" ;;
  *) exec "$bin" "\$@" ;;
esac
WRAP
  chmod +x "$wrap"
  ROUTESIM_PARALLEL_MIN=0 bash "$here/corpus.sh" "$wrap" "$out/t$t"
done
status=0
for t in 2 4; do
  diff -r -I 'warning: --jobs' "$out/t1" "$out/t$t" || status=1
done
exit $status
