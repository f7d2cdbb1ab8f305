"""check_strings.py - inputs and expected outputs of test/e2e/strings.test.

  check_strings.py write DIR N     writes DIR/s.pb: N strings (fruit names,
                                   unknown words, "", UTF-8)
  check_strings.py check DIR OUT   checks OUT/output_K.pb against Python's
                                   own LabelEncoder / concat / split / ==
"""
import sys

import numpy as np
import onnx
from onnx import numpy_helper

WORDS = ["apple", "pear", "fig", "kiwi", "", "\u7684e\u4e2d", "green"]
KEYS = {"apple": 0, "pear": 1, "fig": 2}
NAMES = {0: "red", 1: "green", 2: "purple"}


def read(path):
    t = onnx.TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    return numpy_helper.to_array(t)


def inputs(n):
    return [WORDS[(i * 5 + i // 7) % len(WORDS)] for i in range(n)]


def main():
    mode, directory = sys.argv[1], sys.argv[2]
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
                np.array([a == b for a, b in zip(s, names)])]
    for k, want in enumerate(expected):
        got = read("%s/output_%d.pb" % (out, k))
        if got.dtype == object:
            got = np.vectorize(lambda b: b.decode() if isinstance(b, bytes) else b,
                               otypes=[object])(got) if got.size else got
        want = np.asarray(want, dtype=got.dtype if got.dtype != object else object)
        if got.shape != want.shape or not (got == want).all():
            sys.exit("output %d: got %r, expected %r" % (k, got.tolist(), want.tolist()))
    print("strings: %d inputs, all 5 outputs match" % len(s))


if __name__ == "__main__":
    main()
