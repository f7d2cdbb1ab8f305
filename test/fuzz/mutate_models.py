"""mutate_models.py - structure-aware fuzzing of the whole pipeline: valid models, mutated.

Takes the seed corpus of make_seed_corpus.py (valid models), applies one to three mutations
that keep each model a parseable ModelProto but break it the way real and hostile models do,
and compiles every mutant with onnx-compile to an object file (import, shape inference, the
optimizer, lowering, LLVM codegen). Mutations:
  attribute  a value made 0, negative, huge or empty; its kind changed (INT <-> FLOAT,
             STRING, INTS...); the attribute dropped; one added that the op does not know
  dims       an input dim made 0, -1 (not valid ONNX), huge, or a dim_param; a dim added or
             dropped
  dtype      an input's, output's or initializer's element type changed (an initializer's
             bytes no longer fitting its type)
  inputs     a node input dropped, made "" (optional), renamed to an undefined value, or one
             added; a node output renamed
  order      the node list shuffled
  opset      the default domain's opset changed (1 to 30), or its import removed
  op         a node's op_type replaced by another op's
  tensor     an initializer's dims changed (its data no longer matching)
A mutant passes when onnx-compile exits 0 or 1 (a diagnostic) in time with nothing on stderr
but `error:`/`warning:` lines; it is a finding when it exits otherwise (3: an internal error
reported by the crash guard; a signal), takes longer than --timeout, prints a sanitizer
report (ASan, UBSan: run it with the tools of an ONNXC_SANITIZE build), or prints anything
else. Findings are written to --findings as NAME.onnx with NAME.txt (command, exit code,
stderr). The last line printed is `N passed, M failed` (M findings).

  mutate_models.py --compiler BIN/onnx-compile --seeds DIR --work DIR
                   [--count N | --seconds S] [--seed K] [-j J] [--findings DIR]
"""
import argparse
import concurrent.futures
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import onnx
from onnx import AttributeProto, TensorProto

OPS = ["Add", "Conv", "MatMul", "Gemm", "Relu", "Reshape", "Transpose", "Concat", "Slice",
       "Gather", "Resize", "MaxPool", "AveragePool", "Softmax", "Split", "Squeeze", "Unsqueeze",
       "Pad", "ReduceMean", "Cast", "If", "Loop", "Expand", "Where", "TopK", "LSTM",
       "BatchNormalization", "ConvTranspose", "Einsum", "NonMaxSuppression", "Range", "Tile",
       "DequantizeLinear", "QLinearConv", "ConstantOfShape", "CumSum", "ScatterND"]
DTYPES = [TensorProto.FLOAT, TensorProto.UINT8, TensorProto.INT8, TensorProto.INT32,
          TensorProto.INT64, TensorProto.BOOL, TensorProto.FLOAT16, TensorProto.DOUBLE,
          TensorProto.STRING, TensorProto.BFLOAT16, TensorProto.COMPLEX64, 0, 99]
INTS = [0, -1, 1, 2, 3, -7, 1 << 31, -(1 << 40), (1 << 62)]


def all_graphs(graph):
    yield graph
    for node in graph.node:
        for attr in node.attribute:
            if attr.type == AttributeProto.GRAPH:
                yield from all_graphs(attr.g)


def pick_node(rng, model):
    nodes = [n for g in all_graphs(model.graph) for n in g.node]
    return rng.choice(nodes) if nodes else None


def mutate_attribute(rng, model):
    node = pick_node(rng, model)
    if node is None:
        return False
    if not node.attribute or rng.random() < 0.15:
        attr = node.attribute.add()
        attr.name = rng.choice(["axis", "mode", "strides", "pads", "kernel_shape", "to",
                                "perm", "unknown_attr"])
        attr.type = AttributeProto.INT
        attr.i = rng.choice(INTS)
        return True
    attr = rng.choice(node.attribute)
    choice = rng.randrange(4)
    if choice == 0:
        node.attribute.remove(attr)
    elif choice == 1:  # another kind, the value left where it was
        kinds = [AttributeProto.INT, AttributeProto.FLOAT, AttributeProto.STRING,
                 AttributeProto.INTS, AttributeProto.FLOATS, AttributeProto.TENSOR,
                 AttributeProto.GRAPH, AttributeProto.STRINGS]
        attr.type = rng.choice(kinds)
    elif attr.type == AttributeProto.INT:
        attr.i = rng.choice(INTS)
    elif attr.type == AttributeProto.INTS:
        values = list(attr.ints)
        if values and rng.random() < 0.7:
            values[rng.randrange(len(values))] = rng.choice(INTS)
        else:
            values = values[:rng.randrange(len(values) + 1)] if values else [rng.choice(INTS)]
        del attr.ints[:]
        attr.ints.extend(values)
    elif attr.type == AttributeProto.FLOAT:
        attr.f = rng.choice([0.0, -1.0, float("inf"), float("nan"), 1e30])
    elif attr.type == AttributeProto.STRING:
        attr.s = rng.choice([b"", b"bogus", b"NOTSET", b"linear", b"\xff\xfe"])
    else:
        node.attribute.remove(attr)
    return True


