#!/usr/bin/env bash
# check_unpacked.sh - the Debian package works unpacked into a scratch root,
# away from the build tree: its files, its declared dependencies, and the
# digits example compiled and run by the unpacked tools alone.
#   usage: check_unpacked.sh DEB_DIR DIGITS_DIR BUILD_DIR SOURCE_DIR
# DEB_DIR holds one onnxc_*.deb; DIGITS_DIR is make_digits.py's output. The
# root and a copy of the digits data lie in a fresh directory under $TMPDIR;
# onnx-opt and onnx-compile run there under strace, which must show them
# open nothing under BUILD_DIR or SOURCE_DIR and the link read the unpacked
# runtime. The declared dependencies are this machine's packages (installed
# by scripts/setup.sh): each library the tools load must come from one that
# Depends names.
set -euo pipefail
fail() {
  printf 'check_unpacked: %b\n' "$*" >&2
  exit 1
}
[ $# -eq 4 ] || fail "usage: check_unpacked.sh DEB_DIR DIGITS_DIR BUILD_DIR SOURCE_DIR"
debs=("$1"/onnxc_*.deb)
[ ${#debs[@]} -eq 1 ] && [ -f "${debs[0]}" ] || fail "expected one onnxc_*.deb in $1"
deb=${debs[0]} data=$2
build=$(realpath "$3") src=$(realpath "$4")
py=/usr/bin/python3
arch=$(uname -m)
work=$(mktemp -d "${TMPDIR:-/tmp}/onnxc-package.XXXXXX")
trap 'rm -rf "$work"' EXIT
case $work/ in
"$src"/* | "$build"/*) fail "the scratch directory $work lies in the tree (set TMPDIR elsewhere)" ;;
esac
root=$work/root
dpkg-deb -x "$deb" "$root"
bin=$root/usr/bin
echo "package: $deb ($(du -k "$deb" | cut -f1) KiB), unpacked in $root"

# Files: the tools, every runtime file this build made (archives per target,
# the header), the man pages, the documentation and the CI examples.
for f in usr/bin/onnx-compile usr/bin/onnx-opt \
  usr/lib/onnxc/$arch/libonnxc_runtime.a usr/lib/onnxc/$arch/libonnxc_kernels.a \
  usr/lib/onnxc/$arch/libonnxc_main.a usr/lib/onnxc/$arch/libonnxc_gpu.a \
  usr/lib/onnxc/$arch/libonnxc_regex.a usr/lib/onnxc/$arch/libonnxc_image.a \
  usr/lib/onnxc/include/onnxc_runtime.h \
  usr/share/man/man1/onnx-compile.1.gz usr/share/man/man1/onnx-opt.1.gz \
  usr/share/doc/onnxc/README.md usr/share/doc/onnxc/docs/install.md \
  usr/share/doc/onnxc/examples/ci/run-matrix-locally.sh; do
  [ -f "$root/$f" ] || fail "the package lacks /$f"
done
built=$(cd "$build/lib/onnxc" && find . -type f | sort)
packaged=$(cd "$root/usr/lib/onnxc" && find . -type f | sort)
[ "$built" = "$packaged" ] ||
  fail "the packaged runtime differs from the build's:\n$(diff <(echo "$built") <(echo "$packaged") || true)"
for tool in onnx-compile onnx-opt; do
  zcat "$root/usr/share/man/man1/$tool.1.gz" | grep -q '^\.SH OPTIONS' ||
    fail "the man page of $tool has no OPTIONS section"
done
zcat "$root/usr/share/man/man1/onnx-compile.1.gz" | grep -q 'print\\-runtime\\-dir' ||
  fail "the man page of onnx-compile does not list --print-runtime-dir"

# Nothing of this build in the tools: no path of it, and LLVM's directory as
# the only RUNPATH (Debian's libMLIR.so.19.1 is there).
for tool in onnx-compile onnx-opt; do
  for dir in "$src" "$build"; do
    ! grep -q -a -F "$dir" "$bin/$tool" || fail "$tool names $dir"
  done
  runpath=$(readelf -d "$bin/$tool" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
  [ "$runpath" = /usr/lib/llvm-19/lib ] || fail "$tool has RUNPATH '$runpath'"
done

# Dependencies: each library the tools need comes from a package Depends
# names; the C compiler links the models, the cross compiler is recommended.
depends=$(dpkg-deb -f "$deb" Depends)
recommends=$(dpkg-deb -f "$deb" Recommends)
echo "Depends: $depends"
echo "Recommends: $recommends"
names() { sed 's/([^)]*)//g; s/|/,/g' | tr ',' '\n' | tr -d ' '; }
declared=$(echo "$depends" | names)
# The package of a library's file (not of a link to it, such as
# llvm-19-dev's /usr/lib/llvm-19/lib/libLLVM.so.19.1).
owner() {
  local path
  for path in "$(readlink -f "$1")" "$1"; do
    dpkg-query -S "$path" 2>/dev/null | head -1 | cut -d: -f1 && return
    dpkg-query -S "${path#/usr}" 2>/dev/null | head -1 | cut -d: -f1 && return
  done
  return 1
}
for tool in onnx-compile onnx-opt; do
  for lib in $(readelf -d "$bin/$tool" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    [[ $lib == ld-linux* ]] && continue
    path=$(ldd "$bin/$tool" | awk -v l="$lib" '$1 == l { print $3 }')
    [ -n "$path" ] && [ "$path" != "not" ] || fail "$tool: $lib not found"
    pkg=$(owner "$path") || fail "$tool: no package owns $path"
    grep -qx "$pkg" <<<"$declared" || fail "$tool needs $lib of $pkg, which Depends lacks"
  done
done
for pkg in gcc libc6-dev; do
  grep -qx "$pkg" <<<"$declared" || fail "Depends lacks $pkg"
done
grep -qx gcc-aarch64-linux-gnu <<<"$(echo "$recommends" | names)" ||
  fail "Recommends lacks gcc-aarch64-linux-gnu"

# The version, commit and LLVM; the runtime found inside the root.
version=$(dpkg-deb -f "$deb" Version)
"$bin/onnx-compile" --version | tee "$work/version.txt"
grep -Eq "^onnxc $version \(git ([0-9a-f]+|unknown)(-dirty)?, LLVM 19\.[0-9]+\.[0-9]+\)$" "$work/version.txt" ||
  fail "onnx-compile --version does not name version $version, the commit and LLVM 19"
runtime=$(env -u ONNXC_RUNTIME_DIR "$bin/onnx-compile" --print-runtime-dir)
[ "$runtime" = "$(realpath "$root/usr/lib/onnxc")" ] ||
  fail "the unpacked onnx-compile looks for its runtime in $runtime"

# The digits example: optimize, compile, run, compare with PyTorch; the
# tools run from the root, in the scratch directory, under strace.
mkdir -p "$work/digits"
cp "$data"/digits.onnx "$data"/test_images.pb "$data"/test_labels.npy "$data"/ref_logits.npy "$work/digits/"
cd "$work"
traced() {
  env -u ONNXC_RUNTIME_DIR PATH=/usr/bin:/bin \
    strace -f -qq -e trace=open,openat,execve -o "$work/trace.$1" "${@:2}"
}
traced opt "$bin/onnx-opt" digits/digits.onnx -o digits/digits.opt.onnx
traced exe "$bin/onnx-compile" digits/digits.opt.onnx -o digits/digits-$arch
for dir in "$src" "$build"; do
  ! grep -F "$dir" "$work"/trace.* || fail "the tools opened files under $dir"
done
grep -q -F "\"$root/usr/lib/onnxc/$arch/libonnxc_runtime.a\"" "$work/trace.exe" ||
  fail "the link did not read the unpacked runtime"
"$py" "$src/examples/digits/evaluate.py" --data digits --exe "digits/digits-$arch" --bench 0

# The library form and its C header, with the C API example.
"$src/examples/c-api/run.sh" "$bin" "$work/digits" "$work/c-api"

# The GPU runtime links (running needs a GPU: not here).
"$bin/onnx-compile" digits/digits.opt.onnx -o digits/digits-nvptx --target nvptx
[ -x digits/digits-nvptx ] || fail "no nvptx executable"

# The aarch64 runtime, under qemu-aarch64 where it is installed.
if [ "$arch" = x86_64 ] && command -v aarch64-linux-gnu-gcc >/dev/null &&
  command -v qemu-aarch64 >/dev/null; then
  "$bin/onnx-compile" digits/digits.opt.onnx -o digits/digits-aarch64 --target aarch64
  "$py" "$src/examples/digits/evaluate.py" --data digits --exe digits/digits-aarch64 \
    --bench 0 --runner "qemu-aarch64 -L /usr/aarch64-linux-gnu"
else
  echo "aarch64: skipped (no aarch64-linux-gnu-gcc or qemu-aarch64)"
fi
echo "package: OK"
