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
built from the shapes; batch, seq and past vary, one case with an empty past); llama, a
LLaMA-shaped decoder of two layers (RMSNorm, rotary embeddings, grouped-query attention
over a KV cache per layer, SwiGLU) run as a 32-token prefill with an empty past, a
decode step at past 63 and a batch of 4 at past 200.
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
LLAMA_VOCAB, LLAMA_WIDTH = 128, 64


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


class LlamaBlock(nn.Module):
    """One LLaMA decoder layer: RMSNorm, rotary embeddings (rotate-half form at
    positions past .. past + s - 1), grouped-query attention over the KV cache
    (4 query heads share 2 K/V heads), RMSNorm and a SwiGLU MLP."""

    def __init__(self, heads=4, kv_heads=2, hidden=172):
        super().__init__()
        self.heads, self.kv_heads, self.d = heads, kv_heads, LLAMA_WIDTH // heads
        self.norm1 = nn.Parameter(1 + 0.1 * torch.randn(LLAMA_WIDTH))
        self.q = nn.Linear(LLAMA_WIDTH, heads * self.d, bias=False)
        self.k = nn.Linear(LLAMA_WIDTH, kv_heads * self.d, bias=False)
        self.v = nn.Linear(LLAMA_WIDTH, kv_heads * self.d, bias=False)
        self.o = nn.Linear(heads * self.d, LLAMA_WIDTH, bias=False)
        self.norm2 = nn.Parameter(1 + 0.1 * torch.randn(LLAMA_WIDTH))
        self.gate = nn.Linear(LLAMA_WIDTH, hidden, bias=False)
        self.up = nn.Linear(LLAMA_WIDTH, hidden, bias=False)
        self.down = nn.Linear(hidden, LLAMA_WIDTH, bias=False)

    @staticmethod
    def rms_norm(x, weight):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * weight

    @staticmethod
    def rotate(x, cos, sin):
        half = x.shape[-1] // 2
        return x * cos + torch.cat([-x[..., half:], x[..., :half]], dim=-1) * sin

    def forward(self, x, cos, sin, past_key, past_value):
        b, s, _ = x.shape
        h = self.rms_norm(x, self.norm1)
        q = self.q(h).view(b, s, self.heads, self.d).transpose(1, 2)
        k = self.k(h).view(b, s, self.kv_heads, self.d).transpose(1, 2)
        v = self.v(h).view(b, s, self.kv_heads, self.d).transpose(1, 2)
        q, k = self.rotate(q, cos, sin), self.rotate(k, cos, sin)
        key = torch.cat([past_key, k], dim=2)
        value = torch.cat([past_value, v], dim=2)
        # Each K/V head repeated for its group of query heads, as Hugging
        # Face's repeat_kv writes it (expand and reshape).
        group = self.heads // self.kv_heads
        keys, values = (t[:, :, None].expand(b, self.kv_heads, group, t.shape[2], self.d)
                        .reshape(b, self.heads, t.shape[2], self.d) for t in (key, value))
        past = past_key.shape[2]
        rows = torch.arange(s, device=x.device).unsqueeze(1) + past
        cols = torch.arange(key.shape[2], device=x.device).unsqueeze(0)
        mask = torch.where(cols <= rows, 0.0, float("-inf")).to(x.dtype)
        scores = q @ keys.transpose(-1, -2) / math.sqrt(self.d) + mask
        context = (scores.softmax(-1) @ values).transpose(1, 2).reshape(b, s, -1)
        x = x + self.o(context)
        h = self.rms_norm(x, self.norm2)
        return x + self.down(F.silu(self.gate(h)) * self.up(h)), key, value


class Llama(nn.Module):
    """A LLaMA-shaped decoder of two layers with a KV cache per layer
    (past_key_L, past_value_L [batch, kv heads, past, head dim]; present =
    concat(past, new)), rotary frequencies computed from the positions, and a
    final RMSNorm and LM head."""

    def __init__(self, layers=2):
        super().__init__()
        self.embed = nn.Embedding(LLAMA_VOCAB, LLAMA_WIDTH)
        self.layers = nn.ModuleList(LlamaBlock() for _ in range(layers))
        self.norm = nn.Parameter(1 + 0.1 * torch.randn(LLAMA_WIDTH))
        self.head = nn.Linear(LLAMA_WIDTH, LLAMA_VOCAB, bias=False)
        d = self.layers[0].d
        self.register_buffer("inv_freq", 1.0 / 10000 ** (torch.arange(0, d, 2).float() / d), persistent=False)

    def forward(self, input_ids, *cache):
        s = input_ids.shape[1]
        past = cache[0].shape[2]
        positions = torch.arange(past, past + s, device=input_ids.device).to(self.inv_freq.dtype)
        angles = positions.unsqueeze(1) * self.inv_freq.unsqueeze(0)
        angles = torch.cat([angles, angles], dim=-1)
        cos, sin = angles.cos(), angles.sin()
        x = self.embed(input_ids)
        presents = []
        for i, layer in enumerate(self.layers):
            x, key, value = layer(x, cos, sin, cache[2 * i], cache[2 * i + 1])
            presents += [key, value]
        return (self.head(LlamaBlock.rms_norm(x, self.norm)), *presents)


def llama_inputs(gen, b, s, past, layers=2):
    d = LLAMA_WIDTH // 4
    cache = [torch.randn(b, 2, past, d, generator=gen) for _ in range(2 * layers)]
    return [torch.randint(0, LLAMA_VOCAB, (b, s), generator=gen)] + cache


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
    # Issue 19's cases: a 32-token prefill with an empty past, a decode step
    # at past 63, and a batch of 4 decoding at past 200.
    "llama": (Llama, ["input_ids", "past_key_0", "past_value_0", "past_key_1", "past_value_1"],
              ["logits", "present_key_0", "present_value_0", "present_key_1", "present_value_1"], llama_inputs,
              (2, 3, 4), [(1, 32, 0), (1, 1, 63), (4, 1, 200)]),
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
