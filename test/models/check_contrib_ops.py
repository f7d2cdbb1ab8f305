"""check_contrib_ops.py - ONNX Runtime's contrib ops (com.microsoft) end to end.

Each case is a one-node model as ORT's transformer optimizer, Optimum or ORT
GenAI's model builder writes it (com.microsoft opset 1 beside the default
domain), with its batch and sequence dims dynamic. The model is compiled once
by onnx-compile and run at two sizes; its outputs must match a NumPy
reference written here from the op's definition (1e-4 of the output's scale
for float32, 2e-3 for float16) and, where ONNX Runtime is installed
(bench/ort_run.js with onnxruntime-node), ORT's outputs on the same inputs.
`onnx-opt -O2` (beside ONNX_COMPILE) must write each model as ONNX that
passes onnx.checker, and, with ORT, that ORT runs to the same results.

usage: check_contrib_ops.py ONNX_COMPILE WORKDIR
"""
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper
from scipy.special import erf

ORT_RUN = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                       "bench", "ort_run.js")
ORT = os.path.exists(ORT_RUN) and subprocess.run(["node", ORT_RUN, "--version"],
                                                 capture_output=True).returncode == 0
MS = "com.microsoft"


def gelu(x):
    return 0.5 * x * (1 + erf(x / np.sqrt(2)))


def gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))


def layer_norm(x, eps, centered=True):
    x = x.astype(np.float64)
    if centered:
        x = x - x.mean(-1, keepdims=True)
    return x / np.sqrt((x * x).mean(-1, keepdims=True) + eps)


