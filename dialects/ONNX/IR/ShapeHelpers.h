//===- ShapeHelpers.h - Shared pieces of onnx result type inference -------===//

#ifndef ONNXC_DIALECTS_ONNX_IR_SHAPEHELPERS_H
#define ONNXC_DIALECTS_ONNX_IR_SHAPEHELPERS_H

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Traits.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/MathExtras.h"

namespace onnxc::onnx {

/// `axis` in [-rank, rank) made non-negative, or nullopt when out of range.
inline std::optional<int64_t> normalizeAxis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    return std::nullopt;
  return axis < 0 ? axis + rank : axis;
}

/// The most precise type that both `a` and `b` have (`?` where their dims
/// differ, unranked where their ranks do), or null when the element types
/// differ: what an If's branches or a Loop's iterations have in common.
/// Sequences and optionals join their elements.
inline mlir::Type joinTypes(mlir::Type a, mlir::Type b) {
  if (a == b)
    return a;
  auto sa = llvm::dyn_cast<SeqType>(a), sb = llvm::dyn_cast<SeqType>(b);
  if (sa && sb) {
    mlir::Type element = joinTypes(sa.getElementType(), sb.getElementType());
    return element ? SeqType::get(a.getContext(), element) : nullptr;
  }
  auto oa = llvm::dyn_cast<OptType>(a), ob = llvm::dyn_cast<OptType>(b);
  if (oa && ob) {
    mlir::Type element = joinTypes(oa.getElementType(), ob.getElementType());
    return element ? OptType::get(a.getContext(), element) : nullptr;
  }
  auto ta = llvm::dyn_cast<mlir::TensorType>(a);
  auto tb = llvm::dyn_cast<mlir::TensorType>(b);
  if (!ta || !tb || ta.getElementType() != tb.getElementType())
    return nullptr;
  if (!ta.hasRank() || !tb.hasRank() || ta.getRank() != tb.getRank())
    return mlir::UnrankedTensorType::get(ta.getElementType());
  llvm::SmallVector<int64_t> dims;
  for (auto [da, db] : llvm::zip(ta.getShape(), tb.getShape()))
    dims.push_back(da == db ? da : mlir::ShapedType::kDynamic);
  return mlir::RankedTensorType::get(dims, ta.getElementType());
}

} // namespace onnxc::onnx

namespace onnxc::onnx::detail {

/// Reports `'onnx.<op>' op <msg>` at `loc` (if any) and fails.
template <typename... Args>
mlir::LogicalResult opError(std::optional<mlir::Location> loc,
                            llvm::StringRef opName, Args &&...args) {
  return mlir::emitOptionalError(loc, "'onnx.", opName, "' op ",
                                 std::forward<Args>(args)...);
}

/// True when two dims are both static and differ.
inline bool dimsDiffer(int64_t a, int64_t b) {
  return !mlir::ShapedType::isDynamic(a) && !mlir::ShapedType::isDynamic(b) &&
         a != b;
}

/// Multiplies sizes, giving `?` if any is `?` or the product overflows
/// (absurd static dims: it is not a size anything can have).
inline int64_t productOfDims(llvm::ArrayRef<int64_t> dims) {
  int64_t result = 1;
  for (int64_t d : dims) {
    if (mlir::ShapedType::isDynamic(d) || llvm::MulOverflow(result, d, result))
      return mlir::ShapedType::kDynamic;
  }
  return result;
}

/// The numpy broadcast of the shapes of `types` with `elementType`, an
/// unranked tensor if any is unranked; fails on incompatible static dims.
mlir::LogicalResult
inferBroadcastType(std::optional<mlir::Location> loc, llvm::StringRef opName,
                   mlir::TypeRange types, mlir::Type elementType,
                   llvm::SmallVectorImpl<mlir::Type> &result);

} // namespace onnxc::onnx::detail

namespace onnxc::onnx {

/// One n-gram of a TfIdfVectorizer pool: where it starts in the pool, its
/// length, and its output position.
struct TfIdfGram {
  int64_t start, length, output;
};

/// The n-grams of a TfIdfVectorizer pool in pool order; fails with a
/// diagnostic when `ngramCounts` or `ngramIndexes` do not fit the pool.
mlir::FailureOr<llvm::SmallVector<TfIdfGram>> resolveTfIdfPool(
    std::optional<mlir::Location> loc, llvm::ArrayRef<int64_t> ngramCounts,
    llvm::ArrayRef<int64_t> ngramIndexes, llvm::ArrayRef<int64_t> pool);

} // namespace onnxc::onnx

#endif // ONNXC_DIALECTS_ONNX_IR_SHAPEHELPERS_H

