#!/usr/bin/env bash
# Installs the test dependencies and runs every test: engine and CLI tests (native), wasm tests
# in headless Chromium, and browser end-to-end tests against the release build served under
# /roofline/ (as on GitHub Pages): the detailed tests in Chromium, then the same scenarios in
# Chromium, Firefox ESR and WebKitGTK, and one shared link across the three (tests/e2e/engines/).
source "$(dirname "$0")/lib.sh"
# A test run compiles each crate once: incremental caches would only take disk (CI's is shared).
export CARGO_INCREMENTAL=0
ensure_build_tools
ensure_browsers
cd "$ROOT"

say "engine and CLI tests (native)"
cargo test --workspace --exclude roofline-app

say "wasm tests in headless Chromium"
# wasm-bindgen-test-runner gives chromedriver 5 s by default to bind its port and then fails the
# run; on a fresh CI machine its first start took longer (CI failed so on 2026-12-02). 120 s in
# all, with the runner's own restart of a driver that has not bound after 10 s.
# chromedriver leaves a 110 MB browser profile in $TMPDIR per test binary when the runner stops
# it; they go in a folder of their own, removed after.
wasm_tmp="$(mktemp -d)"
trap 'rm -rf "$wasm_tmp"' EXIT
TMPDIR="$wasm_tmp" CHROMEDRIVER=/usr/bin/chromedriver WASM_BINDGEN_TEST_TIMEOUT=120 WASM_BINDGEN_TEST_DRIVER_TIMEOUT=120 \
    cargo test -p roofline-app --target wasm32-unknown-unknown

build_site "/roofline/"
say "first-visit size budget (wasm + js + css, gzipped)"
node scripts/size-budget.mjs dist

say "browser end-to-end tests: Chromium in detail, then every scenario in Chromium, Firefox and WebKit"
node --test --test-concurrency=1 tests/e2e/*.test.mjs tests/e2e/engines/*.test.mjs
