//===- ShapeGradients.cpp - Rules of the shape ops ------------------------===//
//
// The shape ops move elements without arithmetic, so their rules move the
// cotangent back: reshape and transpose invert themselves, broadcast_to
// sums, concat splits, pad slices, slice pads (dilating strided dims first),
// split concatenates, gather scatter-adds (trace.scatter_add) and
// scatter_add gathers. one_hot has no rule: its input is integer.
//
// The shape ops are linear in the tensor they move (not in `like`, which
// gives only a shape, nor in gather's indices): their tangent is the op
// applied to the tangent (LinearTangents.cpp); pad pads it with zeros.
//
// At `?` dims the sizes come from the primal operands at run time: concat's
// cotangent is split `like` its inputs, pad's sliced `like` its operand,
// slice's padded `like` its operand.
//
//===----------------------------------------------------------------------===//

#include "GradientModels.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/TypeUtilities.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

using namespace mlir;
using namespace mlir::trace;

namespace {

/// reshape: dx = reshape(dy) to x's shape (`like` x where x has several
/// `?` dims that dy's sizes do not determine). `like` only gives a shape:
/// it gets no cotangent.
struct ReshapeGradient
    : DifferentiableOpInterface::ExternalModel<ReshapeGradient, ReshapeOp> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto reshape = cast<ReshapeOp>(op);
    GradientBuilder g(builder, op->getLoc());
    Value dx = g.reshapeLike(state.cotangent(reshape.getResult()),
                             state.primal(reshape.getX()));
    return state.accumulate(reshape.getX(), dx);
  }
  /// Linear: the op applied to the tangent.
  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    return emitLinearTangent(op, builder, state, cast<ReshapeOp>(op).getX());
  }
};

/// tensor.cast (which the rules insert where a cotangent knows more or less
/// of a size than its operand's type): dx = dy cast back to x's type.
struct TensorCastGradient
    : DifferentiableOpInterface::ExternalModel<TensorCastGradient,
                                               tensor::CastOp> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto castOp = cast<tensor::CastOp>(op);
    Value dy = state.cotangent(castOp.getResult());
    return state.accumulate(castOp.getSource(),
                            tensor::CastOp::create(builder, op->getLoc(),
                                                   castOp.getSource().getType(),
                                                   dy));
  }
  /// Linear: the op applied to the tangent.
  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    return emitLinearTangent(op, builder, state,
                             cast<tensor::CastOp>(op).getSource());
  }
};

/// transpose: dx = transpose(dy, inverse(perm)), inverse[perm[i]] = i.
struct TransposeGradient
    : DifferentiableOpInterface::ExternalModel<TransposeGradient,
                                               TransposeOp> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto transpose = cast<TransposeOp>(op);
    ArrayRef<int64_t> perm = transpose.getPerm();
    SmallVector<int64_t> inverse(perm.size());
    for (auto [i, p] : llvm::enumerate(perm))
      inverse[p] = i;
    Value dx = TransposeOp::create(builder, op->getLoc(),
                                   state.cotangent(transpose.getResult()),
                                   inverse);
    return state.accumulate(transpose.getX(), dx);
  }
  /// Linear: the op applied to the tangent.
  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    return emitLinearTangent(op, builder, state, cast<TransposeOp>(op).getX());
  }
};

/// broadcast_to: dx = dy summed over the broadcast dims (`like` only gives
/// a shape).
struct BroadcastToGradient
    : DifferentiableOpInterface::ExternalModel<BroadcastToGradient,
                                               BroadcastToOp> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto broadcast = cast<BroadcastToOp>(op);
    GradientBuilder g(builder, op->getLoc());
    Value dx = g.unbroadcast(state.cotangent(broadcast.getResult()),
                             broadcast.getX().getType());
    return state.accumulate(broadcast.getX(), dx);
  }
  /// Linear: the op applied to the tangent.
  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    return emitLinearTangent(op, builder, state,
                             cast<BroadcastToOp>(op).getX());
  }
};

/// fill: the scalar was broadcast everywhere, so its cotangent is the sum
/// of dy.
struct FillGradient
    : DifferentiableOpInterface::ExternalModel<FillGradient, FillOp> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto fill = cast<FillOp>(op);
    GradientBuilder g(builder, op->getLoc());
    return state.accumulate(
        fill.getValue(), g.unbroadcast(state.cotangent(fill.getResult()),
                                       fill.getValue().getType()));
  }
  /// Linear in the scalar: the op applied to the tangent.
  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    return emitLinearTangent(op, builder, state, cast<FillOp>(op).getValue());
  }
};

