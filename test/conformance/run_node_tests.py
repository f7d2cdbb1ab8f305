"""run_node_tests.py - run ONNX's backend node tests through onnx-compile and write a conformance report.

Each test is compiled to a host executable (with --server, to a shared library that a long-lived
server process per worker loads and runs the same way), run on every test_data_set_*, and its outputs are
compared with the references: shapes and dtypes must match, floats within rtol/atol (bfloat16
within one unit in the last place; NaNs must coincide), integers and bools exactly, the types that
onnx 1.12 cannot decode (float8, int4, float4e2m1, ...) code for code. A test ends at
the first stage that fails: compile, run or compare. Tests matched by skips.txt are counted as skipped. Tests of random ops (RANDOM_TESTS)
are checked on shape, dtype and the values the distribution allows, not on the reference's values.

The node tests are generated once from Debian's python3-onnx into CACHE/data (or read as ONNX
publishes them from --node-dir, e.g. ONNX 1.22's in ../shared/onnx-node-tests/1.22); compiled
executables are cached in CACHE/exe, keyed by the model bytes, the compiler and runtime files
(path, size, mtime) and the compile flags. The last line printed is `N passed, M failed, K skipped`.
Exit status: 0, or 1 when --fail-under N is given and fewer than N tests passed, or 2 on an
internal error (no compiler, the tests cannot be generated, bad arguments).
"""
import argparse
import collections
import concurrent.futures
import datetime
import glob
import hashlib
import json
import os
import re
import select
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_DIR = os.path.dirname(os.path.dirname(HERE))
STAGES = ("compile", "run", "compare")


class InternalError(Exception):
    """A failure of the runner itself rather than of a test."""


# onnx 1.12 still uses the aliases that numpy 1.24 removed.
np.float, np.int, np.bool, np.object = float, int, bool, object
import onnx  # noqa: E402
from onnx import numpy_helper  # noqa: E402


# --------------------------------------------------------------------------------------------
# Test data
# --------------------------------------------------------------------------------------------

def generate_data(data_dir):
    """Generate ONNX's backend test data into data_dir (through a temporary directory) unless present."""
    node_dir = os.path.join(data_dir, "node")
    if os.path.isdir(node_dir):
        return node_dir
    parent = os.path.dirname(os.path.abspath(data_dir))
    os.makedirs(parent, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".data-", dir=parent)
    print(f"generating ONNX {onnx.__version__} backend test data into {data_dir}", flush=True)
    code = ("import sys, numpy as np\n"
            "np.float = float; np.int = int; np.bool = bool; np.object = object\n"
            "from onnx.backend.test import cmd_tools\n"
            "sys.argv = ['cmd_tools', 'generate-data', '-o', sys.argv[1]]\n"
            "cmd_tools.main()\n")
    p = subprocess.run([sys.executable, "-c", code, tmp], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT)
    if p.returncode != 0 or not os.path.isdir(os.path.join(tmp, "node")):
        shutil.rmtree(tmp, ignore_errors=True)
        raise InternalError("cannot generate the node tests: "
                            + p.stdout.decode(errors="replace").strip()[-2000:])
    try:
        os.rename(tmp, data_dir)
    except OSError:  # generated concurrently by another run
        shutil.rmtree(tmp, ignore_errors=True)
    return node_dir


def read_list(path):
    """Lines of path without comments and blanks."""
    with open(path) as f:
        return [ln.split("#", 1)[0].strip() for ln in f if ln.split("#", 1)[0].strip()]


def read_skips(path):
    """[(compiled regex, reason)] from a skip list: `REGEX  reason` per line."""
    skips = []
    if not path:
        return skips
    for line in read_list(path):
        pattern, _, reason = line.partition(" ")
        skips.append((re.compile(pattern), reason.strip() or "skipped"))
    return skips


def skip_reason(name, skips):
    for pattern, reason in skips:
        if pattern.fullmatch(name):
            return reason
    return None


def sample(names, n):
    """A fixed subset of n names: the first n by a hash of the name, so it is stable as tests come and go."""
    return sorted(sorted(names, key=lambda s: hashlib.sha1(s.encode()).hexdigest())[:n])


# --------------------------------------------------------------------------------------------
# Running tools
# --------------------------------------------------------------------------------------------

def run_cmd(cmd, timeout, cwd=None):
    """Run cmd in its own process group; return (status, output) where status is an int exit code,
    'timeout' or 'exec-error'. On a timeout the whole group is killed (the compiler's linker too)."""
    try:
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL, cwd=cwd, start_new_session=True)
    except OSError as e:
        return "exec-error", f"cannot execute {cmd[0]}: {e}"
    try:
        out, _ = p.communicate(timeout=timeout)
        return p.returncode, out.decode(errors="replace")
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except OSError:
            pass
        out, _ = p.communicate()
        return "timeout", out.decode(errors="replace")


def first_error_line(output):
    """The tool's `error: ...` line, else its last non-empty line."""
    lines = [ln.strip() for ln in output.splitlines() if ln.strip()]
    for ln in lines:
        if ln.startswith("error:"):
            return ln
    return lines[-1] if lines else ""


def describe_failure(status, output, timeout):
    if status == "timeout":
        return f"timed out after {timeout:g} s"
    if status == "exec-error":
        return output
    if status < 0:
        try:
            sig = signal.Signals(-status).name
        except ValueError:
            sig = f"signal {-status}"
        line = first_error_line(output)
        return f"killed by {sig}" + (f": {line}" if line else "")
    line = first_error_line(output)
    return line or f"exit status {status} (no output)"


