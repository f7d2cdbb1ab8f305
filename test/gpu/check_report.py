"""check_report.py BUILD WORK - run_on_gpu.py's machinery on any machine,
through the stand-in driver (ONNXC_CUDA_DRIVER): two node tests and the
smallest zoo model at two batch sizes, its profile at both (latency, and
each kernel's time under ONNXC_GPU_PROFILE=1), then --merge of two
reports. The
stand-in runs no kernel (its outputs are zeros), so every GPU result must be
reported as a mismatch, and the report must say so; the exit status is 1."""
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

build, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
here = os.path.dirname(os.path.abspath(__file__))
script = os.path.join(here, "run_on_gpu.py")
# From scratch: run_on_gpu.py reuses the executables it finds there, which
# would be those of an older build.
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
# Two node tests in the layout of ONNX's (model.onnx, test_data_set_0).
node_dir = os.path.join(work, "node")
x = np.linspace(-2, 2, 12, dtype=np.float32).reshape(3, 4)
for name, op, ref in (("test_add", "Add", x + x), ("test_relu", "Relu", np.maximum(x, 0))):
    d = os.path.join(node_dir, name, "test_data_set_0")
    os.makedirs(d, exist_ok=True)
    inputs = ["x", "x"] if op == "Add" else ["x"]
    graph = helper.make_graph([helper.make_node(op, inputs, ["y"])], name,
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 4])])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]),
              os.path.join(node_dir, name, "model.onnx"))
    for path, array, n in ((os.path.join(d, "input_0.pb"), x, "x"), (os.path.join(d, "output_0.pb"), ref, "y")):
        with open(path, "wb") as f:
            f.write(numpy_helper.from_array(array, n).SerializeToString())
tests = os.path.join(work, "tests.txt")
with open(tests, "w") as f:
    f.write("# two node tests\ntest_add\ntest_relu\n")
env = dict(os.environ, ONNXC_CUDA_DRIVER=os.path.join(build, "test", "gpu", "libonnxc_fake_cuda.so"))
out = os.path.join(work, "out")
r = subprocess.run([sys.executable, script, "--build", build, "--out", out, "--zoo", "gru_classifier",
                    "--batches", "1,2", "--precisions", "fp32,fp16", "--all-precision-models", "gru_classifier",
                    "--bench", "3", "-j", "2", "--profile", "gru_classifier", "--node-set",
                    f"1.12={node_dir}:{tests}"],
                   env=env, capture_output=True, text=True)
print(r.stdout[-3000:], r.stderr[-3000:])
failures = []
if r.returncode != 1:
    failures.append(f"exit status {r.returncode}, expected 1 (mismatches)")
report = json.load(open(os.path.join(out, "gpu-report.json")))
node = report["node_tests"][0]
if (node["cpu_passing"], node["ran"], node["passed"]) != (2, 2, 0):
    failures.append(f"node tests: {node}")
if not node.get("server"):
    failures.append("the node tests did not run through onnxc-node-test-server")
if sorted(f["cpu_here"] for f in node["failures"]) != ["pass", "pass"]:
    failures.append(f"the failing tests were not rerun on the CPU: {node['failures']}")
rows = report["models"]
if sorted((r["batch"], r["precision"]) for r in rows) != [(1, "fp16"), (1, "fp32"), (2, "fp16"), (2, "fp32")]:
    failures.append(f"model rows: {[(r['batch'], r['precision']) for r in rows]}")
if any(r["ok"] or r["error"] is None or r["gpu_ms"] is None for r in rows):
    failures.append(f"every row should be a timed mismatch: {rows}")
profile = report["profile"]
if [p["batch"] for p in profile] != [1, 2] or any(
        p["async_ms"] is None or p["profiled_ms"] is None or not p["kernels"] or len(p["top"]) != p["kernels"]
        or any(not name.startswith("main_graph_kernel") or launches <= 0 for name, launches, _, _, _ in p["top"])
        for p in profile):
    failures.append(f"profile: {profile}")
md = open(os.path.join(out, "gpu.md")).read()
if profile and f"| gru_classifier | 1 | {profile[0]['async_ms']:.3f} | " not in md:
    failures.append("gpu.md lacks the profile")
if "| gru_classifier | 2 | fp16 |" not in md or "| ONNX 1.12 | 2 | 2 | 0 | 0.0% |" not in md:
    failures.append("gpu.md lacks the rows")
merged = os.path.join(work, "merged")
subprocess.run([sys.executable, script, "--out", merged, "--merge", os.path.join(out, "gpu-report.json"),
                os.path.join(out, "gpu-report.json")], check=True)
if json.load(open(os.path.join(merged, "gpu-report.json")))["runs"] != 2:
    failures.append("--merge did not count two runs")
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
