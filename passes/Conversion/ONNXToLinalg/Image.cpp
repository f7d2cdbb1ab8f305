//===- Image.cpp - onnx Col2Im, DeformConv, AffineGrid, ImageDecoder ------===//
//
// Three ops of image geometry, each a parallel linalg.generic over its result
// whose body computes where each element comes from. Col2Im gathers: an
// image element sums, over the positions of the block, the column element of
// the one sliding block that covers it there (if any). DeformConv sums over
// the input channels of its group and the kernel taps the weight times the
// input read bilinearly (0 outside) at the tap's position moved by its
// offset, times the mask. AffineGrid applies theta to the normalized
// coordinates of each position, in f64. ImageDecoder calls the runtime's
// decoders.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/KernelCall.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/ONNXToLinalg/Pattern.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace onnxc;
using namespace onnxc::tolinalg;

/// `values`, or `count` copies of `fallback` when the attribute is absent.
static SmallVector<int64_t> getAttrOr(std::optional<ArrayRef<int64_t>> values,
                                      int64_t count, int64_t fallback) {
  if (values)
    return SmallVector<int64_t>(*values);
  return SmallVector<int64_t>(count, fallback);
}

/// An i1 that holds when `lowest <= i < size`.
static Value createInRange(OpBuilder &b, Location loc, Value i, Value lowest,
                           Value size) {
  return b.create<arith::AndIOp>(
      loc, b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sge, i, lowest),
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, i, size));
}

/// `value` when `condition` holds, else zero of its type, read in an scf.if
/// so that `read` only runs where its indices are valid.
static Value
createGuardedRead(OpBuilder &b, Location loc, Value condition, Type type,
                  function_ref<Value(OpBuilder &, Location)> read) {
  auto ifOp = b.create<scf::IfOp>(
      loc, condition,
      [&](OpBuilder &tb, Location tl) {
        tb.create<scf::YieldOp>(tl, read(tb, tl));
      },
      [&](OpBuilder &eb, Location el) {
        eb.create<scf::YieldOp>(el, createScalar(eb, el, type, 0));
      });
  return ifOp.getResult(0);
}