namespace onnxc::onnx {

/// The resolved geometry of a convolution or pooling window over the spatial
/// dims: explicit begin/end pads (auto_pad applied), strides, dilations.
struct WindowGeometry {
  llvm::SmallVector<int64_t> kernel, strides, dilations, padsBegin, padsEnd;
  /// `?` where the input dim is `?`, or the kernel dim with explicit pads.
  llvm::SmallVector<int64_t> outputSpatial;
};

/// Resolves kernel, strides, dilations and pads of a windowed op over
/// `inputSpatial` (dims may be `?`; auto_pad SAME_* then leaves the pads and
/// the output `?`). Kernel dims may be `?` too: auto_pad SAME_* then leaves
/// the pads unresolved, and explicit pads give a `?` output. Fails with a
/// diagnostic on malformed attributes.
mlir::LogicalResult
resolveWindow(std::optional<mlir::Location> loc, llvm::StringRef opName,
              llvm::ArrayRef<int64_t> inputSpatial,
              llvm::ArrayRef<int64_t> kernel,
              std::optional<llvm::ArrayRef<int64_t>> strides,
              std::optional<llvm::ArrayRef<int64_t>> dilations,
              std::optional<llvm::ArrayRef<int64_t>> pads,
              llvm::StringRef autoPad, bool ceilMode, WindowGeometry &geometry);

/// The resolved geometry of a transposed convolution over the spatial dims.
/// The full output of each dim (`stride * (in - 1) + output_padding +
/// extent`) loses `padsBegin` elements at its begin and `padsEnd` at its end;
/// a negative `padsEnd` appends that many elements. Pads are `?` where they
/// depend on a `?` input or kernel dim (with `output_shape` or SAME).
struct TransposedWindow {
  llvm::SmallVector<int64_t> kernel, strides, dilations, outputPadding;
  llvm::SmallVector<int64_t> padsBegin, padsEnd;
  llvm::SmallVector<int64_t> outputSpatial; // `?` where not known statically
};

/// Resolves the attributes of ConvTranspose over `inputSpatial` (dims may be
/// `?`). Fails with a diagnostic on malformed attributes.
mlir::LogicalResult
resolveTransposedWindow(std::optional<mlir::Location> loc,
                        llvm::ArrayRef<int64_t> inputSpatial,
                        llvm::ArrayRef<int64_t> kernel,
                        std::optional<llvm::ArrayRef<int64_t>> strides,
                        std::optional<llvm::ArrayRef<int64_t>> dilations,
                        std::optional<llvm::ArrayRef<int64_t>> pads,
                        std::optional<llvm::ArrayRef<int64_t>> outputPadding,
                        std::optional<llvm::ArrayRef<int64_t>> outputShape,
                        llvm::StringRef autoPad, TransposedWindow &window);
} // namespace onnxc::onnx

namespace onnxc::onnx {

/// Clamps a Slice's `start`/`end` over a dim of static size `dim` as the ONNX
/// spec says; returns the first index and the element count.
std::pair<int64_t, int64_t> resolveSlice(int64_t dim, int64_t start,
                                         int64_t end, int64_t step);

/// The constant starts/ends/axes/steps of a Slice with its axes normalized,
/// or nullopt if any is not a constant.
struct SliceParams {
  llvm::SmallVector<int64_t> starts, ends, axes, steps;
};
std::optional<SliceParams>
getConstantSliceParams(mlir::Value starts, mlir::Value ends, mlir::Value axes,
                       mlir::Value steps, int64_t rank);

/// The sorted, normalized, constant axes of a reduction or Squeeze/Unsqueeze
/// (`rank` is the rank they index); nullopt if not constant or invalid.
std::optional<llvm::SmallVector<int64_t>> getNormalizedAxes(mlir::Value axes,
                                                            int64_t rank);

} // namespace onnxc::onnx

namespace onnxc::onnx {

/// An Einsum equation resolved against its operands' ranks. Loops are
/// numbered letters first (in order of appearance), then the dims that `...`
/// stands for (right-aligned across operands, as numpy broadcasts them).
struct EinsumEquation {
  /// The loop of each dim of each operand, and of the output.
  llvm::SmallVector<llvm::SmallVector<int64_t>> inputs;
  llvm::SmallVector<int64_t> output;
  /// Loops [0, numLetters) are letters, the rest the dims of `...`.
  int64_t numLetters = 0;
  int64_t numLoops = 0;
};

/// Parses `equation` (spaces allowed) for operands of ranks `inputRanks`;
/// fails with a message in `error`.
mlir::FailureOr<EinsumEquation>
parseEinsumEquation(llvm::StringRef equation,
                    llvm::ArrayRef<int64_t> inputRanks, std::string &error);

} // namespace onnxc::onnx

namespace onnxc::onnx {

/// True for the activation names LSTM, GRU and RNN accept (any case).
bool isRecurrentActivation(llvm::StringRef name);

/// The number of directions of a recurrent op's `direction`, or nullopt when
/// it is not forward, reverse or bidirectional.
std::optional<int64_t> getRecurrentDirections(llvm::StringRef direction);

} // namespace onnxc::onnx
