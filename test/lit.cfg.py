# test/lit.cfg.py - lit configuration of onnxc's IR, importer and tool tests.
import os
import subprocess

import lit.formats
from lit.llvm import llvm_config

config.name = "onnxc"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".onnxtxt", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.onnxc_obj_root, "test")

llvm_config.with_system_environment(["HOME", "TMPDIR"])
llvm_config.use_default_substitutions()
# Tools: onnxc's own first, then LLVM's (FileCheck, not, split-file).
llvm_config.with_environment("PATH", config.onnxc_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(("%test_src", config.test_source_root))
config.substitutions.append(("%runtime_dir", config.onnxc_runtime_dir))

if os.path.exists("/usr/bin/qemu-aarch64") and os.path.exists("/usr/aarch64-linux-gnu"):
    config.available_features.add("qemu-aarch64")

# A sanitizer build's runtime needs the sanitizer runtimes wherever it is
# linked (%cc) or loaded into an uninstrumented process (%preload_runtime).
if config.onnxc_sanitize:
    config.substitutions.append(("%cc", f"{config.host_cc} -fsanitize={config.onnxc_sanitize}"))
    asan = subprocess.run([config.host_cc, "-print-file-name=libclang_rt.asan-x86_64.so"],
                          capture_output=True, text=True).stdout.strip()
    preload = f"env LD_PRELOAD={asan} ASAN_OPTIONS=detect_leaks=0" if "address" in config.onnxc_sanitize else ""
    config.substitutions.append(("%preload_runtime", preload))
    config.available_features.add("sanitizer")
else:
    config.substitutions.append(("%cc", "cc"))
    config.substitutions.append(("%preload_runtime", ""))
