"""export_dynamic.py - export small models whose inputs have several dynamic dims, with references.

Every dim of every input (and output) is dynamic. Each model is exported once at
opset 17 and saved with PyTorch's outputs (from a float64 copy) for each of its
cases, which differ in every dynamic size:

    OUT/MODEL.onnx
    OUT/caseC/input_K.pb, OUT/caseC/output_K.pb

The models (issue 17): encoder, a transformer encoder layer (nn.TransformerEncoderLayer
over token embeddings; batch and sequence vary); cnn, a small CNN (conv, pool, adaptive
average pool, flatten, linear; batch, height and width vary); decoder, a GPT-style
decoder block with a KV cache (input_ids [batch, seq], past_key and past_value [batch,
heads, past, head_dim]; outputs logits and present = concat(past, new); causal mask
built from the shapes; batch, seq and past vary, one case with an empty past).
"""
import argparse
import copy
import math
import os

import numpy as np
import onnx
import torch
import torch.nn as nn
import torch.nn.functional as F

from export_zoo import OPSET, check_reference, save_tensor

VOCAB, WIDTH, HEADS = 64, 32, 4


class Encoder(nn.Module):
    """Token embeddings through one post-norm transformer encoder layer."""

    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, WIDTH)
        self.layer = nn.TransformerEncoderLayer(WIDTH, HEADS, dim_feedforward=64, dropout=0.0,
                                                batch_first=True)

    def forward(self, input_ids):
        return self.layer(self.embed(input_ids))


class SmallCNN(nn.Module):
    """Conv, BatchNorm, ReLU, max pool, conv, adaptive average pool, view(N, -1), linear."""

    def __init__(self, classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.conv2 = nn.Conv2d(8, 16, 3, stride=2, padding=1)
        self.fc = nn.Linear(16, classes)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn(self.conv1(x))), 2)
        x = F.relu(self.conv2(x))
        x = F.adaptive_avg_pool2d(x, 1)
        return self.fc(x.view(x.shape[0], -1))


class Decoder(nn.Module):
    """Token and position embeddings, one pre-norm GPT block with a KV cache, an LM head."""

    def __init__(self, max_len=64):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, WIDTH)
        self.position = nn.Embedding(max_len, WIDTH)
        self.norm1 = nn.LayerNorm(WIDTH)
        self.qkv = nn.Linear(WIDTH, 3 * WIDTH)
        self.proj = nn.Linear(WIDTH, WIDTH)
        self.norm2 = nn.LayerNorm(WIDTH)
        self.mlp = nn.Sequential(nn.Linear(WIDTH, 4 * WIDTH), nn.GELU(), nn.Linear(4 * WIDTH, WIDTH))
        self.head = nn.Linear(WIDTH, VOCAB)

    def forward(self, input_ids, past_key, past_value):
        b, s = input_ids.shape
        past = past_key.shape[2]
        d = WIDTH // HEADS
        positions = torch.arange(past, past + s, device=input_ids.device).unsqueeze(0)
        x = self.embed(input_ids) + self.position(positions)
        q, k, v = self.qkv(self.norm1(x)).split(WIDTH, dim=-1)
        q, k, v = (t.reshape(b, s, HEADS, d).transpose(1, 2) for t in (q, k, v))
        key = torch.cat([past_key, k], dim=2)
        value = torch.cat([past_value, v], dim=2)
        # Query i (at position past + i) sees keys 0 .. past + i.
        total = key.shape[2]
        rows = torch.arange(s, device=x.device).unsqueeze(1) + past
        cols = torch.arange(total, device=x.device).unsqueeze(0)
        mask = torch.where(cols <= rows, 0.0, -1e4).to(x.dtype)
        scores = q @ key.transpose(-1, -2) / math.sqrt(d) + mask
        context = (scores.softmax(-1) @ value).transpose(1, 2).reshape(b, s, WIDTH)
        x = x + self.proj(context)
        x = x + self.mlp(self.norm2(x))
        return self.head(x), key, value


