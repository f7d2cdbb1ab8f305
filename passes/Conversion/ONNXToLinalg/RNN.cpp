//===- RNN.cpp - onnx LSTM, GRU and RNN to linalg -------------------------===//
//
// Each direction is an scf.for over the time steps carrying the states
// (H, and C for LSTM), its part of Y and the input projection of all steps:
// one linalg.matmul_transpose_b ([seq * batch, input] x [gates * hidden,
// input]', onto the W and R biases) before the loop. A step accumulates its
// recurrent product (H R') onto its own rows of the projection, in place,
// and computes the gates in one elementwise generic. (GRU with
// linear_before_reset, as PyTorch exports it: the reset gate scales the h
// gate's product and R bias, so one product of the three gates goes onto the
// R bias apart, and the projection is only read.) With `sequence_lens`, steps
// past a batch entry's length keep its state and give zeros in Y; a reverse
// direction then reads its input (and writes Y) reversed within each entry's
// own length, through a gather. Layout 1 (batch first) transposes the input and
// initial states in and the results out.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/ONNXToLinalg/Pattern.h"

#include "dialects/ONNX/IR/ShapeHelpers.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace onnxc;
using namespace onnxc::tolinalg;

namespace {
/// An activation function of a recurrent op with its alpha and beta.
struct Activation {
  std::string name;
  float alpha = 0, beta = 0;
};

enum class CellKind { LSTM, GRU, RNN };

/// What the cell of a recurrent op needs of it, read from its attributes.
struct CellConfig {
  CellKind kind = CellKind::RNN;
  int64_t gates = 1;
  int64_t hidden = 0;
  std::optional<double> clip;
  bool inputForget = false;
  bool linearBeforeReset = false;
  /// The activations of each direction, `activationsPerDirection` each.
  SmallVector<Activation> activations;
  int64_t activationsPerDirection = 1;
};
} // namespace

/// The activations of a recurrent op: `names` (or `defaults` for each
/// direction), taking alpha and beta in order from `alphas` and `betas`
/// where the function has them.
static SmallVector<Activation>
getActivations(std::optional<ArrayAttr> names, ArrayRef<StringRef> defaults,
               int64_t directions, std::optional<ArrayRef<float>> alphas,
               std::optional<ArrayRef<float>> betas) {
  SmallVector<std::string> list;
  if (names) {
    for (Attribute name : *names)
      list.push_back(cast<StringAttr>(name).getValue().lower());
  } else {
    for (int64_t d = 0; d < directions; ++d)
      for (StringRef name : defaults)
        list.push_back(name.lower());
  }
  size_t nextAlpha = 0, nextBeta = 0;
  auto take = [](std::optional<ArrayRef<float>> values, size_t &next,
                 float fallback) {
    if (values && next < values->size())
      return (*values)[next++];
    return fallback;
  };
  SmallVector<Activation> result;
  for (const std::string &name : list) {
    Activation act{name};
    if (name == "leakyrelu") {
      act.alpha = take(alphas, nextAlpha, 0.01f);
    } else if (name == "thresholdedrelu" || name == "elu") {
      act.alpha = take(alphas, nextAlpha, 1.0f);
    } else if (name == "affine" || name == "scaledtanh") {
      act.alpha = take(alphas, nextAlpha, 1.0f);
      act.beta = take(betas, nextBeta, name == "affine" ? 0.0f : 1.0f);
    } else if (name == "hardsigmoid") {
      act.alpha = take(alphas, nextAlpha, 0.2f);
      act.beta = take(betas, nextBeta, 0.5f);
    }
    result.push_back(act);
  }
  return result;
}

/// `act` applied to the scalar float `x`.
static Value applyActivation(OpBuilder &b, Location loc, const Activation &act,
                             Value x) {
  Type type = x.getType();
  auto constant = [&](double v) { return createScalar(b, loc, type, v); };
  Value zero = constant(0), one = constant(1);
  const std::string &name = act.name;
  if (name == "tanh")
    return b.create<math::TanhOp>(loc, x);
  if (name == "sigmoid") {
    Value e = b.create<math::ExpOp>(loc, b.create<arith::NegFOp>(loc, x));
    return b.create<arith::DivFOp>(loc, one,
                                   b.create<arith::AddFOp>(loc, one, e));
  }
  if (name == "relu")
    return b.create<arith::MaximumFOp>(loc, x, zero);
  if (name == "affine")
    return b.create<arith::AddFOp>(
        loc, b.create<arith::MulFOp>(loc, constant(act.alpha), x),
        constant(act.beta));
  Value negative =
      b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OLT, x, zero);
  if (name == "leakyrelu")
    return b.create<arith::SelectOp>(
        loc, negative, b.create<arith::MulFOp>(loc, constant(act.alpha), x), x);
  if (name == "thresholdedrelu") {
    Value above = b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OGT, x,
                                          constant(act.alpha));
    return b.create<arith::SelectOp>(loc, above, x, zero);
  }
  if (name == "scaledtanh")
    return b.create<arith::MulFOp>(
        loc, constant(act.alpha),
        b.create<math::TanhOp>(
            loc, b.create<arith::MulFOp>(loc, constant(act.beta), x)));
  if (name == "hardsigmoid") {
    Value v = b.create<arith::AddFOp>(
        loc, b.create<arith::MulFOp>(loc, constant(act.alpha), x),
        constant(act.beta));
    return b.create<arith::MaximumFOp>(
        loc, zero, b.create<arith::MinimumFOp>(loc, one, v));
  }
  if (name == "elu") {
    Value e = b.create<arith::SubFOp>(loc, b.create<math::ExpOp>(loc, x), one);
    return b.create<arith::SelectOp>(
        loc, negative, b.create<arith::MulFOp>(loc, constant(act.alpha), e), x);
  }
  if (name == "softsign")
    return b.create<arith::DivFOp>(
        loc, x,
        b.create<arith::AddFOp>(loc, one, b.create<math::AbsFOp>(loc, x)));
  assert(name == "softplus" && "activation checked by the op's inference");
  return b.create<math::LogOp>(
      loc, b.create<arith::AddFOp>(loc, one, b.create<math::ExpOp>(loc, x)));
}

