//===- FrontendInternal.h - Pieces shared by the importer files -----------===//

#ifndef ONNXC_LIB_FRONTEND_FRONTENDINTERNAL_H
#define ONNXC_LIB_FRONTEND_FRONTENDINTERNAL_H

#include "onnx/onnx.pb.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/StringMap.h"

#include <functional>

namespace onnxc::frontend {

/// The oldest and newest default-domain opsets the importer accepts (27 is
/// ONNX 1.22's). Forms that onnxc does not model are rejected per op
/// ("unsupported at opset N"): older ones, and the attributes that opsets 22
/// to 27 added where a model sets them to what onnxc cannot compute. Opset
/// 22 only widened types; 23 to 25 added types (float4, float8e8m0, int2)
/// that the importer refuses by name, and attributes handled in
/// OpImporters.cpp (QuantizeLinear's `precision`, DequantizeLinear's
/// `output_dtype`, Cast's `round_mode`, Range's `stash_type`).
inline constexpr int64_t kMinOpset = 1;
inline constexpr int64_t kMaxOpset = 27;

/// The default-domain opset the exporter writes for a module that records
/// none (an .mlir file written by hand): the newest that the ONNX Runtime
/// onnxc is tested against loads.
inline constexpr int64_t kDefaultExportOpset = 21;

/// The name of the ONNX data type `code` as ONNX 1.22 spells it ("FLOAT",
/// "FLOAT8E4M3FN", "INT2"...), or its number for a code newer than that:
/// Debian's onnx.proto knows only the types of ONNX 1.12.
std::string dataTypeName(int64_t code);

/// Turns a TensorProto into an elements attribute. Large raw data is moved
/// out of `tensor` into a dense resource (no copy); external data is mapped
/// from its file next to the model (`modelDir`). Fails with a message in
/// `error`.
mlir::FailureOr<mlir::ElementsAttr> convertTensor(::onnx::TensorProto &tensor,
                                                  llvm::StringRef modelDir,
                                                  mlir::MLIRContext *context,
                                                  std::string &error);

/// Resolves the external data `location` of a tensor in a model in
/// `modelDir` to the real path of its file (symbolic links followed) in
/// `realPath`. Fails with a message in `error` unless that lies inside the
/// model's directory (also once its links are followed).
mlir::LogicalResult resolveExternalData(llvm::StringRef modelDir,
                                        llvm::StringRef location,
                                        llvm::SmallVectorImpl<char> &realPath,
                                        std::string &error);

/// Fills `out` (dims, data_type, raw_data) from an elements attribute.
mlir::LogicalResult fillTensorProto(mlir::ElementsAttr attr,
                                    ::onnx::TensorProto &out,
                                    std::string &error);

/// One node being imported: its converted inputs (a `none` value for a
/// missing optional input) and attributes, and where to build.
struct NodeContext {
  mlir::OpBuilder &builder;
  mlir::Location loc;
  const ::onnx::NodeProto &node;
  int64_t opset;
  llvm::SmallVector<mlir::Value> inputs;
  llvm::SmallVector<mlir::NamedAttribute> attributes;
  /// Imports the graph attribute `name` into `region` as one block whose
  /// arguments have `argTypes` (the subgraph's inputs); the block ends in
  /// an `onnx.Yield` of the subgraph's outputs. Values of enclosing graphs
  /// are used directly. Fails with a message in `error`.
  std::function<mlir::LogicalResult(llvm::StringRef name, mlir::Region &region,
                                    mlir::TypeRange argTypes,
                                    std::string &error)>
      importSubgraph;
  /// Whether ops that only a CPU kernel computes import as their fused op
  /// (ImportOptions::cpuKernelOps).
  bool cpuKernelOps = true;

