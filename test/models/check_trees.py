#!/usr/bin/env python3
"""check_trees.py COMPILER WORK - scikit-learn models through onnxc (ai.onnx.ml).

Trains forests with scikit-learn on synthetic data (fixed seeds), writes each
as one ai.onnx.ml TreeEnsemble (opset 5) node with our own converter (the
layout onnxmltools writes: one tree per estimator, LEQ splits, one leaf a
target), compiles it with onnx-compile and compares the executable's
predictions on rows the forest never saw with scikit-learn's own predict:
  - a random forest regressor (AVERAGE over 30 trees of depth up to 8),
  - extra trees whose leaf values are pre-divided, summed (SUM),
  - a gradient-boosted regressor (SUM of its stages, then its init added by
    an onnx Add),
and the random forest and the gradient-boosted regressor again as
TreeEnsembleRegressor (ai.onnx.ml 3), the layout skl2onnx writes (string
modes, (tree, node) ids, base_values), each within 1e-5 of the output's
scale; and, as TreeEnsembleClassifier, a 3-class random forest and a binary
gradient-boosted classifier against predict (every label) and
predict_proba (within 1e-5), also under the SOFTMAX_ZERO post transform,
and a forest regressor under PROBIT; and a StandardScaler followed by a linear
regression, a multinomial and a binary logistic regression (Scaler, then
LinearRegressor or LinearClassifier); the preprocessing ops Normalizer
(L1, L2, MAX), Imputer, OneHotEncoder and FeatureVectorizer against
scikit-learn's transforms; and SVMRegressor for SVR (RBF, POLY, LINEAR,
SIGMOID kernels), LinearSVR and OneClassSVM against their predict.
XGBoost (python3-xgboost): an XGBRegressor and XGBClassifiers (binary and 3
classes), trained and tested with missing values (NaN), written as
onnxmltools writes them (TreeEnsembleRegressor/Classifier, BRANCH_LT, the
missing branch as nodes_missing_value_tracks_true, base_score as
base_values, LOGISTIC or SOFTMAX) against predict and predict_proba. SVC
(linear and RBF kernels, 2 and 3 classes, with and without probability=True;
two classes under LOGISTIC and SOFTMAX) as skl2onnx writes it
(SVMClassifier), and a LinearSVC in its weights form: every label against
predict, the scores against the one-vs-one decision_function or
predict_proba within 1e-4. Random TreeEnsembles of every node mode
(LEQ ... MEMBER), missing-value tracking and aggregate, on 1, 7 and 133
rows with NaNs, against a walk of the trees as ONNX specifies them.
LabelEncoder with numeric keys and values (list and tensor forms) against
a lookup. A forest, a logistic regression and an SVC trained on string
targets, written with classlabels_strings, against predict (every label). Where
ONNX Runtime is installed
(bench/ort_run.js with onnxruntime-node), each model's outputs must also
match ONNX Runtime's on the same rows (labels exactly, values within 1e-5 of
the scale).
Exit status 0 when all match.
"""
import json
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from sklearn.ensemble import (ExtraTreesRegressor, GradientBoostingClassifier, GradientBoostingRegressor,
                              RandomForestClassifier, RandomForestRegressor)
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.preprocessing import StandardScaler


def tree_ensemble(trees, n_features, aggregate, scale=1.0):
    """A TreeEnsemble node's attributes for sklearn trees (tree_ objects);
    leaf weights multiplied by `scale`."""
    a = {k: [] for k in ("featureids", "splits", "true", "false", "trueleaf", "falseleaf",
                         "leaf_w", "roots")}
    for tree in trees:
        t = tree.tree_
        node_of, leaf_of = {}, {}
        for i in range(t.node_count):
            if t.children_left[i] == -1:
                leaf_of[i] = len(a["leaf_w"])
                a["leaf_w"].append(float(t.value[i].ravel()[0]) * scale)
            else:
                node_of[i] = len(a["featureids"])
                a["featureids"].append(int(t.feature[i]))
                a["splits"].append(float(t.threshold[i]))
                a["true"].append(0)
                a["false"].append(0)
                a["trueleaf"].append(0)
                a["falseleaf"].append(0)
        for i, n in node_of.items():
            for side, child in (("true", t.children_left[i]), ("false", t.children_right[i])):
                leaf = child in leaf_of
                a[side][n] = leaf_of[child] if leaf else node_of[child]
                a[side + "leaf"][n] = int(leaf)
        a["roots"].append(node_of[0])
    n_nodes = len(a["featureids"])
    return helper.make_node(
        "TreeEnsemble", ["X"], ["Y"], domain="ai.onnx.ml",
        nodes_featureids=a["featureids"],
        nodes_splits=numpy_helper.from_array(np.array(a["splits"], np.float32)),
        nodes_modes=numpy_helper.from_array(np.zeros(n_nodes, np.uint8)),  # BRANCH_LEQ
        nodes_truenodeids=a["true"], nodes_falsenodeids=a["false"],
        nodes_trueleafs=a["trueleaf"], nodes_falseleafs=a["falseleaf"],
        leaf_targetids=[0] * len(a["leaf_w"]),
        leaf_weights=numpy_helper.from_array(np.array(a["leaf_w"], np.float32)),
        tree_roots=a["roots"], n_targets=1, aggregate_function=aggregate)