/// `x` bounded to [-clip, clip] when the op has a `clip`.
static Value applyClip(OpBuilder &b, Location loc, const CellConfig &cell,
                       Value x) {
  if (!cell.clip)
    return x;
  Type type = x.getType();
  x = b.create<arith::MaximumFOp>(loc, x,
                                  createScalar(b, loc, type, -*cell.clip));
  return b.create<arith::MinimumFOp>(loc, x,
                                     createScalar(b, loc, type, *cell.clip));
}

/// A slice of `source` at `offsets` with `sizes` (dims of size 1 listed in
/// `dropped` removed from the result type).
static Value createSlice(OpBuilder &b, Location loc, Value source,
                         ArrayRef<OpFoldResult> offsets,
                         ArrayRef<OpFoldResult> sizes,
                         ArrayRef<int64_t> dropped) {
  auto sourceType = cast<RankedTensorType>(source.getType());
  SmallVector<int64_t> shape;
  for (auto [i, size] : llvm::enumerate(sizes))
    if (!llvm::is_contained(dropped, static_cast<int64_t>(i)))
      shape.push_back(getConstantIntValue(size).value_or(ShapedType::kDynamic));
  auto type = RankedTensorType::get(shape, sourceType.getElementType());
  SmallVector<OpFoldResult> strides(sizes.size(), b.getIndexAttr(1));
  return b.create<tensor::ExtractSliceOp>(loc, type, source, offsets, sizes,
                                          strides);
}

/// `source` inserted into `dest` at `offsets` over `sizes` (unit dims of
/// `dest` that `source` lacks included).
static Value createInsert(OpBuilder &b, Location loc, Value source, Value dest,
                          ArrayRef<OpFoldResult> offsets,
                          ArrayRef<OpFoldResult> sizes) {
  SmallVector<OpFoldResult> strides(sizes.size(), b.getIndexAttr(1));
  return b.create<tensor::InsertSliceOp>(loc, source, dest, offsets, sizes,
                                         strides);
}

/// `value` transposed by `permutation`.
static Value createTranspose(OpBuilder &b, Location loc, Value value,
                             ArrayRef<int64_t> permutation) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  SmallVector<OpFoldResult> sizes;
  for (int64_t p : permutation) {
    shape.push_back(type.getDimSize(p));
    sizes.push_back(getDimSize(b, loc, value, p));
  }
  Value init = createEmpty(
      b, loc, RankedTensorType::get(shape, type.getElementType()), sizes);
  return b.create<linalg::TransposeOp>(loc, value, init, permutation)
      ->getResult(0);
}

/// A tensor of `type` (sizes `sizes`, dims [rows, width]) holding the 1-D
/// `row` in every row, or zeros when `row` is null.
static Value createRows(OpBuilder &b, Location loc, Value row,
                        RankedTensorType type, ArrayRef<OpFoldResult> sizes) {
  if (!row)
    return createFilled(b, loc, type, sizes,
                        createScalar(b, loc, type.getElementType(), 0));
  return createBroadcastInDims(b, loc, row, type, sizes, {1});
}

/// `value` ([seq, batch, features]) with each batch entry's first `lens`
/// steps reversed: element [s, b] is value[lens[b] - 1 - s, b] for s <
/// lens[b], and value[s, b] past it.
static Value reverseWithinLengths(OpBuilder &b, Location loc, Value value,
                                  Value lens) {
  auto type = cast<RankedTensorType>(value.getType());
  Value init = createEmpty(b, loc, type, getDimSizes(b, loc, value));
  return b
      .create<linalg::GenericOp>(
          loc, TypeRange{type}, ValueRange{}, ValueRange{init},
          ArrayRef<AffineMap>{b.getMultiDimIdentityMap(3)}, getParallel(3),
          [&](OpBuilder &nested, Location l, ValueRange) {
            Value s = nested.create<linalg::IndexOp>(l, 0);
            Value batch = nested.create<linalg::IndexOp>(l, 1);
            Value f = nested.create<linalg::IndexOp>(l, 2);
            Value len = nested.create<tensor::ExtractOp>(l, lens, batch);
            len = nested.create<arith::IndexCastOp>(l, nested.getIndexType(),
                                                    len);
            Value inside = nested.create<arith::CmpIOp>(
                l, arith::CmpIPredicate::slt, s, len);
            Value reversed = nested.create<arith::SubIOp>(
                l,
                nested.create<arith::SubIOp>(l, len, createIndex(nested, l, 1)),
                s);
            Value index =
                nested.create<arith::SelectOp>(l, inside, reversed, s);
            Value element = nested.create<tensor::ExtractOp>(
                l, value, ValueRange{index, batch, f});
            nested.create<linalg::YieldOp>(l, element);
          })
      .getResult(0);
}

