#!/usr/bin/env bash
# setup.sh - install the Debian 12 packages onnxc builds, tests and runs with.
# Installs only what is missing; needs root (or sudo) when something is.
set -euo pipefail
packages=(
  # Toolchain: LLVM/MLIR 19, clang, lld, Ninja, ccache, CMake; clang's
  # sanitizer and libFuzzer runtimes (the tsan test, ONNXC_SANITIZE and
  # ONNXC_ENABLE_FUZZER builds).
  llvm-19-dev libmlir-19-dev mlir-19-tools llvm-19-tools clang-19 lld-19
  libclang-rt-19-dev cmake ninja-build ccache
  # The house style's checks (.clang-format, .clang-tidy; ctest format).
  clang-format-19 clang-tidy-19
  # Libraries.
  libprotobuf-dev protobuf-compiler libcli11-dev libfmt-dev libspdlog-dev catch2
  # RegexFullMatch: RE2 (the compiler checks patterns; models that use it
  # link it).
  libre2-dev pkgconf
  # ImageDecoder: the image libraries (the models that use it link them).
  libjpeg62-turbo-dev libpng-dev libtiff-dev libwebp-dev libopenjp2-7-dev
  # Models and test data (python3-xgboost: ctest ml-trees' XGBoost models).
  python3-onnx python3-numpy python3-torch python3-torchvision python3-sklearn
  python3-xgboost
  # Pillow: test/e2e/check_images.py encodes and decodes the images.
  python3-pil
  # examples/ci's test reads the CI files (YAML).
  python3-yaml
  # AArch64 cross build and runs.
  qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross
  # The Debian package (make package: man pages by help2man), its test
  # (ctest package: strace) and the clean-root install test
  # (make package-test-chroot).
  help2man strace mmdebstrap
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi
echo "setup: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
