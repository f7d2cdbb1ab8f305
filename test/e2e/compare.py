"""compare.py - compare a reference tensor with a computed one (.pb TensorProto or .npy); exit 0 if they match."""
import argparse
import os
import sys

import numpy as np
import onnx
from onnx import numpy_helper


def load_tensor(path):
    """Return (array, name) from a .npy file or a serialized ONNX TensorProto."""
    if path.endswith(".npy"):
        return np.load(path), None
    t = onnx.TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    return numpy_helper.to_array(t), t.name


def _as_array(x):
    if isinstance(x, (str, os.PathLike)):
        return load_tensor(os.fspath(x))[0]
    if isinstance(x, onnx.TensorProto):
        return numpy_helper.to_array(x)
    return np.asarray(x)


def compare(ref, got, scale_tol=1e-3, atol=None, rtol=None):
    """Compare got against ref (arrays, TensorProtos or file paths); return (ok, message).

    Default: max|got - ref| <= scale_tol * max|ref| (scale taken as 1 when ref is all zero).
    With atol and/or rtol: every |got - ref| <= atol + rtol * |ref| (unset ones count as 0).
    Integer and bool tensors must match exactly unless atol/rtol is given. NaNs must coincide.
    """
    ref, got = _as_array(ref), _as_array(got)
    if ref.shape != got.shape:
        return False, f"shape mismatch: ref {list(ref.shape)} vs got {list(got.shape)}: FAIL"
    if ref.dtype != got.dtype:
        return False, f"dtype mismatch: ref {ref.dtype} vs got {got.dtype}: FAIL"
    desc = f"{list(ref.shape)} {ref.dtype}"
    if ref.size == 0:
        return True, f"empty tensor {desc}: OK"
    r, g = ref.astype(np.float64), got.astype(np.float64)
    nan_r, nan_g = np.isnan(r), np.isnan(g)
    if (nan_r != nan_g).any():
        return False, f"NaN positions differ ({int(nan_r.sum())} in ref, {int(nan_g.sum())} in got) {desc}: FAIL"
    err = np.where(nan_r, 0.0, np.abs(g - r))
    err = np.where(np.isinf(r) & (r == g), 0.0, err)  # equal infinities
    max_err = float(err.max())
    finite = np.abs(r[np.isfinite(r)])
    scale = float(finite.max()) if finite.size else 0.0
    if atol is not None or rtol is not None:
        a, rt = atol or 0.0, rtol or 0.0
        bad = err > a + rt * np.abs(np.where(nan_r, 0.0, r))
        ok = not bad.any()
        crit = f"atol={a:g} rtol={rt:g}, {int(bad.sum())} of {err.size} outside"
    elif not np.issubdtype(ref.dtype, np.floating):
        ok = max_err == 0.0
        crit = "exact (non-float)"
    else:
        tol = scale_tol * (scale if scale > 0 else 1.0)
        ok = max_err <= tol
        crit = f"tol={tol:.3g} ({scale_tol:g} x scale)"
    idx = np.unravel_index(int(err.argmax()), err.shape)
    where = f" at {list(map(int, idx))} (ref {r[idx]:.6g}, got {g[idx]:.6g})" if max_err > 0 else ""
    msg = (f"max_abs_err={max_err:.3g}{where} scale={scale:.3g} {crit} {desc}: "
           f"{'OK' if ok else 'FAIL'}")
    return ok, msg


def output_files(d):
    """The output_K.pb files of directory d, in K order (none if d is missing)."""
    files = [f for f in os.listdir(d) if f.startswith("output_") and f.endswith(".pb")] if os.path.isdir(d) else []
    return [os.path.join(d, f) for f in sorted(files, key=lambda f: int(f[7:-3]))]


def compare_dirs(ref_dir, got_dir, scale_tol):
    """(ok, worst relative error, message) comparing got_dir's output_K.pb with ref_dir's (compare()
    within scale_tol; the worst error is max|got - ref| / max|ref| over the finite elements)."""
    worst = 0.0
    for k, ref_path in enumerate(output_files(ref_dir)):
        got_path = os.path.join(got_dir, f"output_{k}.pb")
        if not os.path.exists(got_path):
            return False, None, f"output_{k} was not written"
        (ref, name), got = load_tensor(ref_path), load_tensor(got_path)[0]
        ok, msg = compare(ref, got, scale_tol)
        if ref.shape == got.shape and ref.size and np.issubdtype(ref.dtype, np.number):
            r, g = ref.astype(np.float64), got.astype(np.float64)
            finite = np.isfinite(r) & np.isfinite(g)
            if finite.any():
                scale = float(np.abs(r[finite]).max()) or 1.0
                worst = max(worst, float(np.abs(g[finite] - r[finite]).max()) / scale)
        if not ok:
            return False, worst, f"output_{k} ({name}): {msg}"
    return True, worst, ""


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("ref", help="reference tensor (.pb or .npy)")
    ap.add_argument("got", help="computed tensor (.pb or .npy)")
    ap.add_argument("--scale-tol", type=float, default=1e-3,
                    help="allowed max abs error as a fraction of max|ref| (default 1e-3)")
    ap.add_argument("--atol", type=float, help="elementwise absolute tolerance (replaces --scale-tol)")
    ap.add_argument("--rtol", type=float, help="elementwise relative tolerance (replaces --scale-tol)")
    args = ap.parse_args()
    try:
        ok, msg = compare(args.ref, args.got, args.scale_tol, args.atol, args.rtol)
    except Exception as e:  # unreadable file, bad protobuf
        ok, msg = False, f"error: {e}: FAIL"
    print(f"{os.path.basename(args.got)}: {msg}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