namespace {
struct Col2ImLowering : public ONNXToLinalgPattern<onnx::Col2ImOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::Col2ImOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Type element = resultType.getElementType();
    if (!isArithType(element))
      return unsupportedElementType(op, element);
    Value x = adaptor.getInput();
    int64_t rank = resultType.getRank(), spatial = rank - 2;
    SmallVector<int64_t> dilations = getAttrOr(op.getDilations(), spatial, 1);
    SmallVector<int64_t> strides = getAttrOr(op.getStrides(), spatial, 1);
    SmallVector<int64_t> pads = getAttrOr(op.getPads(), 2 * spatial, 0);
    if (static_cast<int64_t>(dilations.size()) != spatial ||
        static_cast<int64_t>(strides.size()) != spatial ||
        static_cast<int64_t>(pads.size()) != 2 * spatial)
      return op.emitOpError("expects one dilation and stride and two pads "
                            "per spatial dim");
    SmallVector<Value> image = getIndexValues(
        rewriter, loc, adaptor.getImageShape(), op.getImageShape(), spatial);
    SmallVector<Value> block = getIndexValues(
        rewriter, loc, adaptor.getBlockShape(), op.getBlockShape(), spatial);
    auto index = [&](int64_t v) { return createIndex(rewriter, loc, v); };
    // The number of block positions along each dim.
    SmallVector<Value> positions;
    for (int64_t d = 0; d < spatial; ++d) {
      Value extent = rewriter.create<arith::AddIOp>(
          loc,
          rewriter.create<arith::MulIOp>(
              loc, index(dilations[d]),
              rewriter.create<arith::SubIOp>(loc, block[d], index(1))),
          index(1));
      Value padded = rewriter.create<arith::AddIOp>(
          loc, image[d], index(pads[d] + pads[spatial + d]));
      positions.push_back(rewriter.create<arith::AddIOp>(
          loc,
          rewriter.create<arith::DivSIOp>(
              loc, rewriter.create<arith::SubIOp>(loc, padded, extent),
              index(strides[d])),
          index(1)));
    }
    Value blockSize =
        createProduct(rewriter, loc, getAsOpFoldResult(ValueRange(block)));
    SmallVector<OpFoldResult> sizes{
        getDimSize(rewriter, loc, x, 0),
        getAsOpFoldResult(rewriter.createOrFold<arith::DivSIOp>(
            loc, toValue(rewriter, loc, getDimSize(rewriter, loc, x, 1)),
            blockSize))};
    for (Value v : image)
      sizes.push_back(v);
    Value init = createEmpty(rewriter, loc, resultType, sizes);
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{resultType}, ValueRange{}, ValueRange{init},
        ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(rank)},
        getParallel(rank), [&](OpBuilder &b, Location l, ValueRange) {
          SmallVector<Value> at;
          for (int64_t d = 0; d < rank; ++d)
            at.push_back(b.create<linalg::IndexOp>(l, d));
          Value c0 = createIndex(b, l, 0), c1 = createIndex(b, l, 1);
          // Over the positions k of the block (row-major): the block whose
          // position k lands on this element starts at at - k * dilation,
          // which must be a multiple of the stride within the blocks.
          auto loop = b.create<scf::ForOp>(
              l, c0, blockSize, c1, ValueRange{createScalar(b, l, element, 0)},
              [&](OpBuilder &lb, Location ll, Value k, ValueRange acc) {
                Value rest = k, column = c0;
                Value valid =
                    lb.create<arith::ConstantOp>(ll, lb.getBoolAttr(true));
                SmallVector<Value> offsets(spatial);
                for (int64_t d = spatial - 1; d >= 0; --d) {
                  offsets[d] = lb.create<arith::RemSIOp>(ll, rest, block[d]);
                  rest = lb.create<arith::DivSIOp>(ll, rest, block[d]);
                }
                for (int64_t d = 0; d < spatial; ++d) {
                  Value start = lb.create<arith::SubIOp>(
                      ll,
                      lb.create<arith::AddIOp>(ll, at[2 + d],
                                               createIndex(lb, ll, pads[d])),
                      lb.create<arith::MulIOp>(
                          ll, offsets[d], createIndex(lb, ll, dilations[d])));
                  Value stride = createIndex(lb, ll, strides[d]);
                  Value aligned = lb.create<arith::CmpIOp>(
                      ll, arith::CmpIPredicate::eq,
                      lb.create<arith::RemSIOp>(ll, start, stride), c0);
                  Value q = lb.create<arith::DivSIOp>(ll, start, stride);
                  valid = lb.create<arith::AndIOp>(
                      ll, valid,
                      lb.create<arith::AndIOp>(
                          ll, aligned,
                          createInRange(lb, ll, start, c0,
                                        lb.create<arith::MulIOp>(
                                            ll, positions[d], stride))));
                  column = lb.create<arith::AddIOp>(
                      ll, lb.create<arith::MulIOp>(ll, column, positions[d]),
                      q);
                }
                Value channel = lb.create<arith::AddIOp>(
                    ll, lb.create<arith::MulIOp>(ll, at[1], blockSize), k);
                Value v = createGuardedRead(
                    lb, ll, valid, element, [&](OpBuilder &rb, Location rl) {
                      return rb.create<tensor::ExtractOp>(
                          rl, x, ValueRange{at[0], channel, column});
                    });
                lb.create<scf::YieldOp>(ll, createAdd(lb, ll, acc[0], v));
              });
          b.create<linalg::YieldOp>(l, loop.getResult(0));
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

struct DeformConvLowering : public ONNXToLinalgPattern<onnx::DeformConvOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::DeformConvOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Type element = resultType.getElementType();
    Value x = adaptor.getX(), w = adaptor.getW(), offset = adaptor.getOffset();
    // The kernel's taps are unrolled: its dims come from `kernel_shape` or
    // from W's static dims.
    auto wType = cast<RankedTensorType>(w.getType());
    SmallVector<int64_t> kernel(wType.getShape().drop_front(2));
    if (std::optional<ArrayRef<int64_t>> given = op.getKernelShape())
      kernel.assign(given->begin(), given->end());
    if (resultType.getRank() != 4 || kernel.size() != 2 ||
        llvm::any_of(kernel, ShapedType::isDynamic))
      return op.emitOpError("expects 2 spatial dims and static kernel dims");
    int64_t kh = kernel[0], kw = kernel[1];
    SmallVector<int64_t> dilations = getAttrOr(op.getDilations(), 2, 1);
    SmallVector<int64_t> strides = getAttrOr(op.getStrides(), 2, 1);
    SmallVector<int64_t> pads = getAttrOr(op.getPads(), 4, 0);
    int64_t group = op.getGroup(), offsetGroup = op.getOffsetGroup();
    bool hasBias = !onnx::isNoValue(op.getB());
    bool hasMask = !onnx::isNoValue(op.getMask());

    Value height = toValue(rewriter, loc, getDimSize(rewriter, loc, x, 2));
    Value width = toValue(rewriter, loc, getDimSize(rewriter, loc, x, 3));
    Value channels = toValue(rewriter, loc, getDimSize(rewriter, loc, x, 1));
    Value groupChannels =
        toValue(rewriter, loc, getDimSize(rewriter, loc, w, 1));
    Value groupFilters = rewriter.createOrFold<arith::DivSIOp>(
        loc, toValue(rewriter, loc, getDimSize(rewriter, loc, w, 0)),
        createIndex(rewriter, loc, group));
    Value offsetGroupChannels = rewriter.createOrFold<arith::DivSIOp>(
        loc, channels, createIndex(rewriter, loc, offsetGroup));
    SmallVector<OpFoldResult> sizes{getDimSize(rewriter, loc, x, 0),
                                    getDimSize(rewriter, loc, w, 0),
                                    getDimSize(rewriter, loc, offset, 2),
                                    getDimSize(rewriter, loc, offset, 3)};
    Value init = createEmpty(rewriter, loc, resultType, sizes);

    auto generic = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{resultType}, ValueRange{}, ValueRange{init},
        ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(4)}, getParallel(4),
        [&](OpBuilder &b, Location l, ValueRange) {
          auto idx = [&](int64_t v) { return createIndex(b, l, v); };
          Value n = b.create<linalg::IndexOp>(l, 0);
          Value m = b.create<linalg::IndexOp>(l, 1);
          Value oh = b.create<linalg::IndexOp>(l, 2);
          Value ow = b.create<linalg::IndexOp>(l, 3);
          Value firstChannel = b.create<arith::MulIOp>(
              l, b.create<arith::DivSIOp>(l, m, groupFilters), groupChannels);
          Value start = hasBias ? b.create<tensor::ExtractOp>(l, adaptor.getB(),
                                                              ValueRange{m})
                                      .getResult()
                                : createScalar(b, l, element, 0);
          // The top-left tap's position along H and W.
          Value baseH = b.create<arith::SubIOp>(
              l, b.create<arith::MulIOp>(l, oh, idx(strides[0])), idx(pads[0]));
          Value baseW = b.create<arith::SubIOp>(
              l, b.create<arith::MulIOp>(l, ow, idx(strides[1])), idx(pads[1]));
          auto overChannels = b.create<scf::ForOp>(
              l, idx(0), groupChannels, idx(1), ValueRange{start},
              [&](OpBuilder &cb, Location cl, Value ci, ValueRange cacc) {
                Value channel = cb.create<arith::AddIOp>(cl, firstChannel, ci);
                Value og =
                    cb.create<arith::DivSIOp>(cl, channel, offsetGroupChannels);
                Value sum = cacc[0];
                for (int64_t i = 0; i < kh; ++i) {
                  for (int64_t j = 0; j < kw; ++j) {
                    Value tap = cb.create<arith::AddIOp>(
                        cl, cb.create<arith::MulIOp>(cl, og, idx(kh * kw)),
                        idx(i * kw + j));
                    auto readOffset = [&](int64_t k) -> Value {
                      Value c = cb.create<arith::AddIOp>(
                          cl, cb.create<arith::MulIOp>(cl, tap, idx(2)),
                          idx(k));
                      return cb.create<tensor::ExtractOp>(
                          cl, offset, ValueRange{n, c, oh, ow});
                    };
                    auto position = [&](Value base, int64_t t, int64_t dilation,
                                        Value moved) {
                      Value at =
                          cb.create<arith::AddIOp>(cl, base, idx(t * dilation));
                      return cb.create<arith::AddFOp>(
                          cl, indexToElement(cb, cl, at, element), moved);
                    };
                    Value h = position(baseH, i, dilations[0], readOffset(0));
                    Value wPos =
                        position(baseW, j, dilations[1], readOffset(1));
                    Value v = sampleBilinear(cb, cl, x, n, channel, h, wPos,
                                             height, width);
                    Value weight = cb.create<tensor::ExtractOp>(
                        cl, w, ValueRange{m, ci, idx(i), idx(j)});
                    Value term = cb.create<arith::MulFOp>(cl, weight, v);
                    if (hasMask)
                      term = cb.create<arith::MulFOp>(
                          cl, term,
                          cb.create<tensor::ExtractOp>(
                              cl, adaptor.getMask(),
                              ValueRange{n, tap, oh, ow}));
                    sum = cb.create<arith::AddFOp>(cl, sum, term);
                  }
                }
                cb.create<scf::YieldOp>(cl, sum);
              });
          b.create<linalg::YieldOp>(l, overChannels.getResult(0));
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }

  /// `x[n, channel]` read bilinearly at the float position (h, w), its
  /// pixels outside [0, height) x [0, width) taken as 0.
  static Value sampleBilinear(OpBuilder &b, Location loc, Value x, Value n,
                              Value channel, Value h, Value w, Value height,
                              Value width) {
    Type element = h.getType();
    Value h0 = b.create<math::FloorOp>(loc, h);
    Value w0 = b.create<math::FloorOp>(loc, w);
    Value fh = b.create<arith::SubFOp>(loc, h, h0);
    Value fw = b.create<arith::SubFOp>(loc, w, w0);
    Value one = createScalar(b, loc, element, 1);
    auto toIndex = [&](Value v) -> Value {
      return b.create<arith::IndexCastOp>(
          loc, b.getIndexType(),
          b.create<arith::FPToSIOp>(loc, b.getI64Type(), v).getResult());
    };
    Value top = toIndex(h0), left = toIndex(w0);
    Value c0 = createIndex(b, loc, 0), c1 = createIndex(b, loc, 1);
    Value result = createScalar(b, loc, element, 0);
    for (int64_t dh = 0; dh < 2; ++dh) {
      for (int64_t dw = 0; dw < 2; ++dw) {
        Value row = dh ? b.create<arith::AddIOp>(loc, top, c1) : top;
        Value col = dw ? b.create<arith::AddIOp>(loc, left, c1) : left;
        Value inside =
            b.create<arith::AndIOp>(loc, createInRange(b, loc, row, c0, height),
                                    createInRange(b, loc, col, c0, width));
        Value pixel = createGuardedRead(
            b, loc, inside, element, [&](OpBuilder &rb, Location rl) {
              return rb.create<tensor::ExtractOp>(
                  rl, x, ValueRange{n, channel, row, col});
            });
        Value weightH = dh ? fh : b.create<arith::SubFOp>(loc, one, fh);
        Value weightW = dw ? fw : b.create<arith::SubFOp>(loc, one, fw);
        result = b.create<arith::AddFOp>(
            loc, result,
            b.create<arith::MulFOp>(
                loc, b.create<arith::MulFOp>(loc, weightH, weightW), pixel));
      }
    }
    return result;
  }
};