def tree_ensemble_regressor(trees, aggregate, scale=1.0, base=None):
    """The same trees as a TreeEnsembleRegressor (ai.onnx.ml 3), the layout
    skl2onnx writes: nodes by (tree id, node id), string modes, one target
    weight per leaf, base_values added at the end."""
    a = {k: [] for k in ("treeids", "nodeids", "featureids", "values", "modes", "true", "false",
                         "t_tree", "t_node", "t_w")}
    for tree_id, tree in enumerate(trees):
        t = tree.tree_
        for i in range(t.node_count):
            leaf = t.children_left[i] == -1
            a["treeids"].append(tree_id)
            a["nodeids"].append(i)
            a["featureids"].append(0 if leaf else int(t.feature[i]))
            a["values"].append(0.0 if leaf else float(t.threshold[i]))
            a["modes"].append("LEAF" if leaf else "BRANCH_LEQ")
            a["true"].append(0 if leaf else int(t.children_left[i]))
            a["false"].append(0 if leaf else int(t.children_right[i]))
            if leaf:
                a["t_tree"].append(tree_id)
                a["t_node"].append(i)
                a["t_w"].append(float(t.value[i].ravel()[0]) * scale)
    attrs = dict(nodes_treeids=a["treeids"], nodes_nodeids=a["nodeids"], nodes_featureids=a["featureids"],
                 nodes_values=a["values"], nodes_modes=a["modes"], nodes_truenodeids=a["true"],
                 nodes_falsenodeids=a["false"], target_treeids=a["t_tree"], target_nodeids=a["t_node"],
                 target_ids=[0] * len(a["t_w"]), target_weights=a["t_w"], n_targets=1,
                 aggregate_function=aggregate, post_transform="NONE")
    if base is not None:
        attrs["base_values"] = [base]
    return helper.make_node("TreeEnsembleRegressor", ["X"], ["Y"], domain="ai.onnx.ml", **attrs)


def tree_ensemble_classifier(trees, classes, weight_of, post, base=None):
    """Classifier trees as a TreeEnsembleClassifier (ai.onnx.ml 3), the
    layout skl2onnx writes: weight_of(tree_, leaf) gives each leaf's
    {class id: weight}."""
    node = tree_ensemble_regressor(trees, "SUM")
    attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute
             if a.name.startswith("nodes_")}
    c = {k: [] for k in ("tree", "node", "id", "w")}
    for tree_id, tree in enumerate(trees):
        t = tree.tree_
        for i in range(t.node_count):
            if t.children_left[i] == -1:
                for cls, w in weight_of(t, i).items():
                    c["tree"].append(tree_id)
                    c["node"].append(i)
                    c["id"].append(cls)
                    c["w"].append(w)
    attrs["nodes_modes"] = [m.decode() for m in attrs["nodes_modes"]]
    attrs.update(class_treeids=c["tree"], class_nodeids=c["node"], class_ids=c["id"], class_weights=c["w"],
                 classlabels_int64s=list(classes), post_transform=post)
    if base is not None:
        attrs["base_values"] = base
    return helper.make_node("TreeEnsembleClassifier", ["X"], ["label", "probabilities"], domain="ai.onnx.ml",
                            **attrs)


def with_string_labels(node, classes):
    """`node` (a classifier) with classlabels_strings `classes` instead of its int64 labels."""
    for a in list(node.attribute):
        if a.name in ("classlabels_int64s", "classlabels_ints"):
            node.attribute.remove(a)
    node.attribute.append(helper.make_attribute("classlabels_strings", [str(c) for c in classes]))
    return node


def softmax_zero(scores):
    """ONNX's SOFTMAX_ZERO per row: exp(s - max), but s exp(-max) for s within 1e-7 of 0; normalized,
    0.5 everywhere for a row that sums to 0."""
    scores = np.asarray(scores, np.float64)
    top = scores.max(axis=1, keepdims=True)
    terms = np.where(np.abs(scores) > 1e-7, np.exp(scores - top), scores * np.exp(-top))
    total = terms.sum(axis=1, keepdims=True)
    return np.where(total == 0, 0.5, terms / np.where(total == 0, 1, total))


def probit(p):
    """ONNX's PROBIT: sqrt(2) erfinv(2 p - 1), erfinv by Winitzki's approximation (a = 0.147) as ONNX's
    reference and ONNX Runtime compute it; 0 where 1 - (2 p - 1)^2 is 0. In float32, as ONNX Runtime
    computes it: the formula cancels near p = 0.5 (sqrt(u^2 - w) - u), where a float64 evaluation
    differs from any float32 one by up to 1.3e-4 of the scale here."""
    f = np.float32
    x = f(2) * np.asarray(p, f) - f(1)
    t = (f(1) - x) * (f(1) + x)
    with np.errstate(divide="ignore", invalid="ignore"):
        log = np.log(t)
        u = f(2 / (np.pi * 0.147)) + f(0.5) * log
        root = np.sqrt(np.sqrt(u * u - f(1 / 0.147) * log) - u)
    return np.where(t == 0, f(0), f(1.41421356) * np.where(x < 0, f(-1), f(1)) * root)


ORT_RUN = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                       "bench", "ort_run.js")
ORT = subprocess.run(["node", ORT_RUN, "--version"], capture_output=True).returncode == 0 \
    if os.path.exists(ORT_RUN) else False


