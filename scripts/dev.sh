#!/usr/bin/env bash
# Installs what is missing, builds the site and serves it on http://127.0.0.1:8080/ with the
# built-in example drawn. Ctrl-C stops it.
source "$(dirname "$0")/lib.sh"
ensure_build_tools
build_site "./"
say "serving $ROOT/dist at http://127.0.0.1:${PORT:-8080}/ (Ctrl-C to stop)"
exec node "$ROOT/scripts/serve.mjs" "$ROOT/dist" "${PORT:-8080}" /