  /// The `none` value for an absent optional input.
  mlir::Value noValue();
  /// Where constants made from the node's attributes live: the node's name
  /// with a `_const` suffix, so the node keeps its own name on export.
  mlir::Location constantLoc();
  /// A 1-D i64 constant (an attribute turned into an input).
  mlir::Value i64Constant(llvm::ArrayRef<int64_t> values);
  /// Removes and returns attribute `name`, if present.
  std::optional<mlir::Attribute> takeAttribute(llvm::StringRef name);
  /// Fails with `error` unless `inputs` and `attributes` match the op's
  /// definition (operand count and kinds, required attributes and their
  /// kinds), which result type inference relies on.
  mlir::LogicalResult checkAgainstDefinition(mlir::RegisteredOperationName info,
                                             std::string &error);
  /// Builds `onnx.<opName>` from `inputs` and `attributes` with inferred
  /// result types, checking the attributes against the op's.
  mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  buildGeneric(llvm::StringRef opName, std::string &error);
  /// Builds `onnx.<opName>` on `operands` with `attrs` at this node's
  /// location, as buildGeneric would, leaving this node's own inputs and
  /// attributes alone: a piece of an op that the importer expands into
  /// others (an ONNX function body). Returns its first result.
  mlir::FailureOr<mlir::Value> emit(llvm::StringRef opName,
                                    mlir::ValueRange operands,
                                    llvm::ArrayRef<mlir::NamedAttribute> attrs,
                                    std::string &error);
};

/// Imports one node of a given (op type, since-opset) form; returns the
/// node's outputs or fails with a message in `error`.
using OpImportFn =
    std::function<mlir::FailureOr<llvm::SmallVector<mlir::Value>>(
        NodeContext &, std::string &error)>;

struct OpImporter {
  int64_t sinceOpset;
  /// Inputs the op takes (missing trailing optional inputs become `none`);
  /// 0 for "as many as given" (variadic ops).
  unsigned numInputs;
  OpImportFn import;
};

/// Ops imported as their ONNX function bodies (OpExpansions.cpp).
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importRMSNormalization(NodeContext &node, std::string &error);
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importAttention(NodeContext &node, std::string &error);
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importRotaryEmbedding(NodeContext &node, std::string &error);
mlir::FailureOr<llvm::SmallVector<mlir::Value>> importSwish(NodeContext &node,
                                                            std::string &error);
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importCausalConvWithState(NodeContext &node, std::string &error);
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importLinearAttention(NodeContext &node, std::string &error);
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importLpPool(NodeContext &node, std::string &error);
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importCenterCropPad(NodeContext &node, std::string &error);
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importGroupNormalization(NodeContext &node, std::string &error);

/// Classic-ML ops imported as onnx ops (MLOps.cpp).
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importBinarizer(NodeContext &node, std::string &error);
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importArrayFeatureExtractor(NodeContext &node, std::string &error);
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importTreeEnsemble(NodeContext &node, std::string &error);
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importTreeEnsembleRegressor(NodeContext &node, std::string &error);
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importTreeEnsembleClassifier(NodeContext &node, std::string &error);
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importScaler(NodeContext &node, std::string &error);
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importLinearRegressor(NodeContext &node, std::string &error);
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importLinearClassifier(NodeContext &node, std::string &error);
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importNormalizer(NodeContext &node, std::string &error);
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importImputer(NodeContext &node, std::string &error);
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importOneHotEncoder(NodeContext &node, std::string &error);
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importLabelEncoder(NodeContext &node, std::string &error);
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importCategoryMapper(NodeContext &node, std::string &error);
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importFeatureVectorizer(NodeContext &node, std::string &error);
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importSVMRegressor(NodeContext &node, std::string &error);
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importSVMClassifier(NodeContext &node, std::string &error);

/// ONNX Runtime's contrib ops imported as onnx ops (ContribOps.cpp).
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importContribGelu(NodeContext &node, std::string &error);
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importBiasGelu(NodeContext &node, std::string &error);
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importFastGelu(NodeContext &node, std::string &error);
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importQuickGelu(NodeContext &node, std::string &error);
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importSkipLayerNormalization(NodeContext &node, std::string &error);
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importSkipSimplifiedLayerNormalization(NodeContext &node, std::string &error);
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importSimplifiedLayerNormalization(NodeContext &node, std::string &error);
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importFusedMatMul(NodeContext &node, std::string &error);
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importContribRotaryEmbedding(NodeContext &node, std::string &error);
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importGroupQueryAttention(NodeContext &node, std::string &error);
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importMultiHeadAttention(NodeContext &node, std::string &error);
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importMatMulNBits(NodeContext &node, std::string &error);
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importContribAttention(NodeContext &node, std::string &error);
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importEmbedLayerNormalization(NodeContext &node, std::string &error);

/// The domains besides the default one whose ops onnxc imports.
inline constexpr llvm::StringLiteral kTrainingDomain =
    "ai.onnx.preview.training";
inline constexpr llvm::StringLiteral kMLDomain = "ai.onnx.ml";
inline constexpr llvm::StringLiteral kMicrosoftDomain = "com.microsoft";

/// True when onnxc imports some ops of `domain` ("ai.onnx" is the default).
bool isSupportedDomain(llvm::StringRef domain);

/// The importer of `opType` of `domain` ("ai.onnx" for the default domain)
/// for a model that imports opset `opset` of that domain, or null; `known`
/// tells whether the op exists at some other opset.
const OpImporter *lookupOpImporter(llvm::StringRef domain,
                                   llvm::StringRef opType, int64_t opset,
                                   bool &known);

} // namespace onnxc::frontend

#endif // ONNXC_LIB_FRONTEND_FRONTENDINTERNAL_H