def compile_and_run(name, model, x, compiler, work):
    """The outputs of `model` compiled by onnx-compile and run on X = x, or a
    string saying what failed."""
    d = os.path.join(work, name)
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, "model.onnx")
    onnx.save(model, path)
    exe = os.path.join(d, "model")
    r = subprocess.run([compiler, path, "-o", exe], capture_output=True, text=True)
    if r.returncode:
        return f"{name}: compile failed: {r.stderr.strip()}"
    with open(os.path.join(d, "input_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(x, "X").SerializeToString())
    out = os.path.join(d, "out")
    r = subprocess.run([exe, "--output-dir", out, os.path.join(d, "input_0.pb")], capture_output=True, text=True)
    if r.returncode:
        return f"{name}: run failed: {r.stderr.strip()}"
    got = [numpy_helper.to_array(onnx.load_tensor(os.path.join(out, f"output_{k}.pb")))
           for k in range(len(model.graph.output))]
    # ONNX Runtime on the same model and rows, where node and
    # onnxruntime-node are installed (bench/setup.sh): the same labels, and
    # values within 1e-5 of the scale.
    if not ORT:
        return got
    ort_out = os.path.join(d, "ort")
    r = subprocess.run(["node", ORT_RUN, path, "--output-dir", ort_out, os.path.join(d, "input_0.pb")],
                       capture_output=True, text=True)
    if r.returncode:
        return f"{name}: ONNX Runtime failed: {r.stderr.strip()[-300:]}"
    for k, mine in enumerate(got):
        ref = numpy_helper.to_array(onnx.load_tensor(os.path.join(ort_out, f"output_{k}.pb")))
        if ref.dtype == object:
            if ref.shape != mine.shape or (ref != mine).any():
                return f"{name}: output {k} differs from ONNX Runtime's"
            continue
        scale = max(float(np.abs(ref).max()), 1e-12)
        if ref.shape != mine.shape or np.abs(ref.astype(np.float64) - mine).max() > 1e-5 * scale:
            return f"{name}: output {k} differs from ONNX Runtime's"
    print(f"{name}: ONNX Runtime agrees")
    return got


def check_classifier(name, nodes, n_features, x, labels, proba, compiler, work, tol=1e-5):
    """`nodes` from X to (label, probabilities): every label as `labels`
    (int64, or strings), the probabilities within `tol` of `proba`."""
    nodes = nodes if isinstance(nodes, list) else [nodes]
    label_type = TensorProto.STRING if np.asarray(labels).dtype.kind in "US" else TensorProto.INT64
    graph = helper.make_graph(
        nodes, name, [helper.make_tensor_value_info("X", TensorProto.FLOAT, ["N", n_features])],
        [helper.make_tensor_value_info("label", label_type, ["N"]),
         helper.make_tensor_value_info("probabilities", TensorProto.FLOAT, ["N", proba.shape[1]])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("ai.onnx.ml", 3)])
    got = compile_and_run(name, model, x, compiler, work)
    if isinstance(got, str):
        return got
    err = np.abs(got[1] - proba).max()
    mine = got[0].astype(str) if got[0].dtype == object else got[0]
    wrong = int((mine != labels).sum())
    print(f"{name}: {len(x)} rows, {wrong} labels differ, max probability error {err:.2g}")
    return None if wrong == 0 and err <= tol else f"{name}: {wrong} labels differ, probability error {err:.3g}"


def check_nodes(name, nodes, x, out_shape, expected, ml_opset, compiler, work):
    """`nodes` as a model from X (float [N, features]) to the first output
    of the last node (float, `out_shape`), at ai.onnx.ml opset `ml_opset`
    and opset 17, compiled and run on x: None when within 1e-5 of the scale
    of `expected`, else what differs."""
    graph = helper.make_graph(
        nodes, name, [helper.make_tensor_value_info("X", TensorProto.FLOAT, ["N", x.shape[1]])],
        [helper.make_tensor_value_info(nodes[-1].output[0], TensorProto.FLOAT, out_shape)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("ai.onnx.ml", ml_opset),
                                                    helper.make_opsetid("", 17)])
    got = compile_and_run(name, model, x, compiler, work)
    if isinstance(got, str):
        return got
    err = float(np.abs(got[0] - expected).max()) / max(float(np.abs(expected).max()), 1e-12)
    print(f"{name}: {len(x)} rows, max error {err:.2g} of scale")
    return None if err <= 1e-5 else f"{name}: max error {err:.3g} of scale"


def check(name, node, extra_nodes, x, expected, compiler, work):
    """A regressor `node` (then `extra_nodes`) with one output per row."""
    ml_opset = 5 if node.op_type == "TreeEnsemble" else 3
    return check_nodes(name, [node] + extra_nodes, x, ["N", 1], np.asarray(expected).reshape(-1, 1), ml_opset,
                       compiler, work)


def check_label_encoders(compiler, work):
    """LabelEncoder with numeric keys and values, as converters write it
    for label maps: int64 to int64 and float to int64 (ml opset 2, list
    attributes and their defaults), int64 to float and float to float (the
    default -0.0) in the tensor forms (ml opset 4), against a lookup in
    NumPy (and ORT)."""
    rng = np.random.default_rng(11)
    cases = [
        ("label_encoder_int_int", 2, np.int64, dict(keys_int64s=[3, 7, -2, 10], values_int64s=[0, 1, 2, 3]), -1,
         TensorProto.INT64),
        ("label_encoder_float_int", 2, np.float32,
         dict(keys_floats=[0.5, -1.25, 2.0], values_int64s=[5, 6, 7], default_int64=99), 99, TensorProto.INT64),
        ("label_encoder_tensor_int_float", 4, np.int64,
         dict(keys_tensor=numpy_helper.from_array(np.array([3, 7, -2], np.int64)),
              values_tensor=numpy_helper.from_array(np.array([0.25, 1.5, -3.0], np.float32)),
              default_tensor=numpy_helper.from_array(np.array([7.5], np.float32))), 7.5, TensorProto.FLOAT),
        ("label_encoder_tensor_float_float", 4, np.float32,
         dict(keys_tensor=numpy_helper.from_array(np.array([0.5, 2.0], np.float32)),
              values_tensor=numpy_helper.from_array(np.array([11.0, -12.5], np.float32))), -0.0, TensorProto.FLOAT),
    ]
    failures = []
    for name, opset, dtype, attrs, default, out_type in cases:
        keys = [numpy_helper.to_array(v) if not isinstance(v, list) else np.array(v)
                for k, v in attrs.items() if k.startswith("keys")][0]
        values = [numpy_helper.to_array(v) if not isinstance(v, list) else np.array(v)
                  for k, v in attrs.items() if k.startswith("values")][0]
        # Rows of keys and of other values.
        x = rng.choice(np.append(keys, [1, 4]).astype(dtype), size=(9, 5))
        expected = np.full(x.shape, default, dtype=values.dtype)
        for k, v in zip(keys, values):
            expected[x == k] = v
        graph = helper.make_graph(
            [helper.make_node("LabelEncoder", ["X"], ["Y"], domain="ai.onnx.ml", **attrs)], name,
            [helper.make_tensor_value_info("X", numpy_helper.from_array(x).data_type, ["N", 5])],
            [helper.make_tensor_value_info("Y", out_type, ["N", 5])])
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("ai.onnx.ml", opset),
                                                        helper.make_opsetid("", 17)])
        got = compile_and_run(name, model, x, compiler, work)
        if isinstance(got, str):
            failures.append(got)
            continue
        wrong = int((got[0] != expected).sum())
        print(f"{name}: {x.size} values, {wrong} differ")
        failures.append(f"{name}: {wrong} values differ" if wrong else None)
    return failures


