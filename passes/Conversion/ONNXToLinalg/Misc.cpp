//===- Misc.cpp - onnx LRN, Det, ReverseSequence, TfIdfVectorizer ---------===//
//
// LRN is a generic over the result that sums the squares of its channel
// window in an scf.for. ReverseSequence is a gather generic reading each
// element from its mirrored time step. Det collapses the batch dims and runs
// Gaussian elimination with partial pivoting on a copy of each matrix in an
// scf.for nest. TfIdfVectorizer keeps its pool and n-gram table in constant
// tensors and counts each n-gram of each row in an scf.for nest over skips
// and start positions.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/ONNXToLinalg/Pattern.h"

#include "dialects/ONNX/IR/ShapeHelpers.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

using namespace mlir;
using namespace onnxc;
using namespace onnxc::tolinalg;

/// An scf.for over `[lb, ub)` threading `inits` through `body`.
static ValueRange
forLoop(ImplicitLocOpBuilder &b, Value lb, Value ub, ValueRange inits,
        llvm::function_ref<SmallVector<Value>(ImplicitLocOpBuilder &, Value,
                                              ValueRange)>
            body) {
  auto loop = b.create<scf::ForOp>(
      lb, ub, b.create<arith::ConstantIndexOp>(1), inits,
      [&](OpBuilder &nb, Location l, Value iv, ValueRange iter) {
        ImplicitLocOpBuilder ib(l, nb);
        ib.create<scf::YieldOp>(body(ib, iv, iter));
      });
  return loop.getResults();
}

