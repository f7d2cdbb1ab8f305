#!/usr/bin/env bash
# run.sh - builds the C API example against a digits library and runs it:
# compiles digits.onnx with --emit lib, links main.c once against the static
# archive and once against the shared library, and compares both with the
# standalone executable's output.
#   usage: run.sh BIN_DIR DIGITS_DIR WORK_DIR
# $CC and $LDFLAGS choose the compiler (a sanitizer build of onnxc needs its
# own, with its -fsanitize flags).
set -euo pipefail
bin=$1 data=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
"$bin/onnx-compile" "$data/digits.onnx" -o "$work/libdigits" --emit lib
for f in libdigits.so libdigits.a libdigits.h onnxc_runtime.h; do
  [ -f "$work/$f" ] || { echo "missing $work/$f" >&2; exit 1; }
done
flags=(-std=c11 -Wall -Wextra -Werror -I "$work" -DMODEL_HEADER='"libdigits.h"' -DMODEL=digits_model)
cc=(${CC:-cc} ${LDFLAGS:-})
"${cc[@]}" "${flags[@]}" "$here/main.c" "$work/libdigits.a" -lm -lpthread -o "$work/classify-static"
"${cc[@]}" "${flags[@]}" "$here/main.c" -L "$work" -ldigits -Wl,-rpath,"$work" -o "$work/classify-shared"
"$work/classify-static" "$data/test_images.pb" | tee "$work/static.txt"
"$work/classify-shared" "$data/test_images.pb" > "$work/shared.txt"
cmp "$work/static.txt" "$work/shared.txt"
grep -q '^logits: float32 \[360,10\]' "$work/static.txt"
echo "c-api example: OK"
