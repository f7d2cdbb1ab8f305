"""check_regex.py - the model, inputs and expected outputs of test/e2e/regex.test.

  check_regex.py write DIR N     writes DIR/regex.onnx (two RegexFullMatch
                                 nodes on one string input of any length) and
                                 DIR/s.pb: N strings (addresses, near misses,
                                 "", UTF-8)
  check_regex.py check DIR OUT   checks OUT/output_K.pb against Python's
                                 re.fullmatch on the same strings

The patterns keep to what RE2 and Python's re read the same way: explicit
ASCII classes (RE2's \\w is ASCII, Python's is Unicode), and '.' on UTF-8
text, which both take a code point at a time.
"""
import re
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

from check_strings import read

PATTERNS = [r"[a-z0-9._+-]{1,20}@(gmail|yahoo)\.(com|org)", r"h.{3}o|[^a-z]*"]
WORDS = ["ann@gmail.com", "bob.smith+x@yahoo.org", "eve@hotmail.com", "@gmail.com",
         "carl@gmail.com.au", "", "hello", "h\u00e9llo", "h\u4e2d\u6587!o", "HELLO", "h\u00e9lo",
         "x" * 21 + "@gmail.com", "Dan@gmail.com", "123-456"]


def strings(n):
    return [WORDS[(i * 3 + i // len(WORDS)) % len(WORDS)] for i in range(n)]


def write(out, n):
    nodes = [helper.make_node("RegexFullMatch", ["s"], [f"y{k}"], pattern=p) for k, p in enumerate(PATTERNS)]
    graph = helper.make_graph(
        nodes, "regex", [helper.make_tensor_value_info("s", TensorProto.STRING, ["n"])],
        [helper.make_tensor_value_info(f"y{k}", TensorProto.BOOL, ["n"]) for k in range(len(PATTERNS))])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])
    model.ir_version = 9
    onnx.save(model, f"{out}/regex.onnx")
    tensor = helper.make_tensor("s", TensorProto.STRING, [n], [w.encode() for w in strings(n)])
    with open(f"{out}/s.pb", "wb") as f:
        f.write(tensor.SerializeToString())


def check(out, results):
    n = len(read(f"{out}/s.pb"))
    words = strings(n)
    for k, pattern in enumerate(PATTERNS):
        got = read(f"{results}/output_{k}.pb")
        want = np.array([re.fullmatch(pattern, w) is not None for w in words], dtype=bool)
        if got.shape != want.shape or not np.array_equal(got, want):
            bad = [(w, bool(g), bool(e)) for w, g, e in zip(words, got.ravel(), want) if g != e]
            print(f"FAIL: pattern {pattern!r}: {bad[:5]}")
            return 1
    print(f"regex: {n} strings, {sum(re.fullmatch(PATTERNS[0], w) is not None for w in words)} addresses, "
          f"both patterns match Python's re")
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(sys.argv[2], int(sys.argv[3]))
    else:
        sys.exit(check(sys.argv[2], sys.argv[3]))