def random_tree_ensemble(rng, n_features, n_trees, targets, aggregate, values):
    """A TreeEnsemble (ml opset 5) of random trees that uses every node mode
    (LEQ, LT, GTE, GT, EQ, NEQ, MEMBER) with splits and sets drawn from
    `values` (so that rows land on the boundaries), random missing-value
    tracking, one tree of a single leaf, and each leaf weighing one random
    target; and its reference: a walk of the trees as ONNX specifies them,
    giving the output for rows X."""
    a = {k: [] for k in ("feature", "split", "mode", "missing", "true", "false", "trueleaf", "falseleaf",
                         "leaf_target", "leaf_w", "roots")}
    sets = {}

    def leaf():
        a["leaf_target"].append(int(rng.integers(targets)))
        a["leaf_w"].append(float(np.float32(rng.standard_normal())))
        return len(a["leaf_w"]) - 1

    def node(feature, split, mode, missing):
        for k, v in (("feature", feature), ("split", split), ("mode", mode), ("missing", missing)):
            a[k].append(v)
        for side in ("true", "false", "trueleaf", "falseleaf"):
            a[side].append(0)
        return len(a["feature"]) - 1

    def grow(depth):
        """A subtree: (index, is a leaf)."""
        if depth >= 5 or (depth > 0 and rng.random() < 0.25):
            return leaf(), 1
        mode = int(rng.integers(7))
        i = node(int(rng.integers(n_features)), float(rng.choice(values)), mode, int(rng.random() < 0.5))
        if mode == 6:
            # ORT takes integer sets only.
            sets[i] = sorted(set(float(v) for v in rng.choice(values[values == np.round(values)],
                                                                size=int(rng.integers(1, 4)))))
        for side in ("true", "false"):
            a[side][i], a[side + "leaf"][i] = grow(depth + 1)
        return i, 0

    for _ in range(n_trees - 1):
        a["roots"].append(grow(0)[0])
    # A tree of one leaf: a root whose two successors are that leaf.
    root = node(0, 0.0, 0, 0)
    only = leaf()
    a["true"][root] = a["false"][root] = only
    a["trueleaf"][root] = a["falseleaf"][root] = 1
    a["roots"].append(root)
    members = [v for i in sorted(sets) for v in sets[i] + [np.nan]]
    extra = {"membership_values": numpy_helper.from_array(np.array(members, np.float32))} if members else {}
    ensemble = helper.make_node(
        "TreeEnsemble", ["X"], ["Y"], domain="ai.onnx.ml",
        nodes_featureids=a["feature"], nodes_splits=numpy_helper.from_array(np.array(a["split"], np.float32)),
        nodes_modes=numpy_helper.from_array(np.array(a["mode"], np.uint8)),
        nodes_missing_value_tracks_true=a["missing"], nodes_truenodeids=a["true"], nodes_falsenodeids=a["false"],
        nodes_trueleafs=a["trueleaf"], nodes_falseleafs=a["falseleaf"], leaf_targetids=a["leaf_target"],
        leaf_weights=numpy_helper.from_array(np.array(a["leaf_w"], np.float32)), tree_roots=a["roots"],
        n_targets=targets, aggregate_function=aggregate, **extra)

    tests = (np.less_equal, np.less, np.greater_equal, np.greater, np.equal, np.not_equal)

    def reached(row, i):
        """The leaf that `row` reaches from node i."""
        while True:
            v = row[a["feature"][i]]
            if np.isnan(v) and a["missing"][i]:
                holds = True
            elif a["mode"][i] == 6:
                holds = float(v) in sets[i]
            else:
                holds = bool(tests[a["mode"][i]](v, np.float32(a["split"][i])))
            side = "true" if holds else "false"
            if a[side + "leaf"][i]:
                return a[side][i]
            i = a[side][i]

    def predict(x):
        reduce = {0: np.sum, 1: np.sum, 2: np.min, 3: np.max}[aggregate]
        y = np.zeros((len(x), targets))
        for r, row in enumerate(x):
            votes = [[] for _ in range(targets)]
            for root in a["roots"]:
                k = reached(row, root)
                votes[a["leaf_target"][k]].append(a["leaf_w"][k])
            y[r] = [reduce(v) if v else 0.0 for v in votes]
        return y / len(a["roots"]) if aggregate == 0 else y
    return ensemble, predict


def check_random_forests(compiler, work):
    """Random TreeEnsembles of every node mode, NaNs among the inputs, each
    aggregate (AVERAGE and SUM over three targets; MIN and MAX over one, as
    a target no tree reaches has no defined minimum), on 1 row, 7 rows and
    133 rows (the kernel's walks of eight trees for one row, and of eight
    rows through a tree, blocks of 64 rows and the rows left over), against
    a walk of the trees as ONNX specifies them (and ORT where installed)."""
    rng = np.random.default_rng(5)
    values = np.array([-1.0, -0.5, 0.0, 0.5, 1.0, 2.0], np.float32)
    failures = []
    for aggregate, targets in ((0, 3), (1, 3), (2, 1), (3, 1)):
        node, predict = random_tree_ensemble(rng, 4, 11, targets, aggregate, values)
        for rows in (1, 7, 133):
            # Integers (ORT tests set membership on values cast to int) and
            # NaN.
            x = rng.choice([-1.0, 0.0, 1.0, 2.0, np.nan], size=(rows, 4)).astype(np.float32)
            failures.append(check_nodes(f"random_forest_{aggregate}_{rows}", [node], x, ["N", targets],
                                        predict(x), 5, compiler, work))
    return failures


