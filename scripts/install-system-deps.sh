#!/usr/bin/env bash
# What the tests need beyond npm: openssl (certificate checks), cloud-init (bootstrap data schema
# checks), Java (DynamoDB Local), moto's server for the AWS-wire tier, and zip/unzip (the
# deployed-stack test packages and unpacks function code as CloudFormation and Lambda do). Idempotent.
set -euo pipefail
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
need=()
command -v openssl >/dev/null || need+=(openssl)
command -v cloud-init >/dev/null || need+=(cloud-init)
command -v java >/dev/null || need+=(openjdk-17-jre-headless)
command -v python3 >/dev/null || need+=(python3 python3-pip)
command -v zip >/dev/null || need+=(zip)
command -v unzip >/dev/null || need+=(unzip)
if [ ${#need[@]} -gt 0 ]; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
fi
# moto goes to the interpreter the AWS-wire setup runs (python3 on PATH).
if ! python3 -c 'import moto, flask, flask_cors; assert moto.__version__ == "5.2.5"' 2>/dev/null; then
  python3 -m pip install --quiet "moto[server]==5.2.5" \
    || python3 -m pip install --quiet --break-system-packages "moto[server]==5.2.5"
fi
# Debian's kubectl (kubernetes-client) for the real-client tests, unpacked into .tools/: installing
# it would clash with a kubectl another package already owns (google-cloud-sdk's, on these machines).
KUBECTL_DIR="$(cd "$(dirname "$0")/.." && pwd)/.tools/kubernetes-client"
if [ ! -x "$KUBECTL_DIR/usr/bin/kubectl" ]; then
  work=$(mktemp -d)
  (cd "$work" && { apt-get download kubernetes-client 2>/dev/null || { $SUDO apt-get update -qq && apt-get download kubernetes-client; }; })
  mkdir -p "$KUBECTL_DIR"
  dpkg-deb -x "$work"/kubernetes-client_*.deb "$KUBECTL_DIR"
  rm -rf "$work"
fi
command -v kubectl >/dev/null || $SUDO ln -sf "$KUBECTL_DIR/usr/bin/kubectl" /usr/local/bin/kubectl
