# Shared set-up steps for dev.sh, test.sh and bench.sh. Each `ensure_*` installs one thing only
# when it is missing or at the wrong version, so a second run is fast.
# shellcheck shell=bash
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TRUNK_VERSION="0.21.14"
export PATH="$HOME/.cargo/bin:$ROOT/node_modules/.bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }

# The pinned toolchain (rust-toolchain.toml) and its wasm target.
ensure_rust() {
    cd "$ROOT"
    if ! rustup target list --installed | grep -q '^wasm32-unknown-unknown$'; then
        say "adding the wasm32-unknown-unknown target"
        rustup target add wasm32-unknown-unknown
    fi
}

ensure_trunk() {
    if [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
        say "installing trunk $TRUNK_VERSION (about 6 minutes, once)"
        cargo install trunk --version "$TRUNK_VERSION" --locked
    fi
}

# The wasm-bindgen CLI must equal the library version in Cargo.lock, or Trunk tries to download.
ensure_wasm_bindgen() {
    local want
    want="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' "$ROOT/Cargo.lock")"
    if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$want" ]; then
        say "installing wasm-bindgen-cli $want (a few minutes, once)"
        # Not --locked: one dependency version locked by 0.2.130 is missing from the registry.
        cargo install wasm-bindgen-cli --version "$want"
    fi
}

# wasm-opt from npm's binaryen (Debian's wasm-opt 108 produces a wasm that fails to load), esbuild (the scripts' minifier),
# lightningcss (the stylesheets' minifier, scripts/postbuild.mjs) and the browser test drivers
# (playwright-core for Chromium, puppeteer-core for Firefox, selenium-webdriver for WebKit).
# Skipped when node_modules matches package-lock.json.
ensure_npm() {
    cd "$ROOT"
    local missing=""
    for m in esbuild lightningcss playwright-core puppeteer-core selenium-webdriver; do
        [ -d "node_modules/$m" ] || missing="$missing $m"
    done
    if [ ! -x node_modules/.bin/wasm-opt ] || [ -n "$missing" ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
        say "installing npm tools (binaryen, esbuild, lightningcss, playwright-core, puppeteer-core, selenium-webdriver)"
        npm ci --no-audit --no-fund
    fi
}

# Installs Debian packages (as root, or with sudo), then drops apt's downloaded archives: the
# browsers are large and disk is shared.
apt_install() {
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    say "installing $* from apt"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
    $sudo apt-get clean
}

# Debian's Chromium and its driver, for wasm tests and end-to-end tests.
ensure_chromium() {
    if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
        apt_install chromium chromium-driver
    fi
}

# Debian's Firefox ESR, driven over WebDriver BiDi by puppeteer-core (no geckodriver).
ensure_firefox() {
    if [ ! -x /usr/bin/firefox-esr ]; then
        apt_install firefox-esr
    fi
}

# WebKit: WebKitGTK's WebDriver (its package brings the library and its MiniBrowser) and
# xvfb-run, since MiniBrowser needs a display even when automated.
ensure_webkit() {
    if ! command -v WebKitWebDriver >/dev/null || ! command -v xvfb-run >/dev/null; then
        apt_install webkit2gtk-driver xvfb xauth
    fi
}

# The three browser engines of the end-to-end suite.
ensure_browsers() {
    ensure_chromium
    ensure_firefox
    ensure_webkit
}

# clang with its wasm32 target (Debian's clang 14 has it) and llvm-ar: the SQLite worker's
# SQLite (rocpd-worker/, the sqlite-wasm-rs crate) is C, compiled for wasm32 by the `cc` crate.
ensure_clang() {
    if ! command -v clang >/dev/null || ! command -v llvm-ar >/dev/null; then
        apt_install clang llvm
    fi
}

ensure_build_tools() {
    ensure_clang
    ensure_rust
    ensure_trunk
    ensure_wasm_bindgen
    ensure_npm
}

# Builds the site into dist/ for the given public URL (default ./, which works at any path).
build_site() {
    local public_url="${1:-./}"
    cd "$ROOT"
    say "building the site (public URL $public_url)"
    trunk build --offline --release --public-url "$public_url"
    node "$ROOT/scripts/postbuild.mjs" "$ROOT/dist"
}
