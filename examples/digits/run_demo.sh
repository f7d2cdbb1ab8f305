#!/usr/bin/env bash
# run_demo.sh - the digits example end to end: train and export with PyTorch,
# optimize with onnx-opt, compile with onnx-compile, run, and check accuracy,
# logits and latency against PyTorch.
#   usage: run_demo.sh BIN_DIR WORK_DIR [--target aarch64]
set -euo pipefail
bin=$1 work=$2
shift 2
target=x86_64
if [ "${1:-}" = "--target" ]; then target=$2; fi
here=$(cd "$(dirname "$0")" && pwd)
py=/usr/bin/python3
mkdir -p "$work"
[ -f "$work/digits.onnx" ] || "$py" "$here/make_digits.py" --out "$work"
"$bin/onnx-opt" "$work/digits.onnx" -o "$work/digits.opt.onnx"
"$bin/onnx-compile" "$work/digits.opt.onnx" -o "$work/digits-$target" --target "$target"
runner=()
if [ "$target" = aarch64 ] && [ "$(uname -m)" != aarch64 ]; then
  runner=(--runner "qemu-aarch64 -L /usr/aarch64-linux-gnu")
fi
"$py" "$here/evaluate.py" --data "$work" --exe "$work/digits-$target" "${runner[@]}"