/// A generic over the [batch, hidden] state producing `numOutputs` tensors
/// of `stateType`. Each input comes with the gate it holds: a [batch, k *
/// hidden] tensor is read at columns [gate * hidden, (gate + 1) * hidden),
/// a 1-D [k * hidden] one likewise along the hidden dim (gate -2 - g for
/// gate g), and a [batch] one (gate -1) per row.
static SmallVector<Value> createCellGeneric(
    OpBuilder &b, Location loc, ArrayRef<std::pair<Value, int64_t>> inputs,
    unsigned numOutputs, RankedTensorType stateType,
    ArrayRef<OpFoldResult> sizes, int64_t hidden,
    function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange)> body) {
  MLIRContext *ctx = b.getContext();
  AffineExpr row = getAffineDimExpr(0, ctx), col = getAffineDimExpr(1, ctx);
  SmallVector<Value> operands;
  SmallVector<AffineMap> maps;
  for (auto [value, gate] : inputs) {
    auto type = cast<RankedTensorType>(value.getType());
    if (gate == -1) {
      operands.push_back(value);
      maps.push_back(AffineMap::get(2, 0, {row}, ctx));
      continue;
    }
    if (type.getRank() == 1) {
      int64_t g = -2 - gate;
      operands.push_back(type.getDimSize(0) == hidden
                             ? value
                             : createSlice(b, loc, value,
                                           {b.getIndexAttr(g * hidden)},
                                           {b.getIndexAttr(hidden)}, {}));
      maps.push_back(AffineMap::get(2, 0, {col}, ctx));
      continue;
    }
    operands.push_back(
        type.getDimSize(1) == hidden
            ? value
            : createSlice(b, loc, value,
                          {b.getIndexAttr(0), b.getIndexAttr(gate * hidden)},
                          {sizes[0], b.getIndexAttr(hidden)}, {}));
    maps.push_back(b.getMultiDimIdentityMap(2));
  }
  SmallVector<Value> inits;
  for (unsigned i = 0; i < numOutputs; ++i) {
    inits.push_back(createEmpty(b, loc, stateType, sizes));
    maps.push_back(b.getMultiDimIdentityMap(2));
  }
  SmallVector<Type> types(numOutputs, stateType);
  auto generic = b.create<linalg::GenericOp>(
      loc, types, operands, inits, maps, getParallel(2),
      [&](OpBuilder &nested, Location l, ValueRange args) {
        SmallVector<Value> results =
            body(nested, l, args.take_front(operands.size()));
        nested.create<linalg::YieldOp>(l, results);
      });
  return SmallVector<Value>(generic.getResults());
}

/// `a` [rows, k] times `bt` [n, k] transposed, accumulated onto `init`.
static Value createMatMulTransposeB(OpBuilder &b, Location loc, Value a,
                                    Value bt, Value init) {
  return b
      .create<linalg::MatmulTransposeBOp>(loc, TypeRange{init.getType()},
                                          ValueRange{a, bt}, ValueRange{init})
      .getResult(0);
}

namespace {
/// The operands of one direction, sliced out of the op's.
struct DirectionOperands {
  Value w, r;         // [gates * hidden, input], [gates * hidden, hidden]
  Value wBias, rBias; // [gates * hidden] or null
  Value p;            // [3 * hidden] or null
  Value h0, c0;       // [batch, hidden]
  /// GRU with linear_before_reset: the R bias broadcast over the batch, the
  /// init of a step's recurrent product [batch, 3 * hidden].
  Value rInit;
};

/// Lowers one direction of a recurrent op; returns its Y part [seq, batch,
/// hidden] (null when Y is unused) and final states.
struct DirectionLowering {
  OpBuilder &b;
  Location loc;
  const CellConfig &cell;
  Type element;
  Value x;    // [seq, batch, input]
  Value lens; // [batch] or null
  bool needY;

  struct Result {
    Value y, h, c;
  };

  Result lower(const DirectionOperands &ops, bool reverse, int64_t direction);

private:
  /// One step: the new H (and C), Y's row, and last `xw` with the
  /// recurrent products added, from the projected input `xw` [batch, gates
  /// * hidden] (with the biases) and the states.
  SmallVector<Value> step(const DirectionOperands &ops, Value xw, Value h,
                          Value c, Value t, ArrayRef<Activation> acts,
                          ArrayRef<OpFoldResult> stateSizes);
};
} // namespace

