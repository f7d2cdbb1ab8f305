#!/bin/sh
# run-aarch64.sh - runs the aarch64 runtime smoke tests under qemu-aarch64.
#
#   run-aarch64.sh SMOKE EXE
# SMOKE is Aarch64Smoke.c built for aarch64; EXE is the fake add model linked
# with libonnxc_main.a. Exits 77 (skipped) when qemu-aarch64 or the aarch64
# sysroot is missing.
set -e
smoke=$1
exe=$2
sysroot=/usr/aarch64-linux-gnu
if ! command -v qemu-aarch64 >/dev/null 2>&1 || [ ! -d "$sysroot" ]; then
  echo "skipped: qemu-aarch64 or $sysroot not found"
  exit 77
fi
run() { qemu-aarch64 -L "$sysroot" "$@"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
run "$smoke"
run "$exe" --info
run "$exe" --threads 2 --output-dir out a.pb b.pb
run "$smoke" --check out/output_0.pb
echo "aarch64 executable test passed"
