#!/usr/bin/env bash
# Fails when ui/src/bindings differs from what the Rust types generate (run `make bindings`).
set -euo pipefail
cd "$(dirname "$0")/.."
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
TS_RS_EXPORT_DIR="$tmp" cargo test -q -p workbench-core -p workbench-mcp --features workbench-core/ts,workbench-mcp/ts export_bindings >/dev/null
if ! diff -ru "$tmp" ui/src/bindings; then
  echo "check-bindings: ui/src/bindings is stale; run 'make bindings' and commit the result" >&2
  exit 1
fi
echo "check-bindings: ui/src/bindings matches the Rust types"