def clean_reason(text, replacements=(), limit=120):
    """One line, machine paths replaced, `error: ` dropped, at most ~120 characters."""
    for old, new in replacements:
        if old:
            text = text.replace(old, new)
    text = " ".join(text.split())
    if text.startswith("error: "):
        text = text[len("error: "):]
    if text.startswith("model.onnx: "):
        text = text[len("model.onnx: "):]
    return text if limit is None or len(text) <= limit else text[:limit - 3] + "..."


class Server:
    """A test server (NodeTestServer.c) of one runner worker: it loads each test's `--emit lib`
    library and runs it as the test's executable would, in one process for many tests, so that
    what a process sets up once (CUDA's driver and context) is not paid per test. Started on first
    use and again after it dies or times out (killed with its process group) and after `restart`
    loads (bounding what unloaded libraries leave behind: the nvptx runtime keeps its modules,
    streams and managed memory for the process). Its stderr goes to `log`, read back when it dies.
    """

    def __init__(self, cmd, log, restart):
        self.cmd, self.log, self.restart = cmd, log, restart
        self.proc, self.loads = None, 0

    def stop(self):
        if self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except OSError:
            pass
        self.proc.wait()
        for pipe in (self.proc.stdin, self.proc.stdout):
            try:
                pipe.close()
            except OSError:  # a command left unsent in the pipe to a dead server
                pass
        self.proc = None

    def _start(self):
        with open(self.log, "wb") as err:
            self.proc = subprocess.Popen(self.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err,
                                         start_new_session=True)
        self.loads = 0

    def request(self, fields, timeout):
        """Send one command; return (status, output) as run_cmd does: 0 for `ok`, 1 and the
        `error: ...` line for an error, the server's exit status (negative for a signal) and the
        end of its stderr when it died, 'timeout' (the server is then killed) or 'exec-error'."""
        if any("\t" in f or "\n" in f for f in fields):
            return "exec-error", "a path with a tab or a line break"
        if self.proc is None:
            try:
                self._start()
            except OSError as e:
                return "exec-error", f"cannot execute {self.cmd[0]}: {e}"
        start = os.path.getsize(self.log)
        deadline = time.time() + timeout
        out = b""
        try:
            self.proc.stdin.write(("\t".join(fields) + "\n").encode())
            self.proc.stdin.flush()
            fd = self.proc.stdout.fileno()
            while not out.endswith(b"\n"):
                left = deadline - time.time()
                if left <= 0 or not select.select([fd], [], [], left)[0]:
                    self.stop()
                    return "timeout", ""
                chunk = os.read(fd, 65536)
                if not chunk:
                    break
                out += chunk
        except OSError:  # BrokenPipeError: it died before reading the command
            pass
        if out.endswith(b"\n"):
            line = out.decode(errors="replace").strip()
            return (0, "") if line == "ok" else (1, line)
        # It died: its exit status and what it wrote on stderr meanwhile.
        try:
            status = self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            status = "timeout"
        with open(self.log, "rb") as f:
            f.seek(start)
            output = f.read()[-4000:].decode(errors="replace")
        self.stop()
        return (status if status != 0 else "exec-error",
                output or "the test server exited without a reply")

    def load(self, lib, symbol, timeout):
        if self.proc is not None and self.loads >= self.restart:
            self.stop()
        status, output = self.request(["load", lib, symbol], timeout)
        self.loads += 1
        return status, output


# The library's symbol prefix (its model is LIB_NAME_model).
LIB_NAME = "onnxc_test"

# One per runner worker process (run_test runs in a worker of a process pool).
SERVER = None


def worker_server(cfg):
    global SERVER
    if SERVER is None:
        log = os.path.join(cfg["work_dir"], f".server-{os.getpid()}.log")
        SERVER = Server(cfg["server"], log, cfg["server_restart"])
    return SERVER


# --------------------------------------------------------------------------------------------
# One test
# --------------------------------------------------------------------------------------------

def make_dynamic(model):
    """Make every dim of every tensor graph input a distinct dim_param (in<I>_d<J>)."""
    for i, inp in enumerate(model.graph.input):
        if inp.type.WhichOneof("value") != "tensor_type" or not inp.type.tensor_type.HasField("shape"):
            continue
        for j, dim in enumerate(inp.type.tensor_type.shape.dim):
            dim.Clear()
            dim.dim_param = f"in{i}_d{j}"
    return model


def file_signature(path):
    st = os.stat(path)
    return f"{os.path.realpath(path)}:{st.st_size}:{st.st_mtime_ns}"


def toolchain_signature(compiler):
    """The compiler and the runtime archives it links (they change the executable too)."""
    parts = [file_signature(compiler)]
    runtime = os.environ.get("ONNXC_RUNTIME_DIR") or os.path.join(
        os.path.dirname(os.path.dirname(os.path.realpath(compiler))), "lib", "onnxc")
    for root, _, files in sorted(os.walk(runtime)):
        for f in sorted(files):
            if f.endswith(".a"):
                parts.append(file_signature(os.path.join(root, f)))
    return "\n".join(parts)


def read_proto(path):
    t = onnx.TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    return t


def fix_bfloat16(t, elem_type):
    """onnx 1.12 writes bfloat16 test data as uint16 tensors of the same bits: relabel them.
    Return True if t was changed."""
    if elem_type == onnx.TensorProto.BFLOAT16 and t.data_type == onnx.TensorProto.UINT16:
        t.data_type = onnx.TensorProto.BFLOAT16
        return True
    return False


