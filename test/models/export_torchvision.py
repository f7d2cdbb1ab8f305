"""export_torchvision.py - export a randomly initialised torchvision model to ONNX with a reference input/output."""
import argparse
import os
import time

import numpy as np
import torch
import torchvision
import onnx
from onnx import numpy_helper


def randomize_batchnorm(model, calib):
    """Give every BatchNorm realistic statistics and mildly random affine parameters.

    Fresh BN layers (mean 0, var 1, gamma 1, beta 0) let activations drift far from O(1)
    over many layers. We first measure each layer's true batch statistics on a random
    calibration batch (cumulative average, i.e. momentum=None), then jitter them and
    the affine parameters, so activations stay O(1) and every BN parameter matters.
    """
    bns = [m for m in model.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    for bn in bns:
        bn.reset_running_stats()
        bn.momentum = None
    model.train()
    with torch.no_grad():
        model(calib)
        for bn in bns:
            c = bn.num_features
            bn.momentum = 0.1
            bn.running_var.mul_(torch.empty(c).uniform_(0.7, 1.4))
            bn.running_mean.add_(0.2 * torch.randn(c) * bn.running_var.sqrt())
            bn.weight.copy_(torch.empty(c).uniform_(0.6, 1.5))
            bn.bias.copy_(0.2 * torch.randn(c))
    model.eval()


def save_tensor(array, name, path):
    with open(path, "wb") as f:
        f.write(numpy_helper.from_array(array, name).SerializeToString())


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--model", required=True, choices=["resnet18", "mobilenet_v2"])
    ap.add_argument("--out", required=True, help="output directory")
    ap.add_argument("--batch", type=int, default=1)
    ap.add_argument("--dynamic-batch", action="store_true", help="export the batch dim as symbolic 'N'")
    ap.add_argument("--keep-bn", action="store_true",
                    help="keep BatchNormalization nodes (default: the exporter folds them into Conv)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)

    torch.manual_seed(0)
    torch.use_deterministic_algorithms(True)
    torch.set_num_threads(2)
    model = getattr(torchvision.models, args.model)(weights=None)
    randomize_batchnorm(model, torch.randn(8, 3, 224, 224))

    gen = torch.Generator().manual_seed(1)
    x = torch.randn(args.batch, 3, 224, 224, generator=gen)
    with torch.no_grad():
        out = model(x).numpy()
        other = model(torch.randn(x.shape, generator=gen)).numpy()
    # The comparison tolerance is 1e-3 x max|out|: the output must vary across its elements
    # and with the input by much more than that for the test to mean anything.
    scale = float(np.abs(out).max())
    spread, sens = float(out.std()) / scale, float((out - other).std()) / scale
    print(f"output {list(out.shape)}: max|y| {scale:.4g}, std/max {spread:.3g}, "
          f"input sensitivity std(y - y')/max {sens:.3g}")
    if not np.isfinite(out).all() or spread < 1e-2 or sens < 1e-2:
        raise SystemExit("error: reference output is degenerate (near-constant, input-independent or non-finite)")

    path = os.path.join(args.out, f"{args.model}.onnx")
    t0 = time.time()
    mode = torch.onnx.TrainingMode.PRESERVE if args.keep_bn else torch.onnx.TrainingMode.EVAL
    torch.onnx.export(model, x, path, opset_version=17,
                      input_names=["input"], output_names=["output"],
                      dynamic_axes={"input": {0: "N"}, "output": {0: "N"}} if args.dynamic_batch else None,
                      training=mode, do_constant_folding=not args.keep_bn)
    onnx.checker.check_model(path)
    save_tensor(x.numpy(), "input", os.path.join(args.out, "input_0.pb"))
    save_tensor(out, "output", os.path.join(args.out, "output_0.pb"))
    ops = sorted({n.op_type for n in onnx.load(path).graph.node})
    print(f"wrote {path} ({os.path.getsize(path) / 1e6:.1f} MB, export {time.time() - t0:.1f}s), ops: {' '.join(ops)}")


if __name__ == "__main__":
    main()
