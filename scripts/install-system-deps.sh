#!/usr/bin/env bash
# Debian and PyPI packages the tests use: openssl (certificate checks), cloud-init (bootstrap data
# schema checks), Java (DynamoDB Local), kubectl (real-client tests), moto server (AWS-wire tier).
set -euo pipefail
need=()
command -v openssl >/dev/null || need+=(openssl)
command -v cloud-init >/dev/null || need+=(cloud-init)
command -v java >/dev/null || need+=(openjdk-17-jre-headless)
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
fi