# Models of onnx 1.12 whose declared input shapes contradict their own test data, repaired from
# data set 0: the bfloat16 CastLike tests declare `like` (whose values CastLike never reads) with
# the input's shape [3, 4] while its data is [1].
SHAPE_DEFECTS = re.compile(r"test_castlike_(BFLOAT16_to_FLOAT|FLOAT_to_BFLOAT16)(_expanded)?")


def fix_declared_shapes(model, test_dir):
    """Set the declared shape of each graph input to the shape of its data in test_data_set_0."""
    ds = os.path.join(test_dir, "test_data_set_0")
    for i, inp in enumerate(model.graph.input):
        path = os.path.join(ds, f"input_{i}.pb")
        if not os.path.isfile(path) or not inp.type.HasField("tensor_type"):
            continue
        shape = inp.type.tensor_type.shape
        shape.Clear()
        for d in read_proto(path).dims:
            shape.dim.add().dim_value = d
    return model


def fmt_index(idx):
    return "[" + ",".join(str(int(i)) for i in idx) + "]"


# bfloat16 has 8 significant bits: its results are compared within one unit in the last place
# (onnx 1.12's references truncate float to bfloat16 where the spec and onnxc round to nearest even).
BFLOAT16_RTOL = 2.0 ** -7


# The element types of ONNX 1.14 on (float8, int4, uint4, float4e2m1, float8e8m0, uint2, int2):
# onnx 1.12 cannot decode them, so they are compared code for code. INT4, UINT4 and FLOAT4E2M1
# pack two codes a byte, UINT2 and INT2 four, the first in the low bits (in raw_data, or in
# int32_data one byte an entry); the others are one code a byte (or an int32_data entry).
CODED_TYPES = {17: 8, 18: 8, 19: 8, 20: 8, 21: 4, 22: 4, 23: 4, 24: 8, 25: 2, 26: 2}
CODED_TYPE_NAMES = {17: "float8e4m3fn", 18: "float8e4m3fnuz", 19: "float8e5m2", 20: "float8e5m2fnuz",
                    21: "uint4", 22: "int4", 23: "float4e2m1", 24: "float8e8m0", 25: "uint2",
                    26: "int2"}


def element_codes(t):
    """The codes of a TensorProto of a CODED_TYPES type, one per element, shaped as its dims."""
    bits = CODED_TYPES[t.data_type]
    count = int(np.prod(t.dims, dtype=np.int64))
    if t.HasField("raw_data"):
        data = np.frombuffer(t.raw_data, dtype=np.uint8)
    else:
        data = np.array(t.int32_data, dtype=np.int64).astype(np.uint8)
    if bits < 8:
        shifts = np.arange(0, 8, bits, dtype=np.uint8)
        data = ((data[:, None] >> shifts) & ((1 << bits) - 1)).reshape(-1)
    if data.size < count:
        raise ValueError(f"{data.size} codes for {count} elements")
    return data[:count].reshape(tuple(t.dims))


def type_name(data_type):
    if data_type in CODED_TYPE_NAMES:
        return CODED_TYPE_NAMES[data_type]
    return onnx.TensorProto.DataType.Name(data_type).lower()


# The proto a .pb file of a graph value holds, by the value's kind.
PROTO_OF_KIND = {"sequence_type": onnx.SequenceProto, "optional_type": onnx.OptionalProto,
                 "map_type": onnx.MapProto}


def value_kind(value_info):
    return value_info.type.WhichOneof("value") or "tensor_type"


def read_value(path, kind):
    """The TensorProto, SequenceProto, OptionalProto or MapProto (by `kind`) in `path`."""
    proto = PROTO_OF_KIND.get(kind, onnx.TensorProto)()
    with open(path, "rb") as f:
        proto.ParseFromString(f.read())
    return proto


def sequence_items(seq):
    if seq.elem_type == onnx.SequenceProto.MAP:
        return list(seq.map_values)
    if seq.elem_type in (onnx.SequenceProto.TENSOR, onnx.SequenceProto.UNDEFINED):
        return list(seq.tensor_values)
    raise ValueError(f"sequence of elem_type {seq.elem_type}")


def optional_value(opt):
    for field in ("tensor_value", "sequence_value", "map_value"):
        if opt.HasField(field):
            return getattr(opt, field)
    return None


def compare_values(ref, got, rtol, atol):
    """As compare_tensors for any value: tensors, sequences, optionals and maps, element by
    element."""
    if isinstance(ref, onnx.TensorProto):
        return compare_tensors(ref, got, rtol, atol)
    if isinstance(ref, onnx.SequenceProto):
        refs, gots = sequence_items(ref), sequence_items(got)
        if len(refs) != len(gots):
            return f"a sequence of {len(gots)}, expected {len(refs)}"
        for i, (r, g) in enumerate(zip(refs, gots)):
            msg = compare_values(r, g, rtol, atol)
            if msg:
                return f"element {i}: {msg}"
        return None
    if isinstance(ref, onnx.OptionalProto):
        r, g = optional_value(ref), optional_value(got)
        if (r is None) != (g is None):
            return "an empty optional, expected a value" if g is None else "a value, expected none"
        return None if r is None else compare_values(r, g, rtol, atol)
    # MapProto: the same keys in the same order, then the values.
    if (ref.key_type, list(ref.keys), list(ref.string_keys)) != \
            (got.key_type, list(got.keys), list(got.string_keys)):
        return "map keys differ"
    return compare_values(ref.values, got.values, rtol, atol)


