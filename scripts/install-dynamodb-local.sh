#!/bin/sh
# Installs DynamoDB Local 1.25.1 under .tools/dynamodb-local (idempotent).
# It ships inside the npm package amplify-dynamodb-simulator@2.9.30; only package/emulator is kept.
set -eu

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
TARGET="$ROOT/.tools/dynamodb-local"

if [ -f "$TARGET/DynamoDBLocal.jar" ]; then
  echo "DynamoDB Local already installed in $TARGET"
  exit 0
fi

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

(cd "$WORK" && npm pack --silent amplify-dynamodb-simulator@2.9.30 >/dev/null)
tar -xzf "$WORK"/amplify-dynamodb-simulator-2.9.30.tgz -C "$WORK"
mkdir -p "$ROOT/.tools"
rm -rf "$TARGET"
mv "$WORK/package/emulator" "$TARGET"
echo "DynamoDB Local installed in $TARGET"