/// concat: input k's cotangent is dy[..., offset_k : offset_k + size_k, ...]
/// along the axis; with `?` dims, dy split `like` the inputs (the offsets
/// are then run-time sums).
struct ConcatGradient
    : DifferentiableOpInterface::ExternalModel<ConcatGradient, ConcatOp> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto concat = cast<ConcatOp>(op);
    Value dy = state.cotangent(concat.getResult());
    ArrayRef<int64_t> shape = concat.getType().getShape();
    int64_t axis = *normalizeAxis(concat.getAxis(), shape.size());
    if (!concat.getType().hasStaticShape()) {
      SmallVector<Value> likes;
      for (Value input : concat.getInputs())
        likes.push_back(state.primal(input));
      auto split = SplitOp::create(builder, op->getLoc(), dy, likes, axis);
      for (auto [input, dx] :
           llvm::zip_equal(concat.getInputs(), split.getResults()))
        if (failed(state.accumulate(input, dx)))
          return failure();
      return success();
    }
    int64_t offset = 0;
    for (Value input : concat.getInputs()) {
      int64_t size = cast<RankedTensorType>(input.getType()).getDimSize(axis);
      SmallVector<int64_t> start(shape.size(), 0), limit(shape);
      start[axis] = offset;
      limit[axis] = offset + size;
      offset += size;
      Value dx = SliceOp::create(builder, op->getLoc(), dy, start, limit,
                                 DenseI64ArrayAttr());
      if (failed(state.accumulate(input, dx)))
        return failure();
    }
    return success();
  }

  /// Linear in all inputs jointly: the concat of their tangents (zeros for
  /// inputs without one).
  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    SmallVector<unsigned> inputs;
    for (OpOperand &input : cast<ConcatOp>(op).getInputsMutable())
      inputs.push_back(input.getOperandNumber());
    return emitMultilinearTangent(op, builder, state, {inputs});
  }
};

/// split: dx is the concatenation of the pieces' cotangents (zeros shaped
/// like the pieces that got none).
struct SplitGradient
    : DifferentiableOpInterface::ExternalModel<SplitGradient, SplitOp> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto split = cast<SplitOp>(op);
    GradientBuilder g(builder, op->getLoc());
    SmallVector<Value> pieces;
    bool any = false;
    for (auto [piece, like] :
         llvm::zip_equal(split.getResults(), split.getLike())) {
      Value dy = state.cotangent(piece);
      any |= static_cast<bool>(dy);
      pieces.push_back(dy ? dy
                          : g.broadcastLike(g.constant(0.0, split.getX()),
                                            state.primal(like)));
    }
    if (!any)
      return success();
    return state.accumulate(
        split.getX(),
        ConcatOp::create(builder, op->getLoc(), pieces, split.getAxis()));
  }
  /// Linear: every piece's tangent is a piece of the tangent: the op applied to
  /// the tangent.
  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    return emitLinearTangent(op, builder, state, cast<SplitOp>(op).getX());
  }
};

