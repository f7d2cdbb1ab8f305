"""export_zoo.py - export a zoo model from PyTorch to ONNX with reference inputs and outputs.

Every model is built with fixed-seed random weights, exported at opset 17 with
its batch dim dynamic ("N"; with --all-dynamic every dim), and saved with PyTorch's outputs for each batch
size asked for:

    OUT/MODEL.onnx
    OUT/input_K.pb, OUT/output_K.pb            for the first batch size
    OUT/bB/input_K.pb, OUT/bB/output_K.pb      for each further one
    OUT/bB/input_K.pb                          for each --input-batches one (no reference)

The zoo (conformance issue, point 5): the torchvision classifiers resnet18,
resnet50, mobilenet_v2, mobilenet_v3_large, inception_v3 and resnext50_32x4d;
bert_encoder, a BERT-base-like encoder (12 layers, 768 wide, 12 heads,
sequence 128, distinct weights per layer); unet, a small U-Net
(ConvTranspose, Resize, Concat); lstm_classifier and gru_classifier (2 layers).
"""
import argparse
import copy
import inspect
import math
import os
import time

import numpy as np
import onnx
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision
from onnx import numpy_helper

OPSET = 17


def randomize_batchnorm(model, calib, var_floor=0.0):
    """Give every BatchNorm realistic statistics and mildly random affine parameters.

    Fresh BN layers (mean 0, var 1, gamma 1, beta 0) let activations drift far from O(1)
    over many layers. We first measure each layer's true batch statistics on a random
    calibration batch (cumulative average, i.e. momentum=None), then jitter them and
    the affine parameters, so activations stay O(1) and every BN parameter matters.
    With var_floor, channels that the calibration batch leaves almost constant get
    that variance at least: in mobilenet_v3_large (var ~1e-4 after depthwise convs
    of dead Hardswish activations) normalising them amplifies rounding so much
    that PyTorch's own fp32 result misses its float64 one by 1.1e-3 x max|y|.
    """
    bns = [m for m in model.modules() if isinstance(m, (nn.BatchNorm2d, nn.BatchNorm3d))]
    if not bns:
        return
    for bn in bns:
        bn.reset_running_stats()
        bn.momentum = None
    model.train()
    with torch.no_grad():
        model(*calib)
        for bn in bns:
            c = bn.num_features
            bn.momentum = 0.1
            bn.running_var.mul_(torch.empty(c).uniform_(0.7, 1.4))
            bn.running_var.clamp_(min=var_floor)
            bn.running_mean.add_(0.2 * torch.randn(c) * bn.running_var.sqrt())
            if bn.affine:
                bn.weight.copy_(torch.empty(c).uniform_(0.6, 1.5))
                bn.bias.copy_(0.2 * torch.randn(c))
    model.eval()


# ----------------------------------------------------------------------------
# Models not in torchvision
# ----------------------------------------------------------------------------

class EncoderLayer(nn.Module):
    """A post-norm BERT layer: self-attention and a GELU feed-forward block."""

    def __init__(self, width, heads, ffn):
        super().__init__()
        self.heads = heads
        self.query = nn.Linear(width, width)
        self.key = nn.Linear(width, width)
        self.value = nn.Linear(width, width)
        self.attn_out = nn.Linear(width, width)
        self.attn_norm = nn.LayerNorm(width, eps=1e-12)
        self.ffn_in = nn.Linear(width, ffn)
        self.ffn_out = nn.Linear(ffn, width)
        self.ffn_norm = nn.LayerNorm(width, eps=1e-12)

    def forward(self, x, mask_bias):
        b, s, w = x.shape
        d = w // self.heads

        def split(t):  # [b, s, w] -> [b, heads, s, d]
            return t.view(b, s, self.heads, d).transpose(1, 2)

        q, k, v = split(self.query(x)), split(self.key(x)), split(self.value(x))
        scores = q @ k.transpose(-1, -2) / math.sqrt(d) + mask_bias
        context = (scores.softmax(-1) @ v).transpose(1, 2).reshape(b, s, w)
        x = self.attn_norm(x + self.attn_out(context))
        return self.ffn_norm(x + self.ffn_out(F.gelu(self.ffn_in(x))))


class BertEncoder(nn.Module):
    """BERT-base-like: token, position and type embeddings, 12 encoder layers."""

    def __init__(self, vocab=30522, width=768, layers=12, heads=12, ffn=3072, max_len=512):
        super().__init__()
        self.word = nn.Embedding(vocab, width)
        self.position = nn.Embedding(max_len, width)
        self.token_type = nn.Embedding(2, width)
        self.norm = nn.LayerNorm(width, eps=1e-12)
        self.layers = nn.ModuleList(EncoderLayer(width, heads, ffn) for _ in range(layers))
        for m in self.modules():  # BERT's initialisation
            if isinstance(m, (nn.Linear, nn.Embedding)):
                nn.init.normal_(m.weight, std=0.02)
            if isinstance(m, nn.Linear):
                nn.init.normal_(m.bias, std=0.02)

    def forward(self, input_ids, attention_mask):
        s = input_ids.shape[1]
        positions = torch.arange(s, device=input_ids.device).unsqueeze(0)
        x = self.word(input_ids) + self.position(positions) + self.token_type(torch.zeros_like(input_ids))
        x = self.norm(x)
        # [b, s] 1/0 mask -> additive bias [b, 1, 1, s]
        mask_bias = (1.0 - attention_mask[:, None, None, :].to(x.dtype)) * -10000.0
        for layer in self.layers:
            x = layer(x, mask_bias)
        return x