DirectionLowering::Result DirectionLowering::lower(const DirectionOperands &ops,
                                                   bool reverse,
                                                   int64_t direction) {
  int64_t hidden = cell.hidden;
  int64_t gateRows = cell.gates * hidden;
  OpFoldResult seq = getDimSize(b, loc, x, 0);
  OpFoldResult batch = getDimSize(b, loc, x, 1);
  auto xType = cast<RankedTensorType>(x.getType());
  ArrayRef<Activation> acts =
      ArrayRef(cell.activations)
          .slice(direction * cell.activationsPerDirection,
                 cell.activationsPerDirection);

  // The input projection of every step: [seq * batch, input] x W' + Wb +
  // Rb (the part of Rb that is simply added).
  Value in = reverse && lens ? reverseWithinLengths(b, loc, x, lens) : x;
  int64_t rows = xType.isDynamicDim(0) || xType.isDynamicDim(1)
                     ? ShapedType::kDynamic
                     : xType.getDimSize(0) * xType.getDimSize(1);
  Value flat = b.create<tensor::CollapseShapeOp>(
      loc, RankedTensorType::get({rows, xType.getDimSize(2)}, element), in,
      ArrayRef<ReassociationIndices>{{0, 1}, {2}});
  OpFoldResult rowCount = getDimSize(b, loc, flat, 0);
  auto projType = RankedTensorType::get({rows, gateRows}, element);
  bool apartR = cell.kind == CellKind::GRU && cell.linearBeforeReset;
  Value projBias = ops.wBias;
  if (ops.rBias && !apartR) {
    projBias = ops.rBias;
    if (ops.wBias) {
      Value init =
          createEmpty(b, loc, RankedTensorType::get({gateRows}, element),
                      {b.getIndexAttr(gateRows)});
      projBias =
          b.create<linalg::GenericOp>(
               loc, TypeRange{init.getType()}, ValueRange{ops.wBias, ops.rBias},
               ValueRange{init},
               SmallVector<AffineMap>(3, b.getMultiDimIdentityMap(1)),
               getParallel(1),
               [](OpBuilder &nb, Location l, ValueRange args) {
                 nb.create<linalg::YieldOp>(
                     l,
                     ValueRange{nb.create<arith::AddFOp>(l, args[0], args[1])});
               })
              .getResult(0);
    }
  }
  Value proj =
      createMatMulTransposeB(b, loc, flat, ops.w,
                             createRows(b, loc, projBias, projType,
                                        {rowCount, b.getIndexAttr(gateRows)}));
  auto projected3Type = RankedTensorType::get(
      {xType.getDimSize(0), xType.getDimSize(1), gateRows}, element);
  Value projected = reshapeThroughFlat(b, loc, proj, projected3Type,
                                       {seq, batch, b.getIndexAttr(gateRows)});

  SmallVector<OpFoldResult> stateSizes{batch, b.getIndexAttr(hidden)};
  SmallVector<Value> iterArgs{ops.h0};
  if (cell.kind == CellKind::LSTM)
    iterArgs.push_back(ops.c0);
  auto yType = RankedTensorType::get(
      {xType.getDimSize(0), xType.getDimSize(1), hidden}, element);
  SmallVector<OpFoldResult> ySizes{seq, batch, b.getIndexAttr(hidden)};
  // Every step writes its row of Y (zeros past a length).
  unsigned yIndex = iterArgs.size();
  if (needY)
    iterArgs.push_back(createEmpty(b, loc, yType, ySizes));
  // Every step adds its recurrent products to its rows of the projection.
  iterArgs.push_back(projected);
  DirectionOperands stepOps = ops;
  if (apartR)
    stepOps.rInit = createRows(
        b, loc, ops.rBias,
        RankedTensorType::get({xType.getDimSize(1), gateRows}, element),
        {batch, b.getIndexAttr(gateRows)});
  Value zero = createIndex(b, loc, 0), one = createIndex(b, loc, 1);
  Value seqValue = toValue(b, loc, seq);
  auto loop = b.create<scf::ForOp>(
      loc, zero, seqValue, one, iterArgs,
      [&](OpBuilder &nested, Location l, Value t, ValueRange state) {
        // Without lengths, a reverse direction walks the steps backwards.
        Value time = t;
        if (reverse && !lens)
          time = nested.create<arith::SubIOp>(
              l, nested.create<arith::SubIOp>(l, seqValue, one), t);
        Value xw = createSlice(
            nested, l, state.back(),
            {time, nested.getIndexAttr(0), nested.getIndexAttr(0)},
            {nested.getIndexAttr(1), batch, nested.getIndexAttr(gateRows)},
            {0});
        Value h = state[0];
        Value c = cell.kind == CellKind::LSTM ? state[1] : Value();
        DirectionLowering inner{nested, l, cell, element, x, lens, needY};
        SmallVector<Value> next =
            inner.step(stepOps, xw, h, c, t, acts, stateSizes);
        Value xwNext = next.pop_back_val();
        SmallVector<Value> yields{next[0]};
        if (cell.kind == CellKind::LSTM)
          yields.push_back(next[1]);
        if (needY)
          yields.push_back(createInsert(
              nested, l, lens ? next.back() : next[0], state[yIndex],
              {time, nested.getIndexAttr(0), nested.getIndexAttr(0)},
              {nested.getIndexAttr(1), batch, nested.getIndexAttr(hidden)}));
        yields.push_back(createInsert(
            nested, l, xwNext, state.back(),
            {time, nested.getIndexAttr(0), nested.getIndexAttr(0)},
            {nested.getIndexAttr(1), batch, nested.getIndexAttr(gateRows)}));
        nested.create<scf::YieldOp>(l, yields);
      });
  Result result;
  result.h = loop.getResult(0);
  if (cell.kind == CellKind::LSTM)
    result.c = loop.getResult(1);
  if (needY) {
    result.y = loop.getResult(yIndex);
    if (reverse && lens)
      result.y = reverseWithinLengths(b, loc, result.y, lens);
  }
  return result;
}