def check_preprocessing(compiler, work):
    """The preprocessing ops skl2onnx writes around a model, each against
    scikit-learn's own transform (and ORT where installed): Normalizer
    (L1, L2, MAX), Imputer (the means of a SimpleImputer for NaN),
    OneHotEncoder over int64 categories, FeatureVectorizer (ORT takes
    inputs of one type only)."""
    from sklearn.impute import SimpleImputer
    from sklearn.preprocessing import Normalizer, OneHotEncoder
    rng = np.random.default_rng(3)
    failures = []

    def run(name, nodes, x, out_shape, expected):
        return check_nodes(name, nodes, x, out_shape, expected, 1, compiler, work)

    x = rng.standard_normal((40, 6)).astype(np.float32)
    for norm in ("l1", "l2"):
        failures.append(run(f"normalizer_{norm}",
                            [helper.make_node("Normalizer", ["X"], ["Y"], domain="ai.onnx.ml", norm=norm.upper())],
                            x, ["N", 6], Normalizer(norm=norm).fit(x).transform(x)))
    positive = np.abs(x) + 0.1  # MAX divides by the largest value, as scikit-learn's 'max' by the largest |value|
    failures.append(run("normalizer_max",
                        [helper.make_node("Normalizer", ["X"], ["Y"], domain="ai.onnx.ml", norm="MAX")],
                        positive, ["N", 6], Normalizer(norm="max").fit(positive).transform(positive)))

    holes = x.copy()
    holes[rng.random(holes.shape) < 0.2] = np.nan
    imputer = SimpleImputer(strategy="mean").fit(holes)
    failures.append(run("imputer", [helper.make_node(
        "Imputer", ["X"], ["Y"], domain="ai.onnx.ml", imputed_value_floats=list(map(float, imputer.statistics_)),
        replaced_value_float=float("nan"))], holes, ["N", 6], imputer.transform(holes)))

    ids = rng.integers(0, 4, (40, 1)).astype(np.float32)
    encoder = OneHotEncoder(categories=[[0, 1, 2, 3]]).fit(ids)
    failures.append(run("one_hot_encoder", [
        helper.make_node("Constant", [], ["shape"], value=numpy_helper.from_array(np.array([-1, 4], np.int64))),
        helper.make_node("OneHotEncoder", ["X"], ["H"], domain="ai.onnx.ml", cats_int64s=[0, 1, 2, 3]),
        helper.make_node("Reshape", ["H", "shape"], ["Y"])],
        ids, ["N", 4], encoder.transform(ids).toarray()))

    failures.append(run("feature_vectorizer", [
        helper.make_node("Mul", ["X", "X"], ["X2"]),
        helper.make_node("FeatureVectorizer", ["X", "X2"], ["Y"], domain="ai.onnx.ml", inputdimensions=[6, 6])],
        x, ["N", 12], np.concatenate([x, x * x], axis=1)))
    # SVMRegressor as skl2onnx writes SVR (each kernel), LinearSVR (weights,
    # no support vectors) and OneClassSVM (one_class: the sign as +-1).
    from sklearn.svm import SVR, LinearSVR, OneClassSVM
    x_train = rng.standard_normal((120, 6)).astype(np.float32)
    y_train = np.sin(x_train[:, 0]) + x_train[:, 1] * x_train[:, 2]
    x_test = rng.standard_normal((50, 6)).astype(np.float32)

    def svm_node(model, kernel, one_class=0):
        return helper.make_node(
            "SVMRegressor", ["X"], ["Y"], domain="ai.onnx.ml", kernel_type=kernel.upper(),
            coefficients=list(map(float, model.dual_coef_.ravel())),
            support_vectors=list(map(float, model.support_vectors_.ravel())),
            n_supports=len(model.support_vectors_), rho=[float(model.intercept_[0])],
            kernel_params=[float(model._gamma), float(model.coef0), float(model.degree)], one_class=one_class)
    for kernel in ("rbf", "poly", "linear", "sigmoid"):
        svr = SVR(kernel=kernel, degree=2, C=1.0, coef0=0.5).fit(x_train, y_train)
        failures.append(run(f"svm_regressor_{kernel}", [svm_node(svr, kernel)], x_test, ["N", 1],
                            svr.predict(x_test).reshape(-1, 1)))
    linear = LinearSVR(random_state=0, max_iter=5000).fit(x_train, y_train)
    failures.append(run("svm_regressor_linear_weights", [helper.make_node(
        "SVMRegressor", ["X"], ["Y"], domain="ai.onnx.ml", kernel_type="LINEAR",
        coefficients=list(map(float, linear.coef_)), rho=[float(linear.intercept_[0])], n_supports=0,
        kernel_params=[0.0, 0.0, 0.0])],
        x_test, ["N", 1], linear.predict(x_test).reshape(-1, 1)))
    outliers = OneClassSVM(nu=0.2).fit(x_train)
    failures.append(run("one_class_svm", [svm_node(outliers, "rbf", one_class=1)], x_test, ["N", 1],
                        outliers.predict(x_test).reshape(-1, 1).astype(np.float64)))
    return failures


def xgboost_trees(booster):
    """The trees of an XGBoost booster (from its JSON dump) as the node and
    leaf attributes of a TreeEnsembleRegressor/Classifier in the layout
    onnxmltools writes: BRANCH_LT splits (XGBoost goes to 'yes' where x <
    split_condition), the 'missing' child as nodes_missing_value_tracks_true,
    one weight per leaf; with it, each leaf's tree id (for the class of a
    multi-class model: tree i serves class i % classes)."""
    a = {k: [] for k in ("treeids", "nodeids", "featureids", "values", "modes", "true", "false", "missing",
                         "w_tree", "w_node", "w")}
    for tree_id, dump in enumerate(booster.get_dump(dump_format="json")):
        stack = [json.loads(dump)]
        while stack:
            n = stack.pop()
            a["treeids"].append(tree_id)
            a["nodeids"].append(n["nodeid"])
            if "leaf" in n:
                for k, v in (("featureids", 0), ("values", 0.0), ("modes", "LEAF"), ("true", 0), ("false", 0),
                             ("missing", 0)):
                    a[k].append(v)
                a["w_tree"].append(tree_id)
                a["w_node"].append(n["nodeid"])
                a["w"].append(float(n["leaf"]))
                continue
            a["featureids"].append(int(n["split"][1:]))
            a["values"].append(float(n["split_condition"]))
            a["modes"].append("BRANCH_LT")
            a["true"].append(n["yes"])
            a["false"].append(n["no"])
            a["missing"].append(int(n["missing"] == n["yes"]))
            stack += n["children"]
    nodes = dict(nodes_treeids=a["treeids"], nodes_nodeids=a["nodeids"], nodes_featureids=a["featureids"],
                 nodes_values=a["values"], nodes_modes=a["modes"], nodes_truenodeids=a["true"],
                 nodes_falsenodeids=a["false"], nodes_missing_value_tracks_true=a["missing"])
    return nodes, a["w_tree"], a["w_node"], a["w"]