def conv_block(cin, cout):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
        nn.Conv2d(cout, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class UNet(nn.Module):
    """A small U-Net: 3 levels down (MaxPool), up through ConvTranspose on two
    levels and bilinear Resize on the last, skip connections by Concat."""

    def __init__(self, cin=3, classes=4, width=16):
        super().__init__()
        w = [width * 2 ** i for i in range(4)]
        self.down = nn.ModuleList([conv_block(cin, w[0]), conv_block(w[0], w[1]), conv_block(w[1], w[2])])
        self.bottom = conv_block(w[2], w[3])
        self.up3 = nn.ConvTranspose2d(w[3], w[2], 2, stride=2)
        self.dec3 = conv_block(w[3], w[2])
        self.up2 = nn.ConvTranspose2d(w[2], w[1], 2, stride=2)
        self.dec2 = conv_block(w[2], w[1])
        self.reduce1 = nn.Conv2d(w[1], w[0], 1)
        self.dec1 = conv_block(w[1], w[0])
        self.head = nn.Conv2d(w[0], classes, 1)

    def forward(self, x):
        skips = []
        for block in self.down:
            x = block(x)
            skips.append(x)
            x = F.max_pool2d(x, 2)
        x = self.bottom(x)
        x = self.dec3(torch.cat([self.up3(x), skips[2]], 1))
        x = self.dec2(torch.cat([self.up2(x), skips[1]], 1))
        x = F.interpolate(self.reduce1(x), scale_factor=2.0, mode="bilinear", align_corners=False)
        x = self.dec1(torch.cat([x, skips[0]], 1))
        return self.head(x)


class RecurrentClassifier(nn.Module):
    """Sequence classifier: a 2-layer LSTM or GRU over [N, T, F] features, the
    last step's output through a Linear layer."""

    def __init__(self, cell, features=40, hidden=128, layers=2, classes=10):
        super().__init__()
        self.rnn = getattr(nn, cell)(features, hidden, num_layers=layers, batch_first=True)
        self.fc = nn.Linear(hidden, classes)

    def forward(self, x):
        y, _ = self.rnn(x)
        return self.fc(y[:, -1, :])


# ----------------------------------------------------------------------------
# The zoo: name -> (constructor, input maker(batch, generator), input names)
# ----------------------------------------------------------------------------

def image_input(size):
    return lambda b, gen: [torch.randn(b, 3, size, size, generator=gen)]


def bert_input(b, gen, seq=128, vocab=30522):
    ids = torch.randint(0, vocab, (b, seq), generator=gen)
    mask = torch.ones(b, seq, dtype=torch.int64)
    for i in range(b):  # padded tails of different lengths
        mask[i, seq - 16 * (i + 1) % seq:] = 0
    return [ids, mask]


def torchvision_model(name, **kwargs):
    return lambda: getattr(torchvision.models, name)(weights=None, **kwargs)


ZOO = {
    "resnet18": (torchvision_model("resnet18"), image_input(224), ["input"]),
    "resnet50": (torchvision_model("resnet50"), image_input(224), ["input"]),
    "mobilenet_v2": (torchvision_model("mobilenet_v2"), image_input(224), ["input"]),
    "mobilenet_v3_large": (torchvision_model("mobilenet_v3_large"), image_input(224), ["input"]),
    "inception_v3": (torchvision_model("inception_v3", aux_logits=False, init_weights=True),
                     image_input(299), ["input"]),
    "resnext50_32x4d": (torchvision_model("resnext50_32x4d"), image_input(224), ["input"]),
    "bert_encoder": (BertEncoder, bert_input, ["input_ids", "attention_mask"]),
    "unet": (UNet, image_input(128), ["input"]),
    "lstm_classifier": (lambda: RecurrentClassifier("LSTM"),
                        lambda b, gen: [torch.randn(b, 32, 40, generator=gen)], ["input"]),
    "gru_classifier": (lambda: RecurrentClassifier("GRU"),
                       lambda b, gen: [torch.randn(b, 32, 40, generator=gen)], ["input"]),
}


# See randomize_batchnorm.
BN_VAR_FLOOR = {"mobilenet_v3_large": 1e-2}


def save_tensor(array, name, path):
    with open(path, "wb") as f:
        f.write(numpy_helper.from_array(array, name).SerializeToString())


def run_float64(model, inputs):
    """The float64 model's output, as float32, for float32 (or integer) inputs."""
    return model(*(x.double() if x.is_floating_point() else x for x in inputs)).float().numpy()


def check_reference(out, other, what):
    """The comparison tolerance is 1e-3 x max|out|: the output must vary across
    its elements and with the input by much more than that to mean anything."""
    scale = float(np.abs(out).max())
    spread, sens = float(out.std()) / scale, float((out - other).std()) / scale
    print(f"{what} {list(out.shape)}: max|y| {scale:.4g}, std/max {spread:.3g}, "
          f"input sensitivity std(y - y')/max {sens:.3g}")
    if not np.isfinite(out).all() or spread < 1e-2 or sens < 1e-2:
        raise SystemExit(f"error: {what}: reference output is degenerate "
                         "(near-constant, input-independent or non-finite)")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", required=True, choices=sorted(ZOO))
    ap.add_argument("--out", required=True, help="output directory")
    ap.add_argument("--batches", type=int, nargs="+", default=[1],
                    help="batch sizes to save references for (default: 1)")
    ap.add_argument("--input-batches", type=int, nargs="+", default=[],
                    help="batch sizes to save inputs for, without a reference (a float64 reference "
                         "of bert_encoder at batch 32 takes minutes)")
    ap.add_argument("--all-dynamic", action="store_true",
                    help="make every dim of the inputs and the output dynamic, not only the batch")
    ap.add_argument("--keep-bn", action="store_true",
                    help="keep BatchNormalization nodes (default: the exporter folds them into Conv)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)

    make_model, make_inputs, input_names = ZOO[args.model]
    torch.manual_seed(0)
    torch.use_deterministic_algorithms(True)
    torch.set_num_threads(min(2, os.cpu_count() or 1))
    model = make_model()
    if any(isinstance(m, nn.BatchNorm2d) for m in model.modules()):
        randomize_batchnorm(model, make_inputs(8, torch.Generator().manual_seed(2)),
                            BN_VAR_FLOOR.get(args.model, 0.0))
    model.eval()

    # References come from a float64 copy of the model: randomly initialised deep
    # networks amplify rounding, and PyTorch's own fp32 result can be off by a
    # good part of the tolerance (printed as "PyTorch fp32 error").
    reference = copy.deepcopy(model).double()
    gen = torch.Generator().manual_seed(1)
    examples = {}
    for b in args.batches:
        inputs = make_inputs(b, gen)
        with torch.no_grad():
            out = run_float64(reference, inputs)
            other = run_float64(reference, make_inputs(b, gen))
            fp32_error = float(np.abs(model(*inputs).numpy() - out).max() / np.abs(out).max())
        check_reference(out, other, f"batch {b} output")
        print(f"batch {b}: PyTorch fp32 error {fp32_error:.2g} x max|y|")
        examples[b] = (inputs, out)

    path = os.path.join(args.out, f"{args.model}.onnx")
    t0 = time.time()
    mode = torch.onnx.TrainingMode.PRESERVE if args.keep_bn else torch.onnx.TrainingMode.EVAL
    dynamic = {name: {0: "N"} for name in input_names + ["output"]}
    if args.all_dynamic:
        inputs, out = examples[args.batches[0]]
        ranks = [x.dim() for x in inputs] + [out.ndim]
        dynamic = {name: {i: f"{name}_{i}" for i in range(rank)}
                   for name, rank in zip(input_names + ["output"], ranks)}
    # PyTorch 2.9 made the dynamo exporter the default; the zoo is the
    # TorchScript exporter's graph wherever that one is still there.
    legacy = {"dynamo": False} if "dynamo" in inspect.signature(torch.onnx.export).parameters else {}
    torch.onnx.export(model, tuple(examples[args.batches[0]][0]), path, opset_version=OPSET,
                      input_names=input_names, output_names=["output"], dynamic_axes=dynamic,
                      training=mode, do_constant_folding=not args.keep_bn, **legacy)
    onnx.checker.check_model(path)
    for b, (inputs, out) in examples.items():
        d = args.out if b == args.batches[0] else os.path.join(args.out, f"b{b}")
        os.makedirs(d, exist_ok=True)
        for k, (name, x) in enumerate(zip(input_names, inputs)):
            save_tensor(x.numpy(), name, os.path.join(d, f"input_{k}.pb"))
        save_tensor(out, "output", os.path.join(d, "output_0.pb"))
    for b in args.input_batches:
        d = os.path.join(args.out, f"b{b}")
        os.makedirs(d, exist_ok=True)
        for k, (name, x) in enumerate(zip(input_names, make_inputs(b, gen))):
            save_tensor(x.numpy(), name, os.path.join(d, f"input_{k}.pb"))
    ops = sorted({n.op_type for n in onnx.load(path, load_external_data=False).graph.node})
    print(f"wrote {path} ({os.path.getsize(path) / 1e6:.1f} MB, export {time.time() - t0:.1f}s), "
          f"ops: {' '.join(ops)}")


if __name__ == "__main__":
    main()
