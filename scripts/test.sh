#!/usr/bin/env bash
# Installs the test dependencies and runs every test: engine and CLI tests (native), wasm tests
# in headless Chromium, and browser end-to-end tests against the release build served under
# /roofline/ (as on GitHub Pages): the detailed tests in Chromium, then the same scenarios in
# Chromium, Firefox ESR and WebKitGTK, and one shared link across the three (tests/e2e/engines/).
source "$(dirname "$0")/lib.sh"
ensure_build_tools
ensure_browsers
cd "$ROOT"

say "engine and CLI tests (native)"
cargo test --workspace --exclude roofline-app

say "wasm tests in headless Chromium"
CHROMEDRIVER=/usr/bin/chromedriver WASM_BINDGEN_TEST_TIMEOUT=120 \
    cargo test -p roofline-app --target wasm32-unknown-unknown

build_site "/roofline/"
say "first-visit size budget (wasm + js + css, gzipped)"
node scripts/size-budget.mjs dist

say "browser end-to-end tests: Chromium in detail, then every scenario in Chromium, Firefox and WebKit"
node --test --test-concurrency=1 tests/e2e/*.test.mjs tests/e2e/engines/*.test.mjs
