#!/usr/bin/env bash
# Builds Cluster API's clusterctl from the Go module proxy into .tools/clusterctl-<version>/clusterctl,
# for the real-client tests (test/integration/api/clusterctl.test.ts). Cached: a second run with the
# binary present does nothing. Without Go it says so and exits 2, so callers can skip with the reason.
#
# The module's go.mod replaces sigs.k8s.io/cluster-api/api with ./api, which the module zip does not
# carry; the replace is dropped in favour of the published sigs.k8s.io/cluster-api/api at the same
# version. About five minutes of CPU on a fresh module cache.
set -euo pipefail
VERSION="${CLUSTERCTL_VERSION:-v1.14.0}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT_DIR="$ROOT/.tools/clusterctl-$VERSION"
BIN="$OUT_DIR/clusterctl"
if [ -x "$BIN" ]; then echo "$BIN"; exit 0; fi
if ! command -v go >/dev/null 2>&1; then
  echo "go is not installed: clusterctl $VERSION cannot be built" >&2
  exit 2
fi
mkdir -p "$OUT_DIR"
exec 9>"$OUT_DIR/.lock"
flock 9
if [ -x "$BIN" ]; then echo "$BIN"; exit 0; fi
export GOFLAGS=-mod=mod
src=$(go mod download -json "sigs.k8s.io/cluster-api@$VERSION" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p')
work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
cp -r "$src/." "$work/"
chmod -R u+w "$work"
cd "$work"
go mod edit -dropreplace sigs.k8s.io/cluster-api/api -require "sigs.k8s.io/cluster-api/api@$VERSION"
go mod download "sigs.k8s.io/cluster-api/api@$VERSION"
CGO_ENABLED=0 go build -trimpath -o "$BIN.tmp" ./cmd/clusterctl
mv "$BIN.tmp" "$BIN"
echo "$BIN"
