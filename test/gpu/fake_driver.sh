#!/bin/sh
# fake_driver.sh COMPILER FAKE_DRIVER MODEL INPUT WORKDIR - the GPU runtime's
# paths on a machine without a GPU, through a stand-in driver
# (FakeCudaDriver.c): a run launches every kernel and writes its outputs;
# each driver failure gives one error line and exit 1, never a crash; the
# inputs, weights and outputs are prefetched; --bench, a tensor-core
# precision, kernels for a newer GPU (a clear error), and a library (--emit lib, static and shared) through the C API
# of examples/c-api/main.c work the same way.
set -eu
compiler=$1 driver=$2 model=$3 input=$4 work=$5
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$work"
"$compiler" "$model" --target nvptx -o "$work/model"
fail=0
check() { # FAILING-FUNCTION EXPECTED-STATUS EXPECTED-STDERR-LINE
  rm -rf "$work/out"
  status=0
  FAKE_CUDA_FAIL=$1 ONNXC_CUDA_DRIVER=$driver "$work/model" --output-dir "$work/out" \
    "$input" >"$work/stdout" 2>"$work/stderr" || status=$?
  bad=0
  [ "$status" -eq "$2" ] || bad=1
  [ "$(wc -l <"$work/stderr")" -le 1 ] || bad=1
  if [ -n "$3" ]; then grep -qF -- "$3" "$work/stderr" || bad=1; fi
  if [ "$bad" -ne 0 ]; then
    echo "FAIL [${1:-none}]: exit $status, stderr:"; cat "$work/stderr"; fail=1
  else
    echo "ok   [${1:-none}]: exit $status $(cat "$work/stderr")"
  fi
}
check "" 0 ""
test -f "$work/out/output_0.pb" || { echo "FAIL: no output_0.pb"; fail=1; }
check cuInit 1 "error: no usable NVIDIA GPU: cuInit failed: CUDA_ERROR_NO_DEVICE"
check cuDeviceGetCount 1 "error: no usable NVIDIA GPU: the CUDA driver finds no device"
check cuModuleLoadDataEx 1 "error: GPU error: loading the kernels (cuModuleLoadDataEx) failed"
check cuLaunchKernel 1 "error: GPU error: cuLaunchKernel failed: CUDA_ERROR_LAUNCH_FAILED"
check cuMemAllocManaged 1 "error: GPU error: cuMemAllocManaged failed"