SmallVector<Value> DirectionLowering::step(const DirectionOperands &ops,
                                           Value xw, Value h, Value c, Value t,
                                           ArrayRef<Activation> acts,
                                           ArrayRef<OpFoldResult> stateSizes) {
  int64_t hidden = cell.hidden;
  auto stateType = cast<RankedTensorType>(h.getType());
  // The mask of the steps inside each entry's length, as inputs of the cell
  // generic: `valid(args)` reads it.
  SmallVector<std::pair<Value, int64_t>> inputs;
  auto addInput = [&](Value value, int64_t offset) {
    inputs.push_back({value, offset});
    return static_cast<int64_t>(inputs.size() - 1);
  };
  int64_t lensPos = lens ? addInput(lens, -1) : -1;
  int64_t hPos = addInput(h, 0);
  auto isValid = [&](OpBuilder &nb, Location l, ValueRange args) {
    Value len =
        nb.create<arith::IndexCastOp>(l, nb.getIndexType(), args[lensPos]);
    return nb.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, t, len)
        .getResult();
  };
  /// The results of a step from the new states: masked by the lengths, and
  /// Y's row last.
  auto finish = [&](OpBuilder &nb, Location l, ValueRange args,
                    SmallVector<Value> states, ArrayRef<Value> previous) {
    SmallVector<Value> results;
    if (!lens)
      return states;
    Value valid = isValid(nb, l, args);
    for (auto [next, prev] : llvm::zip(states, previous))
      results.push_back(nb.create<arith::SelectOp>(l, valid, next, prev));
    if (needY)
      results.push_back(nb.create<arith::SelectOp>(
          l, valid, states[0], createScalar(nb, l, element, 0)));
    return results;
  };
  // Without lengths, Y's row is the new H.
  unsigned numOutputs =
      (cell.kind == CellKind::LSTM ? 2 : 1) + (needY && lens ? 1 : 0);

  // The results and the projection with the recurrent products added.
  auto withProducts = [](SmallVector<Value> results, Value products) {
    results.push_back(products);
    return results;
  };
  if (cell.kind == CellKind::RNN) {
    Value hr = createMatMulTransposeB(b, loc, h, ops.r, xw);
    int64_t hrPos = addInput(hr, 0);
    return withProducts(
        createCellGeneric(
            b, loc, inputs, numOutputs, stateType, stateSizes, hidden,
            [&](OpBuilder &nb, Location l, ValueRange args) {
              Value next = applyActivation(nb, l, acts[0],
                                           applyClip(nb, l, cell, args[hrPos]));
              return finish(nb, l, args, {next}, {args[hPos]});
            }),
        hr);
  }

  if (cell.kind == CellKind::LSTM) {
    Value hr = createMatMulTransposeB(b, loc, h, ops.r, xw);
    int64_t cPos = addInput(c, 0);
    // Gates i, o, f, c; peepholes i, o, f.
    int64_t hrPos[4], pPos[3];
    for (int64_t k = 0; k < 4; ++k)
      hrPos[k] = addInput(hr, k);
    if (ops.p)
      for (int64_t k = 0; k < 3; ++k)
        pPos[k] = addInput(ops.p, -2 - k);
    SmallVector<Value> results = createCellGeneric(
        b, loc, inputs, numOutputs, stateType, stateSizes, hidden,
        [&](OpBuilder &nb, Location l, ValueRange args) {
          auto pre = [&](int64_t k) { return args[hrPos[k]]; };
          auto peep = [&](Value v, int64_t k, Value state) {
            if (!ops.p)
              return v;
            return nb
                .create<arith::AddFOp>(
                    l, v, nb.create<arith::MulFOp>(l, args[pPos[k]], state))
                .getResult();
          };
          auto gate = [&](Value v, const Activation &act) {
            return applyActivation(nb, l, act, applyClip(nb, l, cell, v));
          };
          Value cPrev = args[cPos];
          Value i = gate(peep(pre(0), 0, cPrev), acts[0]);
          Value f = cell.inputForget
                        ? nb.create<arith::SubFOp>(
                                l, createScalar(nb, l, element, 1), i)
                              .getResult()
                        : gate(peep(pre(2), 2, cPrev), acts[0]);
          Value candidate = gate(pre(3), acts[1]);
          Value cNext = nb.create<arith::AddFOp>(
              l, nb.create<arith::MulFOp>(l, f, cPrev),
              nb.create<arith::MulFOp>(l, i, candidate));
          Value o = gate(peep(pre(1), 1, cNext), acts[0]);
          Value hNext = nb.create<arith::MulFOp>(
              l, o, applyActivation(nb, l, acts[2], cNext));
          return finish(nb, l, args, {hNext, cNext}, {args[hPos], cPrev});
        });
    return withProducts(results, hr);
  }

  // GRU: gates z, r, h.
  auto gateOf = [&](OpBuilder &nb, Location l, const Activation &act, Value v) {
    return applyActivation(nb, l, act, applyClip(nb, l, cell, v));
  };
  /// The new H from z, the candidate and the previous H.
  auto update = [&](OpBuilder &nb, Location l, Value z, Value candidate,
                    Value hPrev) {
    // (1 - z) * candidate + z * H
    Value keep =
        nb.create<arith::SubFOp>(l, createScalar(nb, l, element, 1), z);
    return nb
        .create<arith::AddFOp>(l, nb.create<arith::MulFOp>(l, keep, candidate),
                               nb.create<arith::MulFOp>(l, z, hPrev))
        .getResult();
  };
  if (cell.linearBeforeReset) {
    // One product for the three gates, onto the R bias: candidate =
    // act(Xh + Wbh + r * (H Rh' + Rbh)).
    Value hr = createMatMulTransposeB(b, loc, h, ops.r, ops.rInit);
    int64_t xPos[3], hrPos[3];
    for (int64_t k = 0; k < 3; ++k) {
      xPos[k] = addInput(xw, k);
      hrPos[k] = addInput(hr, k);
    }
    SmallVector<Value> results = createCellGeneric(
        b, loc, inputs, numOutputs, stateType, stateSizes, hidden,
        [&](OpBuilder &nb, Location l, ValueRange args) {
          auto sum = [&](int64_t k) {
            return nb.create<arith::AddFOp>(l, args[xPos[k]], args[hrPos[k]])
                .getResult();
          };
          Value z = gateOf(nb, l, acts[0], sum(0));
          Value r = gateOf(nb, l, acts[0], sum(1));
          Value v = nb.create<arith::AddFOp>(
              l, args[xPos[2]], nb.create<arith::MulFOp>(l, r, args[hrPos[2]]));
          Value hPrev = args[hPos];
          return finish(nb, l, args,
                        {update(nb, l, z, gateOf(nb, l, acts[1], v), hPrev)},
                        {hPrev});
        });
    return withProducts(results, xw);
  }

  // The z and r gates onto their projection first, then the h gate's
  // product of r * H onto its own.
  auto slice = [&](Value v, int64_t begin, int64_t count) -> Value {
    return createSlice(
        b, loc, v, {b.getIndexAttr(begin * hidden), b.getIndexAttr(0)},
        {b.getIndexAttr(count * hidden), b.getIndexAttr(hidden)}, {});
  };
  Value rZR = slice(ops.r, 0, 2), rH = slice(ops.r, 2, 1);
  // The columns of `xw` from gate `begin` on, `count` gates wide.
  auto gateColumns = [&](int64_t begin, int64_t count) {
    return std::pair<SmallVector<OpFoldResult>, SmallVector<OpFoldResult>>{
        {b.getIndexAttr(0), b.getIndexAttr(begin * hidden)},
        {stateSizes[0], b.getIndexAttr(count * hidden)}};
  };
  auto [zrOffsets, zrSizes] = gateColumns(0, 2);
  Value hrZR = createMatMulTransposeB(
      b, loc, h, rZR, createSlice(b, loc, xw, zrOffsets, zrSizes, {}));
  SmallVector<std::pair<Value, int64_t>> zrInputs{{hrZR, 0}, {hrZR, 1}, {h, 0}};
  SmallVector<Value> zr = createCellGeneric(
      b, loc, zrInputs, 2, stateType, stateSizes, hidden,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value z = gateOf(nb, l, acts[0], args[0]);
        Value r = gateOf(nb, l, acts[0], args[1]);
        return SmallVector<Value>{z, nb.create<arith::MulFOp>(l, r, args[2])};
      });
  auto [hOffsets, hSizes] = gateColumns(2, 1);
  Value hh = createMatMulTransposeB(
      b, loc, zr[1], rH, createSlice(b, loc, xw, hOffsets, hSizes, {}));
  int64_t hhPos = addInput(hh, 0), zPos = addInput(zr[0], 0);
  SmallVector<Value> results = createCellGeneric(
      b, loc, inputs, numOutputs, stateType, stateSizes, hidden,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value candidate = gateOf(nb, l, acts[1], args[hhPos]);
        Value hPrev = args[hPos];
        return finish(nb, l, args,
                      {update(nb, l, args[zPos], candidate, hPrev)}, {hPrev});
      });
  // The products back into the projection last, after their reads, so that
  // the bufferization can compute them in place.
  Value products = createInsert(b, loc, hrZR, xw, zrOffsets, zrSizes);
  products = createInsert(b, loc, hh, products, hOffsets, hSizes);
  return withProducts(results, products);
}