namespace {
struct LRNLowering : public ONNXToLinalgPattern<onnx::LRNOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::LRNOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getX();
    Type element = resultType.getElementType();
    int64_t rank = resultType.getRank();
    int64_t size = static_cast<int64_t>(op.getSize());
    int64_t before = (size - 1) / 2, after = size - 1 - before;
    Value channels = toValue(rewriter, loc, getDimSize(rewriter, loc, x, 1));
    double alphaOverSize = op.getAlpha().convertToDouble() / size;
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    Value init =
        createEmpty(rewriter, loc, resultType, getDimSizes(rewriter, loc, x));
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{resultType}, ValueRange{x}, ValueRange{init},
        ArrayRef<AffineMap>{identity, identity}, getParallel(rank),
        [&](OpBuilder &nb, Location l, ValueRange args) {
          ImplicitLocOpBuilder b(l, nb);
          SmallVector<Value> position;
          for (int64_t d = 0; d < rank; ++d)
            position.push_back(b.create<linalg::IndexOp>(d));
          Value c = position[1];
          Value lo = b.create<arith::MaxSIOp>(
              b.create<arith::SubIOp>(c, createIndex(b, l, before)),
              createIndex(b, l, 0));
          Value hi = b.create<arith::MinSIOp>(
              b.create<arith::AddIOp>(c, createIndex(b, l, after + 1)),
              channels);
          Value sum =
              forLoop(b, lo, hi, ValueRange{createScalar(b, l, element, 0)},
                      [&](ImplicitLocOpBuilder &ib, Value k, ValueRange iter) {
                        SmallVector<Value> at(position);
                        at[1] = k;
                        Value v = ib.create<tensor::ExtractOp>(x, at);
                        return SmallVector<Value>{ib.create<arith::AddFOp>(
                            iter[0], ib.create<arith::MulFOp>(v, v))};
                      })[0];
          Value base = b.create<arith::AddFOp>(
              createScalar(b, l, element, op.getBias().convertToDouble()),
              b.create<arith::MulFOp>(
                  createScalar(b, l, element, alphaOverSize), sum));
          Value denom = b.create<math::PowFOp>(
              base,
              createScalar(b, l, element, op.getBeta().convertToDouble()));
          b.create<linalg::YieldOp>(
              b.create<arith::DivFOp>(args[0], denom).getResult());
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

struct ReverseSequenceLowering
    : public ONNXToLinalgPattern<onnx::ReverseSequenceOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::ReverseSequenceOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Value input = adaptor.getInput(), lens = adaptor.getSequenceLens();
    int64_t rank = resultType.getRank();
    int64_t batchAxis = static_cast<int64_t>(op.getBatchAxis());
    int64_t timeAxis = static_cast<int64_t>(op.getTimeAxis());
    Value steps =
        toValue(rewriter, loc, getDimSize(rewriter, loc, input, timeAxis));
    Value init = createEmpty(rewriter, loc, resultType,
                             getDimSizes(rewriter, loc, input));
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{resultType}, ValueRange{}, ValueRange{init},
        ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(rank)},
        getParallel(rank), [&](OpBuilder &nb, Location l, ValueRange) {
          ImplicitLocOpBuilder b(l, nb);
          SmallVector<Value> position;
          for (int64_t d = 0; d < rank; ++d)
            position.push_back(b.create<linalg::IndexOp>(d));
          // A length outside [0, steps] is clamped.
          Value len = b.create<arith::IndexCastOp>(
              b.getIndexType(),
              b.create<tensor::ExtractOp>(lens, position[batchAxis]));
          len = b.create<arith::MaxSIOp>(b.create<arith::MinSIOp>(len, steps),
                                         createIndex(b, l, 0));
          Value t = position[timeAxis];
          Value mirrored = b.create<arith::SubIOp>(
              b.create<arith::SubIOp>(len, createIndex(b, l, 1)), t);
          Value inside =
              b.create<arith::CmpIOp>(arith::CmpIPredicate::slt, t, len);
          position[timeAxis] = b.create<arith::SelectOp>(inside, mirrored, t);
          b.create<linalg::YieldOp>(
              b.create<tensor::ExtractOp>(input, position).getResult());
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

struct DetLowering : public ONNXToLinalgPattern<onnx::DetOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::DetOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(loc, rewriter);
    Value x = adaptor.getX();
    auto xType = cast<RankedTensorType>(x.getType());
    Type element = xType.getElementType();
    int64_t rank = xType.getRank();
    SmallVector<OpFoldResult> sizes = getDimSizes(b, loc, x);
    ArrayRef<OpFoldResult> batchSizes = ArrayRef(sizes).drop_back(2);
    Value batch = createProduct(b, loc, batchSizes);
    int64_t n = xType.getDimSize(rank - 1);
    if (ShapedType::isDynamic(n))
      n = xType.getDimSize(rank - 2);
    Value size = toValue(b, loc, sizes[rank - 1]);
    // [batch, n, n].
    auto cubeType = RankedTensorType::get(
        {onnx::detail::productOfDims(xType.getShape().drop_back(2)), n, n},
        element);
    Value cube =
        reshapeThroughFlat(b, loc, x, cubeType,
                           {getAsOpFoldResult(batch), getAsOpFoldResult(size),
                            getAsOpFoldResult(size)});
    auto flatType = RankedTensorType::get({cubeType.getDimSize(0)}, element);
    Value dets = createEmpty(b, loc, flatType, {getAsOpFoldResult(batch)});
    auto matrixType = RankedTensorType::get({n, n}, element);
    Value zero = createIndex(b, loc, 0);
    Value fzero = createScalar(b, loc, element, 0);
    Value fone = createScalar(b, loc, element, 1);
    dets = forLoop(
        b, zero, batch, ValueRange{dets},
        [&](ImplicitLocOpBuilder &lb, Value i, ValueRange iter) {
          Value matrix = lb.create<tensor::ExtractSliceOp>(
              matrixType, cube,
              ArrayRef<OpFoldResult>{i, lb.getIndexAttr(0), lb.getIndexAttr(0)},
              ArrayRef<OpFoldResult>{lb.getIndexAttr(1),
                                     getAsOpFoldResult(size),
                                     getAsOpFoldResult(size)},
              ArrayRef<OpFoldResult>{lb.getIndexAttr(1), lb.getIndexAttr(1),
                                     lb.getIndexAttr(1)});
          matrix = createCopy(lb, loc, matrix);
          Value det = eliminate(lb, matrix, size, fzero, fone);
          return SmallVector<Value>{
              lb.create<tensor::InsertOp>(det, iter[0], ValueRange{i})};
        })[0];
    rewriter.replaceOp(
        op, reshapeThroughFlat(b, loc, dets, resultType, batchSizes));
    return success();
  }

private:
  /// The determinant of the `size` x `size` tensor `a` by Gaussian
  /// elimination with partial pivoting.
  static Value eliminate(ImplicitLocOpBuilder &b, Value a, Value size,
                         Value fzero, Value fone) {
    Location loc = b.getLoc();
    Value zero = createIndex(b, loc, 0);
    ValueRange result = forLoop(
        b, zero, size, ValueRange{a, fone},
        [&](ImplicitLocOpBuilder &kb, Value k, ValueRange state) {
          Value m = state[0], det = state[1];
          // The row at or below k with the largest magnitude in column k.
          Value pivot = forLoop(
              kb, k, size, ValueRange{k},
              [&](ImplicitLocOpBuilder &pb, Value r, ValueRange it) {
                Value cand = pb.create<math::AbsFOp>(
                    pb.create<tensor::ExtractOp>(m, ValueRange{r, k}));
                Value best = pb.create<math::AbsFOp>(
                    pb.create<tensor::ExtractOp>(m, ValueRange{it[0], k}));
                Value better = pb.create<arith::CmpFOp>(
                    arith::CmpFPredicate::OGT, cand, best);
                return SmallVector<Value>{
                    pb.create<arith::SelectOp>(better, r, it[0])};
              })[0];
          // Swap rows k and pivot (a no-op when equal), negating det.
          Value swapped = forLoop(
              kb, zero, size, ValueRange{m},
              [&](ImplicitLocOpBuilder &sb, Value j, ValueRange it) {
                Value top =
                    sb.create<tensor::ExtractOp>(it[0], ValueRange{k, j});
                Value low =
                    sb.create<tensor::ExtractOp>(it[0], ValueRange{pivot, j});
                Value t =
                    sb.create<tensor::InsertOp>(low, it[0], ValueRange{k, j});
                return SmallVector<Value>{
                    sb.create<tensor::InsertOp>(top, t, ValueRange{pivot, j})};
              })[0];
          Value moved =
              kb.create<arith::CmpIOp>(arith::CmpIPredicate::ne, pivot, k);
          det = kb.create<arith::SelectOp>(moved, kb.create<arith::NegFOp>(det),
                                           det);
          Value diag = kb.create<tensor::ExtractOp>(swapped, ValueRange{k, k});
          det = kb.create<arith::MulFOp>(det, diag);
          // Eliminate below the diagonal unless the column is all zero.
          Value singular =
              kb.create<arith::CmpFOp>(arith::CmpFPredicate::OEQ, diag, fzero);
          Value next = kb.create<arith::AddIOp>(k, createIndex(kb, loc, 1));
          auto ifOp = kb.create<scf::IfOp>(
              singular,
              [&](OpBuilder &tb, Location l) {
                tb.create<scf::YieldOp>(l, swapped);
              },
              [&](OpBuilder &eb, Location l) {
                ImplicitLocOpBuilder e(l, eb);
                Value updated = forLoop(
                    e, next, size, ValueRange{swapped},
                    [&](ImplicitLocOpBuilder &rb, Value r, ValueRange rows) {
                      Value factor = rb.create<arith::DivFOp>(
                          rb.create<tensor::ExtractOp>(rows[0],
                                                       ValueRange{r, k}),
                          diag);
                      return SmallVector<Value>{
                          forLoop(rb, next, size, rows,
                                  [&](ImplicitLocOpBuilder &cb, Value c,
                                      ValueRange cols) {
                                    Value v = cb.create<tensor::ExtractOp>(
                                        cols[0], ValueRange{r, c});
                                    Value p = cb.create<tensor::ExtractOp>(
                                        cols[0], ValueRange{k, c});
                                    Value nv = cb.create<arith::SubFOp>(
                                        v, cb.create<arith::MulFOp>(factor, p));
                                    return SmallVector<Value>{
                                        cb.create<tensor::InsertOp>(
                                            nv, cols[0], ValueRange{r, c})};
                                  })[0]};
                    })[0];
                e.create<scf::YieldOp>(updated);
              });
          return SmallVector<Value>{ifOp.getResult(0), det};
        });
    return result[1];
  }
};
struct TfIdfVectorizerLowering
    : public ONNXToLinalgPattern<onnx::TfIdfVectorizerOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::TfIdfVectorizerOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    FailureOr<SmallVector<onnx::TfIdfGram>> allGrams = onnx::resolveTfIdfPool(
        loc, op.getNgramCounts(), op.getNgramIndexes(), *op.getPoolInt64s());
    if (failed(allGrams))
      return failure();
    ImplicitLocOpBuilder b(loc, rewriter);
    int64_t minLength = static_cast<int64_t>(op.getMinGramLength());
    int64_t maxLength = static_cast<int64_t>(op.getMaxGramLength());
    int64_t maxSkip = static_cast<int64_t>(op.getMaxSkipCount());
    StringRef mode = op.getMode();
    // The n-grams of the lengths looked for: (start, length, output).
    SmallVector<int64_t> table;
    SmallVector<float> weights;
    for (auto [i, gram] : llvm::enumerate(*allGrams)) {
      if (gram.length < minLength || gram.length > maxLength)
        continue;
      table.append({gram.start, gram.length, gram.output});
      weights.push_back(op.getWeights() ? (*op.getWeights())[i] : 1.0f);
    }
    Value x = adaptor.getX();
    auto xType = cast<RankedTensorType>(x.getType());
    bool oneRow = xType.getRank() == 1;
    if (oneRow)
      x = b.create<tensor::ExpandShapeOp>(
          RankedTensorType::get({1, xType.getDimSize(0)},
                                xType.getElementType()),
          x, ArrayRef<ReassociationIndices>{{0, 1}});
    Value rows = toValue(b, loc, getDimSize(b, loc, x, 0));
    Value columns = toValue(b, loc, getDimSize(b, loc, x, 1));
    int64_t numOutputs = resultType.getShape().back();
    auto matrixType = RankedTensorType::get(
        {oneRow ? 1 : resultType.getDimSize(0), numOutputs}, b.getF32Type());
    Value out =
        createFilled(b, loc, matrixType,
                     {getAsOpFoldResult(rows), b.getIndexAttr(numOutputs)},
                     createScalar(b, loc, b.getF32Type(), 0));
    int64_t numGrams = static_cast<int64_t>(weights.size());
    if (numGrams != 0) {
      ArrayRef<int64_t> pool = *op.getPoolInt64s();
      auto i64Tensor = [&](ArrayRef<int64_t> values) -> Value {
        auto type = RankedTensorType::get({static_cast<int64_t>(values.size())},
                                          b.getI64Type());
        return b.create<arith::ConstantOp>(
            DenseElementsAttr::get(type, values));
      };
      Value poolTensor = i64Tensor(pool);
      Value tableTensor = i64Tensor(table);
      Value weightTensor = b.create<arith::ConstantOp>(DenseElementsAttr::get(
          RankedTensorType::get({numGrams}, b.getF32Type()),
          ArrayRef<float>(weights)));
      Value zero = createIndex(b, loc, 0), one = createIndex(b, loc, 1);
      auto readIndex = [&](ImplicitLocOpBuilder &ib, Value tensor,
                           Value at) -> Value {
        return ib.create<arith::IndexCastOp>(
            ib.getIndexType(), ib.create<tensor::ExtractOp>(tensor, at));
      };
      out = forLoop(
          b, zero, rows, ValueRange{out},
          [&](ImplicitLocOpBuilder &rb, Value row, ValueRange rowIter) {
            return SmallVector<Value>{forLoop(
                rb, zero, createIndex(rb, loc, numGrams), rowIter,
                [&](ImplicitLocOpBuilder &gb, Value g, ValueRange gramIter) {
                  Value base =
                      gb.create<arith::MulIOp>(g, createIndex(gb, loc, 3));
                  Value start = readIndex(gb, tableTensor, base);
                  Value length = readIndex(gb, tableTensor,
                                           gb.create<arith::AddIOp>(base, one));
                  Value output = readIndex(
                      gb, tableTensor,
                      gb.create<arith::AddIOp>(base, createIndex(gb, loc, 2)));
                  // A 1-gram is the same for every skip: count it once.
                  Value unigram = gb.create<arith::CmpIOp>(
                      arith::CmpIPredicate::eq, length, one);
                  Value skips = gb.create<arith::SelectOp>(
                      unigram, one, createIndex(gb, loc, maxSkip + 1));
                  Value count = forLoop(
                      gb, zero, skips, ValueRange{zero},
                      [&](ImplicitLocOpBuilder &sb, Value skip, ValueRange c) {
                        Value step = sb.create<arith::AddIOp>(skip, one);
                        Value span = sb.create<arith::MulIOp>(
                            sb.create<arith::SubIOp>(length, one), step);
                        Value starts = sb.create<arith::MaxSIOp>(
                            sb.create<arith::SubIOp>(columns, span), zero);
                        return SmallVector<Value>{forLoop(
                            sb, zero, starts, c,
                            [&](ImplicitLocOpBuilder &pb, Value pos,
                                ValueRange cc) {
                              Value match = forLoop(
                                  pb, zero, length,
                                  ValueRange{pb.create<arith::ConstantOp>(
                                      pb.getBoolAttr(true))},
                                  [&](ImplicitLocOpBuilder &kb, Value k,
                                      ValueRange m) {
                                    Value at = kb.create<arith::AddIOp>(
                                        pos, kb.create<arith::MulIOp>(k, step));
                                    Value item = kb.create<tensor::ExtractOp>(
                                        x, ValueRange{row, at});
                                    if (!item.getType().isInteger(64))
                                      item = kb.create<arith::ExtSIOp>(
                                          kb.getI64Type(), item);
                                    Value want = kb.create<tensor::ExtractOp>(
                                        poolTensor,
                                        ValueRange{kb.create<arith::AddIOp>(
                                            start, k)});
                                    Value same = kb.create<arith::CmpIOp>(
                                        arith::CmpIPredicate::eq, item, want);
                                    return SmallVector<Value>{
                                        kb.create<arith::AndIOp>(m[0], same)};
                                  })[0];
                              return SmallVector<Value>{
                                  pb.create<arith::SelectOp>(
                                      match,
                                      pb.create<arith::AddIOp>(cc[0], one),
                                      cc[0])};
                            })[0]};
                      })[0];
                  Value tf = gb.create<arith::UIToFPOp>(
                      gb.getF32Type(),
                      gb.create<arith::IndexCastOp>(gb.getI64Type(), count));
                  Value weight = gb.create<tensor::ExtractOp>(weightTensor, g);
                  Value value = tf;
                  if (mode == "IDF")
                    value = gb.create<arith::SelectOp>(
                        gb.create<arith::CmpIOp>(arith::CmpIPredicate::ne,
                                                 count, zero),
                        weight, createScalar(gb, loc, gb.getF32Type(), 0));
                  else if (mode == "TFIDF")
                    value = gb.create<arith::MulFOp>(tf, weight);
                  Value current = gb.create<tensor::ExtractOp>(
                      gramIter[0], ValueRange{row, output});
                  return SmallVector<Value>{gb.create<tensor::InsertOp>(
                      gb.create<arith::AddFOp>(current, value), gramIter[0],
                      ValueRange{row, output})};
                })[0]};
          })[0];
    }
    if (oneRow)
      out = b.create<tensor::CollapseShapeOp>(
          out, ArrayRef<ReassociationIndices>{{0, 1}});
    rewriter.replaceOp(op, castTo(b, loc, out, resultType));
    return success();
  }
};
} // namespace

void onnxc::populateONNXMiscToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<LRNLowering, ReverseSequenceLowering, DetLowering,
               TfIdfVectorizerLowering>(patterns.getContext());
}