def xgboost_node(model):
    """An XGBRegressor or XGBClassifier as onnxmltools writes it: a
    TreeEnsembleRegressor (SUM, base_values the base_score) or a
    TreeEnsembleClassifier (binary:logistic: every weight for class 0,
    LOGISTIC, base_values the base_score's logit; multi:softprob: tree i for
    class i % classes, SOFTMAX, base_values the base_score per class)."""
    booster = model.get_booster()
    base = float(json.loads(booster.save_config())["learner"]["learner_model_param"]["base_score"])
    nodes, w_tree, w_node, w = xgboost_trees(booster)
    if not hasattr(model, "classes_"):
        return helper.make_node("TreeEnsembleRegressor", ["X"], ["Y"], domain="ai.onnx.ml", **nodes,
                                target_treeids=w_tree, target_nodeids=w_node, target_ids=[0] * len(w),
                                target_weights=w, n_targets=1, aggregate_function="SUM", post_transform="NONE",
                                base_values=[base])
    classes = len(model.classes_)
    if classes == 2:
        ids, post, base_values = [0] * len(w), "LOGISTIC", [float(np.log(base / (1 - base)))]
    else:
        ids, post, base_values = [t % classes for t in w_tree], "SOFTMAX", [base] * classes
    return helper.make_node("TreeEnsembleClassifier", ["X"], ["label", "probabilities"], domain="ai.onnx.ml",
                            **nodes, class_treeids=w_tree, class_nodeids=w_node, class_ids=ids, class_weights=w,
                            classlabels_int64s=list(map(int, model.classes_)), post_transform=post,
                            base_values=base_values)


def check_xgboost(compiler, work):
    """XGBoost's regressor and classifiers (binary, 3 classes) trained with
    missing values and checked on rows with NaNs (the missing branch)."""
    import xgboost
    rng = np.random.default_rng(11)
    n_features = 8
    x_train = rng.standard_normal((500, n_features)).astype(np.float32)
    y_train = np.sin(x_train[:, 0]) * 2 + x_train[:, 1] * x_train[:, 2] + rng.standard_normal(500) * 0.1
    x_train[rng.random(x_train.shape) < 0.1] = np.nan
    x_test = rng.standard_normal((203, n_features)).astype(np.float32)
    x_test[rng.random(x_test.shape) < 0.15] = np.nan
    failures = []
    params = dict(n_estimators=30, max_depth=4, learning_rate=0.3, random_state=0, tree_method="exact")
    reg = xgboost.XGBRegressor(**params).fit(x_train, y_train)
    failures.append(check("xgboost_regressor", xgboost_node(reg), [], x_test, reg.predict(x_test), compiler, work))
    for name, target in (("xgboost_classifier_2", (y_train > np.median(y_train)).astype(np.int64)),
                         ("xgboost_classifier_3", np.digitize(y_train, np.quantile(y_train, [1 / 3, 2 / 3])))):
        clf = xgboost.XGBClassifier(**params).fit(x_train, target)
        failures.append(check_classifier(name, xgboost_node(clf), n_features, x_test, clf.predict(x_test),
                                         clf.predict_proba(x_test), compiler, work))
    return failures


def svc_node(svc):
    """A scikit-learn SVC as skl2onnx writes it (one SVMClassifier, opset
    1): for two classes the coefficients and rho negated (libsvm's signs:
    a positive decision value votes for the first class), prob_a and prob_b
    with probability=True."""
    sign = -1.0 if len(svc.classes_) == 2 else 1.0
    attrs = dict(kernel_type=svc.kernel.upper(),
                 kernel_params=[float(svc._gamma), float(svc.coef0), float(svc.degree)],
                 support_vectors=list(map(float, svc.support_vectors_.ravel())),
                 coefficients=list(map(float, sign * svc.dual_coef_.ravel())),
                 rho=list(map(float, sign * svc.intercept_)), vectors_per_class=list(map(int, svc.n_support_)),
                 classlabels_ints=list(range(len(svc.classes_))) if svc.classes_.dtype.kind in "US"
                 else list(map(int, svc.classes_)), post_transform="NONE")
    if svc.probability:
        attrs.update(prob_a=list(map(float, svc.probA_)), prob_b=list(map(float, svc.probB_)))
    return helper.make_node("SVMClassifier", ["X"], ["label", "probabilities"], domain="ai.onnx.ml", **attrs)


