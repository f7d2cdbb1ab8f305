#!/bin/bash
# device_run.sh BUNDLE [run_on_gpu.py options] - the one command of a run on
# a lent GPU machine (no LLVM/MLIR there): checks the tools the run needs,
# then run_on_gpu.py --bundle BUNDLE with its report in $OUT (gpu.md,
# gpu-report.json, log.txt). BUNDLE comes from make_bundle.sh.
set -u
here=$(cd "$(dirname "$0")" && pwd)
bundle=$1
shift
out=${OUT:-$PWD/gpu-out}
mkdir -p "$out"
export PYTHONUNBUFFERED=1
# onnx-compile links executables with `cc`.
if ! command -v cc >/dev/null; then
  for c in gcc clang x86_64-linux-gnu-gcc; do
    if command -v $c >/dev/null; then
      mkdir -p /tmp/onnxc-bin && ln -sf "$(command -v $c)" /tmp/onnxc-bin/cc
      export PATH=/tmp/onnxc-bin:$PATH
      break
    fi
  done
fi
{
  nvidia-smi -L
  echo "cc: $(command -v cc) $(cc --version | head -1)"
  python3 "$here/run_on_gpu.py" --bundle "$bundle" --out "$out" --scratch /tmp/onnxc-gpu \
    -j "$(nproc)" "$@"
} 2>&1 | tee "$out/log.txt"
exit "${PIPESTATUS[0]}"
