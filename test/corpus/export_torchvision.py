"""export_torchvision.py - export the corpus's PyTorch models (torchvision catalogue, variants, transformers) to ONNX.

Every model is built with fixed-seed random weights (Debian's torchvision has no
weights and nothing can be downloaded), BatchNorm statistics calibrated so that
activations stay O(1), and exported with dynamic axes. Each export is written as

    OUT/NAME/NAME.onnx
    OUT/NAME/NAME.json     {"source", "note", "sizes": [{input: shape}, ...], "ranges": {input: [lo, hi]}}

The sizes are the two input shapes run_corpus.py runs the one compiled
executable at (both are also run by ONNX Runtime); ranges bound the random
values of integer inputs (token ids). Families:

  tv/<classifier>   every torchvision.models classifier up to --max-params
                    (default 40M, about 160 MB of fp32 weights; larger ones are
                    listed as skipped), batch, height and width dynamic
                    (batch only for ViT, Swin and MaxViT, whose position
                    tables fix the image size)
  seg/, det/, video/  torchvision segmentation, detection and video models
  var/              one architecture exported in several ways: static shapes,
                    opset 11 and 13, BatchNormalization kept (no constant
                    folding), fp16 weights behind Cast nodes
  xf/               a small transformer encoder and a GPT-style decoder,
                    batch and sequence dynamic

    python3 test/corpus/export_torchvision.py --list
    python3 test/corpus/export_torchvision.py --out DIR [--models tv/resnet18,xf/gpt] [--timeout 600]

Each model is exported in a child process (some exports take minutes or
crash); a failed export writes NAME/export_error.txt and the runner reports it.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

OPSET = 17
SEED = 0
# Image sizes for the two runs of a conv net with dynamic height and width.
HW_A, HW_B = 224, 160
# Models whose spatial size is fixed by position tables or window partitions.
FIXED_HW = ("vit_", "swin_", "maxvit_")


def classifiers():
    import torchvision.models as M
    return M.list_models(module=M)


def catalogue():
    """All corpus model names, in the order run_corpus.py runs them."""
    import torchvision.models as M
    names = [f"tv/{n}" for n in classifiers()]
    names += [f"seg/{n}" for n in M.list_models(module=M.segmentation)]
    names += [f"det/{n}" for n in M.list_models(module=M.detection)]
    names += [f"video/{n}" for n in M.list_models(module=M.video)]
    names += ["var/resnet18_static", "var/resnet18_opset11", "var/resnet18_opset13",
              "var/mobilenet_v2_batchnorm", "var/mobilenet_v2_fp16_weights",
              "var/resnet18_fp16_weights", "var/squeezenet1_1_batch_only"]
    names += ["xf/encoder", "xf/encoder_masked", "xf/gpt"]
    return names


# ---- Models ---------------------------------------------------------------------------------

def calibrate_batchnorm(model, calib):
    """Give BatchNorm layers realistic statistics: the zoo's randomize_batchnorm, with every
    channel's variance at least 1e-2."""
    sys.path.insert(0, os.path.join(HERE, "..", "models"))
    from export_zoo import randomize_batchnorm
    randomize_batchnorm(model, calib, var_floor=1e-2)


