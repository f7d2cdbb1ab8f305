#!/bin/bash
# make_bundle.sh BUILD_DIR BUNDLE_DIR [NODE_SET=CPU_JSON]... - everything a
# machine with an NVIDIA GPU but no LLVM/MLIR needs to run run_on_gpu.py
# --bundle BUNDLE_DIR: onnx-compile relinked against LLVM's and MLIR's static
# archives (xz-compressed), the runtime archives beside it where onnx-compile
# looks for them (BUNDLE/lib/onnxc), the shared libraries that the models
# using RegexFullMatch or ImageDecoder link (BUNDLE/lib/models), and for each
# NODE_SET (a directory of
# ONNX node tests, `name=dir`) the tests that passed on the CPU build
# (CPU_JSON, from run_node_tests.py --json), as BUNDLE/node-NAME.tar.xz and
# BUNDLE/node-NAME.txt, with onnxc-node-test-server, which runs them (libc
# only). Models are exported on the GPU machine (its PyTorch),
# not carried: resnet50's weights alone exceed what a device call carries.
#
#   test/gpu/make_bundle.sh build gpu-bundle \
#       1.12:build/test/conformance/cache/data/node=cpu-112.json \
#       1.22:../shared/onnx-node-tests/1.22=cpu-122.json
set -euo pipefail
build=$(cd "$1" && pwd)
bundle=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$bundle/bin" "$bundle/lib/onnxc"
bundle=$(cd "$bundle" && pwd)

# onnx-compile: the build's own link command, with libMLIR.so/libLLVM.so
# replaced by every static MLIR and LLVM archive (lld takes what is used;
# Target.cpp initializes only the X86, AArch64 and NVPTX backends) and
# protobuf's static archive; fmt stays shared and travels beside it
# (rpath $ORIGIN). zlib and zstd are on every Linux.
ninja -C "$build" bin/onnx-compile >/dev/null
link=$(ninja -C "$build" -t commands bin/onnx-compile | tail -1)
llvm_lib=/usr/lib/llvm-19/lib
mlir_archives=$(ls $llvm_lib/libMLIR*.a | grep -v -E 'Test|TableGen|Tblgen|MlirOptMain|CAPI' | tr '\n' ' ')
llvm_archives=$(ls $llvm_lib/libLLVM*.a | grep -v -E 'BOLT|Exegesis' | tr '\n' ' ')
multiarch=/usr/lib/$(gcc -print-multiarch)
for lib in "$llvm_lib/libMLIR.so.19.1" "$llvm_lib/libLLVM.so.1" "$multiarch/libprotobuf.so" \
  "$multiarch/libre2.so"; do
  [[ $link == *"$lib"* ]] || { echo "error: the link of onnx-compile no longer names $lib" >&2; exit 1; }
done
link=${link//-o bin\/onnx-compile/-o $bundle/bin/onnx-compile}
link=${link//$llvm_lib\/libMLIR.so.19.1/-Wl,--start-group $mlir_archives}
link=${link//$llvm_lib\/libLLVM.so.1/$llvm_archives -Wl,--end-group $multiarch/libz.so.1 $multiarch/libzstd.so.1 -lrt}
link=${link//$multiarch\/libprotobuf.so/$multiarch/libprotobuf.a}
link=${link//$multiarch\/libre2.so/$multiarch/libre2.a}
origin='-Wl,-rpath,\$ORIGIN'
# The build's rpath: LLVM's lib (CMake may end it with a colon).
link=${link//-Wl,-rpath,$llvm_lib:/-Wl,-rpath,$llvm_lib}
link=${link//-Wl,-rpath,$llvm_lib/$origin -Wl,--gc-sections -Wl,--strip-all}
(cd "$build" && eval "$link")
cp -L "$(ldd "$bundle/bin/onnx-compile" | awk '/libfmt/ {print $3}')" "$bundle/bin/"
if ldd "$bundle/bin/onnx-compile" | grep -q -E 'libLLVM|libMLIR|libprotobuf|libre2'; then
  echo "error: $bundle/bin/onnx-compile still needs a shared LLVM, MLIR, protobuf or RE2" >&2
  exit 1
fi
"$bundle/bin/onnx-compile" --version >/dev/null
xz -T0 -6 -f "$bundle/bin/onnx-compile"
rm -rf "$bundle/lib/onnxc"
cp -r "$build/lib/onnxc" "$bundle/lib/onnxc"
# The libraries that the models using RegexFullMatch or ImageDecoder link
# (-lre2, -ljpeg...; the GPU machine has no -dev packages), with what they
# load in turn but the C and C++ runtimes: run_on_gpu.py --bundle puts
# BUNDLE/lib/models on LIBRARY_PATH and LD_LIBRARY_PATH.
models=$bundle/lib/models
rm -rf "$models" && mkdir -p "$models"
for dev in libre2.so libjpeg.so libpng16.so libtiff.so libwebp.so libopenjp2.so; do
  real=$(readlink -f "$multiarch/$dev")
  for lib in "$real" $(ldd "$real" | awk '$3 ~ /^\// {print $3}'); do
    soname=$(objdump -p "$lib" | awk '/SONAME/ {print $2}')
    case $soname in libc.so*|libm.so*|libstdc++.so*|libgcc_s.so*|libz.so*|ld-linux*) continue ;; esac
    [ -e "$models/$soname" ] || cp -L "$lib" "$models/$soname"
  done
  ln -sf "$(objdump -p "$real" | awk '/SONAME/ {print $2}')" "$models/$dev"
done
ninja -C "$build" test/conformance/onnxc-node-test-server >/dev/null
cp "$build/test/conformance/onnxc-node-test-server" "$bundle/bin/"

# Node tests: the CPU-passing ones of each set.
for spec in "$@"; do
  name=${spec%%:*}
  rest=${spec#*:}
  dir=$(cd "${rest%%=*}" && pwd)
  json=${rest#*=}
  /usr/bin/python3 - "$json" "$bundle/node-$name.txt" <<'EOF'
import json, sys
tests = json.load(open(sys.argv[1]))["tests"]
with open(sys.argv[2], "w") as f:
    f.write("# node tests that pass on the CPU build\n")
    f.write("".join(t["name"] + "\n" for t in tests if t["result"] == "pass"))
EOF
  grep -v '^#' "$bundle/node-$name.txt" | tar -C "$dir" -cf - -T - | xz -T0 -6 > "$bundle/node-$name.tar.xz"
  echo "node tests $name: $(grep -vc '^#' "$bundle/node-$name.txt") CPU-passing tests"
done
du -sh "$bundle"
