#!/usr/bin/env python3
"""check_pipeline.py COMPILER WORK - a scikit-learn pipeline with ZipMap output through onnxc.

Trains, on synthetic data with missing values (fixed seed), the pipeline that
skl2onnx writes for mixed columns: a ColumnTransformer of SimpleImputer +
StandardScaler over 4 numeric columns and OneHotEncoder over one integer
category column, then a 3-class LogisticRegression. Our converter writes it
in skl2onnx's layout (two inputs, Imputer -> Scaler, OneHotEncoder ->
Flatten, Concat, LinearClassifier with SOFTMAX, then ZipMap over the
probabilities: outputs `output_label` and `output_probability`, a sequence
of maps from class label to probability). The model is compiled twice:
  - as an executable, whose output_probability is a .pb SequenceProto of
    MapProtos, read with onnx;
  - as a library (--emit lib), run by pipeline_c_api.c through the C API,
    which reads the maps with onnxc_sequence_at / onnxc_map_keys / _values;
and both must give scikit-learn's predict (every label) and predict_proba
(every map's keys the classes, values within 1e-5). Where ONNX Runtime is
installed (bench/ort_run.js), the same graph with the probabilities as a
tensor output (onnxruntime-node returns no sequence of maps) must match it
too. Then scikit-learn's DictVectorizer before a LogisticRegression, as
DictVectorizer and LinearClassifier: one map(string, float) an input (a .pb
MapProto, one run a row) and a sequence of maps (the rows of one run),
against predict and predict_proba (onnxruntime-node takes no map inputs).
Exit status 0 when all match.
"""
import os
import shlex
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from sklearn.compose import ColumnTransformer
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler

HERE = os.path.dirname(os.path.abspath(__file__))
ORT_RUN = os.path.join(os.path.dirname(os.path.dirname(HERE)), "bench", "ort_run.js")
ORT = os.path.exists(ORT_RUN) and subprocess.run(["node", ORT_RUN, "--version"],
                                                 capture_output=True).returncode == 0


def synthetic(rng, rows):
    """4 numeric columns (10% missing) and a category in {0, 1, 2}; 3 classes."""
    num = rng.standard_normal((rows, 4)).astype(np.float32)
    cat = rng.integers(0, 3, (rows, 1)).astype(np.int64)
    score = num[:, 0] + 0.8 * num[:, 1] * num[:, 2] + 0.7 * (cat[:, 0] - 1) + 0.3 * rng.standard_normal(rows)
    y = np.digitize(score, [-0.6, 0.6]).astype(np.int64)
    num[rng.random(num.shape) < 0.1] = np.nan
    return num, cat, y


def to_onnx(pipe, zipmap):
    """The fitted pipeline as skl2onnx lays it out; ZipMap on the probabilities when `zipmap`."""
    prep, lr = pipe.named_steps["prep"], pipe.named_steps["clf"]
    imputer, scaler = prep.named_transformers_["num"].steps[0][1], prep.named_transformers_["num"].steps[1][1]
    onehot = prep.named_transformers_["cat"]
    classes = [int(c) for c in lr.classes_]
    nodes = [
        helper.make_node("Imputer", ["num"], ["num_imputed"], domain="ai.onnx.ml",
                         imputed_value_floats=list(map(float, imputer.statistics_)),
                         replaced_value_float=float("nan")),
        helper.make_node("Scaler", ["num_imputed"], ["num_scaled"], domain="ai.onnx.ml",
                         offset=list(map(float, scaler.mean_)), scale=list(map(float, 1 / scaler.scale_))),
        helper.make_node("OneHotEncoder", ["cat"], ["cat_onehot3"], domain="ai.onnx.ml",
                         cats_int64s=[int(c) for c in onehot.categories_[0]], zeros=1),
        helper.make_node("Flatten", ["cat_onehot3"], ["cat_onehot"], axis=1),
        helper.make_node("Concat", ["num_scaled", "cat_onehot"], ["features"], axis=1),
        helper.make_node("LinearClassifier", ["features"], ["output_label", "probabilities"],
                         domain="ai.onnx.ml", coefficients=list(map(float, lr.coef_.ravel())),
                         intercepts=list(map(float, lr.intercept_)), classlabels_ints=classes,
                         post_transform="SOFTMAX", multi_class=0),
    ]
    outputs = [helper.make_tensor_value_info("output_label", TensorProto.INT64, ["N"])]
    if zipmap:
        nodes.append(helper.make_node("ZipMap", ["probabilities"], ["output_probability"], domain="ai.onnx.ml",
                                      classlabels_int64s=classes))
        maps = onnx.TypeProto()
        maps.sequence_type.elem_type.map_type.key_type = TensorProto.INT64
        maps.sequence_type.elem_type.map_type.value_type.tensor_type.elem_type = TensorProto.FLOAT
        outputs.append(helper.make_value_info("output_probability", maps))
    else:
        outputs.append(helper.make_tensor_value_info("probabilities", TensorProto.FLOAT, ["N", len(classes)]))
    graph = helper.make_graph(
        nodes, "pipeline", [helper.make_tensor_value_info("num", TensorProto.FLOAT, ["N", 4]),
                            helper.make_tensor_value_info("cat", TensorProto.INT64, ["N", 1])], outputs)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("ai.onnx.ml", 1),
                                                   helper.make_opsetid("", 17)])


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError(f"{' '.join(cmd)} failed: {r.stderr.strip()[-500:]}")
    return r.stdout


