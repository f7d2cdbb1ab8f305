"""check_strings.py - inputs and expected outputs of test/e2e/strings.test.

  check_strings.py write DIR N     writes DIR/s.pb: N strings (fruit names,
                                   unknown words, "", UTF-8)
  check_strings.py check DIR OUT   checks OUT/output_K.pb against Python's
                                   own LabelEncoder / concat / split / ==
                                   / CategoryMapper / Cast (numpy's astype(str))
  check_strings.py moves DIR       writes DIR/moves.onnx (Transpose, Reshape,
                                   Concat, Slice, Tile, Gather, Split,
                                   Flatten, Expand, Identity, Shape of a
                                   [N, 3] string input) and DIR/x.pb
  check_strings.py check-moves DIR OUT   checks its outputs against numpy
"""
import sys

import numpy as np
import onnx
from onnx import numpy_helper

WORDS = ["apple", "pear", "fig", "kiwi", "", "\u7684e\u4e2d", "green"]
KEYS = {"apple": 0, "pear": 1, "fig": 2}
NAMES = {0: "red", 1: "green", 2: "purple"}
# The float32 constants the model casts to strings.
FLOATS = [3, 100, 123456789, 1e-05, 1e+16, 0.0001, -0.0, 0.1, 0.039187793, float("nan"), float("inf"),
          float("-inf")]
# The two CategoryMappers: strings to int64 (default 99), int64 to strings.
CATEGORIES = {"pear": 10, "fig": 20, "kiwi": 30}
CATEGORY_NAMES = {0: "zero", 2: "two"}


def read(path):
    t = onnx.TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    return numpy_helper.to_array(t)


def inputs(n):
    return [WORDS[(i * 5 + i // 7) % len(WORDS)] for i in range(n)]


MOVES_X = np.array([["a", "bb", "c"], ["d", "", "f\u00e9"]], dtype=object)


def write_moves(directory):
    from onnx import helper, TensorProto
    ints = lambda name, values: numpy_helper.from_array(
        np.array(values, dtype=np.int64), name)
    nodes = [
        helper.make_node("Transpose", ["x"], ["t"], perm=[1, 0]),
        helper.make_node("Reshape", ["x", "flat"], ["r"]),
        helper.make_node("Concat", ["x", "x"], ["c"], axis=1),
        helper.make_node("Slice", ["x", "one", "three", "one"], ["s"]),
        helper.make_node("Tile", ["x", "reps"], ["ti"]),
        helper.make_node("Gather", ["x", "idx"], ["g"], axis=1),
        helper.make_node("Split", ["x"], ["sp0", "sp1"], axis=1, num_outputs=2),
        helper.make_node("Flatten", ["x"], ["f"], axis=0),
        helper.make_node("Expand", ["col", "eshape"], ["e"]),
        helper.make_node("Identity", ["x"], ["i"]),
        helper.make_node("Shape", ["x"], ["sh"]),
    ]
    inits = [ints("flat", [-1]), ints("one", [1]), ints("three", [3]),
             ints("reps", [2, 1]), ints("idx", [2, 0]), ints("eshape", [2, 4]),
             numpy_helper.from_array(
                 np.array([["p"], ["q"]], dtype=object), "col")]
    outputs = [helper.make_tensor_value_info(
        name, TensorProto.INT64 if name == "sh" else TensorProto.STRING, None)
        for name in ["t", "r", "c", "s", "ti", "g", "sp0", "sp1", "f", "e",
                     "i", "sh"]]
    x = helper.make_tensor_value_info("x", TensorProto.STRING, ["N", 3])
    model = helper.make_model(
        helper.make_graph(nodes, "moves", [x], outputs, inits),
        opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 8
    onnx.save(model, directory + "/moves.onnx")
    with open(directory + "/x.pb", "wb") as f:
        f.write(numpy_helper.from_array(MOVES_X, "x").SerializeToString())


def check(out, expected):
    for k, want in enumerate(expected):
        got = read("%s/output_%d.pb" % (out, k))
        if got.dtype == object:
            got = np.vectorize(lambda b: b.decode() if isinstance(b, bytes) else b,
                               otypes=[object])(got) if got.size else got
        want = np.asarray(want, dtype=got.dtype if got.dtype != object else object)
        if got.shape != want.shape or not (got == want).all():
            sys.exit("output %d: got %r, expected %r" % (k, got.tolist(), want.tolist()))


def main():
    mode, directory = sys.argv[1], sys.argv[2]
    if mode == "moves":
        write_moves(directory)
        return
    if mode == "check-moves":
        x = MOVES_X
        check(sys.argv[3], [
            x.T, x.reshape(-1), np.concatenate([x, x], 1), x[:, 1:3],
            np.tile(x, (2, 1)), x[:, [2, 0]], x[:, :2], x[:, 2:],
            x.reshape(1, -1),
            np.broadcast_to(np.array([["p"], ["q"]], dtype=object), (2, 4)), x,
            np.array([2, 3], dtype=np.int64)])
        print("string moves: all 12 outputs match")
        return
    if mode == "write":
        s = np.array(inputs(int(sys.argv[3])), dtype=object)
        with open(directory + "/s.pb", "wb") as f:
            f.write(numpy_helper.from_array(s, "s").SerializeToString())
        return
    s = [x.decode() if isinstance(x, bytes) else x
         for x in read(directory + "/s.pb").tolist()]
    out = sys.argv[3]
    ids = [KEYS.get(x, -1) for x in s]
    names = [NAMES.get(i, "_Unused") for i in ids]
    joined = [a + b for a, b in zip(names, s)]
    parts = [j.split("e") for j in joined]
    width = max((len(p) for p in parts), default=0)
    padded = [p + [""] * (width - len(p)) for p in parts]
    expected = [np.array(ids, dtype=np.int64), names,
                np.array(padded, dtype=object).reshape(len(s), width),
                np.array([len(p) for p in parts], dtype=np.int64),
                np.array([a == b for a, b in zip(s, names)]),
                np.array([CATEGORIES.get(x, 99) for x in s], dtype=np.int64),
                [CATEGORY_NAMES.get(i, "none") for i in ids],
                # Cast: int64 to strings and back (as double); float32 constants as numpy writes them
                [str(i) for i in ids], np.array(ids, dtype=np.float64),
                np.array(FLOATS, dtype=np.float32).astype(str).astype(object)]
    check(out, expected)
    print("strings: %d inputs, all %d outputs match" % (len(s), len(expected)))


if __name__ == "__main__":
    main()
