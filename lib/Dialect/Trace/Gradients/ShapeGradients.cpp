//===- ShapeGradients.cpp - Rules of the shape ops ------------------------===//
//
// The shape ops move elements without arithmetic, so their rules move the
// cotangent back: reshape and transpose invert themselves, broadcast_to
// sums, concat splits, pad slices, slice pads (dilating strided dims first),
// split concatenates and gather scatter-adds through a one-hot matrix
// product. one_hot has no rule: its input is integer.
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

/// gather: a scatter-add of dy into params. With params viewed as
/// [P, N, Q] (N the gathered dim) and dy as [P, I, Q] (I the index count):
///   dparams[p, n, q] = sum_i onehot(clamp(indices))[i, n] * dy[p, i, q],
/// one batched matmul, so repeated indices accumulate. The indices are
/// clamped to [0, N - 1] exactly as the forward gather clamps them.
struct GatherGradient
    : DifferentiableOpInterface::ExternalModel<GatherGradient, GatherOp> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto gather = cast<GatherOp>(op);
    // The indices may have `?` dims (a dynamic batch of lookups), and so
    // may params except along the axis, which gives the one-hot depth; of
    // the three sizes [P, I, Q] one at most can be `?` (the reshape infers
    // it).
    Location loc = op->getLoc();
    auto paramsType = cast<RankedTensorType>(gather.getParams().getType());
    auto indicesType = cast<RankedTensorType>(gather.getIndices().getType());
    ArrayRef<int64_t> shape = paramsType.getShape();
    int64_t axis = *normalizeAxis(gather.getAxis(), shape.size());
    int64_t depth = shape[axis];
    if (ShapedType::isDynamic(depth))
      return op->emitOpError("gradient needs a static params size along the "
                             "gathered axis ")
             << axis << ", got " << paramsType;
    if (depth == 0)
      return success(); // Empty params: nothing to scatter into.
    // -1: a `?` among the factors, inferred from the element count.
    auto product = [](ArrayRef<int64_t> dims) -> int64_t {
      int64_t result = 1;
      for (int64_t dim : dims) {
        if (ShapedType::isDynamic(dim))
          return -1;
        result *= dim;
      }
      return result;
    };
    int64_t outer = product(shape.take_front(axis));
    int64_t inner = product(shape.drop_front(axis + 1));
    int64_t count = product(indicesType.getShape());
    if ((outer == -1) + (inner == -1) + (count == -1) > 1)
      return op->emitOpError("gradient needs static sizes in all but one of "
                             "params' dims before the axis, the indices' and "
                             "params' dims after the axis, got params ")
             << paramsType << " and indices " << indicesType;

    Type indexElement = indicesType.getElementType();
    auto indexConstant = [&](int64_t value) -> Value {
      auto type = RankedTensorType::get({}, indexElement);
      return ConstantOp::create(
          builder, loc,
          DenseElementsAttr::get(type,
                                 builder.getIntegerAttr(indexElement, value)));
    };
    Value indices = state.primal(gather.getIndices());
    indices = MaxOp::create(builder, loc, indices, indexConstant(0));
    indices = MinOp::create(builder, loc, indices, indexConstant(depth - 1));
    indices = ReshapeOp::create(builder, loc, indices,
                                ArrayRef<int64_t>{count});
    Value oneHot = OneHotOp::create(builder, loc, indices, depth,
                                    paramsType.getElementType());

    Value dy = ReshapeOp::create(builder, loc, state.cotangent(gather.getResult()),
                                 ArrayRef<int64_t>{outer, count, inner});
    // [I, N]^T @ [P, I, Q] -> [P, N, Q].
    Value scattered = MatmulOp::create(builder, loc, oneHot, dy,
                                       /*transpose_a=*/true,
                                       /*transpose_b=*/false);
    GradientBuilder g(builder, loc);
    Value dx = g.reshapeLike(scattered, state.primal(gather.getParams()));
    return state.accumulate(gather.getParams(), dx);
  }
  /// Linear in params (the indices stay): the op applied to the tangent.
  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    return emitLinearTangent(op, builder, state,
                             cast<GatherOp>(op).getParams());
  }
};

/// tensor.insert_slice and tensor.extract_slice, which the reverse rule of
/// scf.for builds to tape the carried values: linear (jointly in the slice
/// and the tensor it goes into), so forward mode goes through them (the
/// jvp of a gradient through a loop: forward-over-reverse). They have no
/// reverse rule (reverse-over-reverse through loops is not supported).
template <typename OpTy>
struct TensorSliceTangent
    : DifferentiableOpInterface::ExternalModel<TensorSliceTangent<OpTy>,
                                               OpTy> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &, AdjointState &) const {
    return op->emitError("cannot differentiate '")
           << op->getName() << "': it has no gradient rule";
  }
  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    SmallVector<unsigned> tensors;
    for (OpOperand &operand : op->getOpOperands())
      if (carriesTangent(operand.get().getType()))
        tensors.push_back(operand.getOperandNumber());
    return emitMultilinearTangent(op, builder, state, {tensors});
  }
};

} // namespace

void mlir::trace::registerTensorGradients(MLIRContext *context) {
  tensor::CastOp::attachInterface<TensorCastGradient>(*context);
  tensor::InsertSliceOp::attachInterface<
      TensorSliceTangent<tensor::InsertSliceOp>>(*context);
  tensor::ExtractSliceOp::attachInterface<
      TensorSliceTangent<tensor::ExtractSliceOp>>(*context);
}

void mlir::trace::registerShapeGradients(MLIRContext *context) {
  ReshapeOp::attachInterface<ReshapeGradient>(*context);
  TransposeOp::attachInterface<TransposeGradient>(*context);
  BroadcastToOp::attachInterface<BroadcastToGradient>(*context);
  FillOp::attachInterface<FillGradient>(*context);
  ConcatOp::attachInterface<ConcatGradient>(*context);
  SliceOp::attachInterface<SliceGradient>(*context);
  PadOp::attachInterface<PadGradient>(*context);
  SplitOp::attachInterface<SplitGradient>(*context);
  GatherOp::attachInterface<GatherGradient>(*context);
}