def compare_tensors(ref_proto, got_proto, rtol, atol):
    """Return None if got matches ref (TensorProtos), else a one-line reason."""
    if ref_proto.data_type != got_proto.data_type:
        return f"dtype {type_name(got_proto.data_type)}, expected {type_name(ref_proto.data_type)}"
    if ref_proto.data_type == onnx.TensorProto.BFLOAT16:
        rtol = max(rtol, BFLOAT16_RTOL)
    if ref_proto.data_type in CODED_TYPES:
        ref, got = element_codes(ref_proto), element_codes(got_proto)
    else:
        ref, got = numpy_helper.to_array(ref_proto), numpy_helper.to_array(got_proto)
    if ref.shape != got.shape:
        return f"shape {list(got.shape)}, expected {list(ref.shape)}"
    if ref.size == 0:
        return None
    # onnx 1.15 and newer give bfloat16 as an ml_dtypes array, which numpy
    # does not count as floating: compare the values (NaN equal to NaN,
    # whatever its bits), as with onnx 1.12's float32 arrays.
    if ref.dtype.name == "bfloat16":
        ref, got = ref.astype(np.float32), got.astype(np.float32)
    if np.issubdtype(ref.dtype, np.floating) or np.issubdtype(ref.dtype, np.complexfloating):
        r = ref.astype(np.complex128 if np.iscomplexobj(ref) else np.float64)
        g = got.astype(r.dtype)
        ok = np.isclose(g, r, rtol=rtol, atol=atol, equal_nan=True)
        if ok.all():
            return None
        with np.errstate(invalid="ignore", over="ignore"):
            err = np.abs(g - r)
        err = np.where(ok, 0.0, np.nan_to_num(err, nan=np.inf, posinf=np.inf))
        at = np.unravel_index(int(np.argmax(err)), ref.shape)
        bad = int((~ok).sum())
        return (f"{bad} of {ref.size} differ, max abs err {err[at]:.3g} at {fmt_index(at)} "
                f"(got {g[at]:.6g}, expected {r[at]:.6g})")
    ok = got == ref
    if ok.all():
        return None
    bad = int((~ok).sum())
    at = tuple(int(i[0]) for i in np.nonzero(~ok))
    msg = f"{bad} of {ref.size} differ, first at {fmt_index(at)} (got {got[at]!r}, expected {ref[at]!r})"
    if np.issubdtype(ref.dtype, np.integer):
        diff = np.abs(got.astype(np.float64) - ref.astype(np.float64)).max()
        msg = f"max abs err {diff:.3g}; " + msg
    return msg


# Random ops: the reference draws are not reproducible, so these tests are checked on shape,
# dtype and the range of values the op may produce, given the test's inputs.

def check_bernoulli(inputs, ref, got):
    """Every draw is 0 or 1; probability 0 gives 0 and probability 1 gives 1."""
    p = inputs[0].astype(np.float64)
    if not np.isin(got, (0, 1)).all():
        return "values other than 0 and 1"
    if (got[p <= 0] != 0).any() or (got[p >= 1] != 1).any():
        return "a draw contradicts a probability of 0 or 1"
    return None


def check_training_dropout(inputs, ref, got, mask=None):
    """Each element is dropped (0) or kept and scaled by 1 / (1 - ratio); a mask says which."""
    x = inputs[0].astype(np.float64)
    ratio = float(inputs[1]) if len(inputs) > 1 else 0.5
    training = bool(inputs[2]) if len(inputs) > 2 else False
    scaled = x / (1.0 - ratio) if training else x
    g = got.astype(np.float64)
    kept = np.isclose(g, scaled, rtol=1e-5, atol=1e-6)
    if not (kept | (g == 0)).all():
        return "values that are neither 0 nor the scaled input"
    if not training and not kept.all():
        return "dropped elements outside training mode"
    if mask is not None:
        if mask.dtype != np.bool_ or mask.shape != x.shape:
            return "a mask that is not a boolean tensor of the input's shape"
        if not np.where(mask, kept, g == 0).all():
            return "the mask disagrees with the output"
    return None


# (whole-name regex, checker of output 0, checks output 1 as a mask)
RANDOM_TESTS = [
    (re.compile(r"test_bernoulli.*"), check_bernoulli, False),
    (re.compile(r"test_training_dropout.*_mask"), check_training_dropout, True),
    (re.compile(r"test_training_dropout.*"), check_training_dropout, False),
]


def random_checker(name):
    for pattern, checker, has_mask in RANDOM_TESTS:
        if pattern.fullmatch(name):
            return checker, has_mask
    return None


def compare_random(checker, has_mask, input_paths, ref_protos, got_protos):
    """Check a random op's outputs: shapes and dtypes as the references, values by `checker`."""
    for k, (ref, got) in enumerate(zip(ref_protos, got_protos)):
        if ref.data_type != got.data_type:
            return f"output_{k}: dtype {type_name(got.data_type)}, expected {type_name(ref.data_type)}"
        if list(ref.dims) != list(got.dims):
            return f"output_{k}: shape {list(got.dims)}, expected {list(ref.dims)}"
    inputs = [numpy_helper.to_array(read_proto(p)) for p in input_paths]
    gots = [numpy_helper.to_array(g) for g in got_protos]
    msg = (checker(inputs, None, gots[0], gots[1]) if has_mask and len(gots) > 1
           else checker(inputs, None, gots[0]))
    return f"output_0: {msg}" if msg else None