/// slice: dx is dy placed at x[start:limit:strides] in zeros. A strided dim
/// is first dilated (stride - 1 zeros after each element: reshape [n] to
/// [n, 1], pad to [n, stride], reshape to [n * stride], and slice off the
/// trailing zeros, leaving (n - 1) * stride + 1 elements); then every dim is
/// padded with `start` zeros before and the rest of x's dim after (up to
/// the size of x `like` x, where x or dy has `?` dims).
struct SliceGradient
    : DifferentiableOpInterface::ExternalModel<SliceGradient, SliceOp> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto slice = cast<SliceOp>(op);
    Location loc = op->getLoc();
    auto xType = cast<RankedTensorType>(slice.getX().getType());
    ArrayRef<int64_t> counts = slice.getType().getShape();
    int64_t rank = xType.getRank();
    SmallVector<int64_t> strides(rank, 1);
    if (auto given = slice.getStrides())
      strides.assign(given->begin(), given->end());

    // The dilation of the strided dims (one or no elements need none; a
    // strided slice has a static result).
    SmallVector<int64_t> split, splitHigh, dilated, extents;
    bool dilates = false;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t n = counts[d], stride = strides[d];
      split.push_back(n);
      splitHigh.push_back(0);
      if (stride == 1 || n <= 1) {
        dilated.push_back(n);
        extents.push_back(n);
        continue;
      }
      dilates = true;
      split.push_back(1);
      splitHigh.push_back(stride - 1);
      dilated.push_back(n * stride);
      extents.push_back((n - 1) * stride + 1);
    }
    Value dx = state.cotangent(slice.getResult());
    if (dilates) {
      dx = ReshapeOp::create(builder, loc, dx, split);
      dx = PadOp::create(builder, loc, dx, SmallVector<int64_t>(split.size(), 0),
                         splitHigh, APFloat(0.0));
      dx = ReshapeOp::create(builder, loc, dx, dilated);
      dx = SliceOp::create(builder, loc, dx, SmallVector<int64_t>(rank, 0),
                           extents, DenseI64ArrayAttr());
    }
    ArrayRef<int64_t> start = slice.getStart();
    if (!xType.hasStaticShape() || !slice.getType().hasStaticShape()) {
      dx = PadOp::create(builder, loc, dx, state.primal(slice.getX()), start);
      return state.accumulate(slice.getX(), dx);
    }
    SmallVector<int64_t> high;
    for (int64_t d = 0; d < rank; ++d)
      high.push_back(xType.getDimSize(d) - start[d] - extents[d]);
    dx = PadOp::create(builder, loc, dx, start, high, APFloat(0.0));
    return state.accumulate(slice.getX(), dx);
  }
  /// Linear: the op applied to the tangent.
  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    return emitLinearTangent(op, builder, state, cast<SliceOp>(op).getX());
  }
};

/// pad: dx = dy[low : low + dim] per dim (the padding value is a constant);
/// the dims are x's, `like` x where it has `?` dims.
struct PadGradient
    : DifferentiableOpInterface::ExternalModel<PadGradient, PadOp> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto pad = cast<PadOp>(op);
    auto xType = cast<RankedTensorType>(pad.getX().getType());
    ArrayRef<int64_t> low = pad.getLow();
    Value dy = state.cotangent(pad.getResult());
    if (!xType.hasStaticShape()) {
      Value dx = SliceOp::create(builder, op->getLoc(), dy,
                                 state.primal(pad.getX()), low);
      return state.accumulate(pad.getX(), dx);
    }
    SmallVector<int64_t> limit;
    for (auto [l, dim] : llvm::zip(low, xType.getShape()))
      limit.push_back(l + dim);
    Value dx =
        SliceOp::create(builder, op->getLoc(), dy, low, limit,
                        DenseI64ArrayAttr());
    return state.accumulate(pad.getX(), dx);
  }

  /// Affine (the padding value is a constant): the tangent padded with 0.
  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    auto pad = cast<PadOp>(op);
    return emitMultilinearTangent(op, builder, state,
                                  {{pad.getXMutable().getOperandNumber()}},
                                  [&](Operation *applied) {
                                    cast<PadOp>(applied).setValue(APFloat(0.0));
                                  });
  }
};

/// gather: dparams = scatter_add(zeros like params, indices, dy), the
/// op's exact adjoint (same axis, same clamping, repeated indices summing):
/// O(indices x row) work at any `?` dims, the gathered one included.
/// Tangent (forward mode): t_y = gather(t_params, indices).
struct GatherGradient
    : DifferentiableOpInterface::ExternalModel<GatherGradient, GatherOp> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto gather = cast<GatherOp>(op);
    Value dy = state.cotangent(gather.getResult());
    if (!dy)
      return success();
    Location loc = op->getLoc();
    FailureOr<Value> zeros =
        zerosLike(builder, loc, state.primal(gather.getParams()));
    if (failed(zeros))
      return failure();
    Value dx = ScatterAddOp::create(builder, loc, *zeros,
                                    state.primal(gather.getIndices()), dy,
                                    gather.getAxis());
    return state.accumulate(gather.getParams(), dx);
  }
  /// Linear in params (the indices stay): the op applied to the tangent.
  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    return emitLinearTangent(op, builder, state,
                             cast<GatherOp>(op).getParams());
  }
};

/// A slice op's offsets, sizes and strides, in the adjoint's terms.
struct PrimalSlice {
  SmallVector<OpFoldResult> offsets, sizes, strides;

