"""check_server.py - run_node_tests.py --server against the executable per test, on the CPU.

  check_server.py --compiler onnx-compile --server onnxc-node-test-server --work DIR [--node-dir DIR]

1. A handful of node tests (some of --node-dir's, ONNX 1.22's where present, and three written
   here: one with two data sets, one whose data the model rejects, one of an operator that does
   not exist) through run_node_tests.py, once with
   an executable per test and once through the server: every test's result and reason must be
   the same, and the expected ones.
2. The server's client (run_node_tests.Server) against a library that crashes, hangs and exits:
   each is that command's failure (killed by SIGSEGV, timed out, the exit's error line), within
   its timeout, and the next command gets a fresh server.
Exit status 0 when all holds, 1 otherwise."""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run_node_tests  # noqa: E402

# Of ONNX 1.22's tests: several outputs, bfloat16 data, a random op, a loop, a convolution, a
# string op whose model links RE2.
REAL_TESTS = ("test_add", "test_relu", "test_matmul_2d", "test_split_equal_parts_1d_opset18",
              "test_cast_FLOAT_to_BFLOAT16", "test_bernoulli", "test_training_dropout_mask", "test_loop11",
              "test_conv_with_strides_padding", "test_regex_full_match_basic")

FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL:", what, flush=True)


def write_test(node_dir, name, op, sets):
    """A node test of `op` on a [3, 4] float input: `sets` is a list of (input, reference)."""
    graph = helper.make_graph([helper.make_node(op, ["x"], ["y"])], name,
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 4])])
    os.makedirs(os.path.join(node_dir, name))
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]),
              os.path.join(node_dir, name, "model.onnx"))
    for i, (x, y) in enumerate(sets):
        d = os.path.join(node_dir, name, f"test_data_set_{i}")
        os.makedirs(d)
        for path, array, n in ((os.path.join(d, "input_0.pb"), x, "x"), (os.path.join(d, "output_0.pb"), y, "y")):
            with open(path, "wb") as f:
                f.write(numpy_helper.from_array(array, n).SerializeToString())


def node_tests(args):
    node_dir = os.path.join(args.work, "node")
    os.makedirs(node_dir)
    expected = {}
    if args.node_dir and os.path.isdir(args.node_dir):
        for name in REAL_TESTS:
            if os.path.isdir(os.path.join(args.node_dir, name)):
                os.symlink(os.path.join(os.path.abspath(args.node_dir), name), os.path.join(node_dir, name))
                expected[name] = "pass"
    x = np.linspace(-2, 2, 12, dtype=np.float32).reshape(3, 4)
    write_test(node_dir, "test_two_sets", "Relu", [(x, np.maximum(x, 0)), (-x, np.maximum(-x, 0))])
    write_test(node_dir, "test_bad_shape", "Relu", [(x.reshape(4, 3), np.maximum(x, 0).reshape(4, 3))])
    # A compile failure: an operator that ONNX does not have.
    write_test(node_dir, "test_unknown_op", "NoSuchOperator", [(x, x)])
    expected.update(test_two_sets="pass", test_bad_shape="run", test_unknown_op="compile")
    results = {}
    for mode, extra in (("exe", []), ("server", ["--server", args.server])):
        report = os.path.join(args.work, f"{mode}.json")
        cmd = [sys.executable, os.path.join(HERE, "run_node_tests.py"), "--compiler", args.compiler,
               "--node-dir", node_dir, "--cache-dir", os.path.join(args.work, "cache"),
               "--work-dir", os.path.join(args.work, f"work-{mode}"), "--skips", os.devnull, "-j", "2",
               "--report", os.path.join(args.work, f"{mode}.md"), "--json", report] + extra
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        check(r.returncode == 0, f"{mode}: exit status {r.returncode}: {r.stdout[-2000:]} {r.stderr[-2000:]}")
        if os.path.exists(report):
            results[mode] = {t["name"]: (t["result"], t["reason"]) for t in json.load(open(report))["tests"]}
            got = {n: res for n, (res, _) in results[mode].items()}
            check(got == expected, f"{mode}: results {got}, expected {expected}")
    if len(results) == 2:
        for name in sorted(set(results["exe"]) | set(results["server"])):
            check(results["exe"].get(name) == results["server"].get(name),
                  f"{name}: {results['exe'].get(name)} with an executable, {results['server'].get(name)} "
                  "through the server")
    print(f"node tests: {len(expected)} tests, the same result through the server and an executable each",
          flush=True)


BAD_LIBRARY = r"""
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
const int onnxc_test_model = 0;
const char *onnxc_last_error(void) { return "the model failed"; }
int onnxc_main(const void *model, int argc, char **argv) {
  const char *input = argv[argc - 1];
  if (strstr(input, "crash")) {
    fputs("about to crash\n", stderr);
    raise(SIGSEGV);
  }
  if (strstr(input, "hang"))
    sleep(100);
  if (strstr(input, "exit")) {
    fputs("error: out of memory (1 bytes)\n", stderr);
    exit(1);
  }
  return strstr(input, "fail") ? 1 : 0;
}
"""


def server_failures(args):
    src = os.path.join(args.work, "bad.c")
    lib = os.path.join(args.work, "libbad.so")
    with open(src, "w") as f:
        f.write(BAD_LIBRARY)
    subprocess.run(["cc", "-shared", "-fPIC", "-o", lib, src], check=True)
    server = run_node_tests.Server([args.server], os.path.join(args.work, "server.log"), restart=3)
    symbol = run_node_tests.LIB_NAME + "_model"

    def run(input_name, timeout=10):
        t0 = time.time()
        status, output = server.request(["run", args.work, input_name], timeout)
        return status, run_node_tests.describe_failure(status, output, timeout) if status else "", time.time() - t0

    check(server.load(lib, symbol, 10) == (0, ""), "load")
    check(run("ok")[0] == 0, "a run that succeeds")
    pid = server.proc.pid
    check(run("fail")[:2] == (1, "error: the model failed"), f"a run that fails: {run('fail')}")
    status, reason, _ = run("crash")
    check((status, reason) == (-11, "killed by SIGSEGV: about to crash"), f"a crash: {status} {reason}")
    check(server.proc is None, "the crashed server is forgotten")
    check(run("ok")[:2] == (1, "error: no library loaded") and server.proc.pid != pid,
          "a fresh server after the crash")
    server.load(lib, symbol, 10)
    status, reason, seconds = run("hang", timeout=1)
    check(status == "timeout" and seconds < 5, f"a hang: {status} {reason} after {seconds:.1f} s")
    server.load(lib, symbol, 10)
    status, reason, _ = run("exit")
    check((status, reason) == (1, "error: out of memory (1 bytes)"), f"an exit: {status} {reason}")
    check(server.load(lib, symbol, 10) == (0, "") and run("ok")[0] == 0, "a run after the exit")
    pid = server.proc.pid
    for _ in range(3):
        server.load(lib, symbol, 10)
    check(server.proc.pid != pid, "a fresh server after --server-restart loads")
    server.stop()
    print("server failures: a crash, a hang and an exit each reported, and a fresh server after them", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--server", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--node-dir", help="ONNX 1.22's node tests, where present")
    args = ap.parse_args()
    args.work = os.path.abspath(args.work)
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    node_tests(args)
    server_failures(args)
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