def value_infos(model):
    return list(model.graph.input) + list(model.graph.output)


def mutate_dims(rng, model):
    infos = [v for v in value_infos(model) if v.type.tensor_type.HasField("shape")]
    if not infos:
        return False
    shape = rng.choice(infos).type.tensor_type.shape
    choice = rng.randrange(4)
    if choice == 0 or not shape.dim:
        shape.dim.add().dim_value = rng.choice([0, 1, 3])
    elif choice == 1:
        del shape.dim[rng.randrange(len(shape.dim))]
    elif choice == 2:
        shape.dim[rng.randrange(len(shape.dim))].dim_value = rng.choice(
            [0, -1, -5, 1 << 40, (1 << 63) - 1])
    else:
        shape.dim[rng.randrange(len(shape.dim))].dim_param = rng.choice(["N", "", "p2o.D.0"])
    return True


def mutate_dtype(rng, model):
    targets = [v.type.tensor_type for v in value_infos(model)] + list(model.graph.initializer)
    if not targets:
        return False
    target = rng.choice(targets)
    if isinstance(target, TensorProto):
        target.data_type = rng.choice(DTYPES)
    else:
        target.elem_type = rng.choice(DTYPES)
    return True


def mutate_inputs(rng, model):
    node = pick_node(rng, model)
    if node is None:
        return False
    choice = rng.randrange(5)
    if choice == 0 and node.input:
        del node.input[rng.randrange(len(node.input))]
    elif choice == 1 and node.input:
        node.input[rng.randrange(len(node.input))] = ""
    elif choice == 2 and node.input:
        node.input[rng.randrange(len(node.input))] = "undefined_value"
    elif choice == 3:
        names = [v.name for v in model.graph.input] + [i.name for i in model.graph.initializer]
        node.input.append(rng.choice(names) if names else "")
    elif node.output:
        node.output[rng.randrange(len(node.output))] = rng.choice(["", "renamed_output"])
    return True


def mutate_order(rng, model):
    graph = rng.choice(list(all_graphs(model.graph)))
    nodes = list(graph.node)
    rng.shuffle(nodes)
    del graph.node[:]
    graph.node.extend(nodes)
    return True


def mutate_opset(rng, model):
    for entry in model.opset_import:
        if entry.domain in ("", "ai.onnx"):
            if rng.random() < 0.1:
                model.opset_import.remove(entry)
            else:
                entry.version = rng.randint(1, 30)
            return True
    return False


def mutate_op(rng, model):
    node = pick_node(rng, model)
    if node is None:
        return False
    node.op_type = rng.choice(OPS)
    return True


def mutate_tensor(rng, model):
    inits = list(model.graph.initializer)
    if not inits:
        return False
    init = rng.choice(inits)
    dims = list(init.dims)
    choice = rng.randrange(3)
    if choice == 0 and dims:
        dims[rng.randrange(len(dims))] = rng.choice([0, 1, 7, -1, 1 << 40])
    elif choice == 1:
        dims.append(rng.choice([1, 2]))
    elif dims:
        dims.pop()
    del init.dims[:]
    init.dims.extend(dims)
    return True


MUTATIONS = {"attribute": mutate_attribute, "dims": mutate_dims, "dtype": mutate_dtype,
             "inputs": mutate_inputs, "order": mutate_order, "opset": mutate_opset,
             "op": mutate_op, "tensor": mutate_tensor}


def mutant(rng, seed_bytes):
    """A mutated copy of a seed and the names of the mutations applied."""
    model = onnx.ModelProto()
    model.ParseFromString(seed_bytes)
    applied = []
    for _ in range(rng.randint(1, 3)):
        name = rng.choice(sorted(MUTATIONS))
        if MUTATIONS[name](rng, model):
            applied.append(name)
    return model.SerializeToString(), applied