class Encoder:
    """Factories for the transformer models (torch is imported lazily)."""

    @staticmethod
    def build(kind):
        import torch
        import torch.nn as nn

        vocab, d, heads, layers, max_len = 1000, 64, 4, 2, 256

        class TextEncoder(nn.Module):
            def __init__(self, masked):
                super().__init__()
                self.masked = masked
                self.tok = nn.Embedding(vocab, d)
                self.pos = nn.Embedding(max_len, d)
                layer = nn.TransformerEncoderLayer(d, heads, 4 * d, dropout=0.0, batch_first=True,
                                                   activation="gelu")
                self.enc = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
                self.norm = nn.LayerNorm(d)
                self.head = nn.Linear(d, 8)

            def forward(self, ids, mask=None):
                pos = torch.arange(ids.shape[1], device=ids.device).unsqueeze(0)
                x = self.tok(ids) + self.pos(pos)
                pad = None if mask is None else mask == 0
                x = self.enc(x, src_key_padding_mask=pad)
                x = self.norm(x)
                return self.head(x.mean(dim=1)), x

        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
                self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
                self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

            def forward(self, x):
                b, t, _ = x.shape
                q, k, v = self.qkv(self.ln1(x)).split(d, dim=2)
                q, k, v = (z.reshape(b, t, heads, d // heads).transpose(1, 2) for z in (q, k, v))
                att = (q @ k.transpose(-2, -1)) / math.sqrt(d // heads)
                causal = torch.ones(t, t, dtype=torch.bool, device=x.device).triu(1)
                att = att.masked_fill(causal, float("-inf")).softmax(dim=-1)
                y = (att @ v).transpose(1, 2).reshape(b, t, d)
                x = x + self.proj(y)
                return x + self.mlp(self.ln2(x))

        class GPT(nn.Module):
            def __init__(self):
                super().__init__()
                self.tok = nn.Embedding(vocab, d)
                self.pos = nn.Embedding(max_len, d)
                self.blocks = nn.Sequential(*[Block() for _ in range(layers)])
                self.ln = nn.LayerNorm(d)
                self.head = nn.Linear(d, vocab, bias=False)

            def forward(self, ids):
                pos = torch.arange(ids.shape[1], device=ids.device).unsqueeze(0)
                return self.head(self.ln(self.blocks(self.tok(ids) + self.pos(pos))))

        if kind == "gpt":
            return GPT(), vocab
        return TextEncoder(kind == "encoder_masked"), vocab


def export_one(name, out_dir):
    """Export NAME into OUT_DIR/<leaf>/; runs in a child process."""
    import numpy as np  # noqa: F401
    import onnx
    import torch
    import torchvision.models as M

    torch.manual_seed(SEED)
    family, leaf = name.split("/", 1)
    d = os.path.join(out_dir, leaf if family in ("tv",) else f"{family}_{leaf}")
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, os.path.basename(d) + ".onnx")
    meta = {"source": "", "note": "", "ranges": {}}
    kwargs = dict(opset_version=OPSET, do_constant_folding=True)

    def image(b, hw):
        return torch.randn(b, 3, hw, hw)

    if family == "tv" or family == "var":
        arch = leaf if family == "tv" else leaf.rsplit("_", 2)[0] if "fp16" in leaf else leaf.split("_")[0]
        if family == "var":
            arch = {"resnet18_static": "resnet18", "resnet18_opset11": "resnet18",
                    "resnet18_opset13": "resnet18", "mobilenet_v2_batchnorm": "mobilenet_v2",
                    "mobilenet_v2_fp16_weights": "mobilenet_v2", "resnet18_fp16_weights": "resnet18",
                    "squeezenet1_1_batch_only": "squeezenet1_1"}[leaf]
        extra = {"aux_logits": False, "init_weights": True} if arch in ("inception_v3", "googlenet") else {}
        model = getattr(M, arch)(weights=None, **extra).eval()
        fixed = arch.startswith(FIXED_HW)
        hw_a = 299 if arch == "inception_v3" else HW_A
        hw_b = hw_a if fixed else (HW_B if arch != "inception_v3" else 256)
        calibrate_batchnorm(model, (image(4, hw_a),))
        meta["source"] = f"torchvision {arch} (weights=None, seed {SEED})"
        dyn = {"input": {0: "batch"} if fixed else {0: "batch", 2: "height", 3: "width"},
               "output": {0: "batch"}}
        sizes = [{"input": [1, 3, hw_a, hw_a]}, {"input": [2, 3, hw_b, hw_b]}]
        if family == "var":
            meta["source"] = f"torchvision {arch} exported as a variant (seed {SEED})"
            if leaf == "resnet18_static":
                dyn = None
                sizes = [{"input": [1, 3, hw_a, hw_a]}]
                meta["note"] = "static shapes (no dynamic axes)"
            elif leaf.startswith("resnet18_opset"):
                kwargs["opset_version"] = int(leaf[-2:])
                meta["note"] = f"opset {kwargs['opset_version']}"
            elif leaf == "mobilenet_v2_batchnorm":
                kwargs.update(do_constant_folding=False, training=torch.onnx.TrainingMode.PRESERVE)
                meta["note"] = "BatchNormalization kept (do_constant_folding=False, TrainingMode.PRESERVE)"
            elif leaf == "squeezenet1_1_batch_only":
                dyn = {"input": {0: "batch"}, "output": {0: "batch"}}
                sizes = [{"input": [1, 3, hw_a, hw_a]}, {"input": [3, 3, hw_a, hw_a]}]
                meta["note"] = "only the batch dim dynamic"
            elif "fp16" in leaf:
                meta["note"] = "fp16 initializers, each behind a Cast to float"
        torch.onnx.export(model, (image(1, hw_a),), path, input_names=["input"], output_names=["output"],
                          dynamic_axes=dyn, **kwargs)
        if "fp16" in leaf:
            to_fp16_weights(path)
    elif family == "seg":
        model = getattr(M.segmentation, leaf)(weights=None, weights_backbone=None, aux_loss=False).eval()
        calibrate_batchnorm(model, (image(2, 224),))
        meta["source"] = f"torchvision segmentation {leaf} (weights=None, seed {SEED})"
        torch.onnx.export(model, (image(1, 224),), path, input_names=["input"], output_names=["out"],
                          dynamic_axes={"input": {0: "batch", 2: "height", 3: "width"},
                                        "out": {0: "batch", 2: "height", 3: "width"}}, **kwargs)
        sizes = [{"input": [1, 3, 224, 224]}, {"input": [2, 3, 160, 192]}]
    elif family == "det":
        extra = {"min_size": 320, "max_size": 320} if "320" not in leaf and "ssd" not in leaf else {}
        model = getattr(M.detection, leaf)(weights=None, weights_backbone=None, **extra).eval()
        meta["source"] = f"torchvision detection {leaf} (weights=None, seed {SEED}{', min/max size 320' if extra else ''})"
        x = torch.rand(3, 320, 320)
        torch.onnx.export(model, ([x],), path, input_names=["image"],
                          dynamic_axes={"image": {1: "height", 2: "width"}}, **kwargs)
        sizes = [{"image": [3, 320, 320]}, {"image": [3, 256, 384]}]
        meta["ranges"] = {"image": [0.0, 1.0]}
    elif family == "video":
        model = getattr(M.video, leaf)(weights=None).eval()
        t, hw = (16, 224) if leaf in ("s3d", "mvit_v1_b", "mvit_v2_s") else (8, 112)
        calibrate_batchnorm(model, (torch.randn(2, 3, t, hw, hw),))
        meta["source"] = f"torchvision video {leaf} (weights=None, seed {SEED})"
        fixed = leaf.startswith("mvit")
        dyn = {"input": {0: "batch"} if fixed else {0: "batch", 2: "frames", 3: "height", 4: "width"},
               "output": {0: "batch"}}
        torch.onnx.export(model, (torch.randn(1, 3, t, hw, hw),), path, input_names=["input"],
                          output_names=["output"], dynamic_axes=dyn, **kwargs)
        sizes = [{"input": [1, 3, t, hw, hw]},
                 {"input": [2, 3, t, hw, hw] if fixed or leaf == "s3d" else [2, 3, t // 2, hw - 16, hw - 16]}]
    elif family == "xf":
        model, vocab = Encoder.build(leaf)
        model.eval()
        meta["source"] = f"PyTorch {'GPT-style decoder' if leaf == 'gpt' else 'nn.TransformerEncoder'} " \
                         f"written here (d=64, 4 heads, 2 layers, seed {SEED})"
        ids = torch.randint(0, vocab, (2, 16))
        names, args, dyn = ["ids"], (ids,), {"ids": {0: "batch", 1: "seq"}}
        sizes = [{"ids": [1, 16]}, {"ids": [3, 37]}]
        meta["ranges"] = {"ids": [0, vocab - 1]}
        if leaf == "encoder_masked":
            mask = torch.ones(2, 16, dtype=torch.int64)
            names, args = ["ids", "mask"], (ids, mask)
            dyn["mask"] = {0: "batch", 1: "seq"}
            sizes = [{"ids": [1, 16], "mask": [1, 16]}, {"ids": [3, 37], "mask": [3, 37]}]
            meta["ranges"]["mask"] = [1, 1]
            meta["note"] = "key padding mask input (all ones in the runs)"
        outs = ["logits"] if leaf == "gpt" else ["logits", "hidden"]
        for o in outs:
            dyn[o] = {0: "batch", 1: "seq"} if o != "logits" or leaf == "gpt" else {0: "batch"}
        torch.onnx.export(model, args, path, input_names=names, output_names=outs, dynamic_axes=dyn,
                          **kwargs)
    else:
        raise SystemExit(f"unknown model {name}")
    onnx.checker.check_model(path)
    meta["sizes"] = sizes
    meta["name"] = name
    with open(os.path.join(d, os.path.basename(d) + ".json"), "w") as f:
        json.dump(meta, f, indent=1)


def to_fp16_weights(path):
    """Store every float initializer as float16 and cast it back to float where it is used."""
    import numpy as np
    import onnx
    from onnx import helper, numpy_helper
    m = onnx.load(path)
    g = m.graph
    casts = []
    for init in g.initializer:
        if init.data_type != onnx.TensorProto.FLOAT:
            continue
        arr = numpy_helper.to_array(init).astype(np.float16)
        name = init.name
        init.CopyFrom(numpy_helper.from_array(arr, name + "_fp16"))
        casts.append(helper.make_node("Cast", [name + "_fp16"], [name], to=onnx.TensorProto.FLOAT,
                                      name=name + "_cast"))
    nodes = casts + list(g.node)
    del g.node[:]
    g.node.extend(nodes)
    # Inputs that shadowed initializers (IR < 4) would now dangle; drop them.
    inits = {i.name for i in g.initializer}
    keep = [i for i in g.input if i.name not in {c.output[0] for c in casts}]
    del g.input[:]
    g.input.extend(keep)
    assert inits
    onnx.save(m, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--list", action="store_true", help="print the model names and exit")
    ap.add_argument("--out", help="output folder")
    ap.add_argument("--models", help="comma-separated names (default: all)")
    ap.add_argument("--max-params", type=float, default=40e6,
                    help="skip models with more parameters (default 40e6)")
    ap.add_argument("--timeout", type=float, default=900, help="seconds per export")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        export_one(args.one, args.out)
        return 0
    names = catalogue()
    if args.list:
        print("\n".join(names))
        return 0
    if not args.out:
        ap.error("--out is required")
    if args.models:
        want = [m for m in args.models.split(",") if m]
        unknown = sorted(set(want) - set(names))
        if unknown:
            ap.error(f"unknown model(s): {', '.join(unknown)}")
        names = want
    os.makedirs(args.out, exist_ok=True)
    for name in names:
        family, leaf = name.split("/", 1)
        d = os.path.join(args.out, leaf if family == "tv" else f"{family}_{leaf}")
        base = os.path.join(d, os.path.basename(d))
        if os.path.exists(base + ".json") and os.path.exists(base + ".onnx"):
            continue
        if os.path.exists(os.path.join(d, "skipped.txt")):
            print(f"{name}: skipped (see {d}/skipped.txt)", flush=True)
            continue
        os.makedirs(d, exist_ok=True)
        params = count_params(name)
        if params > args.max_params:
            with open(os.path.join(d, "skipped.txt"), "w") as f:
                f.write(f"{params / 1e6:.0f}M parameters (over --max-params {args.max_params / 1e6:.0f}M)\n")
            print(f"{name}: skipped ({params / 1e6:.0f}M parameters)", flush=True)
            continue
        t0 = time.time()
        try:
            p = subprocess.run([sys.executable, __file__, "--one", name, "--out", args.out],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=args.timeout)
            ok, out = p.returncode == 0, p.stdout.decode(errors="replace")
            if not ok:
                out = (f"signal {-p.returncode}" if p.returncode < 0 else f"exit status {p.returncode}") + \
                      "\n" + out
        except subprocess.TimeoutExpired:
            ok, out = False, f"export timed out after {args.timeout:.0f}s"
        err = os.path.join(d, "export_error.txt")
        if ok:
            if os.path.exists(err):
                os.remove(err)
        else:
            with open(err, "w") as f:
                f.write(out[-4000:])
        print(f"{name}: {'exported' if ok else 'export failed'} in {time.time() - t0:.0f}s", flush=True)
    return 0


def count_params(name):
    """Parameters of NAME's model (0 for the small ones built here)."""
    import torchvision.models as M
    family, leaf = name.split("/", 1)
    if family in ("xf", "var"):
        return 0
    mod = {"tv": M, "seg": M.segmentation, "det": M.detection, "video": M.video}[family]
    extra = {"weights_backbone": None} if family in ("seg", "det") else {}
    model = getattr(mod, leaf)(weights=None, **extra)
    return sum(p.numel() for p in model.parameters())


if __name__ == "__main__":
    sys.exit(main())