def compare(where, labels, maps, classes, want_labels, want_proba):
    """None when `labels` and the maps (lists of (key, value) pairs) match scikit-learn."""
    if len(labels) != len(want_labels) or len(maps) != len(want_labels):
        return f"{where}: {len(labels)} labels and {len(maps)} maps for {len(want_labels)} rows"
    wrong = int((np.asarray(labels) != want_labels).sum())
    if any([k for k, _ in m] != classes for m in maps):
        return f"{where}: a map's keys are not the classes {classes}"
    proba = np.array([[v for _, v in m] for m in maps], np.float64)
    err = float(np.abs(proba - want_proba).max())
    print(f"{where}: {len(maps)} rows, {wrong} labels differ, max probability error {err:.2g}")
    return None if wrong == 0 and err <= 1e-5 else f"{where}: {wrong} labels differ, probability error {err:.3g}"


def map_proto(row, name="X"):
    """A MapProto of string keys to scalar float tensors (onnx 1.12's from_dict takes no string keys)."""
    m = onnx.MapProto()
    m.name = name
    m.key_type = TensorProto.STRING
    m.string_keys.extend(k.encode() for k in row)
    m.values.elem_type = onnx.SequenceProto.TENSOR
    m.values.tensor_values.extend(numpy_helper.from_array(np.array(v, np.float32)) for v in row.values())
    return m


def dict_vectorizer_model(vectorizer, lr, sequence):
    """DictVectorizer (string_vocabulary) then LinearClassifier, as skl2onnx writes a DictVectorizer
    pipeline; input one map(string, float), or, when `sequence`, a sequence of them (a row each)."""
    x = onnx.TypeProto()
    m = x.sequence_type.elem_type.map_type if sequence else x.map_type
    m.key_type = TensorProto.STRING
    m.value_type.tensor_type.elem_type = TensorProto.FLOAT
    rows = "N" if sequence else 1
    nodes = [helper.make_node("DictVectorizer", ["X"], ["features"], domain="ai.onnx.ml",
                              string_vocabulary=list(vectorizer.feature_names_)),
             helper.make_node("LinearClassifier", ["features"], ["label", "probabilities"], domain="ai.onnx.ml",
                              coefficients=list(map(float, lr.coef_.ravel())),
                              intercepts=list(map(float, lr.intercept_)),
                              classlabels_ints=[int(c) for c in lr.classes_], post_transform="SOFTMAX")]
    graph = helper.make_graph(
        nodes, "dict_vectorizer", [helper.make_value_info("X", x)],
        [helper.make_tensor_value_info("label", TensorProto.INT64, [rows]),
         helper.make_tensor_value_info("probabilities", TensorProto.FLOAT, [rows, len(lr.classes_)])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("ai.onnx.ml", 1),
                                                   helper.make_opsetid("", 17)])


def check_dict_vectorizer(compiler, work, rng):
    """scikit-learn's DictVectorizer (rows as dicts of a varying subset of 6 features) and a
    3-class LogisticRegression: one map an input (5 rows, one run each) and a sequence of maps
    (all rows in one run), against predict and predict_proba."""
    from sklearn.feature_extraction import DictVectorizer
    names = ["age", "height", "income", "score", "visits", "weight"]

    def rows(n):
        out = []
        for _ in range(n):
            keep = [k for k in names if rng.random() < 0.7]
            out.append({k: float(np.float32(rng.standard_normal())) for k in keep})
        return out
    train, test = rows(400), rows(97)
    vectorizer = DictVectorizer(sparse=False).fit(train)
    z = vectorizer.transform(train)
    y = np.digitize(z[:, 0] - z[:, 2] + 0.5 * z[:, 4], [-0.5, 0.5])
    lr = LogisticRegression(max_iter=1000).fit(z, y)
    want_labels = lr.predict(vectorizer.transform(test))
    want_proba = lr.predict_proba(vectorizer.transform(test))
    classes = [int(c) for c in lr.classes_]
    d = os.path.join(work, "dict_vectorizer")
    os.makedirs(d, exist_ok=True)
    failures = []
    for sequence in (False, True):
        kind = "sequence" if sequence else "map"
        path = os.path.join(d, f"{kind}.onnx")
        onnx.save(dict_vectorizer_model(vectorizer, lr, sequence), path)
        exe = os.path.join(d, kind)
        run([compiler, path, "-o", exe])
        batches = [test] if sequence else [[row] for row in test[:5]]
        labels, maps = [], []
        for b, batch in enumerate(batches):
            inp = os.path.join(d, f"{kind}_{b}.pb")
            if sequence:
                proto = onnx.SequenceProto()
                proto.name, proto.elem_type = "X", onnx.SequenceProto.MAP
                proto.map_values.extend(map_proto(row) for row in batch)
            else:
                proto = map_proto(batch[0])
            with open(inp, "wb") as f:
                f.write(proto.SerializeToString())
            out = os.path.join(d, f"{kind}_{b}_out")
            run([exe, "--output-dir", out, inp])
            labels += numpy_helper.to_array(onnx.load_tensor(os.path.join(out, "output_0.pb"))).tolist()
            proba = numpy_helper.to_array(onnx.load_tensor(os.path.join(out, "output_1.pb")))
            maps += [list(zip(classes, row.astype(np.float64))) for row in proba]
        n = len(labels)
        failures.append(compare(f"DictVectorizer ({kind} input)", labels, maps, classes, want_labels[:n],
                                want_proba[:n]))
    return failures