def run_test(name, cfg):
    """Compile, run and compare one node test; return its result record."""
    t0 = time.time()
    rec = {"name": name, "result": "pass", "reason": "", "cached": False}
    test_dir = os.path.join(cfg["node_dir"], name)
    work = os.path.join(cfg["work_dir"], name)
    model_path = os.path.join(test_dir, "model.onnx")
    reps = [(work + os.sep, ""), (test_dir + os.sep, ""), (cfg["exe_dir"] + os.sep, "")]

    stage_now = "compile"

    def fail(stage, reason):
        rec["result"], rec["reason"] = stage, clean_reason(reason, reps)
        rec["group"] = reason_group(stage, clean_reason(reason, reps, limit=None))
        rec["seconds"] = round(time.time() - t0, 2)
        return rec

    try:
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        with open(model_path, "rb") as f:
            model_bytes = f.read()
        model = onnx.load_from_string(model_bytes)

        def elem_types(values):
            return [v.type.tensor_type.elem_type if v.type.HasField("tensor_type") else 0 for v in values]

        in_types, out_types = elem_types(model.graph.input), elem_types(model.graph.output)
        in_kinds = [value_kind(v) for v in model.graph.input]
        out_kinds = [value_kind(v) for v in model.graph.output]
        if SHAPE_DEFECTS.fullmatch(name):
            model = fix_declared_shapes(model, test_dir)
            model_bytes = model.SerializeToString()
            model_path = os.path.join(work, "model.onnx")
            with open(model_path, "wb") as f:
                f.write(model_bytes)
        if cfg["dynamic"]:
            model = make_dynamic(model)
            model_bytes = model.SerializeToString()
            model_path = os.path.join(work, "model.onnx")
            with open(model_path, "wb") as f:
                f.write(model_bytes)

        # compile: an executable, or with a server a shared library (the .so of --emit lib)
        flags = list(cfg["compile_flags"])
        suffix = ""
        if cfg["server"]:
            flags += ["--emit", "lib", "--name", LIB_NAME]
            suffix = ".so"
        key = hashlib.sha256(model_bytes + b"\0" + cfg["toolchain"].encode() + b"\0"
                             + "\0".join(flags).encode()).hexdigest()[:32]
        exe = os.path.join(cfg["exe_dir"], key + suffix) if cfg["use_cache"] else os.path.join(work, "model" + suffix)
        error_file = exe + ".error"
        if cfg["use_cache"] and os.path.isfile(exe):
            rec["cached"] = True
        elif cfg["use_cache"] and os.path.isfile(error_file):
            rec["cached"] = True
            with open(error_file) as f:
                return fail("compile", f.read())
        else:
            tmp = exe + f".tmp{os.getpid()}"
            built = tmp
            if cfg["server"]:
                # --emit lib writes OUT.so, OUT.a, OUT.h and onnxc_runtime.h: in the test's scratch.
                os.makedirs(os.path.join(work, "lib"))
                tmp = os.path.join(work, "lib", "lib" + LIB_NAME)
                built = tmp + suffix
            cmd = [cfg["compiler"], model_path, "-o", tmp] + flags
            status, output = run_cmd(cmd, cfg["compile_timeout"], cwd=work)
            for leftover in (built + ".tmp-link",) if status == 0 else (built, built + ".tmp-link"):
                if os.path.exists(leftover):
                    os.remove(leftover)
            if status != 0:
                reason = describe_failure(status, output, cfg["compile_timeout"]).replace(tmp, "OUT")
                # Deterministic failures are cached too; timeouts and crashes are retried.
                if cfg["use_cache"] and isinstance(status, int) and status > 0:
                    with open(error_file + f".{os.getpid()}", "w") as f:
                        f.write(reason)
                    os.replace(error_file + f".{os.getpid()}", error_file)
                return fail("compile", reason)
            if not os.path.isfile(built):
                return fail("compile", "exit status 0 but no executable was written")
            os.replace(built, exe)

        # run and compare every data set
        stage_now = "run"
        data_sets = sorted((d for d in os.listdir(test_dir) if d.startswith("test_data_set_")),
                           key=lambda d: int(d.rsplit("_", 1)[1]))
        if not data_sets:
            return fail("run", "the test has no test_data_set_*")
        server = worker_server(cfg) if cfg["server"] else None
        if server:
            # The server unloads the previous test's library first.
            status, output = server.load(exe, LIB_NAME + "_model", cfg["run_timeout"])
            if status != 0:
                return fail("run", describe_failure(status, output, cfg["run_timeout"]))
        for ds in data_sets:
            ds_dir = os.path.join(test_dir, ds)
            files = os.listdir(ds_dir)

            def numbered(prefix):
                names = [f for f in files if re.fullmatch(prefix + r"_\d+\.pb", f)]
                return [os.path.join(ds_dir, f) for f in sorted(names, key=lambda f: int(f[len(prefix) + 1:-3]))]

            inputs, refs = numbered("input"), numbered("output")
            out_dir = os.path.join(work, ds)
            os.makedirs(out_dir)
            for i, path in enumerate(inputs):
                if i < len(in_kinds) and in_kinds[i] != "tensor_type":
                    continue
                t = read_proto(path)
                if i < len(in_types) and fix_bfloat16(t, in_types[i]):
                    inputs[i] = os.path.join(out_dir, f"input_{i}.bf16.pb")
                    with open(inputs[i], "wb") as f:
                        f.write(t.SerializeToString())
            where = f"{ds}: " if len(data_sets) > 1 else ""
            if server:
                status, output = server.request(["run", out_dir] + inputs, cfg["run_timeout"])
            else:
                status, output = run_cmd([exe, "--output-dir", out_dir] + inputs, cfg["run_timeout"], cwd=work)
            if status != 0:
                return fail("run", where + describe_failure(status, output, cfg["run_timeout"]))
            random_check = random_checker(name)
            ref_protos, got_protos = [], []
            for k, ref_path in enumerate(refs):
                got_path = os.path.join(out_dir, f"output_{k}.pb")
                if not os.path.isfile(got_path):
                    return fail("run", f"{where}output_{k}.pb was not written")
                kind = out_kinds[k] if k < len(out_kinds) else "tensor_type"
                if kind != "tensor_type":
                    try:
                        got = read_value(got_path, kind)
                    except Exception as e:  # noqa: BLE001 - a malformed output is a test failure
                        return fail("compare", f"{where}output_{k}: unreadable: {e}")
                    msg = compare_values(read_value(ref_path, kind), got, cfg["rtol"], cfg["atol"])
                    if msg:
                        return fail("compare", f"{where}output_{k}: {msg}")
                    continue
                try:
                    got = read_proto(got_path)
                    if got.data_type in CODED_TYPES:
                        element_codes(got)
                    else:
                        numpy_helper.to_array(got)
                except Exception as e:  # noqa: BLE001 - a malformed output is a test failure
                    return fail("compare", f"{where}output_{k}: unreadable: {e}")
                ref = read_proto(ref_path)
                if k < len(out_types):
                    fix_bfloat16(ref, out_types[k])
                if random_check:
                    ref_protos.append(ref)
                    got_protos.append(got)
                    continue
                msg = compare_tensors(ref, got, cfg["rtol"], cfg["atol"])
                if msg:
                    return fail("compare", f"{where}output_{k}: {msg}")
            if random_check:
                msg = compare_random(*random_check, inputs, ref_protos, got_protos)
                if msg:
                    return fail("compare", where + msg)
        if not cfg["keep"]:
            shutil.rmtree(work, ignore_errors=True)
    except Exception as e:  # noqa: BLE001 - never let one test end the run
        return fail(stage_now, f"runner error: {type(e).__name__}: {e}")
    rec["seconds"] = round(time.time() - t0, 2)
    return rec


