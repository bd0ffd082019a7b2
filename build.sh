#!/usr/bin/env bash
# routesim — build | serve | test. The same steps CI runs (.ci/run = ./build.sh test).
#
#   ./build.sh          release wasm + JS glue into www/pkg, uPlot into www/vendor
#   ./build.sh serve    build, then serve www/ on http://127.0.0.1:8080
#   ./build.sh test     fmt, clippy (native + wasm32), native tests, wasm tests
#                       (Node + headless Chromium), end-to-end browser tests
#
# Everything missing is installed from the package registries (crates.io, npm,
# Debian apt), and only when missing. Works as root with CI=true and no terminal.
set -euo pipefail
cd "$(dirname "$0")"
export PATH="$HOME/.cargo/bin:$PATH"
export DEBIAN_FRONTEND=noninteractive
CRATE=routesim
WASM_TARGET=wasm32-unknown-unknown
PORT="${PORT:-8080}"
START=$SECONDS

step() { printf '\n==> %s\n' "$*"; }
run() { printf '+ %s\n' "$*"; "$@"; }

# ---- installers (idempotent) ------------------------------------------------

ensure_wasm_target() {
  if rustup target list --installed | grep -qx "$WASM_TARGET"; then
    echo "rustup target $WASM_TARGET: installed"
  else
    run rustup target add "$WASM_TARGET"
  fi
}

ensure_wasm_bindgen() {
  # The CLI must be exactly the wasm-bindgen version Cargo.lock pins.
  local want have
  want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, "", $3); print $3; exit }' Cargo.lock)
  if [ -z "$want" ]; then
    echo "Cargo.lock does not pin wasm-bindgen" >&2
    exit 1
  fi
  have=$( (wasm-bindgen --version 2>/dev/null || true) | awk '{ print $2 }')
  if [ "$have" = "$want" ] && command -v wasm-bindgen-test-runner >/dev/null; then
    echo "wasm-bindgen-cli $want: installed"
  else
    echo "wasm-bindgen-cli: have '${have:-none}', need $want"
    # Not --locked: the CLI's own lock pins a crate version the registry lacks.
    run cargo install wasm-bindgen-cli --version "=$want" --no-default-features --force
  fi
}

ensure_npm_packages() {
  # Each package on its own: `npm ls a b c` succeeds when only some are there.
  local p missing=""
  for p in uplot playwright-core axe-core; do
    npm ls --depth=0 "$p" >/dev/null 2>&1 || missing="$missing $p"
  done
  if [ -z "$missing" ]; then
    echo "npm packages: installed"
  else
    echo "npm packages missing:$missing"
    run npm ci --no-audit --no-fund
  fi
  mkdir -p www/vendor
  local f
  for f in uPlot.esm.js uPlot.min.css; do
    if ! cmp -s "node_modules/uplot/dist/$f" "www/vendor/$f"; then
      run cp "node_modules/uplot/dist/$f" "www/vendor/$f"
    fi
  done
  cmp -s node_modules/uplot/LICENSE www/vendor/uPlot.LICENSE || cp node_modules/uplot/LICENSE www/vendor/uPlot.LICENSE
}

# Debian packages, those missing only: chromium and its driver (the browser
# tests) with `test`; python3 (`serve`'s server, and the docs/data scripts
# that tests/it/docs_data.rs runs) with both.
apt_install() {
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  run $sudo apt-get update
  run $sudo apt-get install -y --no-install-recommends "$@"
}

# Debian packages given as pairs (an executable's path, its package): those
# whose executable is missing, in one `apt-get update` and one install.
ensure_debian() {
  local want=() path pkg
  while [ $# -gt 0 ]; do
    path=$1 pkg=$2
    shift 2
    if [ -x "$path" ]; then
      echo "$pkg: installed ($path)"
    else
      want+=("$pkg")
    fi
  done
  if [ ${#want[@]} -gt 0 ]; then apt_install "${want[@]}"; fi
}

ensure_python3() {
  ensure_debian "$(command -v python3 || echo /usr/bin/python3)" python3
}

ensure_debian_packages() {
  ensure_debian /usr/bin/chromium chromium /usr/bin/chromedriver chromium-driver \
    "$(command -v python3 || echo /usr/bin/python3)" python3
}

# ---- steps --------------------------------------------------------------------

build() {
  step "build: release wasm + JS glue into www/pkg"
  ensure_wasm_target
  ensure_wasm_bindgen
  ensure_npm_packages
  # The wasm-release profile (Cargo.toml: one codegen unit, fat LTO) and
  # simd128 (.cargo/config.toml); no wasm-opt: binaryen's -O3 made the
  # engine ~25% slower in V8 (docs/architecture.md, "The page's engine").
  run cargo build --profile wasm-release --target "$WASM_TARGET" --lib
  run wasm-bindgen --target web --out-dir www/pkg "target/$WASM_TARGET/wasm-release/$CRATE.wasm"
  ls -l www/pkg/"$CRATE"_bg.wasm
}

serve() {
  build
  ensure_python3
  step "serve: http://127.0.0.1:$PORT/ (Ctrl-C stops)"
  run exec python3 -m http.server "$PORT" --bind 127.0.0.1 --directory www
}

timed() {
  local name=$1 t0=$SECONDS
  shift
  step "$name"
  "$@"
  TIMINGS+=("$(printf '%-28s %4ss' "$name" $((SECONDS - t0)))")
}

wasm_tests() {
  # Only the wasm test targets are built for wasm32 (web.rs: Node,
  # web_browser.rs: headless Chromium through chromedriver), at opt-level 1:
  # built in 57 s and run in 14 s, against 77 s and 9 s at the test
  # profile's 2 (docs/testing.md, "How long it takes").
  CARGO_PROFILE_TEST_OPT_LEVEL=1 \
    CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
    CHROMEDRIVER=/usr/bin/chromedriver \
    run cargo test --target "$WASM_TARGET" --test web --test web_browser
}

readme_facts() {
  # Nothing of the old README was lost (docs/testing.md); needs that
  # revision, which a shallow clone lacks: said, not failed.
  if git cat-file -e 75651db:README.md 2>/dev/null; then
    run python3 scripts/readme_facts.py
  else
    echo "readme_facts: revision 75651db is not in this clone (shallow?); not checked"
  fi
}

e2e_tests() {
  run node --test --test-reporter=spec tests/e2e/*.test.mjs
}

ensure_tools() {
  ensure_wasm_target
  ensure_wasm_bindgen
  ensure_npm_packages
  ensure_debian_packages
}

test_all() {
  TIMINGS=()
  timed "install what is missing" ensure_tools
  timed "cargo fmt --check" run cargo fmt --check
  timed "cargo clippy (native)" run cargo clippy --all-targets -- -D warnings
  timed "cargo clippy (wasm32)" run cargo clippy --target "$WASM_TARGET" --lib --test web --test web_browser -- -D warnings
  timed "cargo test --release" run cargo test --release
  timed "README facts kept" readme_facts
  timed "wasm tests (Node, Chromium)" wasm_tests
  timed "build www/pkg" build
  timed "end-to-end (Playwright)" e2e_tests
  step "all tests passed in $((SECONDS - START))s"
  printf '  %s\n' "${TIMINGS[@]}"
}

case "${1:-build}" in
  build) build ;;
  serve) serve ;;
  test) test_all ;;
  *)
    echo "usage: $0 [build|serve|test]" >&2
    exit 2
    ;;
esac
