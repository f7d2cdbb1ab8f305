"""make_control_flow_data.py - inputs and numpy reference outputs for the control-flow models checked in beside it (nested-control-flow.onnxtxt, if-condition-shape.onnxtxt), one folder per case."""
import argparse
import os

import numpy as np


def nested_cases():
    """nested-control-flow.onnxtxt: r = If(c1, If(c2, s*s + x, s - s*s), -s) with
    s = x + x; a Loop of n steps from x whose body adds s (c2) or subtracts x."""
    x = np.array([1.0, -2.0, 3.0, 0.5], dtype=np.float32)
    n = 3
    s = x + x
    for name, c1, c2 in (("then-then", True, True), ("then-else", True, False),
                         ("else-else", False, False)):
        r = (s * s + x if c2 else s - s * s) if c1 else -s
        v, vs = x, []
        for _ in range(n):
            v = v + s if c2 else v - x
            vs.append(v)
        inputs = [np.array(c1), np.array(c2), x, np.array(n, dtype=np.int64)]
        yield name, inputs, [r, v, np.stack(vs)]


def if_condition_cases():
    """if-condition-shape.onnxtxt: y = If(c, -x, |x|) with c of shape [1, 1]."""
    x = np.array([1.5, -2.0, 0.25], dtype=np.float32)
    yield "true", [np.array([[True]]), x], [-x]
    yield "false", [np.array([[False]]), x], [np.abs(x)]


CASES = {"nested": nested_cases, "if-condition": if_condition_cases}


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("model", choices=sorted(CASES))
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    for name, inputs, outputs in CASES[args.model]():
        folder = os.path.join(args.out, name)
        os.makedirs(folder, exist_ok=True)
        for prefix, arrays in (("input", inputs), ("output", outputs)):
            for index, array in enumerate(arrays):
                np.save(os.path.join(folder, f"{prefix}_{index}.npy"), array)


if __name__ == "__main__":
    main()