# --------------------------------------------------------------------------------------------
# Reports
# --------------------------------------------------------------------------------------------

def reason_group(stage, reason):
    """The failure reason with test-specific details (node and value names, shapes, numbers) taken out."""
    r = re.sub(r"^test_data_set_\d+: ", "", reason)
    m = re.search(r"unknown or unsupported operator '([^']*)' in domain '([^']*)'", r)
    if m:
        return f"unknown operator {m.group(1)}" + (f" (domain {m.group(2)})" if m.group(2) != "ai.onnx" else "")
    r = re.sub(r"node '[^']*' \(([^)]*)\): ", r"\1: ", r)
    r = re.sub(r"node '[^']*': ", "", r)
    r = re.sub(r" at opset \d+", "", r)
    if stage == "compare":
        r = re.sub(r"^output_\d+: ", "", r)
        if " differ" in r:
            return "wrong values"
    r = re.sub(r"\b(input|output) (\d+ )?'[^']*'", r"\1", r)
    r = re.sub(r"tensor<\d[^>]*>", "tensor<...>", r)
    r = re.sub(r"\[[^\]]*\]", "[...]", r)
    r = re.sub(r"(?<![\w.-])\d+(\.\d+)?(e[-+]?\d+)?(?![\w-])", "N", r)
    return r


