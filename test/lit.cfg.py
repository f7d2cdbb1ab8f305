# test/lit.cfg.py - lit configuration of onnxc's IR, importer and tool tests.
import os

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