/// Lowers a recurrent op whose operands are `x`, `w`, `r`, `bias`, `lens`,
/// `initialH`, `initialC` and `p` (the last three `none` for GRU and RNN) and
/// whose results have the types `resultTypes`.
template <typename OpT>
static LogicalResult
lowerRecurrent(OpT op, CellConfig cell, Value x, Value w, Value r, Value bias,
               Value lens, Value initialH, Value initialC, Value p,
               ArrayRef<RankedTensorType> resultTypes, Location loc,
               ConversionPatternRewriter &rewriter) {
  OpBuilder &b = rewriter;
  Type element = resultTypes[0].getElementType();
  int64_t hidden = resultTypes[0].getDimSize(3);
  if (ShapedType::isDynamic(hidden))
    return op.emitOpError("needs a static hidden size (the 'hidden_size' "
                          "attribute) to be lowered");
  cell.hidden = hidden;
  std::optional<int64_t> directions =
      onnx::getRecurrentDirections(op.getDirection());
  bool batchFirst = op.getLayout() == 1;
  auto none = [](Value v) { return !v || isa<NoneType>(v.getType()); };
  if (batchFirst) {
    x = createTranspose(b, loc, x, {1, 0, 2});
    if (!none(initialH))
      initialH = createTranspose(b, loc, initialH, {1, 0, 2});
    if (!none(initialC))
      initialC = createTranspose(b, loc, initialC, {1, 0, 2});
  }
  int64_t gateRows = cell.gates * hidden;
  OpFoldResult seq = getDimSize(b, loc, x, 0);
  OpFoldResult batch = getDimSize(b, loc, x, 1);
  OpFoldResult input = getDimSize(b, loc, x, 2);
  auto xType = cast<RankedTensorType>(x.getType());
  OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
  OpFoldResult hiddenSize = b.getIndexAttr(hidden);
  auto stateType =
      RankedTensorType::get({xType.getDimSize(1), hidden}, element);

  bool needY = !op->getResult(0).use_empty();
  DirectionLowering lowering{
      b, loc, cell, element, x, none(lens) ? Value() : lens, needY};
  // Results in layout 0: Y [seq, dirs, batch, hidden], states [dirs, batch,
  // hidden].
  auto yType = RankedTensorType::get(
      {xType.getDimSize(0), *directions, xType.getDimSize(1), hidden}, element);
  auto statesType = RankedTensorType::get(
      {*directions, xType.getDimSize(1), hidden}, element);
  SmallVector<OpFoldResult> ySizes{seq, b.getIndexAttr(*directions), batch,
                                   hiddenSize};
  SmallVector<OpFoldResult> statesSizes{b.getIndexAttr(*directions), batch,
                                        hiddenSize};
  Value y = needY ? createEmpty(b, loc, yType, ySizes) : Value();
  Value hAll = createEmpty(b, loc, statesType, statesSizes);
  Value cAll = cell.kind == CellKind::LSTM
                   ? createEmpty(b, loc, statesType, statesSizes)
                   : Value();
  for (int64_t d = 0; d < *directions; ++d) {
    OpFoldResult dir = b.getIndexAttr(d);
    DirectionOperands ops;
    ops.w = createSlice(b, loc, w, {dir, zero, zero},
                        {one, b.getIndexAttr(gateRows), input}, {0});
    ops.r = createSlice(b, loc, r, {dir, zero, zero},
                        {one, b.getIndexAttr(gateRows), hiddenSize}, {0});
    if (!none(bias)) {
      ops.wBias = createSlice(b, loc, bias, {dir, zero},
                              {one, b.getIndexAttr(gateRows)}, {0});
      ops.rBias = createSlice(b, loc, bias, {dir, b.getIndexAttr(gateRows)},
                              {one, b.getIndexAttr(gateRows)}, {0});
    }
    if (!none(p))
      ops.p = createSlice(b, loc, p, {dir, zero},
                          {one, b.getIndexAttr(3 * hidden)}, {0});
    auto initialState = [&](Value initial) {
      if (none(initial))
        return createFilled(b, loc, stateType, {batch, hiddenSize},
                            createScalar(b, loc, element, 0));
      return createSlice(b, loc, initial, {dir, zero, zero},
                         {one, batch, hiddenSize}, {0});
    };
    ops.h0 = initialState(initialH);
    if (cell.kind == CellKind::LSTM)
      ops.c0 = initialState(initialC);
    bool reverse =
        op.getDirection() == "reverse" || (*directions == 2 && d == 1);
    DirectionLowering::Result result = lowering.lower(ops, reverse, d);
    if (needY)
      y = createInsert(b, loc, result.y, y, {zero, dir, zero, zero},
                       {seq, one, batch, hiddenSize});
    hAll = createInsert(b, loc, result.h, hAll, {dir, zero, zero},
                        {one, batch, hiddenSize});
    if (cell.kind == CellKind::LSTM)
      cAll = createInsert(b, loc, result.c, cAll, {dir, zero, zero},
                          {one, batch, hiddenSize});
  }
  if (batchFirst) {
    if (needY)
      y = createTranspose(b, loc, y, {2, 0, 1, 3});
    hAll = createTranspose(b, loc, hAll, {1, 0, 2});
    if (cAll)
      cAll = createTranspose(b, loc, cAll, {1, 0, 2});
  }
  // An unused Y is an empty tensor of its shape.
  if (!needY) {
    SmallVector<OpFoldResult> sizes(ySizes);
    if (batchFirst)
      sizes = {batch, seq, b.getIndexAttr(*directions), hiddenSize};
    auto type = RankedTensorType::get(
        batchFirst ? ArrayRef<int64_t>{xType.getDimSize(1), xType.getDimSize(0),
                                       *directions, hidden}
                   : yType.getShape(),
        element);
    y = createEmpty(b, loc, type, sizes);
  }
  SmallVector<Value> results{castTo(b, loc, y, resultTypes[0]),
                             castTo(b, loc, hAll, resultTypes[1])};
  if (cAll)
    results.push_back(castTo(b, loc, cAll, resultTypes[2]));
  rewriter.replaceOp(op, results);
  return success();
}