def ids(gen, b, s):
    return torch.randint(0, VOCAB, (b, s), generator=gen)


def decoder_inputs(gen, b, s, past):
    d = WIDTH // HEADS
    return [ids(gen, b, s), torch.randn(b, HEADS, past, d, generator=gen),
            torch.randn(b, HEADS, past, d, generator=gen)]


# name -> (constructor, input names, output names, input maker(generator, *sizes),
# the sizes of the export's example, the sizes of each checked case)
MODELS = {
    "encoder": (Encoder, ["input_ids"], ["output"],
                lambda gen, b, s: [ids(gen, b, s)],
                (2, 7), [(1, 5), (3, 11)]),
    "cnn": (SmallCNN, ["input"], ["output"],
            lambda gen, b, h, w: [torch.randn(b, 3, h, w, generator=gen)],
            (2, 32, 24), [(1, 20, 28), (3, 36, 16)]),
    "decoder": (Decoder, ["input_ids", "past_key", "past_value"],
                ["logits", "present_key", "present_value"], decoder_inputs,
                (2, 3, 4), [(1, 6, 0), (3, 1, 9)]),
}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", required=True, choices=sorted(MODELS))
    ap.add_argument("--out", required=True, help="output directory")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)

    make_model, input_names, output_names, make_inputs, export_sizes, cases = MODELS[args.model]
    torch.manual_seed(0)
    torch.set_num_threads(min(2, os.cpu_count() or 1))
    model = make_model()
    if any(isinstance(m, nn.BatchNorm2d) for m in model.modules()):
        with torch.no_grad():  # statistics that matter
            for m in model.modules():
                if isinstance(m, nn.BatchNorm2d):
                    m.running_mean.uniform_(-0.2, 0.2)
                    m.running_var.uniform_(0.5, 1.5)
    model.eval()
    reference = copy.deepcopy(model).double()
    gen = torch.Generator().manual_seed(1)

    path = os.path.join(args.out, f"{args.model}.onnx")
    example = make_inputs(gen, *export_sizes)
    dynamic = {}
    for name, x in zip(input_names, example):
        dynamic[name] = {i: f"{name}_{i}" for i in range(x.dim())}
    with torch.no_grad():
        outs = model(*example)
    outs = outs if isinstance(outs, tuple) else (outs,)
    for name, y in zip(output_names, outs):
        dynamic[name] = {i: f"{name}_{i}" for i in range(y.dim())}
    torch.onnx.export(model, tuple(example), path, opset_version=OPSET, input_names=input_names,
                      output_names=output_names, dynamic_axes=dynamic)
    onnx.checker.check_model(path)

    for c, sizes in enumerate(cases):
        inputs = make_inputs(gen, *sizes)
        with torch.no_grad():
            outs = reference(*(x.double() if x.is_floating_point() else x for x in inputs))
        outs = outs if isinstance(outs, tuple) else (outs,)
        other = make_inputs(gen, *sizes)
        with torch.no_grad():
            first = reference(*(x.double() if x.is_floating_point() else x for x in other))
        first = first[0] if isinstance(first, tuple) else first
        check_reference(outs[0].float().numpy(), first.float().numpy(), f"case {c} {sizes} output_0")
        d = os.path.join(args.out, f"case{c}")
        os.makedirs(d, exist_ok=True)
        for k, (name, x) in enumerate(zip(input_names, inputs)):
            save_tensor(x.numpy(), name, os.path.join(d, f"input_{k}.pb"))
        for k, (name, y) in enumerate(zip(output_names, outs)):
            save_tensor(y.float().numpy(), name, os.path.join(d, f"output_{k}.pb"))
    ops = sorted({n.op_type for n in onnx.load(path).graph.node})
    print(f"wrote {path} and {len(cases)} cases, ops: {' '.join(ops)}")


if __name__ == "__main__":
    main()