def git_commit(compiler):
    """The commit of the source tree the compiler was built from (this checkout), if any."""
    def git(*args):
        p = subprocess.run(["git", "--no-optional-locks", "-C", SOURCE_DIR] + list(args),
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        return p.stdout.decode().strip() if p.returncode == 0 else None

    commit = git("rev-parse", "--short=12", "HEAD")
    if not commit:
        return "unknown"
    if git("status", "--porcelain", "--untracked-files=no"):
        commit += " (with uncommitted changes)"
    return commit


def md_escape(s):
    return s.replace("|", "\\|").replace("\n", " ")


def write_report(path, meta, results):
    counts = meta["totals"]
    lines = [
        f"# ONNX backend node tests{' of ' + meta['suite'] if meta.get('suite') else ''}"
        f"{' (all inputs dynamic)' if meta['dynamic'] else ''}",
        "",
        "<!-- Generated by test/conformance/run_node_tests.py; do not edit. -->",
        "",
        "ONNX's backend node tests compiled with onnx-compile, run, and compared with the reference "
        "outputs. A failed test names the first stage that failed: compile, run or compare. "
        f"Regenerate with `cmake --build build --target {meta.get('target') or ('conformance-dynamic' if meta['dynamic'] else 'conformance')}`; "
        "skipped tests are listed in test/conformance/skips.txt.",
        "",
        f"- date: {meta['date']}",
        (f"- tests: {meta['suite']}, as published (`--node-dir`); onnx {meta['onnx_version']} (Debian's) reads "
         f"them, numpy {meta['numpy_version']}" if meta.get("suite") else
         f"- onnx: {meta['onnx_version']} (Debian's python3-onnx), numpy {meta['numpy_version']}"),
        f"- compiler commit: {meta['commit']}",
        f"- command: `{meta['command']}`",
        f"- tolerance: floats rtol {meta['rtol']:g}, atol {meta['atol']:g} (bfloat16 within one ulp; NaNs must coincide); "
        "integers and bools exact; shapes and dtypes must match",
        f"- wall time: {meta['wall_seconds']:.0f} s with -j {meta['jobs']}",
        "",
        f"**{counts['passed']} passed, {counts['failed']} failed, {counts['skipped']} skipped** "
        f"of {counts['total']} tests (failed: {counts['compile']} at compile, {counts['run']} at run, "
        f"{counts['compare']} at compare).",
        "",
    ]
    if meta["dynamic"]:
        lines += ["Every dim of every graph input was made a distinct `dim_param` before compiling; "
                  "the data sets are the static ones. Inputs that carry shapes (Reshape's `shape`, "
                  "Expand's, ConstantOfShape's) thereby have an unknown length too.", ""]
    groups = collections.Counter()
    examples = collections.defaultdict(list)
    for r in results:
        if r["result"] in STAGES:
            g = (r["result"], r.get("group") or reason_group(r["result"], r["reason"]))
            groups[g] += 1
            examples[g].append(r["name"])
    if groups:
        lines += ["## Failure reasons", "",
                  "| tests | stage | reason (details taken out) | e.g. |", "|---:|---|---|---|"]
        for (stage, reason), n in sorted(groups.items(), key=lambda kv: (-kv[1], kv[0])):
            ex = ", ".join(examples[(stage, reason)][:2])
            lines.append(f"| {n} | {stage} | {md_escape(reason)} | {ex} |")
        lines.append("")
    lines += ["## Tests", "", "| test | result | reason |", "|---|---|---|"]
    for r in results:
        lines.append(f"| {r['name']} | {r['result']} | {md_escape(r['reason'])} |")
    lines.append("")
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        f.write("\n".join(lines))


# --------------------------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------------------------

def run_all(names, cfg, jobs, verbose):
    """Run names on a process pool; a worker that dies is replaced and its tests rerun once."""
    results = {}
    pending = list(names)
    attempts = 0
    done = 0
    while pending and attempts < 2:
        attempts += 1
        with concurrent.futures.ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = {pool.submit(run_test, n, cfg): n for n in pending}
            try:
                for fut in concurrent.futures.as_completed(futures):
                    n = futures[fut]
                    try:
                        r = fut.result()
                    except concurrent.futures.process.BrokenProcessPool:
                        raise
                    except Exception as e:  # noqa: BLE001
                        r = {"name": n, "result": "run", "reason": f"runner error: {e}", "group": "runner error"}
                    results[n] = r
                    done += 1
                    if verbose or r["result"] != "pass":
                        print(f"[{done}/{len(names)}] {n}: {r['result']}"
                              + (f": {r['reason']}" if r["reason"] else ""), flush=True)
                    elif done % 50 == 0:
                        print(f"[{done}/{len(names)}]", flush=True)
            except concurrent.futures.process.BrokenProcessPool:
                print("warning: a runner worker died; rerunning its tests", flush=True)
        pending = [n for n in pending if n not in results]
    for n in pending:
        results[n] = {"name": n, "result": "run", "reason": "runner error: the worker process died",
                      "group": "runner error"}
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="\n".join(__doc__.split("\n")[1:]))
    ap.add_argument("--compiler", default=os.path.join(SOURCE_DIR, "build", "bin", "onnx-compile"),
                    help="onnx-compile to test (default: build/bin/onnx-compile)")
    ap.add_argument("--cache-dir", default=os.path.join(SOURCE_DIR, "build", "conformance"),
                    help="test data, executables and scratch (default: build/conformance)")
    ap.add_argument("--data-dir", help="generated backend test data (default: CACHE/data)")
    ap.add_argument("--suite", help="what the report calls the test set (e.g. 'ONNX 1.22.0')")
    ap.add_argument("--target", help="the build target that regenerates the report, named in it")
    ap.add_argument("--node-dir", help="a folder of node tests as ONNX publishes them (test_*/model.onnx and "
                                       "test_data_set_*), e.g. ../shared/onnx-node-tests/1.22; replaces --data-dir")
    ap.add_argument("--work-dir", help="scratch directory (default: CACHE/work[-dynamic])")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, help="parallel tests (default: nproc)")
    ap.add_argument("--filter", metavar="REGEX", help="only tests whose name matches REGEX (re.search)")
    ap.add_argument("--sample", type=int, metavar="N", help="only a fixed deterministic subset of N tests")
    ap.add_argument("--tests", metavar="FILE", help="only the tests named in FILE, one a line (# comments)")
    ap.add_argument("--skips", default=os.path.join(HERE, "skips.txt"),
                    help="skip list, `REGEX reason` per line (default: skips.txt beside this script)")
    ap.add_argument("--dynamic", action="store_true", help="make every graph input dim dynamic before compiling")
    ap.add_argument("--compile-arg", action="append", default=[], metavar="ARG",
                    help="extra onnx-compile argument, repeatable (write --compile-arg=-O0 for dashed values)")
    ap.add_argument("--compile-timeout", type=float, default=120, help="seconds per compile (default 120)")
    ap.add_argument("--run-timeout", type=float, default=60, help="seconds per data set run (default 60)")
    ap.add_argument("--server", metavar="CMD",
                    help="compile each test as a library (--emit lib) and run it in CMD, a long-lived test "
                         "server per worker (build/test/conformance/onnxc-node-test-server), instead of an "
                         "executable per test: what a process sets up once (CUDA) is paid once per worker")
    ap.add_argument("--server-restart", type=int, default=200, metavar="N",
                    help="start a fresh server after N libraries (default 200)")
    ap.add_argument("--rtol", type=float, default=1e-3, help="float relative tolerance (default 1e-3)")
    ap.add_argument("--atol", type=float, default=1e-5, help="float absolute tolerance (default 1e-5)")
    ap.add_argument("--no-cache", action="store_true", help="compile every test, ignoring the executable cache")
    ap.add_argument("--keep", action="store_true", help="keep each test's scratch directory")
    ap.add_argument("--report", default=os.path.join(SOURCE_DIR, "docs", "conformance.md"),
                    help="markdown report (default: docs/conformance.md)")
    ap.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    ap.add_argument("--fail-under", type=int, metavar="N", help="exit 1 if fewer than N tests pass")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every test, not just failures")
    args = ap.parse_args()

    t0 = time.time()
    compiler = os.path.abspath(args.compiler)
    if not os.access(compiler, os.X_OK):
        raise InternalError(f"no executable compiler at {compiler}")
    cache = os.path.abspath(args.cache_dir)
    if args.node_dir:
        node_dir = os.path.abspath(args.node_dir)
        if not os.path.isdir(node_dir):
            raise InternalError(f"no node test folder {node_dir}")
    else:
        node_dir = generate_data(os.path.abspath(args.data_dir or os.path.join(cache, "data")))
    names = sorted(d for d in os.listdir(node_dir)
                   if d.startswith("test_") and os.path.isfile(os.path.join(node_dir, d, "model.onnx")))
    if args.tests:
        wanted = read_list(args.tests)
        missing = sorted(set(wanted) - set(names))
        if missing:
            raise InternalError(f"{args.tests}: unknown tests: {' '.join(missing)}")
        names = sorted(set(wanted))
    if args.filter:
        names = [n for n in names if re.search(args.filter, n)]
    if args.sample is not None:
        names = sample(names, args.sample)

    skips = read_skips(args.skips)
    skipped = {n: skip_reason(n, skips) for n in names}
    skipped = {n: r for n, r in skipped.items() if r}
    to_run = [n for n in names if n not in skipped]

    exe_dir = os.path.join(cache, "exe")
    work_dir = os.path.abspath(args.work_dir or os.path.join(cache, "work-dynamic" if args.dynamic else "work"))
    os.makedirs(exe_dir, exist_ok=True)
    os.makedirs(work_dir, exist_ok=True)
    cfg = {
        "node_dir": node_dir, "work_dir": work_dir, "exe_dir": exe_dir, "compiler": compiler,
        "toolchain": toolchain_signature(compiler), "compile_flags": args.compile_arg,
        "use_cache": not args.no_cache, "dynamic": args.dynamic, "keep": args.keep,
        "compile_timeout": args.compile_timeout, "run_timeout": args.run_timeout,
        "rtol": args.rtol, "atol": args.atol,
        "server": shlex.split(args.server) if args.server else None, "server_restart": max(1, args.server_restart),
    }
    print(f"{len(names)} tests: running {len(to_run)}, skipping {len(skipped)}, -j {args.jobs}", flush=True)
    results = run_all(to_run, cfg, max(1, args.jobs), args.verbose)
    if not args.keep:
        for log in glob.glob(os.path.join(work_dir, ".server-*.log")):
            os.remove(log)
    for n, reason in skipped.items():
        results[n] = {"name": n, "result": "skipped", "reason": reason}
    ordered = [results[n] for n in sorted(results)]

    by = collections.Counter(r["result"] for r in ordered)
    failed = sum(by[s] for s in STAGES)
    totals = {"total": len(ordered), "passed": by["pass"], "failed": failed, "skipped": by["skipped"],
              **{s: by[s] for s in STAGES}}
    command = " ".join(shlex.quote(os.path.relpath(a, SOURCE_DIR) if os.path.isabs(a) and
                                   a.startswith(SOURCE_DIR + os.sep) else a)
                       for a in ["python3", os.path.relpath(os.path.abspath(sys.argv[0]), SOURCE_DIR)]
                       + sys.argv[1:])
    meta = {
        "date": datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z"),
        "onnx_version": onnx.__version__, "numpy_version": np.__version__,
        "suite": args.suite, "target": args.target,
        "commit": git_commit(compiler), "command": command, "dynamic": args.dynamic,
        "rtol": args.rtol, "atol": args.atol, "jobs": args.jobs,
        "wall_seconds": time.time() - t0, "totals": totals,
    }
    write_report(args.report, meta, ordered)
    if args.json:
        os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
        with open(args.json, "w") as f:
            json.dump({"meta": meta, "tests": ordered}, f, indent=1, sort_keys=True)
            f.write("\n")
    print(f"report: {args.report} ({meta['wall_seconds']:.0f} s)")
    below = args.fail_under is not None and totals["passed"] < args.fail_under
    if below:
        print(f"error: {totals['passed']} passed, fewer than --fail-under {args.fail_under}", flush=True)
    print(f"{totals['passed']} passed, {totals['failed']} failed, {totals['skipped']} skipped", flush=True)
    return 1 if below else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except InternalError as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(2)
    except Exception as e:  # noqa: BLE001 - report any other runner bug as an internal error
        import traceback
        traceback.print_exc()
        print(f"error: internal: {type(e).__name__}: {e}", file=sys.stderr)
        sys.exit(2)