namespace {
struct LSTMLowering : public ONNXToLinalgMultiResultPattern<onnx::LSTMOp> {
  using ONNXToLinalgMultiResultPattern::ONNXToLinalgMultiResultPattern;

  LogicalResult lower(onnx::LSTMOp op, OpAdaptor adaptor,
                      ArrayRef<RankedTensorType> resultTypes, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    int64_t dirs = *onnx::getRecurrentDirections(op.getDirection());
    CellConfig cell;
    cell.kind = CellKind::LSTM;
    cell.gates = 4;
    if (auto clip = op.getClip())
      cell.clip = clip->convertToDouble();
    cell.inputForget = op.getInputForget() != 0;
    cell.activationsPerDirection = 3;
    cell.activations =
        getActivations(op.getActivations(), {"Sigmoid", "Tanh", "Tanh"}, dirs,
                       op.getActivationAlpha(), op.getActivationBeta());
    return lowerRecurrent(
        op, cell, adaptor.getX(), adaptor.getW(), adaptor.getR(),
        adaptor.getB(), adaptor.getSequenceLens(), adaptor.getInitialH(),
        adaptor.getInitialC(), adaptor.getP(), resultTypes, loc, rewriter);
  }
};

struct GRULowering : public ONNXToLinalgMultiResultPattern<onnx::GRUOp> {
  using ONNXToLinalgMultiResultPattern::ONNXToLinalgMultiResultPattern;