def rotate(x, cos, sin, interleaved):
    """x [..., head]; cos, sin broadcastable to [..., rotated / 2]."""
    rot = cos.shape[-1] * 2
    r, rest = x[..., :rot], x[..., rot:]
    x1, x2 = (r[..., 0::2], r[..., 1::2]) if interleaved else (r[..., :rot // 2], r[..., rot // 2:])
    real, imag = cos * x1 - sin * x2, sin * x1 + cos * x2
    out = np.stack([real, imag], -1).reshape(r.shape) if interleaved else np.concatenate([real, imag], -1)
    return np.concatenate([out, rest], -1)


def tensor_type(dtype):
    return onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[np.dtype(dtype)]


def value_info(name, array, dynamic):
    dims = [f"{name}_{i}" if i in dynamic else d for i, d in enumerate(array.shape)]
    return helper.make_tensor_value_info(name, tensor_type(array.dtype), dims)


def run_case(name, node, inputs_at, reference, outputs, compiler, work, dynamic=(0, 1), tol=1e-4,
             constants=()):
    """Compiles the one-node model once and checks it at each of the sizes
    `inputs_at` gives (a list of {input name: array}); `dynamic` lists the
    input dims declared dynamic (by position, in every input of rank above 1
    but the rotary caches, which models hold as initializers; or a dict of
    them by input name); the inputs named in `constants` are initializers
    (the same at every size); returns a failure message or None."""
    d = os.path.join(work, name)
    os.makedirs(d, exist_ok=True)
    first = inputs_at[0]
    graph = helper.make_graph(
        [node], name,
        [value_info(k, v, dynamic.get(k, ()) if isinstance(dynamic, dict) else
                    [] if k.endswith("_cache") else [i for i in dynamic if i < v.ndim - (v.ndim == 1)])
         for k, v in first.items() if k not in constants],
        [helper.make_tensor_value_info(o, tensor_type(np.asarray(ref).dtype), None)
         for o, ref in zip(outputs, reference(**first))],
        [numpy_helper.from_array(first[k], k) for k in constants])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid(MS, 1)])
    path = os.path.join(d, "model.onnx")
    onnx.save(model, path)
    exe = os.path.join(d, "model")
    r = subprocess.run([compiler, path, "-o", exe], capture_output=True, text=True)
    if r.returncode:
        return f"{name}: compile failed: {r.stderr.strip()[-500:]}"
    # onnx-opt -O2 writes the expansion as default-domain ONNX: it must pass
    # the checker (and, below, run in ORT with the same results).
    optimized = os.path.join(d, "optimized.onnx")
    r = subprocess.run([os.path.join(os.path.dirname(compiler), "onnx-opt"), path, "-O2", "-o", optimized],
                       capture_output=True, text=True)
    if r.returncode:
        return f"{name}: onnx-opt -O2 failed: {r.stderr.strip()[-500:]}"
    try:
        onnx.checker.check_model(onnx.load(optimized))
    except onnx.checker.ValidationError as e:
        return f"{name}: onnx-opt -O2 wrote an invalid model: {str(e).strip()[:300]}"
    for size, inputs in enumerate(inputs_at):
        files = []
        for k, v in inputs.items():
            if k in constants:
                continue
            files.append(os.path.join(d, f"{size}_{k}.pb"))
            with open(files[-1], "wb") as f:
                f.write(numpy_helper.from_array(v, k).SerializeToString())
        out = os.path.join(d, f"out{size}")
        r = subprocess.run([exe, "--output-dir", out] + files, capture_output=True, text=True)
        if r.returncode:
            return f"{name}: run failed at size {size}: {r.stderr.strip()[-300:]}"
        got = [numpy_helper.to_array(onnx.load_tensor(os.path.join(out, f"output_{k}.pb")))
               for k in range(len(outputs))]
        numpy_ref = reference(**inputs)
        # (what is checked, its outputs, against whose, their outputs)
        checks = [("onnxc", got, "NumPy", numpy_ref)]
        if ORT:
            def ort_outputs(model_path, out_dir):
                r = subprocess.run(["node", ORT_RUN, model_path, "--output-dir", out_dir] + files,
                                   capture_output=True, text=True)
                if r.returncode:
                    return f"{name}: ONNX Runtime failed on {model_path}: {r.stderr.strip()[-300:]}"
                return [numpy_helper.to_array(onnx.load_tensor(os.path.join(out_dir, f"output_{k}.pb")))
                        for k in range(len(outputs))]
            ort = ort_outputs(path, os.path.join(d, f"ort{size}"))
            ort_optimized = ort_outputs(optimized, os.path.join(d, f"ort_optimized{size}"))
            for result in (ort, ort_optimized):
                if isinstance(result, str):
                    return result
            checks += [("onnxc", got, "ONNX Runtime", ort),
                       ("ONNX Runtime on onnx-opt's model", ort_optimized, "NumPy", numpy_ref)]
        for what, mine_all, who, want in checks:
            for k, (mine, ref) in enumerate(zip(mine_all, want)):
                ref = np.asarray(ref)
                scale = max(float(np.abs(ref.astype(np.float64)).max()), 1e-12)
                err = float(np.abs(ref.astype(np.float64) - mine.astype(np.float64)).max()) / scale \
                    if ref.shape == mine.shape else float("inf")
                if err > tol:
                    return (f"{name}: {what}'s output {k} at size {size} differs from {who}'s: shape {mine.shape} "
                            f"vs {ref.shape}, max error {err:.3g} of scale")
    print(f"{name}: {len(inputs_at)} sizes match NumPy"
          f"{' and ONNX Runtime; onnx-opt -O2 valid, and its model in ORT matches' if ORT else ''}")
    return None