# Every kernel launched, the inputs prefetched, the weights advised
# read-mostly; the launches chained on the stream, with the host waiting
# once after the model's kernels (the outputs are copied out by cuMemcpy),
# or after every launch with ONNXC_GPU_SYNC=1.
log_line='^fake-cuda: ([1-9][0-9]*) launches, ([0-9]+) syncs, [1-9][0-9]* prefetches, [1-9][0-9]* advices$'
for sync in 0 1; do
  ONNXC_GPU_SYNC=$sync FAKE_CUDA_LOG=1 ONNXC_CUDA_DRIVER=$driver "$work/model" --output-dir "$work/out" \
    "$input" 2>"$work/stderr" >/dev/null
  counts=$(sed -nE "s/$log_line/\\1 \\2/p" "$work/stderr")
  launched=${counts% *} synced=${counts#* }
  if [ -n "$counts" ] && { { [ "$sync" = 0 ] && [ "$synced" -eq 1 ]; } ||
                           { [ "$sync" = 1 ] && [ "$synced" -ge "$launched" ]; }; }; then
    echo "ok   [log, ONNXC_GPU_SYNC=$sync]: $(cat "$work/stderr")"
  else
    echo "FAIL [log, ONNXC_GPU_SYNC=$sync]:"; cat "$work/stderr"; fail=1
  fi
done

# --bench: one JSON line.
if ONNXC_CUDA_DRIVER=$driver "$work/model" --bench 3 --output-dir "$work/out-bench" "$input" 2>"$work/stderr" |
    grep -q '^{"median_ms": '; then
  echo "ok   [bench]"
else
  echo "FAIL [bench]:"; cat "$work/stderr"; fail=1
fi

# ONNXC_GPU_PROFILE=1: at exit, the runs after the first and every kernel,
# named after its ONNX node, each launched once per run.
ONNXC_GPU_PROFILE=1 ONNXC_CUDA_DRIVER=$driver "$work/model" --bench 3 --output-dir "$work/out-profile" \
  "$input" >/dev/null 2>"$work/stderr"
if grep -qE '^onnxc GPU profile: 3 runs, per run [0-9.]+ ms, kernels [0-9.]+ ms in [1-9][0-9]* kernels$' "$work/stderr" &&
    grep -qE '^onnxc GPU profile: [0-9.]+ 1\.0 [0-9]+ [0-9]+ main_graph_kernel[_0-9]*_[A-Za-z]' "$work/stderr" &&
    ! grep -E '^onnxc GPU profile: [0-9.]+ [0-9.]+ ' "$work/stderr" | grep -qvE ' 1\.0 [0-9]+ [0-9]+ [A-Za-z_0-9]+$'; then
  echo "ok   [profile]"
else
  echo "FAIL [profile]:"; cat "$work/stderr"; fail=1
fi

# Kernels for a newer GPU than the device: one clear line, exit 1.
"$compiler" "$model" --target nvptx --gpu sm_90 -o "$work/model-sm90"
status=0
ONNXC_CUDA_DRIVER=$driver "$work/model-sm90" --output-dir "$work/out-sm90" "$input" \
  >/dev/null 2>"$work/stderr" || status=$?
if [ "$status" -eq 1 ] && [ "$(wc -l <"$work/stderr")" -eq 1 ] &&
    grep -qF "error: GPU error: the kernels are for sm_90, but the GPU (fake) is sm_80: compile with --gpu sm_80 or older" "$work/stderr"; then
  echo "ok   [sm_90 on sm_80]"
else
  echo "FAIL [sm_90 on sm_80]: exit $status"; cat "$work/stderr"; fail=1
fi

# A tensor-core precision builds and runs.
"$compiler" "$model" --target nvptx --gpu-precision fp16 -o "$work/model-fp16"
if ONNXC_CUDA_DRIVER=$driver "$work/model-fp16" --output-dir "$work/out-fp16" "$input" \
    >/dev/null 2>"$work/stderr" && test -f "$work/out-fp16/output_0.pb"; then
  echo "ok   [fp16]"
else
  echo "FAIL [fp16]:"; cat "$work/stderr"; fail=1
fi

# The library: the C API over the static archive and the shared library;
# without a driver, one error line and exit 1.
"$compiler" "$model" --target nvptx --emit lib -o "$work/libgpu"
cc -I "$work" "$source_dir/examples/c-api/main.c" "$work/libgpu.a" -lm -lpthread -ldl \
  -DMODEL_HEADER='"libgpu.h"' -DMODEL=gpu_model -o "$work/classify-static"
cc -I "$work" "$source_dir/examples/c-api/main.c" "$work/libgpu.so" -Wl,-rpath,"$work" \
  -DMODEL_HEADER='"libgpu.h"' -DMODEL=gpu_model -o "$work/classify-shared"
for exe in classify-static classify-shared; do
  if ONNXC_CUDA_DRIVER=$driver "$work/$exe" "$input" >"$work/stdout" 2>"$work/stderr" &&
      grep -q ': float32 \[' "$work/stdout"; then
    echo "ok   [$exe]"
  else
    echo "FAIL [$exe]:"; cat "$work/stdout" "$work/stderr"; fail=1
  fi
  status=0
  ONNXC_CUDA_DRIVER=$work/no-such-libcuda.so "$work/$exe" "$input" >/dev/null 2>"$work/stderr" || status=$?
  if [ "$status" -eq 1 ] && [ "$(wc -l <"$work/stderr")" -eq 1 ] &&
      grep -q '^error: no usable NVIDIA GPU: cannot load the CUDA driver' "$work/stderr"; then
    echo "ok   [$exe, no driver]"
  else
    echo "FAIL [$exe, no driver]: exit $status"; cat "$work/stderr"; fail=1
  fi
done
exit $fail
