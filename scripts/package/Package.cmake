# Package.cmake - the Debian package of onnxc (make package), CPack's DEB
# generator over the install rules.
#
# The install rules beside the targets put the tools in PREFIX/bin and the
# runtime (archives per target, header) in PREFIX/lib/onnxc, where the tools
# look for it (bin/../lib/onnxc), and the man pages in share/man; this file
# adds the documentation and the examples, and says how to package them:
# onnxc_VERSION_ARCH.deb under BUILD/package, installed under /usr. Depends
# names the libraries' packages (libmlir-19, libllvm19, libprotobuf32,
# libfmt9, ...) and the C compiler and C library that link the compiled
# models; the aarch64 cross toolchain is a Recommends.
# docs/install.md describes the package.

install(FILES ${ONNXC_SOURCE_DIR}/README.md DESTINATION share/doc/onnxc)
install(DIRECTORY ${ONNXC_SOURCE_DIR}/docs/ DESTINATION share/doc/onnxc/docs)
install(DIRECTORY ${ONNXC_SOURCE_DIR}/examples/
  DESTINATION share/doc/onnxc/examples USE_SOURCE_PERMISSIONS)

set(ONNXC_PACKAGE_MAINTAINER "onnxc developers <onnxc@example.com>" CACHE STRING
  "The Maintainer field of the Debian package")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME onnxc)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_OUTPUT_FILE_PREFIX package)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "ONNX model compiler to native executables and libraries (LLVM/MLIR 19)")
set(CPACK_PACKAGE_DESCRIPTION
  "onnx-compile compiles ONNX models into standalone x86-64 and AArch64
executables, shared and static libraries with a C header, objects, MLIR,
LLVM IR or assembly (and NVIDIA GPU kernels), one model or a folder of
them in batch mode. onnx-opt optimizes ONNX models and quantizes them to
int8. Includes the thin C runtime and CPU kernel archives for x86-64 and
AArch64, the CUDA runtime glue, man pages, documentation and CI examples.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${ONNXC_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# Depends, by hand: the Debian 12 packages of the libraries the tools load
# (with the versions their shlibs files ask for), and gcc and libc6-dev, with
# which `cc` links executables and libraries. Not dpkg-shlibdeps: on a build
# machine the tools' RUNPATH (/usr/lib/llvm-19/lib) also holds llvm-19-dev's
# link to libLLVM.so.19.1, which has no shlibs, and dpkg-shlibdeps names
# libllvm19 or nothing from run to run. ctest package-unpacked checks that
# every library the tools need comes from a package named here. Those for
# aarch64 are linked by aarch64-linux-gnu-gcc, which only --target aarch64
# needs, and qemu-user runs them.
set(ONNXC_PACKAGE_DEPENDS
  "libmlir-19 (>= 1:19.1.7)"
  "libllvm19 (>= 1:19.1.7)"
  "libprotobuf32 (>= 3.21.12)"
  "libfmt9 (>= 9.1.0+ds1)"
  "libre2-9 (>= 20220601+dfsg)"
  "libstdc++6 (>= 11)"
  "libgcc-s1 (>= 3.0)"
  "libc6 (>= 2.34)"
  gcc
  libc6-dev)
list(JOIN ONNXC_PACKAGE_DEPENDS ", " CPACK_DEBIAN_PACKAGE_DEPENDS)
# Recommends: the aarch64 cross linker; RE2 and the C++ library, which the
# models that use RegexFullMatch link; the image libraries, which those
# that use ImageDecoder link.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS
  "gcc-aarch64-linux-gnu, libc6-dev-arm64-cross, libre2-dev, libstdc++-12-dev, libjpeg62-turbo-dev, libpng-dev, libtiff-dev, libwebp-dev, libopenjp2-7-dev")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "qemu-user, python3")
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)
include(CPack)