  PrimalSlice(OffsetSizeAndStrideOpInterface op, AdjointState &state)
      : offsets(primalsOf(op.getMixedOffsets(), state)),
        sizes(primalsOf(op.getMixedSizes(), state)),
        strides(primalsOf(op.getMixedStrides(), state)) {}

  static SmallVector<OpFoldResult> primalsOf(ArrayRef<OpFoldResult> values,
                                             AdjointState &state) {
    SmallVector<OpFoldResult> primals;
    for (OpFoldResult value : values) {
      if (auto v = dyn_cast<Value>(value))
        primals.push_back(state.primal(v));
      else
        primals.push_back(value);
    }
    return primals;
  }
};

/// tensor.extract_slice and tensor.insert_slice, which the loop rules build
/// to tape the carried values (so a gradient through a loop is itself
/// differentiable: reverse-over-reverse). Both are linear, jointly in the
/// slice and the tensor it comes from or goes into:
///   extract_slice: dsource = dy inserted into zeros at the slice;
///   insert_slice:  dsource = dy's slice, ddest = dy with zeros at the slice.
/// Neither reads the contents of the big tensor, only its shape (a loop rule
/// relies on that to tape a tape's own carry by its sizes only:
/// RegionGradients.h). Their tangent is the op applied to the tangents.
LogicalResult emitSliceTangent(Operation *op, OpBuilder &builder,
                               TangentState &state) {
  SmallVector<unsigned> tensors;
  for (OpOperand &operand : op->getOpOperands())
    if (carriesTangent(operand.get().getType()))
      tensors.push_back(operand.getOperandNumber());
  return emitMultilinearTangent(op, builder, state, {tensors});
}

struct ExtractSliceGradient
    : DifferentiableOpInterface::ExternalModel<ExtractSliceGradient,
                                               tensor::ExtractSliceOp> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto extract = cast<tensor::ExtractSliceOp>(op);
    Value dy = state.cotangent(extract.getResult());
    if (!dy || !state.isActive(extract.getSource()))
      return success();
    Location loc = op->getLoc();
    FailureOr<Value> zeros =
        zerosLike(builder, loc, state.primal(extract.getSource()));
    if (failed(zeros))
      return failure();
    PrimalSlice slice(extract, state);
    Value dx = tensor::InsertSliceOp::create(builder, loc, dy, *zeros,
                                             slice.offsets, slice.sizes,
                                             slice.strides);
    return state.accumulate(extract.getSource(), dx);
  }
  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    return emitSliceTangent(op, builder, state);
  }
};

struct InsertSliceGradient
    : DifferentiableOpInterface::ExternalModel<InsertSliceGradient,
                                               tensor::InsertSliceOp> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto insert = cast<tensor::InsertSliceOp>(op);
    Value dy = state.cotangent(insert.getResult());
    if (!dy)
      return success();
    Location loc = op->getLoc();
    PrimalSlice slice(insert, state);
    if (state.isActive(insert.getSource())) {
      Value dsource = tensor::ExtractSliceOp::create(
          builder, loc, insert.getSourceType(), dy, slice.offsets, slice.sizes,
          slice.strides);
      if (failed(state.accumulate(insert.getSource(), dsource)))
        return failure();
    }
    if (!state.isActive(insert.getDest()))
      return success();
    FailureOr<Value> zeros =
        zerosLike(builder, loc, state.primal(insert.getSource()));
    if (failed(zeros))
      return failure();
    Value ddest =
        tensor::InsertSliceOp::create(builder, loc, *zeros, dy, slice.offsets,
                                      slice.sizes, slice.strides);
    return state.accumulate(insert.getDest(), ddest);
  }
  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    return emitSliceTangent(op, builder, state);
  }
};

/// scatter_add(operand, indices, updates) is linear in (operand, updates):
/// doperand = ct, dupdates = gather(ct, indices) (the clamped rows the
/// updates went to). Tangent (forward mode): t_y = scatter_add(t_operand,
/// indices, t_updates).
struct ScatterAddGradient
    : DifferentiableOpInterface::ExternalModel<ScatterAddGradient,
                                               ScatterAddOp> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto scatter = cast<ScatterAddOp>(op);
    Value ct = state.cotangent(scatter.getResult());
    if (!ct)
      return success();
    if (state.isActive(scatter.getOperand()) &&
        failed(state.accumulate(scatter.getOperand(), ct)))
      return failure();
    if (!state.isActive(scatter.getUpdates()))
      return success();
    Value dUpdates =
        GatherOp::create(builder, op->getLoc(), ct,
                         state.primal(scatter.getIndices()), scatter.getAxis());
    return state.accumulate(scatter.getUpdates(), dUpdates);
  }

  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    // Jointly linear in (operand, updates); the indices are not.
    return emitMultilinearTangent(op, builder, state, {{0, 2}});
  }
};

