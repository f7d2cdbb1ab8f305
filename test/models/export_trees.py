#!/usr/bin/env python3
"""export_trees.py --model NAME --out DIR - tree ensembles for bench/ (issue 21).

Trains a scikit-learn or XGBoost ensemble on synthetic data (fixed seeds; 28 features,
a binary target, HIGGS-sized rows) and writes it as one ai.onnx.ml
TreeEnsembleClassifier in the layout skl2onnx writes (check_trees.py's
converter), with a dynamic batch, plus `input_0.pb`: rows the forest never
saw, as many as the name says.

  forest_bB    RandomForestClassifier, 200 trees of depth up to 10
  boosting_bB  GradientBoostingClassifier, 300 trees of depth 5
               (LOGISTIC, its prior as base_values)
  xgboost_bB   XGBClassifier, 300 trees of depth 6, trained and run with
               5% of the features missing (NaN), as onnxmltools writes it
               (BRANCH_LT, the missing branch tracked)

for B in 1, 100, 1000 and 10000.
"""
import argparse
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from sklearn.ensemble import GradientBoostingClassifier, RandomForestClassifier

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_trees import tree_ensemble_classifier, xgboost_node  # noqa: E402

FEATURES = 28
BATCHES = (1, 100, 1000, 10000)
# The fraction of features missing (NaN) in the rows of each kind.
MISSING = {"forest": 0.0, "boosting": 0.0, "xgboost": 0.05}
CHOICES = [f"{kind}_b{b}" for kind in ("forest", "boosting", "xgboost") for b in BATCHES]


def training_data(rng, rows, missing=0.0):
    """Rows of FEATURES standard normal features and a binary target that
    depends on several of them non-linearly, with label noise; a fraction
    `missing` of the features then replaced by NaN."""
    x = rng.standard_normal((rows, FEATURES)).astype(np.float32)
    score = (np.sin(x[:, 0] * 2) + x[:, 1] * x[:, 2] + np.abs(x[:, 3]) - 0.8
             + 0.5 * (x[:, 4] > 0.3) - 0.3 * x[:, 5] ** 2 + 0.3 * rng.standard_normal(rows))
    x[rng.random(x.shape) < missing] = np.nan
    return x, (score > 0).astype(np.int64)


def forest_node(x, y):
    forest = RandomForestClassifier(n_estimators=200, max_depth=10, random_state=0, n_jobs=2).fit(x, y)
    n = len(forest.estimators_)

    # skl2onnx's binary form: one weight per leaf, for class id 0, holding
    # the leaf's fraction of class 1 (scores [1 - p, p]).
    def positive_fraction(t, i):
        v = t.value[i].ravel()
        return {0: float(v[1] / v.sum() / n)}
    return tree_ensemble_classifier(forest.estimators_, forest.classes_, positive_fraction, "NONE")


def boosting_node(x, y):
    boost = GradientBoostingClassifier(n_estimators=300, max_depth=5, random_state=0).fit(x, y)
    prior = float(boost._raw_predict_init(x[:1]).ravel()[0])
    return tree_ensemble_classifier(
        boost.estimators_[:, 0], boost.classes_,
        lambda t, i: {0: float(t.value[i].ravel()[0]) * boost.learning_rate}, "LOGISTIC", [prior])


def xgboost_classifier(x, y):
    import xgboost
    model = xgboost.XGBClassifier(n_estimators=300, max_depth=6, learning_rate=0.1, random_state=0, n_jobs=2)
    return xgboost_node(model.fit(x, y))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", required=True, choices=CHOICES)
    ap.add_argument("--out", required=True, help="output directory: writes MODEL.onnx and input_0.pb")
    args = ap.parse_args()
    kind, batch = args.model.split("_b")
    # Each ensemble is trained once for its four batch sizes (boosting takes
    # a minute): kept beside the output folders.
    cache = os.path.join(os.path.dirname(os.path.abspath(args.out)), ".export_trees", f"{kind}.onnx")
    if os.path.exists(cache):
        node = onnx.load(cache).graph.node[0]
    else:
        make = {"forest": forest_node, "boosting": boosting_node, "xgboost": xgboost_classifier}[kind]
        node = make(*training_data(np.random.default_rng(21), 10000, MISSING[kind]))
    graph = helper.make_graph(
        [node], args.model, [helper.make_tensor_value_info("X", TensorProto.FLOAT, ["N", FEATURES])],
        [helper.make_tensor_value_info("label", TensorProto.INT64, ["N"]),
         helper.make_tensor_value_info("probabilities", TensorProto.FLOAT, ["N", 2])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17),
                                                    helper.make_opsetid("ai.onnx.ml", 3)],
                              producer_name="onnxc-bench")
    model.ir_version = 8
    onnx.checker.check_model(model)
    os.makedirs(args.out, exist_ok=True)
    onnx.save(model, os.path.join(args.out, f"{args.model}.onnx"))
    if not os.path.exists(cache):
        os.makedirs(os.path.dirname(cache), exist_ok=True)
        onnx.save(model, cache + ".tmp")
        os.replace(cache + ".tmp", cache)
    rows, _ = training_data(np.random.default_rng(22), int(batch), MISSING[kind])
    with open(os.path.join(args.out, "input_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(rows, "X").SerializeToString())


if __name__ == "__main__":
    main()