def group_query_attention(query, key, value, past_key, past_value, seqlens_k, total_sequence_length,
                          cos_cache=None, sin_cache=None, *, heads, kv_heads, rotary=False, interleaved=False,
                          window=-1, softcap=0.0, smooth=False):
    """GroupQueryAttention as ORT's CPU kernel defines it, batch by batch:
    output [B, S, heads H], present key and value [B, kv_heads, T, H]."""
    b, s, _ = query.shape
    if key is None:
        h = query.shape[2] // (heads + 2 * kv_heads)
        query, key, value = np.split(query, [heads * h, (heads + kv_heads) * h], axis=2)
    h = query.shape[2] // heads
    q = query.reshape(b, s, heads, h).transpose(0, 2, 1, 3).astype(np.float64)
    k = key.reshape(b, s, kv_heads, h).transpose(0, 2, 1, 3).astype(np.float64)
    v = value.reshape(b, s, kv_heads, h).transpose(0, 2, 1, 3).astype(np.float64)
    total = int(total_sequence_length.reshape(-1)[0])
    p = past_key.shape[2]
    t = max(total, p)
    out = np.zeros((b, heads, s, h))
    present_k, present_v = np.zeros((b, kv_heads, t, h)), np.zeros((b, kv_heads, t, h))
    for i in range(b):
        total_i = int(seqlens_k[i]) + 1
        past_i = 0 if s == total else total_i - s
        pos = past_i + np.arange(s)
        qi, ki = q[i], k[i]
        if rotary:
            cos, sin = cos_cache[pos][None], sin_cache[pos][None]
            qi, ki = rotate(qi, cos, sin, interleaved), rotate(ki, cos, sin, interleaved)
        present_k[i, :, :past_i], present_v[i, :, :past_i] = past_key[i, :, :past_i], past_value[i, :, :past_i]
        present_k[i, :, past_i:past_i + s], present_v[i, :, past_i:past_i + s] = ki, v[i]
        kr = np.repeat(present_k[i], heads // kv_heads, axis=0)
        vr = np.repeat(present_v[i], heads // kv_heads, axis=0)
        scores = qi @ kr.transpose(0, 2, 1) / np.sqrt(h)
        if softcap > 0:
            scores = softcap * np.tanh(scores / softcap)
        j = np.arange(t)[None, :]
        allowed = j <= pos[:, None]
        if window > 0:
            allowed &= j > pos[:, None] - window
        scores = np.where(allowed[None], scores, -np.inf)
        m = scores.max(-1, keepdims=True)
        if smooth:
            m = np.maximum(m, 0)
        e = np.exp(scores - m)
        out[i] = e / (e.sum(-1, keepdims=True) + (np.exp(-m) if smooth else 0)) @ vr
    dtype = query.dtype
    return [out.transpose(0, 2, 1, 3).reshape(b, s, heads * h).astype(dtype), present_k.astype(dtype),
            present_v.astype(dtype)]


def check_group_query_attention(rng, randn, compiler, work, failures):
    """GroupQueryAttention as ORT GenAI's model builder writes it (4 query
    heads sharing 2 K/V heads of 16, rotary at the past length), compiled
    once and run as a prompt (empty past), a decode step (past 5) and a
    batch of 2 decoding at different lengths in a past buffer of 8; then a
    packed-QKV form with a local window, softcap and smooth softmax."""
    heads, kv_heads, h, max_pos = 4, 2, 16, 32
    cos_cache = np.cos(randn(max_pos, h // 2))
    sin_cache = np.sin(randn(max_pos, h // 2))

    def inputs(b, s, p, seqlens, total, packed=False):
        d = {"query": randn(b, s, (heads + (2 * kv_heads if packed else 0)) * h)}
        if not packed:
            d["key"], d["value"] = randn(b, s, kv_heads * h), randn(b, s, kv_heads * h)
        d.update(past_key=randn(b, kv_heads, p, h), past_value=randn(b, kv_heads, p, h),
                 seqlens_k=np.array(seqlens, np.int32), total_sequence_length=np.array([total], np.int32))
        if not packed:
            d.update(cos_cache=cos_cache, sin_cache=sin_cache)
        return d

    dims = {"query": (0, 1), "key": (0, 1), "value": (0, 1), "past_key": (0, 2), "past_value": (0, 2),
            "seqlens_k": (0,)}
    at = [inputs(1, 6, 0, [5], 6), inputs(1, 1, 5, [5], 6), inputs(2, 1, 8, [3, 6], 7)]
    node = helper.make_node("GroupQueryAttention", ["query", "key", "value", "past_key", "past_value",
                                                    "seqlens_k", "total_sequence_length", "cos_cache",
                                                    "sin_cache"],
                            ["output", "present_key", "present_value"], domain=MS, num_heads=heads,
                            kv_num_heads=kv_heads, do_rotary=1)

    def reference(**kw):
        return group_query_attention(**kw, heads=heads, kv_heads=kv_heads, rotary=True)
    failures.append(run_case("group_query_attention", node, at, reference,
                             ["output", "present_key", "present_value"], compiler, work, dynamic=dims))

    at = [inputs(1, 6, 0, [5], 6, packed=True), inputs(2, 1, 6, [6, 4], 7, packed=True)]
    node = helper.make_node("GroupQueryAttention", ["query", "", "", "past_key", "past_value", "seqlens_k",
                                                    "total_sequence_length"],
                            ["output", "present_key", "present_value"], domain=MS, num_heads=heads,
                            kv_num_heads=kv_heads, local_window_size=3, softcap=2.0, smooth_softmax=1)

    def packed_reference(query, past_key, past_value, seqlens_k, total_sequence_length):
        return group_query_attention(query, None, None, past_key, past_value, seqlens_k, total_sequence_length,
                                     heads=heads, kv_heads=kv_heads, window=3, softcap=2.0, smooth=True)
    failures.append(run_case("group_query_attention_packed_window", node, at, packed_reference,
                             ["output", "present_key", "present_value"], compiler, work, dynamic=dims))


def multi_head_attention(query, key, value, bias, key_padding_mask, past_key, past_value, *, heads,
                         causal, filter_value=-10000.0):
    """MultiHeadAttention as ORT's CPU kernel defines it: output, present
    key and value; masked keys get filter_value added to their scores."""
    b, s, d = query.shape
    query, key, value = query + bias[:d], key + bias[d:2 * d], value + bias[2 * d:]
    h = d // heads

    def split(x):
        return x.reshape(b, x.shape[1], heads, -1).transpose(0, 2, 1, 3).astype(np.float64)
    q = split(query)
    k = np.concatenate([past_key, split(key)], axis=2)
    v = np.concatenate([past_value, split(value)], axis=2)
    scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(h)
    t = k.shape[2]
    penalty = np.where(key_padding_mask[:, None, None, :] != 0, 0.0, filter_value)
    if causal:
        past = past_key.shape[2]
        penalty = penalty + np.where(np.arange(t)[None, :] <= np.arange(s)[:, None] + past, 0.0, filter_value)
    scores = scores + penalty
    e = np.exp(scores - scores.max(-1, keepdims=True))
    out = (e / e.sum(-1, keepdims=True)) @ v
    return [out.transpose(0, 2, 1, 3).reshape(b, s, -1).astype(query.dtype), k.astype(query.dtype),
            v.astype(query.dtype)]


def check_bert_attention(rng, randn, compiler, work, failures):
    """com.microsoft Attention as ORT's transformer optimizer writes BERT's
    (a [batch, total] mask_index) and GPT-2's (a packed past [2, B, N, P, H]
    and present, unidirectional) self-attention, each compiled once and run
    at two sizes."""
    heads, d = 4, 32
    weights, bias = randn(d, 3 * d) / np.sqrt(d), randn(3 * d)

    def projected(x):
        qkv = x @ weights + bias
        return qkv[..., :d], qkv[..., d:2 * d], qkv[..., 2 * d:]

    def bert_inputs(b, s):
        mask = np.ones((b, s), np.int32)
        mask[-1, s // 2:] = 0
        return {"input": randn(b, s, d), "weights": weights, "bias": bias, "mask_index": mask}

    def bert(input, weights, bias, mask_index):
        q, k, v = projected(input)
        b = input.shape[0]
        empty = np.zeros((b, heads, 0, d // heads), np.float32)
        return multi_head_attention(q, k, v, np.zeros(3 * d, np.float32), mask_index, empty, empty,
                                    heads=heads, causal=False)[:1]
    node = helper.make_node("Attention", ["input", "weights", "bias", "mask_index"], ["output"], domain=MS,
                            num_heads=heads)
    failures.append(run_case("attention_bert", node, [bert_inputs(2, 6), bert_inputs(1, 3)], bert, ["output"],
                             compiler, work, dynamic={"input": (0, 1), "mask_index": (0, 1)}))

    def gpt_inputs(b, s, p):
        return {"input": randn(b, s, d), "weights": weights, "bias": bias,
                "past": randn(2, b, heads, p, d // heads)}

    def gpt(input, weights, bias, past):
        q, k, v = projected(input)
        b, s, _ = input.shape
        mask = np.ones((b, past.shape[3] + s), np.int32)
        out, key, value = multi_head_attention(q, k, v, np.zeros(3 * d, np.float32), mask, past[0], past[1],
                                               heads=heads, causal=True)
        return [out, np.stack([key, value])]
    node = helper.make_node("Attention", ["input", "weights", "bias", "", "past"], ["output", "present"],
                            domain=MS, num_heads=heads, unidirectional=1)
    failures.append(run_case("attention_gpt2_past", node, [gpt_inputs(2, 4, 3), gpt_inputs(1, 1, 9)], gpt,
                             ["output", "present"], compiler, work,
                             dynamic={"input": (0, 1), "past": (1, 3)}))


def check_multi_head_attention(rng, randn, compiler, work, failures):
    """MultiHeadAttention as ORT's transformer optimizer writes a decoder's
    self-attention: Q, K and V projections before it, one packed bias, a
    key padding mask over past and new keys, a KV cache (BNSH) and causal
    masking; compiled once, run as a 2-batch prompt after a 3-token past and
    a 1-batch decode step after 7."""
    heads, d = 4, 32

    def inputs(b, s, p):
        mask = np.ones((b, p + s), np.int32)
        mask[0, :max(p - 1, 0)] = 0  # batch 0's oldest keys are padding
        return {"query": randn(b, s, d), "key": randn(b, s, d), "value": randn(b, s, d), "bias": randn(3 * d),
                "key_padding_mask": mask, "past_key": randn(b, heads, p, d // heads),
                "past_value": randn(b, heads, p, d // heads)}
    dims = {"query": (0, 1), "key": (0, 1), "value": (0, 1), "key_padding_mask": (0, 1), "past_key": (0, 2),
            "past_value": (0, 2)}
    node = helper.make_node("MultiHeadAttention", ["query", "key", "value", "bias", "key_padding_mask", "",
                                                   "past_key", "past_value"],
                            ["output", "present_key", "present_value"], domain=MS, num_heads=heads,
                            unidirectional=1)

    def reference(**kw):
        return multi_head_attention(**kw, heads=heads, causal=True)
    failures.append(run_case("multi_head_attention", node, [inputs(2, 5, 3), inputs(1, 1, 7)], reference,
                             ["output", "present_key", "present_value"], compiler, work, dynamic=dims))


def quantize_blocks(w, bits, block, with_zero_points=True):
    """w [K, N] as MatMulNBits stores it (round to nearest, per block of
    `block` along K): B uint8 [N, blocks, block bytes] (4-bit values low
    nibble first), scales [N x blocks], packed zero points or None; and the
    dequantized [K, N] weights."""
    k, n = w.shape
    blocks = -(-k // block)
    wt = np.zeros((n, blocks * block), np.float32)
    wt[:, :k] = w.T
    wt = wt.reshape(n, blocks, block)
    top = 2 ** bits - 1
    lo, hi = np.minimum(wt.min(-1), 0), np.maximum(wt.max(-1), 0)
    if with_zero_points:
        scale = np.maximum(hi - lo, 1e-6) / top
        zero = np.clip(np.round(-lo / scale), 0, top)
    else:
        scale = np.maximum(np.abs(lo), np.abs(hi)) / (2 ** (bits - 1) - 1)
        scale = np.maximum(scale, 1e-6)
        zero = np.full_like(scale, 2 ** (bits - 1))
    q = np.clip(np.round(wt / scale[..., None]) + zero[..., None], 0, top).astype(np.uint8)
    dequant = ((q - zero[..., None]) * scale[..., None]).reshape(n, -1)[:, :k].T.astype(np.float32)

    def pack(values):  # [..., m] 4-bit values -> [..., ceil(m / 2)] bytes
        if bits == 8:
            return values.astype(np.uint8)
        if values.shape[-1] % 2:
            values = np.concatenate([values, np.zeros(values.shape[:-1] + (1,), values.dtype)], -1)
        return (values[..., 0::2] | (values[..., 1::2] << 4)).astype(np.uint8)
    zero_points = pack(zero.astype(np.uint8)) if with_zero_points else None
    return pack(q), scale.reshape(-1).astype(np.float32), zero_points, dequant


def check_matmul_nbits(rng, randn, compiler, work, failures):
    """MatMulNBits as ORT's quantizer and ORT GenAI's model builder write it:
    4-bit blocks of 32 with packed zero points, 4-bit blocks of 16 without
    (K = 40, not a multiple) plus a bias, and 8-bit blocks of 32, with the
    weights as inputs (the expansion into onnx ops), then 4-bit weights as
    initializers (the packed kernel) in blocks of 16, 32 and 128."""
    # With constant weights, fused.matmul_nbits and its kernel run on 1, 3
    # and 70 rows (the decoding GEMV, the prompt's GEMM on dequantized
    # panels); K not a multiple of the block (a padded last block, an odd
    # number of blocks whose zero points leave a nibble unused), N not a
    # multiple of the kernel's column groups; the largest spread over the
    # pool. The "_generic" case runs the portable C kernel
    # (ONNXC_NBITS_KERNEL).
    weights_as_inputs = [(1, 5), (3, 2)]
    packed = [(1, 1), (1, 3), (2, 35)]
    for name, bits, block, k, n, with_zero, with_bias, sizes in (
            ("matmul_nbits_4bit", 4, 32, 64, 24, True, False, weights_as_inputs),
            ("matmul_nbits_4bit_symmetric_bias", 4, 16, 40, 24, False, True, weights_as_inputs),
            ("matmul_nbits_8bit", 8, 32, 64, 24, True, False, weights_as_inputs),
            ("matmul_nbits_packed_b32", 4, 32, 96, 37, True, False, packed),
            ("matmul_nbits_packed_b16_bias", 4, 16, 40, 37, False, True, packed),
            ("matmul_nbits_packed_b128_bias", 4, 128, 300, 37, True, True, packed),
            ("matmul_nbits_packed_b32_pool", 4, 32, 512, 640, True, True, packed),
            ("matmul_nbits_packed_b128_generic", 4, 128, 300, 37, True, True, packed)):
        b, scales, zero_points, dequant = quantize_blocks(randn(k, n), bits, block, with_zero)
        bias = randn(n)
        constants = [] if sizes is weights_as_inputs else \
            ["b", "scales"] + (["zero_points"] if with_zero else []) + (["bias"] if with_bias else [])

        def inputs(batch, s):
            d = {"a": randn(batch, s, k), "b": b, "scales": scales}
            if zero_points is not None:
                d["zero_points"] = zero_points
            if with_bias:
                d["bias"] = bias
            return d
        names = ["a", "b", "scales", "zero_points" if with_zero else ""]
        if with_bias:
            names += ["", "bias"]
        node = helper.make_node("MatMulNBits", names, ["y"], domain=MS, K=k, N=n, bits=bits, block_size=block)

        def reference(a, b, scales, zero_points=None, bias=None, dequant=dequant):
            return [(a.astype(np.float64) @ dequant + (bias if bias is not None else 0)).astype(np.float32)]
        if name.endswith("_generic"):
            os.environ["ONNXC_NBITS_KERNEL"] = "generic"
        failures.append(run_case(name, node, [inputs(*size) for size in sizes], reference, ["y"], compiler, work,
                                 dynamic={"a": (0, 1)}, constants=constants))
        os.environ.pop("ONNXC_NBITS_KERNEL", None)

def main():
    compiler, work = sys.argv[1], sys.argv[2]
    if not ORT:
        print("ONNX Runtime (node + onnxruntime-node, bench/setup.sh) not found: NumPy references only")
    rng = np.random.default_rng(11)

    def randn(*shape, dtype=np.float32):
        return rng.standard_normal(shape).astype(dtype)

    sizes = [(1, 5), (3, 2)]  # (batch, sequence)
    hidden = 16
    failures = []

    def check(name, node, make_inputs, reference, outputs, **kw):
        failures.append(run_case(name, node, [make_inputs(b, s) for b, s in sizes], reference, outputs,
                                 compiler, work, **kw))

    check("gelu", helper.make_node("Gelu", ["x"], ["y"], domain=MS),
          lambda b, s: {"x": randn(b, s, hidden) * 3}, lambda x: [gelu(x)], ["y"])
    check("bias_gelu", helper.make_node("BiasGelu", ["a", "bias"], ["y"], domain=MS),
          lambda b, s: {"a": randn(b, s, hidden), "bias": randn(hidden)},
          lambda a, bias: [gelu(a + bias)], ["y"])
    check("fast_gelu", helper.make_node("FastGelu", ["x", "bias"], ["y"], domain=MS),
          lambda b, s: {"x": randn(b, s, hidden), "bias": randn(hidden)},
          lambda x, bias: [gelu_tanh(x + bias)], ["y"])
    check("quick_gelu", helper.make_node("QuickGelu", ["x"], ["y"], domain=MS, alpha=1.5),
          lambda b, s: {"x": randn(b, s, hidden)},
          lambda x: [x / (1 + np.exp(-1.5 * x))], ["y"])

    def skip_inputs(b, s, dtype=np.float32, beta=True):
        d = {"input": randn(b, s, hidden, dtype=dtype), "skip": randn(b, s, hidden, dtype=dtype),
             "gamma": randn(hidden, dtype=dtype)}
        if beta:
            d["beta"] = randn(hidden, dtype=dtype)
        d["bias"] = randn(hidden, dtype=dtype)
        return d

    def skip_layer_norm(input, skip, gamma, bias, beta=None):
        total = input.astype(np.float32) + skip + bias
        y = layer_norm(total, 1e-5) * gamma + (beta if beta is not None else 0)
        return [y.astype(input.dtype), total.astype(input.dtype)]

    check("skip_layer_norm",
          helper.make_node("SkipLayerNormalization", ["input", "skip", "gamma", "beta", "bias"],
                           ["y", "", "", "sum"], domain=MS, epsilon=1e-5),
          skip_inputs, skip_layer_norm, ["y", "sum"])
    check("skip_layer_norm_fp16",
          helper.make_node("SkipLayerNormalization", ["input", "skip", "gamma", "beta", "bias"],
                           ["y", "", "", "sum"], domain=MS, epsilon=1e-5),
          lambda b, s: skip_inputs(b, s, np.float16), skip_layer_norm, ["y", "sum"], tol=2e-3)

    def skip_simplified(input, skip, gamma, bias):
        total = input + skip + bias
        return [(layer_norm(total, 1e-6, centered=False) * gamma).astype(input.dtype), total]
    check("skip_simplified_layer_norm",
          helper.make_node("SkipSimplifiedLayerNormalization", ["input", "skip", "gamma", "bias"],
                           ["y", "", "", "sum"], domain=MS, epsilon=1e-6),
          lambda b, s: skip_inputs(b, s, beta=False), skip_simplified, ["y", "sum"])
    check("simplified_layer_norm",
          helper.make_node("SimplifiedLayerNormalization", ["x", "scale"], ["y"], epsilon=1e-6, axis=-1),
          lambda b, s: {"x": randn(b, s, hidden), "scale": randn(hidden)},
          lambda x, scale: [(layer_norm(x, 1e-6, centered=False) * scale).astype(np.float32)], ["y"])

    check("fused_matmul",
          helper.make_node("FusedMatMul", ["a", "b"], ["y"], domain=MS, alpha=0.5, transA=1, transB=1),
          lambda b, s: {"a": randn(b, 7, s), "b": randn(b, 4, 7)},
          lambda a, b: [0.5 * np.swapaxes(a, -1, -2) @ np.swapaxes(b, -1, -2)], ["y"], dynamic=(0, 2))

    # Rotary embedding: 3-D input of 2 heads of 8 (num_heads from the
    # caches), position ids per token, halves rotated; and 4-D
    # [batch, heads, sequence, head] with an offset, interleaved pairs, the
    # first 4 of 8 channels rotated.
    max_pos = 32
    cos_cache, sin_cache = np.cos(randn(max_pos, 4)), np.sin(randn(max_pos, 4))

    def rope3(input, position_ids, cos_cache, sin_cache):
        b, s, _ = input.shape
        x = input.reshape(b, s, 2, 8)
        cos, sin = cos_cache[position_ids][:, :, None, :], sin_cache[position_ids][:, :, None, :]
        return [rotate(x, cos, sin, False).reshape(b, s, hidden)]
    check("rotary_embedding",
          helper.make_node("RotaryEmbedding", ["input", "position_ids", "cos_cache", "sin_cache"], ["y"],
                           domain=MS),
          lambda b, s: {"input": randn(b, s, hidden),
                        "position_ids": rng.integers(0, max_pos, (b, s)).astype(np.int64),
                        "cos_cache": cos_cache, "sin_cache": sin_cache},
          rope3, ["y"], dynamic=(0, 1))

    cos_part, sin_part = cos_cache[:, :2].copy(), sin_cache[:, :2].copy()

    def rope4(input, position_ids, cos_cache, sin_cache):
        s = input.shape[2]
        pos = position_ids[0] + np.arange(s)
        return [rotate(input, cos_cache[pos][None, None], sin_cache[pos][None, None], True)]
    check("rotary_embedding_offset_interleaved",
          helper.make_node("RotaryEmbedding", ["input", "position_ids", "cos_cache", "sin_cache"], ["y"],
                           domain=MS, interleaved=1, num_heads=2, rotary_embedding_dim=4),
          lambda b, s: {"input": randn(b, 2, s, 8), "position_ids": np.array([3 * s], np.int64),
                        "cos_cache": cos_part, "sin_cache": sin_part},
          rope4, ["y"], dynamic=(0, 2))

    # BERT's embeddings: word, position and segment tables, layer
    # normalization, and the mask's count of ones per row as mask_index.
    vocab, positions = 50, 16
    tables = {"word_embedding": randn(vocab, hidden), "position_embedding": randn(positions, hidden),
              "segment_embedding": randn(2, hidden), "gamma": randn(hidden), "beta": randn(hidden)}

    def embed_inputs(b, s):
        mask = np.ones((b, s), np.int32)
        mask[0, s - 1:] = 0
        return {"input_ids": rng.integers(0, vocab, (b, s)).astype(np.int32),
                "segment_ids": rng.integers(0, 2, (b, s)).astype(np.int32), **tables, "mask": mask}

    def embed(input_ids, segment_ids, word_embedding, position_embedding, segment_embedding, gamma, beta, mask):
        total = (word_embedding[input_ids] + position_embedding[np.arange(input_ids.shape[1])][None]
                 + segment_embedding[segment_ids])
        return [(layer_norm(total, 1e-12) * gamma + beta).astype(np.float32), mask.sum(1).astype(np.int32)]
    check("embed_layer_norm",
          helper.make_node("EmbedLayerNormalization", ["input_ids", "segment_ids", "word_embedding",
                                                       "position_embedding", "segment_embedding", "gamma",
                                                       "beta", "mask"], ["output", "mask_index"], domain=MS),
          embed_inputs, embed, ["output", "mask_index"], dynamic={"input_ids": (0, 1), "segment_ids": (0, 1),
                                                                  "mask": (0, 1)})

    check_group_query_attention(rng, randn, compiler, work, failures)
    check_multi_head_attention(rng, randn, compiler, work, failures)
    check_bert_attention(rng, randn, compiler, work, failures)
    check_matmul_nbits(rng, randn, compiler, work, failures)

    failures = [f for f in failures if f]
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
