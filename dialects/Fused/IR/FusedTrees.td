//===- FusedTrees.td - fused.tree_ensemble -----------------*- tablegen -*-===//
//
// A tree ensemble of the ai.onnx.ml domain (TreeEnsemble-5, and the
// TreeEnsembleRegressor and TreeEnsembleClassifier of ml opsets 1 and 3) in
// the one form the CPU's compiled kernel reads. Kept apart from FusedOps.td
// (the activation fusions) so that each family grows on its own.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_DIALECTS_FUSED_IR_FUSEDTREES_TD
#define ONNXC_DIALECTS_FUSED_IR_FUSEDTREES_TD

def Fused_TreeEnsembleOp : Op<Fused_Dialect, "tree_ensemble",
    [Pure, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "decision trees over the rows of X, their leaves aggregated";
  let description = [{
    `Y[n, t]` is the aggregate (`aggregate_function`: 1 SUM, 2 MIN, 3 MAX)
    over the trees of the weight for target `t` of the leaf that row
    `X[n, :]` reaches in each tree. The importer builds it from the
    ai.onnx.ml tree ensembles when compiling for the CPU (an AVERAGE is a
    SUM of weights divided by the tree count); the post transform, base
    values and a classifier's labels stay onnx ops around it.

    Interior nodes and leaves share one index space: nodes `0 .. n - 1`
    (`n` the length of the `nodes_*` lists), then leaves `n .. n + L - 1`
    (`L` = `leaf_weights` / `n_targets`). Node `i` reads feature
    `nodes_featureids[i]` and compares it with `nodes_splits[i]` by
    `nodes_modes[i]` (TreeEnsemble-5's numbering: 0 LEQ, 1 LT, 2 GTE, 3 GT,
    4 EQ, 5 NEQ, 6 MEMBER); when the test holds, or when the value is NaN
    and `nodes_missing_value_tracks_true[i]` (empty: never), the walk goes
    to `nodes_truenodeids[i]`, else to `nodes_falsenodeids[i]`. A MEMBER
    node's test is membership of its set: the MEMBER nodes' sets follow
    each other in `membership_values`, in node order, each ended by a NaN.
    Each tree starts at its entry of `tree_roots` (a leaf for a tree of one
    leaf). `leaf_weights` is `[L, n_targets]`, row-major.

    ```mlir
    %y = fused.tree_ensemble %x {aggregate_function = 1 : i64, leaf_weights = array<f32: 1.0, 2.0, 3.0>, membership_values = array<f32>, n_targets = 1 : i64, nodes_falsenodeids = array<i64: 3, 4>, nodes_featureids = array<i64: 0, 1>, nodes_missing_value_tracks_true = array<i1>, nodes_modes = array<i64: 0, 0>, nodes_splits = array<f32: 0.5, -1.0>, nodes_truenodeids = array<i64: 1, 2>, tree_roots = array<i64: 0>} : (tensor<?x2xf32>) -> tensor<?x1xf32>
    ```
  }];
  let arguments = (ins TensorOf<[F32]>:$X,
                       DenseI64ArrayAttr:$nodes_featureids,
                       DenseF32ArrayAttr:$nodes_splits,
                       DenseI64ArrayAttr:$nodes_modes,
                       DenseBoolArrayAttr:$nodes_missing_value_tracks_true,
                       DenseI64ArrayAttr:$nodes_truenodeids,
                       DenseI64ArrayAttr:$nodes_falsenodeids,
                       DenseF32ArrayAttr:$membership_values,
                       DenseI64ArrayAttr:$tree_roots,
                       DenseF32ArrayAttr:$leaf_weights,
                       I64Attr:$n_targets,
                       I64Attr:$aggregate_function);
  let results = (outs TensorOf<[F32]>:$Y);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Shapes may refine each other: `?` matches any size.
    static bool isCompatibleReturnTypes(::mlir::TypeRange lhs,
                                        ::mlir::TypeRange rhs);
    /// The number of leaves (leaf_weights over n_targets).
    int64_t getNumLeaves() {
      return getNTargets() > 0
                 ? (int64_t)getLeafWeights().size() / getNTargets()
                 : 0;
    }
  }];
}

#endif // ONNXC_DIALECTS_FUSED_IR_FUSEDTREES_TD