def check_svc(compiler, work):
    """SVMClassifier for SVC (linear and RBF kernels, 2 and 3 classes):
    without probabilities, the labels against predict and the scores against
    the one-vs-one decision values (two classes: [d, -d]); with
    probability=True, the labels against predict and the probabilities
    against predict_proba (libsvm's coupling, which ONNX Runtime and onnxc
    follow in float and which stops at a tolerance: ORT is the tight check),
    both within 1e-4 (measured: 2e-5 and 4e-6); the binary scores under
    LOGISTIC and SOFTMAX as ONNX Runtime writes them; a 3-class LinearSVC
    (no intercepts) in the weights form against its decision_function."""
    from sklearn.svm import SVC
    rng = np.random.default_rng(5)
    x_train = rng.standard_normal((150, 5)).astype(np.float32)
    score = x_train[:, 0] + np.sin(2 * x_train[:, 1]) + 0.5 * x_train[:, 2] * x_train[:, 3]
    x_test = rng.standard_normal((80, 5)).astype(np.float32)
    failures = []
    for classes, target in ((2, (score > 0).astype(np.int64) * 3 + 1),
                            (3, np.digitize(score, np.quantile(score, [1 / 3, 2 / 3])))):
        for kernel in ("linear", "rbf"):
            for probability in (False, True):
                svc = SVC(kernel=kernel, C=2.0, probability=probability, decision_function_shape="ovo",
                          random_state=0).fit(x_train, target)
                name = f"svc_{kernel}_{classes}" + ("_proba" if probability else "")
                if probability:
                    expected = svc.predict_proba(x_test)
                else:
                    d = svc.decision_function(x_test)
                    expected = np.stack([d, -d], axis=1) if classes == 2 else d
                failures.append(check_classifier(name, svc_node(svc), 5, x_test, svc.predict(x_test), expected,
                                                 compiler, work, 1e-4))
    # String class labels: a 3-class RBF SVC with probabilities trained on names.
    names = np.array(["ash", "birch", "cedar"])[np.digitize(score, np.quantile(score, [1 / 3, 2 / 3]))]
    svc = SVC(kernel="rbf", C=2.0, probability=True, decision_function_shape="ovo", random_state=0).fit(
        x_train, names)
    failures.append(check_classifier("svc_rbf_3_string_labels", with_string_labels(svc_node(svc), svc.classes_), 5,
                                     x_test, svc.predict(x_test), svc.predict_proba(x_test), compiler, work, 1e-4))
    # ONNX Runtime's binary scores under a post transform, s the decision
    # value in libsvm's sign (-d): LOGISTIC [1 - sigmoid(s), sigmoid(s)],
    # SOFTMAX [1 - s, s] (no softmax of one score).
    binary = SVC(kernel="rbf", C=2.0, decision_function_shape="ovo").fit(x_train, (score > 0).astype(np.int64))
    s = -binary.decision_function(x_test)
    for post, p in (("LOGISTIC", 1 / (1 + np.exp(-s))), ("SOFTMAX", s)):
        node = svc_node(binary)
        node.attribute[[a.name for a in node.attribute].index("post_transform")].s = post.encode()
        failures.append(check_classifier(f"svc_rbf_2_{post.lower()}", node, 5, x_test, binary.predict(x_test),
                                         np.stack([1 - p, p], axis=1), compiler, work, 1e-4))
    # The weights form (no support vectors): a 3-class LinearSVC without
    # intercepts, scores X W^T + rho[0], the label at their argmax.
    from sklearn.svm import LinearSVC
    target = np.digitize(score, np.quantile(score, [1 / 3, 2 / 3]))
    linear = LinearSVC(fit_intercept=False, random_state=0, max_iter=5000).fit(x_train, target)
    node = helper.make_node("SVMClassifier", ["X"], ["label", "probabilities"], domain="ai.onnx.ml",
                            coefficients=list(map(float, linear.coef_.ravel())), rho=[0.0],
                            kernel_type="LINEAR", kernel_params=[0.0, 0.0, 0.0],
                            classlabels_ints=list(map(int, linear.classes_)), post_transform="NONE")
    failures.append(check_classifier("svc_weights_3", node, 5, x_test, linear.predict(x_test),
                                     linear.decision_function(x_test), compiler, work, 1e-4))
    return failures


