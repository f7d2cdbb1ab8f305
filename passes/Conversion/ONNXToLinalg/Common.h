//===- Common.h - Helpers shared by the onnx -> linalg patterns -----------===//
//
// Shape queries (static or tensor.dim sizes), tensor.empty/linalg.fill
// creation, numpy broadcasting indexing maps, and scalar arith builders that
// pick the float or the signless-integer op from the element type.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_PASSES_CONVERSION_ONNXTOLINALG_COMMON_H
#define ONNXC_PASSES_CONVERSION_ONNXTOLINALG_COMMON_H

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

namespace onnxc::tolinalg {

/// The ranked type of `op`'s result `index`, or null after reporting that the
/// lowering needs ranked tensors.
mlir::RankedTensorType getRankedResultType(mlir::Operation *op,
                                           unsigned index = 0);

/// Checks that every operand of `op` that is not `none` is a ranked tensor,
/// reporting the first one that is not.
mlir::LogicalResult checkRankedOperands(mlir::Operation *op);

/// True for the element types arith computes on: floats and signless
/// integers (including i1), not the storage-only types.
bool isArithType(mlir::Type type);

/// True for the element types that only Cast, CastLike, QuantizeLinear and
/// DequantizeLinear compute on, held as a byte: the float8 and float4 types
/// (their bit pattern) and the integers narrower than a byte (i4, ui4, i2,
/// ui2, the value sign- or zero-extended).
bool isStorageOnlyType(mlir::Type type);

/// True for `!onnx.string`, whose signless twin is the i64 handle of a
/// runtime string record (String.cpp).
bool isStringType(mlir::Type type);

/// A tensor of the handles of the strings of `value`, held in a constant
/// global (String.cpp).
mlir::Value createStringConstant(mlir::OpBuilder &b, mlir::Location loc,
                                 mlir::DenseStringElementsAttr value);

/// The address (as i64) of a NUL-terminated copy of `text` in a constant
/// global: a C string for the runtime's messages (String.cpp).
mlir::Value createCString(mlir::OpBuilder &b, mlir::Location loc,
                          llvm::StringRef text);

/// The handle (i64) of a new runtime tensor value, in the run's arena,
/// holding a copy of `tensor` (Sequence.cpp).
mlir::Value tensorToHandle(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value tensor);

/// A tensor of `type` holding the runtime tensor value of `handle`, which
/// must have its rank and static dims (else the run stops with a message
/// naming `opName`) (Sequence.cpp).
mlir::Value handleToTensor(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value handle, mlir::RankedTensorType type,
                           llvm::StringRef opName);

/// Reports an element type that arith cannot compute on.
mlir::LogicalResult unsupportedElementType(mlir::Operation *op,
                                           mlir::Type type);

/// Unsigned integers. Tensors keep their `ui` element types through the
/// patterns (tensor and linalg ops do not look at signedness) while scalar
/// code computes on the signless integer of the same width, reached through
/// an unrealized cast (toSignless, fromSignless) and picking the unsigned
/// arith op (divui, cmpi ult, uitofp, ...). Once no onnx op is left,
/// makeIntegersSignless turns every `ui` type signless and drops the casts.
/// The storage-only types (isStorageOnlyType) have the signless twin i8, the
/// byte that holds them: scalar code reads and writes that byte
/// (LowPrecision.h converts it), and the compiled model stores one element a
/// byte (the runtime's layout, lib/Runtime/onnxc_runtime.h).

/// `type` (a scalar or a shaped type) with unsigned integers made signless,
/// the storage-only types as i8 and strings as i64.
mlir::Type getSignlessType(mlir::Type type);

/// The scalar `value` as its signless twin when it is an unsigned integer
/// or of a storage-only type.
mlir::Value toSignless(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Value value);

/// The signless scalar `value` as `type` (its unsigned twin, or itself).
mlir::Value fromSignless(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value value, mlir::Type type);

/// Rewrites every `ui` and storage-only type under `root` (values, block
/// arguments, function types, constants) to its signless twin and removes
/// the casts that become no-ops.
void makeIntegersSignless(mlir::Operation *root);

/// Size of dim `dim` of the ranked tensor `tensor`: an attribute when
/// static, else a tensor.dim.
mlir::OpFoldResult getDimSize(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::Value tensor, int64_t dim);
mlir::SmallVector<mlir::OpFoldResult>
getDimSizes(mlir::OpBuilder &b, mlir::Location loc, mlir::Value tensor);

/// An index Value for `ofr`.
mlir::Value toValue(mlir::OpBuilder &b, mlir::Location loc,
                    mlir::OpFoldResult ofr);

/// A tensor.empty of `type`; `sizes` holds every dim (only the dynamic dims
/// of `type` are read).
mlir::Value createEmpty(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::RankedTensorType type,
                        llvm::ArrayRef<mlir::OpFoldResult> sizes);

/// A tensor.empty of `type` filled with the scalar `value`.
mlir::Value createFilled(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::RankedTensorType type,
                         llvm::ArrayRef<mlir::OpFoldResult> sizes,
                         mlir::Value value);

/// A scalar constant of the float or integer type `type`.
mlir::Value createScalar(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Type type, double value);

/// The identity of max: -inf for floats, the smallest signed integer else.
mlir::Value createLowest(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Type type);

/// An index constant.
mlir::Value createIndex(mlir::OpBuilder &b, mlir::Location loc, int64_t value);

/// Elementwise scalar arith choosing the float or the integer op (signed,
/// or unsigned when `isUnsigned`; the values are signless).
mlir::Value createAdd(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lhs,
                      mlir::Value rhs);
mlir::Value createSub(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lhs,
                      mlir::Value rhs);
mlir::Value createMul(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lhs,
                      mlir::Value rhs);
mlir::Value createDiv(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lhs,
                      mlir::Value rhs, bool isUnsigned = false);
mlir::Value createMax(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lhs,
                      mlir::Value rhs, bool isUnsigned = false);
mlir::Value createMin(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lhs,
                      mlir::Value rhs, bool isUnsigned = false);

/// Converts an index value to the float or integer type `type`.
mlir::Value indexToElement(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value index, mlir::Type type);

/// The product of `sizes` as an index value.
mlir::Value createProduct(mlir::OpBuilder &b, mlir::Location loc,
                          llvm::ArrayRef<mlir::OpFoldResult> sizes);

/// The single element of a one-element tensor (any rank).
mlir::Value extractScalar(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value tensor);

/// `count` parallel iterators.
llvm::SmallVector<mlir::utils::IteratorType> getParallel(unsigned count);

/// The map from the loops of a `resultShape` iteration space to an operand of
/// `operandShape` under numpy broadcasting: leading dims are dropped, and a
/// static size-1 dim facing a dim that is not 1 reads index 0.
mlir::AffineMap getBroadcastMap(mlir::MLIRContext *ctx,
                                llvm::ArrayRef<int64_t> operandShape,
                                llvm::ArrayRef<int64_t> resultShape);

/// The sizes of `resultType`, its dynamic dims read (tensor.dim) from an
/// operand whose aligned dim is not a static 1.
llvm::SmallVector<mlir::OpFoldResult>
getBroadcastSizes(mlir::OpBuilder &b, mlir::Location loc,
                  mlir::ValueRange operands, mlir::RankedTensorType resultType);

/// Scalar body of an elementwise linalg.generic: block arguments of the
/// inputs in, the result element out.
using ScalarBuilder = llvm::function_ref<mlir::Value(
    mlir::OpBuilder &, mlir::Location, mlir::ValueRange)>;

/// A linalg.generic over a new tensor of `resultType` (sizes `sizes`) that
/// reads the broadcast `inputs` and yields `body`. An input `?` dim may be 1
/// at run time: unless it is trivially the result's size, the loop is
/// versioned (scf.if) between affine reads and reads at `dim == 1 ? 0 : i`.
mlir::Value createElementwise(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::ValueRange inputs,
                              mlir::RankedTensorType resultType,
                              llvm::ArrayRef<mlir::OpFoldResult> sizes,
                              ScalarBuilder body);

/// A linalg.generic over a new tensor of `resultType` that reads `inputs`
/// with static broadcasting only: for inputs that have the result's shape by
/// construction (a sum divided into a mean), where createElementwise would
/// version the loop for run-time broadcasting of `?` dims.
mlir::Value createElementwiseMap(mlir::OpBuilder &b, mlir::Location loc,
                                 mlir::ValueRange inputs,
                                 mlir::RankedTensorType resultType,
                                 llvm::ArrayRef<mlir::OpFoldResult> sizes,
                                 ScalarBuilder body);

/// As above, with the sizes taken from the broadcast inputs.
mlir::Value createElementwise(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::ValueRange inputs,
                              mlir::RankedTensorType resultType,
                              ScalarBuilder body);

/// `value` as `type` through a tensor.cast when the static shapes differ.
mlir::Value castTo(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                   mlir::Type type);

/// Reassociation of a collapse from `rank` dims to one (or an empty one for
/// rank 0 -> nothing).
llvm::SmallVector<mlir::ReassociationIndices> collapseAll(int64_t rank);

/// `value` reshaped to `type` by a tensor.reshape to the shape tensor of
/// `sizes` (one per dim of `type`; static dims are taken from `type`).
mlir::Value createShapedReshape(mlir::OpBuilder &b, mlir::Location loc,
                                mlir::Value value, mlir::RankedTensorType type,
                                llvm::ArrayRef<mlir::OpFoldResult> sizes);

/// `value` expanded to `type` by a tensor.expand_shape with `reassociation`
/// and `sizes` (one per dim of `type`), or by createShapedReshape when a group
/// holds several dynamic dims: MLIR 19 can neither bufferize such an
/// expand_shape nor fold tensor.dim of it correctly.
mlir::Value
createExpandShape(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                  mlir::RankedTensorType type,
                  llvm::ArrayRef<mlir::ReassociationIndices> reassociation,
                  llvm::ArrayRef<mlir::OpFoldResult> sizes);

/// Any ranked tensor reshaped to `type` with a collapse_shape to 1-D and an
/// expand_shape to `sizes` (all dims of `type`), or with a tensor.reshape when
/// `type` has several dynamic dims.
mlir::Value reshapeThroughFlat(mlir::OpBuilder &b, mlir::Location loc,
                               mlir::Value value, mlir::RankedTensorType type,
                               llvm::ArrayRef<mlir::OpFoldResult> sizes);

/// `value` with its dims `unitDims` (sorted; each of size 1, perhaps `?` in
/// the type) removed by a collapse_shape, then cast to `type`.
mlir::Value collapseUnitDims(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Value value,
                             llvm::ArrayRef<int64_t> unitDims,
                             mlir::RankedTensorType type);

/// `value` with size-1 dims inserted at the positions `unitDims` (sorted) of
/// the result by an expand_shape, then cast to `type`.
mlir::Value expandUnitDims(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value value, llvm::ArrayRef<int64_t> unitDims,
                           mlir::RankedTensorType type);

/// Combines the running value and an input element of a reduction.
using Combiner = llvm::function_ref<mlir::Value(
    mlir::OpBuilder &, mlir::Location, mlir::Value input, mlir::Value acc)>;

/// A linalg.generic reducing `input` over `axes` (sorted, normalized) from
/// `init` with `combine`; the result has the dims of `input` not in `axes`.
mlir::Value createReduction(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value input, llvm::ArrayRef<int64_t> axes,
                            mlir::Value init, Combiner combine);

/// A new tensor of `type` (sizes `sizes`) holding `value` broadcast along the
/// result dims `dims` (one per dim of `value`; a static size-1 dim of `value`
/// facing another size is read at index 0).
mlir::Value createBroadcastInDims(mlir::OpBuilder &b, mlir::Location loc,
                                  mlir::Value value,
                                  mlir::RankedTensorType type,
                                  llvm::ArrayRef<mlir::OpFoldResult> sizes,
                                  llvm::ArrayRef<int64_t> dims);

/// A dense i64 attribute of two values, as the strides and dilations of the
/// 2-D linalg convolution and pooling ops.
mlir::DenseIntElementsAttr getI64Pair(mlir::OpBuilder &b,
                                      llvm::ArrayRef<int64_t> values);

/// `value` padded with the scalar `padValue` by `low`/`high` (one per dim);
/// `value` itself when nothing is padded.
mlir::Value createPad(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                      llvm::ArrayRef<mlir::OpFoldResult> low,
                      llvm::ArrayRef<mlir::OpFoldResult> high,
                      mlir::Value padValue);

/// The output size of a window op along one dim of runtime size `inSize`:
/// (in + padBegin + padEnd - extent) / stride + 1, rounded down, or up in
/// ceil mode (where the last window must start before the end padding). The
/// window's `extent` may be a run-time value.
mlir::Value createWindowOutputSize(mlir::OpBuilder &b, mlir::Location loc,
                                   mlir::Value inSize, int64_t padBegin,
                                   int64_t padEnd, mlir::OpFoldResult extent,
                                   int64_t stride, bool ceilMode);

/// The output size and pads of a window op with auto_pad SAME_UPPER (`upper`)
/// or SAME_LOWER along a dim of run-time size `inSize`: out = ceil(in /
/// stride), and the total padding max((out - 1) * stride + extent - in, 0) is
/// split evenly, the odd one at the end (SAME_UPPER) or the begin. The
/// window's `extent` may be a run-time value.
struct SameWindow {
  mlir::Value outSize, padBegin, padEnd;
};
SameWindow createSameWindow(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value inSize, mlir::OpFoldResult extent,
                            int64_t stride, bool upper);

/// `value` with its dim `dim` split into [outer, size / outer] by an
/// expand_shape (the size may be `?`).
mlir::Value splitDim(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                     int64_t dim, int64_t outer);

/// The inverse of splitDim: dims `dim` and `dim + 1` merged.
mlir::Value mergeDims(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                      int64_t dim);

/// The identity of min: +inf for floats, the largest signed integer else.
mlir::Value createHighest(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Type type);

/// The static length of the 1-D tensor `value`, if known.
std::optional<int64_t> getStaticLength(mlir::Value value);

/// The `count` entries of the 1-D integer tensor `tensor` as index values:
/// constants when `original` (the onnx operand) is a constant, else
/// tensor.extract + index_cast.
llvm::SmallVector<mlir::Value>
getIndexValues(mlir::OpBuilder &b, mlir::Location loc, mlir::Value tensor,
               mlir::Value original, int64_t count);

/// The single element of the one-element integer tensor `tensor` as an
/// index (a constant when `original`, the onnx operand, is one).
mlir::Value getIndexScalar(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value tensor, mlir::Value original);

/// `index` made non-negative by adding `size` when it is negative.
mlir::Value normalizeIndex(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value index, mlir::Value size);

/// Which of `rank` dims the 1-D integer tensor `axes` (indexing `rank` dims,
/// negative from the back) names, as i1 values computed at run time; a
/// tensor of short static length (up to max(rank, 8)) is read element by
/// element, else in a loop.
llvm::SmallVector<mlir::Value> getAxesMask(mlir::OpBuilder &b,
                                           mlir::Location loc, mlir::Value axes,
                                           int64_t rank);

/// The sizes of the `count` dims among `sizes` whose `keep` is true at run
/// time, in order (a select chain).
llvm::SmallVector<mlir::OpFoldResult>
compactSizes(mlir::OpBuilder &b, mlir::Location loc,
             llvm::ArrayRef<mlir::Value> keep,
             llvm::ArrayRef<mlir::OpFoldResult> sizes, int64_t count);

/// The i64 index of the first (or, with `last`, the last) maximum (or, with
/// `!max`, minimum) of `input` along `axis`, in the shape of `input` without
/// `axis`.
mlir::Value createArgReduction(mlir::OpBuilder &b, mlir::Location loc,
                               mlir::Value input, int64_t axis, bool max,
                               bool last);

/// A copy of `value` in a new tensor, for ops that write into their input's
/// copy (the scatters): the input's buffer is the caller's.
mlir::Value createCopy(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Value value);

} // namespace onnxc::tolinalg

#endif // ONNXC_PASSES_CONVERSION_ONNXTOLINALG_COMMON_H
