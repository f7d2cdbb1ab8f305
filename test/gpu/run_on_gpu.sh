#!/bin/sh
# run_on_gpu.sh [BUILD_DIR] [run_on_gpu.py options] - check and time the
# nvptx build of BUILD_DIR on a machine with an NVIDIA GPU (and LLVM/MLIR;
# see device_run.sh for one without). Writes BUILD_DIR/gpu-report/gpu.md.
# See docs/user-guide.md ("GPU").
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
[ $# -gt 0 ] && shift
exec /usr/bin/python3 "$here/run_on_gpu.py" --build "$build" --out "$build/gpu-report" "$@"