def main():
    compiler, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    rng = np.random.default_rng(11)
    num, cat, y = synthetic(rng, 500)
    pipe = Pipeline([
        ("prep", ColumnTransformer([
            ("num", Pipeline([("impute", SimpleImputer()), ("scale", StandardScaler())]), [0, 1, 2, 3]),
            ("cat", OneHotEncoder(), [4])])),
        ("clf", LogisticRegression(max_iter=1000)),
    ]).fit(np.hstack([num, cat.astype(np.float32)]), y)
    num_test, cat_test, _ = synthetic(rng, 203)
    x_test = np.hstack([num_test, cat_test.astype(np.float32)])
    want_labels, want_proba = pipe.predict(x_test), pipe.predict_proba(x_test)
    classes = [int(c) for c in pipe.classes_]

    model_path = os.path.join(work, "pipeline.onnx")
    onnx.save(to_onnx(pipe, zipmap=True), model_path)
    inputs = [os.path.join(work, "num.pb"), os.path.join(work, "cat.pb")]
    for path, array, name in zip(inputs, (num_test, cat_test), ("num", "cat")):
        with open(path, "wb") as f:
            f.write(numpy_helper.from_array(array, name).SerializeToString())
    failures = []

    # The executable: output_probability is a SequenceProto of MapProtos.
    exe, out = os.path.join(work, "pipeline"), os.path.join(work, "out")
    run([compiler, model_path, "-o", exe])
    run([exe, "--output-dir", out] + inputs)
    labels = numpy_helper.to_array(onnx.load_tensor(os.path.join(out, "output_0.pb")))
    seq = onnx.SequenceProto()
    with open(os.path.join(out, "output_1.pb"), "rb") as f:
        seq.ParseFromString(f.read())
    maps = [list(zip(m.keys, (float(numpy_helper.to_array(t)) for t in m.values.tensor_values)))
            for m in seq.map_values]
    failures.append(compare("executable", labels, maps, classes, want_labels, want_proba))

    # The C API: the library run by pipeline_c_api.c, maps read with the accessors.
    run([compiler, model_path, "-o", os.path.join(work, "libpipeline"), "--emit", "lib"])
    driver = os.path.join(work, "pipeline_c_api")
    cc = shlex.split(os.environ.get("CC", "cc")) + shlex.split(os.environ.get("LDFLAGS", ""))
    run(cc + ["-std=c11", "-Wall", "-Wextra", "-Werror", "-I", work, '-DMODEL_HEADER="libpipeline.h"',
              "-DMODEL=pipeline_model", os.path.join(HERE, "pipeline_c_api.c"),
              os.path.join(work, "libpipeline.a"), "-lm", "-lpthread", "-o", driver])
    lines = run([driver] + inputs).splitlines()
    head = lines[0].split()
    c_labels = [int(v) for v in lines[1].split()] if head[:2] == ["tensor", "output_label"] else []
    c_maps = []
    if len(lines) > 2 and lines[2].split()[:2] == ["maps", "output_probability"]:
        for line in lines[3:]:
            fields = line.split()
            c_maps.append([(int(fields[i]), float(fields[i + 1])) for i in range(0, len(fields), 2)])
    failures.append(compare("C API", c_labels, c_maps, classes, want_labels, want_proba))

    # ONNX Runtime, on the graph with a tensor of probabilities.
    if ORT:
        tensor_path = os.path.join(work, "pipeline_tensor.onnx")
        onnx.save(to_onnx(pipe, zipmap=False), tensor_path)
        ort_out = os.path.join(work, "ort")
        run(["node", ORT_RUN, tensor_path, "--output-dir", ort_out] + inputs)
        ort_labels = numpy_helper.to_array(onnx.load_tensor(os.path.join(ort_out, "output_0.pb")))
        ort_proba = numpy_helper.to_array(onnx.load_tensor(os.path.join(ort_out, "output_1.pb")))
        failures.append(compare("ONNX Runtime vs onnxc", ort_labels,
                                [list(zip(classes, row)) for row in ort_proba.astype(np.float64)],
                                classes, labels, np.array([[v for _, v in m] for m in maps])))
    else:
        print("ONNX Runtime (node + onnxruntime-node, bench/setup.sh) not found: no comparison with it")

    failures += check_dict_vectorizer(compiler, work, rng)

    failures = [f for f in failures if f]
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