def main():
    compiler, work = sys.argv[1], sys.argv[2]
    if not ORT:
        print("ONNX Runtime (node + onnxruntime-node, bench/setup.sh) not found: no comparison with it")
    rng = np.random.default_rng(7)
    n_features = 10
    x_train = rng.standard_normal((600, n_features)).astype(np.float32)
    y_train = (np.sin(x_train[:, 0]) * 3 + x_train[:, 1] * x_train[:, 2]
               + (x_train[:, 3] > 0.5) + rng.standard_normal(600) * 0.1)
    x_test = rng.standard_normal((257, n_features)).astype(np.float32)
    failures = []

    forest = RandomForestRegressor(n_estimators=30, max_depth=8, random_state=0).fit(x_train, y_train)
    failures.append(check("random_forest", tree_ensemble(forest.estimators_, n_features, 0), [],
                          x_test, forest.predict(x_test), compiler, work))

    extra = ExtraTreesRegressor(n_estimators=20, max_depth=10, random_state=0).fit(x_train, y_train)
    failures.append(check("extra_trees_sum",
                          tree_ensemble(extra.estimators_, n_features, 1, 1.0 / len(extra.estimators_)),
                          [], x_test, extra.predict(x_test), compiler, work))

    boost = GradientBoostingRegressor(n_estimators=40, max_depth=4, learning_rate=0.1,
                                      random_state=0).fit(x_train, y_train)
    node = tree_ensemble(boost.estimators_[:, 0], n_features, 1, boost.learning_rate)
    node.output[0] = "raw"
    init = float(boost.init_.predict(x_train[:1]).ravel()[0])
    add = helper.make_node("Add", ["raw", "init"], ["Y"])
    const = helper.make_node("Constant", [], ["init"],
                             value=numpy_helper.from_array(np.array([init], np.float32)))
    failures.append(check("gradient_boosting", node, [const, add], x_test,
                          boost.predict(x_test), compiler, work))

    failures.append(check("random_forest_regressor", tree_ensemble_regressor(forest.estimators_, "AVERAGE"),
                          [], x_test, forest.predict(x_test), compiler, work))
    failures.append(check("gradient_boosting_regressor",
                          tree_ensemble_regressor(boost.estimators_[:, 0], "SUM", boost.learning_rate, init),
                          [], x_test, boost.predict(x_test), compiler, work))

    # Classifiers: a 3-class random forest (each leaf's class fractions over
    # the trees, as predict_proba averages them) and a binary gradient-boosted
    # classifier (one score for class 0 of two, its prior as base_values,
    # LOGISTIC: [1 - p, p]).
    y3 = np.digitize(y_train, np.quantile(y_train, [1 / 3, 2 / 3]))
    rfc = RandomForestClassifier(n_estimators=25, max_depth=7, random_state=0).fit(x_train, y3)
    n = len(rfc.estimators_)

    def fractions(t, i):
        v = t.value[i].ravel()
        return {c: float(v[c] / v.sum() / n) for c in range(len(v))}
    failures.append(check_classifier("random_forest_classifier",
                                     tree_ensemble_classifier(rfc.estimators_, rfc.classes_, fractions, "NONE"),
                                     n_features, x_test, rfc.predict(x_test), rfc.predict_proba(x_test),
                                     compiler, work))
    y2 = (y_train > np.median(y_train)).astype(np.int64)
    gbc = GradientBoostingClassifier(n_estimators=30, max_depth=3, random_state=0).fit(x_train, y2)
    prior = float(gbc._raw_predict_init(x_train[:1]).ravel()[0])
    failures.append(check_classifier(
        "gradient_boosting_classifier",
        tree_ensemble_classifier(gbc.estimators_[:, 0], gbc.classes_,
                                 lambda t, i: {0: float(t.value[i].ravel()[0]) * gbc.learning_rate},
                                 "LOGISTIC", [prior]),
        n_features, x_test, gbc.predict(x_test), gbc.predict_proba(x_test), compiler, work))

    # The post transforms that ONNX's reference and ONNX Runtime compute
    # beyond SOFTMAX and LOGISTIC: SOFTMAX_ZERO on the 3-class forest (a
    # class no tree of a row votes for keeps probability 0), PROBIT on a
    # forest regressing values in (0, 1).
    failures.append(check_classifier("random_forest_softmax_zero",
                                     tree_ensemble_classifier(rfc.estimators_, rfc.classes_, fractions,
                                                              "SOFTMAX_ZERO"),
                                     n_features, x_test, rfc.predict(x_test),
                                     softmax_zero(rfc.predict_proba(x_test)), compiler, work))
    unit = RandomForestRegressor(n_estimators=20, max_depth=6, random_state=0).fit(
        x_train, 1 / (1 + np.exp(-y_train)))
    node = tree_ensemble_regressor(unit.estimators_, "AVERAGE")
    next(a for a in node.attribute if a.name == "post_transform").s = b"PROBIT"
    failures.append(check("random_forest_probit", node, [], x_test, probit(unit.predict(x_test)), compiler, work))

    # String class labels (classlabels_strings), as skl2onnx writes a
    # classifier trained on string targets: the forest, a logistic
    # regression and an RBF SVC with probabilities.
    names = np.array(["high", "low", "mid"])[y3]
    rfs = RandomForestClassifier(n_estimators=10, max_depth=6, random_state=0).fit(x_train, names)
    nodes = tree_ensemble_classifier(rfs.estimators_, range(3), lambda t, i: {
        c: float(v) for c, v in enumerate(t.value[i].ravel() / t.value[i].sum() / len(rfs.estimators_))}, "NONE")
    failures.append(check_classifier("random_forest_string_labels", with_string_labels(nodes, rfs.classes_),
                                     n_features, x_test, rfs.predict(x_test), rfs.predict_proba(x_test),
                                     compiler, work))

    # Linear models behind a StandardScaler, as skl2onnx writes a pipeline:
    # Scaler (offset = mean, scale = 1 / std), then LinearRegressor, or
    # LinearClassifier with SOFTMAX (multinomial, 3 classes) or LOGISTIC
    # (binary: one coefficient row, scores [-s, s]).
    scaler = StandardScaler().fit(x_train)
    z_train = scaler.transform(x_train)
    scale = helper.make_node("Scaler", ["X"], ["Z"], domain="ai.onnx.ml", offset=list(map(float, scaler.mean_)),
                             scale=list(map(float, 1 / scaler.scale_)))
    lin = LinearRegression().fit(z_train, y_train)
    reg = helper.make_node("LinearRegressor", ["Z"], ["Y"], domain="ai.onnx.ml",
                           coefficients=list(map(float, lin.coef_)), intercepts=[float(lin.intercept_)])
    failures.append(check("scaler_linear_regressor", scale, [reg], x_test,
                          lin.predict(scaler.transform(x_test)), compiler, work))
    for name, target, post in (("logistic_regression_3", y3, "SOFTMAX"), ("logistic_regression_2", y2, "LOGISTIC")):
        lr = LogisticRegression(max_iter=500).fit(z_train, target)
        clf = helper.make_node("LinearClassifier", ["Z"], ["label", "probabilities"], domain="ai.onnx.ml",
                               coefficients=list(map(float, lr.coef_.ravel())),
                               intercepts=list(map(float, lr.intercept_)),
                               classlabels_ints=list(map(int, lr.classes_)), post_transform=post, multi_class=0)
        z_test = scaler.transform(x_test)
        failures.append(check_classifier(name, [scale, clf], n_features, x_test, lr.predict(z_test),
                                         lr.predict_proba(z_test), compiler, work))

    # The multinomial logistic regression again, trained on string targets.
    lr = LogisticRegression(max_iter=500).fit(z_train, np.array(["high", "low", "mid"])[y3])
    clf = helper.make_node("LinearClassifier", ["Z"], ["label", "probabilities"], domain="ai.onnx.ml",
                           coefficients=list(map(float, lr.coef_.ravel())),
                           intercepts=list(map(float, lr.intercept_)),
                           classlabels_strings=list(lr.classes_), post_transform="SOFTMAX", multi_class=0)
    z_test = scaler.transform(x_test)
    failures.append(check_classifier("logistic_regression_string_labels", [scale, clf], n_features, x_test,
                                     lr.predict(z_test), lr.predict_proba(z_test), compiler, work))

    failures += check_preprocessing(compiler, work)
    failures += check_random_forests(compiler, work)
    failures += check_label_encoders(compiler, work)
    failures += check_xgboost(compiler, work)
    failures += check_svc(compiler, work)

    failures = [f for f in failures if f]
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