/// sort permutes each operand along the axis by the keys' order. The
/// permutation is the second result of sorting (keys, iota); a cotangent
/// goes back through its inverse (sorting (permutation, cotangent)
/// ascending puts every element back where it came from), a tangent
/// through the same sort of the keys. Integer and bool operands have none.
struct SortGradient
    : DifferentiableOpInterface::ExternalModel<SortGradient, SortOp> {
  static bool isFloat(Value v) {
    return isa<FloatType>(getElementTypeOrSelf(v.getType()));
  }

  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto sort = cast<SortOp>(op);
    SmallVector<unsigned> operands;
    SmallVector<Value> carried;
    for (auto [i, result] : llvm::enumerate(sort.getResults())) {
      Value dy = isFloat(result) ? state.cotangent(result) : Value();
      if (!dy)
        continue;
      operands.push_back(i);
      carried.push_back(dy);
    }
    if (carried.empty())
      return success();
    Location loc = op->getLoc();
    Value keys = state.primal(sort.getInputs().front());
    auto keysType = cast<RankedTensorType>(keys.getType());
    int64_t axis = *normalizeAxis(sort.getAxis(), keysType.getRank());
    auto iotaType = keysType.clone(builder.getI32Type());
    Value iota =
        keysType.hasStaticShape()
            ? IotaOp::create(builder, loc, iotaType, axis).getResult()
            : IotaOp::create(builder, loc, iotaType, keys, axis).getResult();
    Value permutation = SortOp::create(builder, loc, ValueRange{keys, iota},
                                       axis, sort.getDescending())
                            .getResult(1);
    carried.insert(carried.begin(), permutation);
    auto back = SortOp::create(builder, loc, carried, axis,
                               /*descending=*/false);
    for (auto [k, i] : llvm::enumerate(operands))
      if (failed(state.accumulate(sort.getInputs()[i], back.getResult(k + 1))))
        return failure();
    return success();
  }

  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    auto sort = cast<SortOp>(op);
    SmallVector<unsigned> operands;
    SmallVector<Value> carried = {state.primal(sort.getInputs().front())};
    for (auto [i, input] : llvm::enumerate(sort.getInputs())) {
      Value tangent = isFloat(input) ? state.tangent(input) : Value();
      if (!tangent)
        continue;
      operands.push_back(i);
      carried.push_back(tangent);
    }
    if (operands.empty())
      return success();
    auto sorted = SortOp::create(builder, op->getLoc(), carried, sort.getAxis(),
                                 sort.getDescending());
    for (auto [k, i] : llvm::enumerate(operands))
      if (failed(state.setTangent(sort.getResult(i), sorted.getResult(k + 1))))
        return failure();
    return success();
  }
};

} // namespace

void mlir::trace::registerTensorGradients(MLIRContext *context) {
  tensor::CastOp::attachInterface<TensorCastGradient>(*context);
  tensor::InsertSliceOp::attachInterface<InsertSliceGradient>(*context);
  tensor::ExtractSliceOp::attachInterface<ExtractSliceGradient>(*context);
}

void mlir::trace::registerShapeGradients(MLIRContext *context) {
  ReshapeOp::attachInterface<ReshapeGradient>(*context);
  TransposeOp::attachInterface<TransposeGradient>(*context);
  BroadcastToOp::attachInterface<BroadcastToGradient>(*context);
  FillOp::attachInterface<FillGradient>(*context);
  ConcatOp::attachInterface<ConcatGradient>(*context);
  SortOp::attachInterface<SortGradient>(*context);
  SliceOp::attachInterface<SliceGradient>(*context);
  PadOp::attachInterface<PadGradient>(*context);
  SplitOp::attachInterface<SplitGradient>(*context);
  GatherOp::attachInterface<GatherGradient>(*context);
  ScatterAddOp::attachInterface<ScatterAddGradient>(*context);
}