struct AffineGridLowering : public ONNXToLinalgPattern<onnx::AffineGridOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::AffineGridOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Type element = resultType.getElementType();
    Value theta = adaptor.getTheta();
    int64_t rank = resultType.getRank(), spatial = rank - 2;
    if (spatial != 2 && spatial != 3)
      return op.emitOpError("expects a 2-D or 3-D grid (got rank ")
             << rank << ")";
    bool alignCorners = op.getAlignCorners() != 0;
    SmallVector<Value> size = getIndexValues(rewriter, loc, adaptor.getSize(),
                                             op.getSize(), spatial + 2);
    SmallVector<OpFoldResult> sizes{getDimSize(rewriter, loc, theta, 0)};
    for (int64_t d = 0; d < spatial; ++d)
      sizes.push_back(size[2 + d]);
    sizes.push_back(rewriter.getIndexAttr(spatial));
    Value init = createEmpty(rewriter, loc, resultType, sizes);
    Type f64 = rewriter.getF64Type();

    auto generic = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{resultType}, ValueRange{}, ValueRange{init},
        ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(rank)},
        getParallel(rank), [&](OpBuilder &b, Location l, ValueRange) {
          auto c = [&](double v) { return createScalar(b, l, f64, v); };
          Value n = b.create<linalg::IndexOp>(l, 0);
          Value k = b.create<linalg::IndexOp>(l, rank - 1);
          auto thetaAt = [&](int64_t column) -> Value {
            Value v = b.create<tensor::ExtractOp>(
                l, theta, ValueRange{n, k, createIndex(b, l, column)});
            if (element == f64)
              return v;
            return b.create<arith::ExtFOp>(l, f64, v);
          };
          // Theta's columns take x (the last spatial dim), y, then z.
          Value sum = thetaAt(spatial);
          for (int64_t column = 0; column < spatial; ++column) {
            int64_t d = spatial - 1 - column;
            Value i =
                indexToElement(b, l, b.create<linalg::IndexOp>(l, 1 + d), f64);
            Value extent = indexToElement(b, l, size[2 + d], f64);
            Value coordinate;
            if (alignCorners) {
              // 2i / (size - 1) - 1, and -1 for a single position.
              Value last = b.create<arith::SubFOp>(l, extent, c(1));
              Value scaled = b.create<arith::DivFOp>(
                  l, b.create<arith::MulFOp>(l, c(2), i), last);
              Value single = b.create<arith::CmpFOp>(
                  l, arith::CmpFPredicate::OLE, last, c(0));
              coordinate = b.create<arith::SelectOp>(
                  l, single, c(-1), b.create<arith::SubFOp>(l, scaled, c(1)));
            } else {
              // (2i + 1) / size - 1.
              Value doubled = b.create<arith::AddFOp>(
                  l, b.create<arith::MulFOp>(l, c(2), i), c(1));
              coordinate = b.create<arith::SubFOp>(
                  l, b.create<arith::DivFOp>(l, doubled, extent), c(1));
            }
            sum = b.create<arith::AddFOp>(
                l, sum,
                b.create<arith::MulFOp>(l, thetaAt(column), coordinate));
          }
          if (element != f64)
            sum = b.create<arith::TruncFOp>(l, element, sum);
          b.create<linalg::YieldOp>(l, sum);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};
} // namespace

namespace {
/// ImageDecoder: the runtime decodes a copy of the stream into a tensor
/// value of the run (its height and width known only then), which becomes
/// the result.
struct ImageDecoderLowering : public ONNXToLinalgPattern<onnx::ImageDecoderOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::ImageDecoderOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    // The runtime's codes of the pixel formats (ImageDecoder.c).
    int64_t format = llvm::StringSwitch<int64_t>(op.getPixelFormat())
                         .Case("BGR", 1)
                         .Case("Grayscale", 2)
                         .Default(0);
    Value stream = tensorToHandle(rewriter, loc, adaptor.getEncodedStream());
    Value image =
        callKernel(
            rewriter, loc, "onnxc_image_decode",
            {stream, rewriter.create<arith::ConstantIntOp>(loc, format, 64)},
            rewriter.getI64Type())
            .front();
    rewriter.replaceOp(
        op, handleToTensor(rewriter, loc, image, resultType, "ImageDecoder"));
    return success();
  }
};
} // namespace

void onnxc::populateONNXImageToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<Col2ImLowering, DeformConvLowering, AffineGridLowering,
               ImageDecoderLowering>(patterns.getContext());
}
