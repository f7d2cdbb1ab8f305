#!/usr/bin/env bash
# test-chroot.sh - install the Debian package on a fresh Debian 12 root and
# time what a user does first (make package-test-chroot).
#
#   test-chroot.sh DEB_DIR ZOO_DIR DIGITS_DIR WORK_DIR
#
# mmdebstrap makes WORK_DIR/root, a minbase Debian 12 (what the debian:12
# container image holds: no compiler, no LLVM, no apt lists). Then, timed,
# in a chroot there: apt-get update and `apt-get install ./onnxc_*.deb`
# (DEB_DIR's one package; apt pulls its dependencies and Recommends from
# Debian's archive), and the batch conversion of ZOO_DIR's models (every
# .onnx below it, in one folder) with `onnx-compile zoo/*.onnx -o out/ -j N`.
# Last, the digits example (DIGITS_DIR: make_digits.py's output) compiled
# and run in the chroot, its logits compared here with PyTorch's. Prints
# the times (logs in WORK_DIR); needs root, network access to
# deb.debian.org and /usr/bin/python3 with onnx and numpy on this machine.
# $APT_OPTIONS go to apt-get install (e.g. --no-install-recommends, as the
# CI examples do).
set -euo pipefail
[ $# -eq 4 ] || { echo "usage: test-chroot.sh DEB_DIR ZOO_DIR DIGITS_DIR WORK_DIR" >&2; exit 2; }
debs=("$1"/onnxc_*.deb)
[ ${#debs[@]} -eq 1 ] && [ -f "${debs[0]}" ] || { echo "test-chroot: expected one onnxc_*.deb in $1" >&2; exit 2; }
deb=${debs[0]} zoo=$2 digits=$3 work=$4
mapfile -t models < <(find "$zoo" -name '*.onnx' | sort)
[ ${#models[@]} -gt 0 ] || { echo "test-chroot: no .onnx files below $zoo" >&2; exit 2; }
root=$work/root
jobs=$(nproc)

unmount() {
  mountpoint -q "$root/proc" && umount "$root/proc"
  mountpoint -q "$root/dev" && umount -l "$root/dev"
  return 0
}
# The root (3 GB with the zoo and its outputs) goes unless $KEEP_ROOT is set.
cleanup() {
  unmount
  [ -n "${KEEP_ROOT:-}" ] || rm -rf --one-file-system "$root"
}
trap cleanup EXIT
unmount
rm -rf --one-file-system "$root"
mkdir -p "$work"
echo "== mmdebstrap: a minbase Debian 12 in $root"
mmdebstrap --variant=minbase bookworm "$root" \
  "deb http://deb.debian.org/debian bookworm main" \
  "deb http://deb.debian.org/debian bookworm-updates main" \
  "deb http://deb.debian.org/debian-security bookworm-security main" \
  > "$work/mmdebstrap.log" 2>&1 || { tail -20 "$work/mmdebstrap.log" >&2; exit 1; }
# A fresh machine has no package lists and no package cache.
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/archives/*.deb
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
cp /etc/resolv.conf "$root/etc/resolv.conf"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/root "$@"; }
in_root sh -c 'command -v cc || command -v onnx-compile' && { echo "test-chroot: the root already has a compiler" >&2; exit 1; }

mkdir -p "$root/zoo" "$root/digits"
cp "$deb" "$root/tmp/"
for m in "${models[@]}"; do cp "$m" "$root/zoo/"; done
cp "$digits"/digits.onnx "$digits"/test_images.pb "$root/digits/"
zoo_mb=$(du -sm "$root/zoo" | cut -f1)

echo "== timed: apt-get update; apt-get install ${APT_OPTIONS:-}${APT_OPTIONS:+ }./$(basename "$deb")"
t0=$(date +%s.%N)
in_root apt-get update -q > "$work/apt.log" 2>&1
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q ${APT_OPTIONS:-} "/tmp/$(basename "$deb")" >> "$work/apt.log" 2>&1 ||
  { tail -20 "$work/apt.log" >&2; exit 1; }
t1=$(date +%s.%N)
fetched=$(grep -o 'Fetched [^ ]* [kMG]*B' "$work/apt.log" | tail -1)
installed=$(grep -c '^Setting up ' "$work/apt.log" || true)
in_root onnx-compile --version

echo "== timed: onnx-compile zoo/*.onnx -o out/ -j $jobs (${#models[@]} models, $zoo_mb MB)"
rc=0
in_root sh -c "cd / && onnx-compile zoo/*.onnx -o out/ -j $jobs --report out/report.json" ||
  rc=$?
t2=$(date +%s.%N)

echo "== digits: compiled and run in the root"
in_root onnx-compile /digits/digits.onnx -o /digits/digits
in_root /digits/digits --output-dir /digits/out /digits/test_images.pb > /dev/null
/usr/bin/python3 - "$root/digits/out/output_0.pb" "$digits" <<'PY'
import sys

import numpy as np
import onnx
from onnx import numpy_helper

t = onnx.TensorProto()
with open(sys.argv[1], "rb") as f:
    t.ParseFromString(f.read())
logits = numpy_helper.to_array(t)
ref = np.load(f"{sys.argv[2]}/ref_logits.npy")
labels = np.load(f"{sys.argv[2]}/test_labels.npy")
diff = float(np.abs(logits.astype(np.float64) - ref).max())
acc, ref_acc = float((logits.argmax(1) == labels).mean()), float((ref.argmax(1) == labels).mean())
print(f"digits: accuracy {acc:.4f} (PyTorch {ref_acc:.4f}), max |logit diff| {diff:.3g}")
sys.exit(0 if acc == ref_acc and diff <= 1e-4 else 1)
PY

python3 - "$root/out/report.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
print(f"zoo: {s['models']} models, {s['ok']} ok, {s['failed'] + s['internal_errors']} failed")
PY
awk -v a="$t0" -v b="$t1" -v c="$t2" -v f="$fetched" -v n="$installed" -v k="$(du -k "$deb" | cut -f1)" 'BEGIN {
  printf "package: %d KiB\n", k
  printf "install (apt-get update + install, %d packages set up, %s): %.1f s\n", n, f, b - a
  printf "first batch conversion of the zoo: %.1f s\n", c - b
  printf "install + first conversion: %.1f s\n", c - a
}'
exit "$rc"