  LogicalResult lower(onnx::GRUOp op, OpAdaptor adaptor,
                      ArrayRef<RankedTensorType> resultTypes, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    int64_t dirs = *onnx::getRecurrentDirections(op.getDirection());
    CellConfig cell;
    cell.kind = CellKind::GRU;
    cell.gates = 3;
    if (auto clip = op.getClip())
      cell.clip = clip->convertToDouble();
    cell.linearBeforeReset = op.getLinearBeforeReset() != 0;
    cell.activationsPerDirection = 2;
    cell.activations =
        getActivations(op.getActivations(), {"Sigmoid", "Tanh"}, dirs,
                       op.getActivationAlpha(), op.getActivationBeta());
    return lowerRecurrent(op, cell, adaptor.getX(), adaptor.getW(),
                          adaptor.getR(), adaptor.getB(),
                          adaptor.getSequenceLens(), adaptor.getInitialH(),
                          Value(), Value(), resultTypes, loc, rewriter);
  }
};

struct RNNLowering : public ONNXToLinalgMultiResultPattern<onnx::RNNOp> {
  using ONNXToLinalgMultiResultPattern::ONNXToLinalgMultiResultPattern;

  LogicalResult lower(onnx::RNNOp op, OpAdaptor adaptor,
                      ArrayRef<RankedTensorType> resultTypes, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    int64_t dirs = *onnx::getRecurrentDirections(op.getDirection());
    CellConfig cell;
    cell.kind = CellKind::RNN;
    cell.gates = 1;
    if (auto clip = op.getClip())
      cell.clip = clip->convertToDouble();
    cell.activationsPerDirection = 1;
    cell.activations =
        getActivations(op.getActivations(), {"Tanh"}, dirs,
                       op.getActivationAlpha(), op.getActivationBeta());
    return lowerRecurrent(op, cell, adaptor.getX(), adaptor.getW(),
                          adaptor.getR(), adaptor.getB(),
                          adaptor.getSequenceLens(), adaptor.getInitialH(),
                          Value(), Value(), resultTypes, loc, rewriter);
  }
};
} // namespace

void onnxc::populateONNXRNNToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<LSTMLowering, GRULowering, RNNLowering>(patterns.getContext());
}