def is_finding(proc_rc, stderr):
    """Why a compile's outcome is a finding, or None."""
    if proc_rc is None:
        return "timeout"
    if proc_rc < 0:
        return f"signal {-proc_rc}"
    if proc_rc not in (0, 1):
        return f"exit code {proc_rc}"
    for marker in ("AddressSanitizer", "UndefinedBehaviorSanitizer", "runtime error:",
                   "LeakSanitizer", "LLVM ERROR", "Assertion", "PLEASE submit"):
        if marker in stderr:
            return f"'{marker}' on stderr"
    stray = [line for line in stderr.splitlines()
             if line and not line.startswith(("error: ", "warning: "))]
    if stray:
        return f"stray output: {stray[0][:200]}"
    return None


def run_one(args, index, seed_name, data, applied):
    """Compiles one mutant: (finding or None, whether it compiled)."""
    work = tempfile.mkdtemp(prefix=f"m{index}-", dir=args.work)
    model = os.path.join(work, "m.onnx")
    with open(model, "wb") as f:
        f.write(data)
    cmd = [args.compiler, model, "-o", os.path.join(work, "m.o"), "--emit", "obj"]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace",
                              timeout=args.timeout)
        rc, stderr = proc.returncode, proc.stderr
    except subprocess.TimeoutExpired as e:
        rc, stderr = None, (e.stderr or b"").decode(errors="replace")
    why = is_finding(rc, stderr)
    if why:
        os.makedirs(args.findings, exist_ok=True)
        name = f"finding-{args.seed}-{index}"
        shutil.copy(model, os.path.join(args.findings, name + ".onnx"))
        with open(os.path.join(args.findings, name + ".txt"), "w") as f:
            f.write(f"seed model: {seed_name}\nmutations: {' '.join(applied)}\n"
                    f"finding: {why}\ncommand: {' '.join(cmd)}\nexit code: {rc}\n"
                    f"stderr:\n{stderr}")
    shutil.rmtree(work, ignore_errors=True)
    return why, rc == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--seeds", required=True, nargs="+",
                    help="directories of valid models (*.onnx, at any depth)")
    ap.add_argument("--work", required=True, help="scratch directory")
    ap.add_argument("--findings", help="where findings go (default WORK/findings)")
    ap.add_argument("--count", type=int, default=0, help="mutants to try (0: until --seconds)")
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=60, help="seconds per compile")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()
    args.findings = args.findings or os.path.join(args.work, "findings")
    os.makedirs(args.work, exist_ok=True)
    seeds = []
    paths = sorted(os.path.join(root, name) for top in args.seeds
                   for root, _, names in os.walk(top) for name in names
                   if name.endswith(".onnx"))
    for path in paths:
        name = os.path.relpath(path, os.path.commonpath(args.seeds))
        with open(path, "rb") as f:
            data = f.read()
        try:
            onnx.ModelProto().ParseFromString(data)
        except Exception:  # a deliberately bad seed: mutate only the valid ones
            continue
        seeds.append((name, data))
    if not seeds:
        print(f"no valid seed models in {args.seeds}")
        return 2
    rng = random.Random(args.seed)
    deadline = time.monotonic() + args.seconds
    lock = threading.Lock()
    counts = {"tried": 0, "findings": 0, "compiled": 0}
    by_mutation = {}

    def work(index):
        with lock:
            seed_name, data = rng.choice(seeds)
            data, applied = mutant(rng, data)
        why, compiled = run_one(args, index, seed_name, data, applied)
        with lock:
            counts["tried"] += 1
            counts["compiled"] += compiled
            if why:
                counts["findings"] += 1
                key = f"{why.split(':')[0]} after {'+'.join(applied)}"
                by_mutation[key] = by_mutation.get(key, 0) + 1
                print(f"finding {index}: {why} ({seed_name}; {' '.join(applied)})", flush=True)

    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        index = 0
        pending = set()
        while (args.count and index < args.count) or (not args.count and
                                                      time.monotonic() < deadline):
            pending.add(pool.submit(work, index))
            index += 1
            if len(pending) >= 2 * args.jobs:
                done, pending = concurrent.futures.wait(
                    pending, return_when=concurrent.futures.FIRST_COMPLETED)
        concurrent.futures.wait(pending)
    for key, n in sorted(by_mutation.items()):
        print(f"  {n} x {key}")
    print(f"{counts['tried']} mutants of {len(seeds)} seeds, seed {args.seed}: "
          f"{counts['compiled']} compiled to the end, the others refused with a diagnostic; "
          f"findings in {args.findings}")
    print(f"{counts['tried'] - counts['findings']} passed, {counts['findings']} failed")
    return 1 if counts["findings"] else 0


if __name__ == "__main__":
    sys.exit(main())
