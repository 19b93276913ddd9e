//===- TensorOps.cpp - TF sources, matmul, reductions and shape ops -------===//
//
// Shapes, axes and permutations are inputs in TensorFlow and attributes in
// the dialect: they must be constants (Const nodes, Shape of a static
// shape, or arithmetic on those: Keras' Flatten computes Shape ->
// StridedSlice -> Pack -> Prod), as tfcompile also requires. Each node is
// built with createOrFold (NodeBuilder::foldResult), so the ops' folders
// keep such arithmetic constant.
//
//===----------------------------------------------------------------------===//

#include "NodeBuilder.h"

#include "tracec/Dialect/Trace/IR/TraceOps.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tracec::graphdef;
namespace trace = mlir::trace;

static NodeResults one(FailureOr<Value> value) {
  if (failed(value))
    return failure();
  return SmallVector<Value>{*value};
}

/// `axis` counted from the end when negative; an error if out of range.
static FailureOr<int64_t> normalizeAxis(NodeBuilder &b, int64_t axis,
                                        int64_t rank) {
  if (axis < -rank || axis >= rank)
    return b.error() << "axis " << axis << " is out of range for rank "
                     << rank;
  return axis < 0 ? axis + rank : axis;
}


static NodeResults constOp(NodeBuilder &b) {
  const tf::AttrValue *value = b.attr("value");
  if (!value || value->value_case() != tf::AttrValue::kTensor)
    return b.error() << "missing tensor attribute 'value'";
  FailureOr<DenseElementsAttr> attr = convertTensor(value->tensor(), b.loc);
  if (failed(attr))
    return failure();
  return SmallVector<Value>{b.constant(*attr)};
}

/// Identity and its relatives: the inputs themselves (control inputs are
/// applied by the importer, as for every node).
static NodeResults forward(NodeBuilder &b) {
  if (b.node.op() != "IdentityN" && failed(b.checkInputs(1)))
    return failure();
  return b.inputs;
}

static NodeResults noOp(NodeBuilder &b) { return SmallVector<Value>{}; }

static NodeResults stopGradient(NodeBuilder &b) {
  if (failed(b.checkInputs(1)))
    return failure();
  return one(b.create<trace::StopGradientOp>({b.inputs[0]}));
}

static NodeResults matmul(NodeBuilder &b) {
  if (failed(b.checkInputs(2)))
    return failure();
  bool batch = b.node.op() != "MatMul";
  FailureOr<bool> ta = b.boolAttr(batch ? "adj_x" : "transpose_a", false);
  FailureOr<bool> tb = b.boolAttr(batch ? "adj_y" : "transpose_b", false);
  if (failed(ta) || failed(tb))
    return failure();
  SmallVector<NamedAttribute> attrs;
  if (*ta)
    attrs.push_back(b.named("transpose_a", b.builder.getUnitAttr()));
  if (*tb)
    attrs.push_back(b.named("transpose_b", b.builder.getUnitAttr()));
  if (batch) {
    if (RankedTensorType x = b.inputType(0);
        x && x.getRank() >= 2 && x.getDimSize(x.getRank() - 1) == 0)
      return b.error() << "empty contraction";
    // BatchMatMulV3's Tout: the product is computed in the inputs' type.
  }
  return one(b.create<trace::MatmulOp>({b.inputs[0], b.inputs[1]}, attrs));
}

/// Reduction axes: a scalar or 1-D constant, normalized.
static FailureOr<SmallVector<int64_t>> reductionAxes(NodeBuilder &b) {
  FailureOr<SmallVector<int64_t>> axes = b.constantInts(1, "axes");
  if (failed(axes))
    return failure();
  int64_t rank = b.inputType(0).getRank();
  SmallVector<int64_t> result;
  for (int64_t axis : *axes) {
    FailureOr<int64_t> normalized = normalizeAxis(b, axis, rank);
    if (failed(normalized))
      return failure();
    if (!llvm::is_contained(result, *normalized))
      result.push_back(*normalized);
  }
  llvm::sort(result);
  return result;
}

template <typename OpTy> static NodeResults reduction(NodeBuilder &b) {
  if (failed(b.checkInputs(2)))
    return failure();
  FailureOr<SmallVector<int64_t>> axes = reductionAxes(b);
  FailureOr<bool> keepdims = b.boolAttr("keep_dims", false);
  if (failed(axes) || failed(keepdims))
    return failure();
  // No axes: TensorFlow returns the input unchanged (NumPy would reduce all).
  if (axes->empty())
    return SmallVector<Value>{b.inputs[0]};
  SmallVector<NamedAttribute> attrs{b.named("axes", b.i64s(*axes))};
  if (*keepdims)
    attrs.push_back(b.named("keepdims", b.builder.getUnitAttr()));
  return one(b.create<OpTy>({b.inputs[0]}, attrs));
}

static NodeResults argmax(NodeBuilder &b) {
  if (failed(b.checkInputs(2)))
    return failure();
  FailureOr<SmallVector<int64_t>> axis = b.constantInts(1, "dimension");
  if (failed(axis))
    return failure();
  if (axis->size() != 1)
    return b.error() << "the dimension must be a scalar";
  Type outType = b.builder.getI64Type();
  if (b.attr("output_type")) {
    FailureOr<Type> type = b.typeAttr("output_type");
    if (failed(type))
      return failure();
    outType = *type;
  }
  FailureOr<Value> index = b.create<trace::ArgmaxOp>(
      {b.inputs[0]},
      {b.named("axis", b.builder.getI64IntegerAttr((*axis)[0]))});
  if (failed(index))
    return failure();
  return one(b.cast(*index, outType));
}

template <typename OpTy> static NodeResults softmax(NodeBuilder &b) {
  if (failed(b.checkInputs(1)))
    return failure();
  return one(b.create<OpTy>({b.inputs[0]},
                            {b.named("axis", b.builder.getI64IntegerAttr(-1))}));
}

static NodeResults reshape(NodeBuilder &b) {
  if (failed(b.checkInputs(2)))
    return failure();
  FailureOr<SmallVector<int64_t>> shape = b.constantInts(1, "shape");
  if (failed(shape))
    return failure();
  if (llvm::count(*shape, -1) > 1)
    return b.error() << "the shape has more than one -1";
  // As TensorFlow: with a 0 among the other dims, no element count tells
  // what the -1 stands for.
  if (llvm::is_contained(*shape, -1) && llvm::is_contained(*shape, 0))
    return b.error() << "the shape has a -1 and a 0: the -1 cannot be "
                        "inferred where the other dims hold no elements";
  if (llvm::any_of(*shape, [](int64_t dim) { return dim < -1; }))
    return b.error() << "the shape has a negative size other than -1";
  return one(b.reshape(b.inputs[0], *shape));
}

static NodeResults transpose(NodeBuilder &b) {
  if (failed(b.checkInputs(2)))
    return failure();
  FailureOr<SmallVector<int64_t>> perm = b.constantInts(1, "perm");
  if (failed(perm))
    return failure();
  return one(b.create<trace::TransposeOp>({b.inputs[0]},
                                          {b.named("perm", b.i64s(*perm))}));
}

static NodeResults expandDims(NodeBuilder &b) {
  if (failed(b.checkInputs(2)))
    return failure();
  FailureOr<SmallVector<int64_t>> axis = b.constantInts(1, "axis");
  if (failed(axis))
    return failure();
  if (axis->size() != 1)
    return b.error() << "the axis must be a scalar";
  SmallVector<int64_t> shape(b.inputType(0).getShape());
  FailureOr<int64_t> at = normalizeAxis(b, (*axis)[0], shape.size() + 1);
  if (failed(at))
    return failure();
  shape.insert(shape.begin() + *at, 1);
  return one(b.reshape(b.inputs[0], shape));
}

static NodeResults squeeze(NodeBuilder &b) {
  if (failed(b.checkInputs(1)))
    return failure();
  FailureOr<SmallVector<int64_t>> dims =
      b.intListAttr("squeeze_dims", ArrayRef<int64_t>{});
  if (failed(dims))
    return failure();
  ArrayRef<int64_t> in = b.inputType(0).getShape();
  SmallVector<bool> drop(in.size(), dims->empty());
  for (int64_t dim : *dims) {
    FailureOr<int64_t> axis = normalizeAxis(b, dim, in.size());
    if (failed(axis))
      return failure();
    if (in[*axis] != 1)
      return b.error() << "cannot squeeze dim " << dim << " of size "
                       << in[*axis];
    drop[*axis] = true;
  }
  SmallVector<int64_t> shape;
  for (auto [i, size] : llvm::enumerate(in))
    if (!drop[i] || size != 1)
      shape.push_back(size);
  return one(b.reshape(b.inputs[0], shape));
}

static NodeResults concat(NodeBuilder &b) {
  if (failed(b.checkListInputs(/*min=*/2, /*others=*/1)))
    return failure();
  unsigned n = b.inputs.size() - 1;
  FailureOr<SmallVector<int64_t>> axis = b.constantInts(n, "axis");
  if (failed(axis))
    return failure();
  if (axis->size() != 1)
    return b.error() << "the axis must be a scalar";
  if (n == 1)
    return SmallVector<Value>{b.inputs[0]};
  return one(b.create<trace::ConcatOp>(
      ValueRange(b.inputs).take_front(n),
      {b.named("axis", b.builder.getI64IntegerAttr((*axis)[0]))}));
}

/// Pack: each input gets a new dim of 1 at `axis`, then they are joined.
static NodeResults pack(NodeBuilder &b) {
  if (failed(b.checkListInputs(/*min=*/1, /*others=*/0)))
    return failure();
  FailureOr<int64_t> axisAttr = b.intAttr("axis", 0);
  if (failed(axisAttr))
    return failure();
  SmallVector<int64_t> shape(b.inputType(0).getShape());
  FailureOr<int64_t> axis = normalizeAxis(b, *axisAttr, shape.size() + 1);
  if (failed(axis))
    return failure();
  shape.insert(shape.begin() + *axis, 1);
  SmallVector<Value> parts;
  for (Value x : b.inputs) {
    FailureOr<Value> part = b.reshape(x, shape);
    if (failed(part))
      return failure();
    parts.push_back(*part);
  }
  if (parts.size() == 1)
    return parts;
  return one(b.create<trace::ConcatOp>(
      parts, {b.named("axis", b.builder.getI64IntegerAttr(*axis))}));
}

/// Unpack: one slice per index along `axis`, that dim dropped.
static NodeResults unpack(NodeBuilder &b) {
  if (failed(b.checkInputs(1)))
    return failure();
  FailureOr<int64_t> axisAttr = b.intAttr("axis", 0);
  if (failed(axisAttr))
    return failure();
  ArrayRef<int64_t> in = b.inputType(0).getShape();
  FailureOr<int64_t> axis = normalizeAxis(b, *axisAttr, in.size());
  if (failed(axis))
    return failure();
  SmallVector<int64_t> start(in.size(), 0), limit(in), shape(in);
  shape.erase(shape.begin() + *axis);
  SmallVector<Value> results;
  for (int64_t i = 0; i < in[*axis]; ++i) {
    start[*axis] = i;
    limit[*axis] = i + 1;
    FailureOr<Value> part = b.create<trace::SliceOp>(
        {b.inputs[0]},
        {b.named("start", b.i64s(start)), b.named("limit", b.i64s(limit))});
    if (failed(part))
      return failure();
    FailureOr<Value> dropped = b.reshape(*part, shape);
    if (failed(dropped))
      return failure();
    results.push_back(*dropped);
  }
  return results;
}

static NodeResults slice(NodeBuilder &b) {
  if (failed(b.checkInputs(3)))
    return failure();
  FailureOr<SmallVector<int64_t>> begin = b.constantInts(1, "begin");
  FailureOr<SmallVector<int64_t>> size = b.constantInts(2, "size");
  if (failed(begin) || failed(size))
    return failure();
  ArrayRef<int64_t> in = b.inputType(0).getShape();
  if (begin->size() != in.size() || size->size() != in.size())
    return b.error() << "begin and size must have one entry per dim ("
                     << in.size() << ")";
  SmallVector<int64_t> limit;
  for (auto [i, dim] : llvm::enumerate(in))
    limit.push_back((*size)[i] == -1 ? dim : (*begin)[i] + (*size)[i]);
  return one(b.create<trace::SliceOp>(
      {b.inputs[0]},
      {b.named("start", b.i64s(*begin)), b.named("limit", b.i64s(limit))}));
}

/// `x` reversed along `dim`: a gather of the indices size-1, ..., 0.
static FailureOr<Value> reverse(NodeBuilder &b, Value x, int64_t dim) {
  int64_t size = cast<RankedTensorType>(x.getType()).getDimSize(dim);
  SmallVector<int32_t> indices;
  for (int64_t i = size - 1; i >= 0; --i)
    indices.push_back(int32_t(i));
  auto type = RankedTensorType::get({size}, b.builder.getI32Type());
  Value reversed =
      b.constant(DenseElementsAttr::get(type, ArrayRef<int32_t>(indices)));
  return b.create<trace::GatherOp>(
      {x, reversed}, {b.named("axis", b.builder.getI64IntegerAttr(dim))});
}

/// StridedSlice with its masks: the sparse spec (with ellipsis and new
/// axes) is expanded to one (first index, step, count) per input dim, a
/// forward slice of those elements is taken, dims with negative strides
/// are reversed, and the result is reshaped to drop shrunk dims and insert
/// new ones.
static NodeResults stridedSlice(NodeBuilder &b) {
  if (failed(b.checkInputs(4)))
    return failure();
  FailureOr<SmallVector<int64_t>> begin = b.constantInts(1, "begin");
  FailureOr<SmallVector<int64_t>> end = b.constantInts(2, "end");
  FailureOr<SmallVector<int64_t>> strides = b.constantInts(3, "strides");
  if (failed(begin) || failed(end) || failed(strides))
    return failure();
  int64_t masks[5];
  const char *names[5] = {"begin_mask", "end_mask", "ellipsis_mask",
                          "new_axis_mask", "shrink_axis_mask"};
  for (int i = 0; i < 5; ++i) {
    FailureOr<int64_t> mask = b.intAttr(names[i], 0);
    if (failed(mask))
      return failure();
    masks[i] = *mask;
  }
  auto bit = [](int64_t mask, size_t i) { return (mask >> i) & 1; };
  size_t n = begin->size();
  if (end->size() != n || strides->size() != n)
    return b.error() << "begin, end and strides must have the same length";
  ArrayRef<int64_t> in = b.inputType(0).getShape();
  int64_t rank = in.size();
  // Dims the spec names explicitly (not new axes, not the ellipsis).
  int64_t named = 0;
  for (size_t i = 0; i < n; ++i)
    if (!bit(masks[2], i) && !bit(masks[3], i))
      ++named;
  // Per input dim: the first index taken, the step (negative: backwards)
  // and the count.
  SmallVector<int64_t> first(rank, 0), step(rank, 1), count(in);
  SmallVector<int64_t> outShape; // after shrink and new axes
  int64_t dim = 0;
  bool sawEllipsis = false;
  for (size_t i = 0; i < n; ++i) {
    if (bit(masks[2], i)) {
      if (sawEllipsis)
        return b.error() << "more than one ellipsis";
      sawEllipsis = true;
      int64_t covered = rank - named;
      for (int64_t k = 0; k < covered; ++k, ++dim)
        outShape.push_back(in[dim]);
      continue;
    }
    if (bit(masks[3], i)) {
      outShape.push_back(1);
      continue;
    }
    if (dim >= rank)
      return b.error() << "the slice spec has more dims than the input ("
                       << rank << ")";
    int64_t size = in[dim], s = (*strides)[i];
    if (s == 0)
      return b.error() << "stride 0 in dim " << dim;
    if (bit(masks[4], i)) {
      int64_t at = (*begin)[i] < 0 ? (*begin)[i] + size : (*begin)[i];
      if (at < 0 || at >= size)
        return b.error() << "index " << (*begin)[i]
                         << " is out of range for dim " << dim << " of size "
                         << size;
      first[dim] = at;
      count[dim] = 1;
    } else {
      // TensorFlow's rule: negative indices count from the end; a forward
      // range is clamped to [0, size], a backward one to [-1, size - 1]
      // (-1: before the first element), and masked bounds take the end.
      auto clampIndex = [&](int64_t v) {
        if (v < 0)
          v += size;
        return s > 0 ? std::clamp<int64_t>(v, 0, size)
                     : std::clamp<int64_t>(v, -1, size - 1);
      };
      int64_t lo = bit(masks[0], i) ? (s > 0 ? 0 : size - 1)
                                    : clampIndex((*begin)[i]);
      int64_t hi = bit(masks[1], i) ? (s > 0 ? size : -1)
                                    : clampIndex((*end)[i]);
      int64_t span = s > 0 ? hi - lo : lo - hi, magnitude = s > 0 ? s : -s;
      first[dim] = lo;
      step[dim] = s;
      count[dim] = span > 0 ? (span + magnitude - 1) / magnitude : 0;
      outShape.push_back(count[dim]);
    }
    ++dim;
  }
  for (; dim < rank; ++dim)
    outShape.push_back(in[dim]);
  // A forward slice of the elements taken, then backward dims reversed.
  SmallVector<int64_t> start(rank), limit(rank), forward(rank);
  for (int64_t d = 0; d < rank; ++d) {
    forward[d] = std::abs(step[d]);
    start[d] = step[d] > 0 || count[d] == 0
                   ? first[d]
                   : first[d] + (count[d] - 1) * step[d];
    limit[d] = count[d] ? start[d] + (count[d] - 1) * forward[d] + 1 : start[d];
  }
  SmallVector<NamedAttribute> attrs{b.named("start", b.i64s(start)),
                                    b.named("limit", b.i64s(limit))};
  bool strided = llvm::any_of(forward, [](int64_t s) { return s != 1; });
  if (strided)
    attrs.push_back(b.named("strides", b.i64s(forward)));
  // No slice where every element is taken (x[::-1]).
  bool whole = !strided && llvm::all_of(start, [](int64_t s) { return !s; }) &&
               ArrayRef<int64_t>(limit) == in;
  FailureOr<Value> sliced =
      whole ? FailureOr<Value>(b.inputs[0])
            : b.create<trace::SliceOp>({b.inputs[0]}, attrs);
  if (failed(sliced))
    return failure();
  for (int64_t d = 0; d < rank; ++d) {
    if (step[d] > 0 || count[d] < 2)
      continue;
    sliced = reverse(b, *sliced, d);
    if (failed(sliced))
      return failure();
  }
  return one(b.reshape(*sliced, outShape));
}

static NodeResults pad(NodeBuilder &b) {
  if (failed(b.checkInputs(2, 3)))
    return failure();
  FailureOr<SmallVector<int64_t>> paddings = b.constantInts(1, "paddings");
  if (failed(paddings))
    return failure();
  int64_t rank = b.inputType(0).getRank();
  if (int64_t(paddings->size()) != 2 * rank)
    return b.error() << "paddings must be [" << rank << ", 2]";
  double value = 0.0;
  if (b.inputs.size() == 3) {
    FailureOr<double> v = b.constantScalar(2, "constant_values");
    if (failed(v))
      return failure();
    value = *v;
  }
  SmallVector<int64_t> low, high;
  for (int64_t i = 0; i < rank; ++i) {
    low.push_back((*paddings)[2 * i]);
    high.push_back((*paddings)[2 * i + 1]);
  }
  return one(b.create<trace::PadOp>(
      {b.inputs[0]}, {b.named("low", b.i64s(low)),
                      b.named("high", b.i64s(high)),
                      b.named("value", b.builder.getF64FloatAttr(value))}));
}

/// GatherV2 (and Gather): slices of params at indices along axis. With
/// batch_dims = k, the first k dims of params and indices are batch dims,
/// gathered independently: params' axis is moved after them, merged with
/// them into one dim that the indices address with an offset per batch
/// (a plain gather), and the result's dims are moved back in place.
static NodeResults gather(NodeBuilder &b) {
  if (failed(b.checkInputs(2, 3)))
    return failure();
  int64_t axis = 0;
  if (b.inputs.size() == 3) {
    FailureOr<SmallVector<int64_t>> a = b.constantInts(2, "axis");
    if (failed(a))
      return failure();
    if (a->size() != 1)
      return b.error() << "the axis must be a scalar";
    axis = (*a)[0];
  }
  FailureOr<int64_t> batchDimsAttr = b.intAttr("batch_dims", 0);
  if (failed(batchDimsAttr))
    return failure();
  auto gatherOn = [&](Value params, Value indices, int64_t along) {
    return b.create<trace::GatherOp>(
        {params, indices},
        {b.named("axis", b.builder.getI64IntegerAttr(along))});
  };
  if (*batchDimsAttr == 0)
    return one(gatherOn(b.inputs[0], b.inputs[1], axis));

  RankedTensorType params = b.inputType(0), indices = b.inputType(1);
  int64_t rank = params.getRank(), indexRank = indices.getRank();
  int64_t batch = *batchDimsAttr < 0 ? *batchDimsAttr + indexRank
                                     : *batchDimsAttr;
  if (axis < 0)
    axis += rank;
  if (batch < 0 || batch > indexRank)
    return b.error() << "batch_dims " << *batchDimsAttr
                     << " is out of range for indices of rank " << indexRank;
  if (axis < batch || axis >= rank)
    return b.error() << "axis " << axis << " must be in [batch_dims "
                     << batch << ", " << rank << ")";
  if (params.getShape().take_front(batch) !=
      indices.getShape().take_front(batch))
    return b.error() << "the batch dims of params (" << params
                     << ") and indices (" << indices << ") differ";
  // params: [B..., M..., A, R...] -> [B..., A, M..., R...].
  Value p = b.inputs[0];
  int64_t middle = axis - batch, gathered = indexRank - batch;
  if (middle) {
    SmallVector<int64_t> perm;
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis)
        perm.push_back(d);
    perm.insert(perm.begin() + batch, axis);
    FailureOr<Value> moved = b.create<trace::TransposeOp>(
        {p}, {b.named("perm", b.i64s(perm))});
    if (failed(moved))
      return failure();
    p = *moved;
  }
  // -> [B * A, M..., R...]; index i of batch j is j * A + i.
  ArrayRef<int64_t> moved = cast<RankedTensorType>(p.getType()).getShape();
  int64_t batches = 1, size = moved[batch];
  for (int64_t d = 0; d < batch; ++d)
    batches *= moved[d];
  SmallVector<int64_t> merged{batches * size};
  merged.append(moved.begin() + batch + 1, moved.end());
  FailureOr<Value> flat = b.reshape(p, merged);
  if (failed(flat))
    return failure();
  SmallVector<int64_t> offsetShape(indices.getShape().take_front(batch));
  offsetShape.append(gathered, 1);
  Type indexType = indices.getElementType();
  SmallVector<APInt> offsets;
  for (int64_t j = 0; j < batches; ++j)
    offsets.emplace_back(indexType.getIntOrFloatBitWidth(), j * size,
                         /*isSigned=*/true);
  Value offset = b.constant(DenseElementsAttr::get(
      RankedTensorType::get(offsetShape, indexType), offsets));
  FailureOr<Value> shifted = b.create<trace::AddOp>({b.inputs[1], offset});
  if (failed(shifted))
    return failure();
  // -> [B..., I..., M..., R...], then [B..., M..., I..., R...].
  FailureOr<Value> result = gatherOn(*flat, *shifted, 0);
  if (failed(result) || !middle)
    return one(result);
  int64_t outRank = cast<RankedTensorType>(result->getType()).getRank();
  SmallVector<int64_t> perm;
  for (int64_t d = 0; d < batch; ++d)
    perm.push_back(d);
  for (int64_t d = 0; d < middle; ++d)
    perm.push_back(batch + gathered + d);
  for (int64_t d = 0; d < gathered; ++d)
    perm.push_back(batch + d);
  for (int64_t d = batch + gathered + middle; d < outRank; ++d)
    perm.push_back(d);
  return one(b.create<trace::TransposeOp>({*result},
                                          {b.named("perm", b.i64s(perm))}));
}

static NodeResults oneHot(NodeBuilder &b) {
  if (failed(b.checkInputs(4)))
    return failure();
  FailureOr<SmallVector<int64_t>> depth = b.constantInts(1, "depth");
  FailureOr<double> on = b.constantScalar(2, "on_value");
  FailureOr<double> off = b.constantScalar(3, "off_value");
  FailureOr<int64_t> axis = b.intAttr("axis", -1);
  if (failed(depth) || failed(on) || failed(off) || failed(axis))
    return failure();
  if (depth->size() != 1)
    return b.error() << "the depth must be a scalar";
  Type type = cast<RankedTensorType>(b.inputs[2].getType()).getElementType();
  FailureOr<Operation *> op = b.build<trace::OneHotOp>(b.inputs[0], (*depth)[0],
                                                       type, *axis);
  if (failed(op))
    return failure();
  auto oneHot = cast<trace::OneHotOp>(*op);
  oneHot.setOnValueAttr(b.builder.getF64FloatAttr(*on));
  oneHot.setOffValueAttr(b.builder.getF64FloatAttr(*off));
  return SmallVector<Value>{oneHot.getResult()};
}

static NodeResults fill(NodeBuilder &b) {
  if (failed(b.checkInputs(2)))
    return failure();
  FailureOr<SmallVector<int64_t>> dims = b.constantInts(0, "dims");
  if (failed(dims))
    return failure();
  return one(b.buildValue<trace::FillOp>(b.inputs[1], *dims));
}

template <int Value_>
static NodeResults filledLike(NodeBuilder &b) {
  if (failed(b.checkInputs(1)))
    return failure();
  RankedTensorType type = b.inputType(0);
  Value v = b.scalar(Value_, type.getElementType());
  return one(b.buildValue<trace::FillOp>(v, type.getShape()));
}

/// Range of constants: a constant of start, start + delta, ... < limit.
static NodeResults range(NodeBuilder &b) {
  if (failed(b.checkInputs(3)))
    return failure();
  FailureOr<double> start = b.constantScalar(0, "start");
  FailureOr<double> limit = b.constantScalar(1, "limit");
  FailureOr<double> delta = b.constantScalar(2, "delta");
  if (failed(start) || failed(limit) || failed(delta))
    return failure();
  if (*delta == 0)
    return b.error() << "delta must not be 0";
  int64_t n = std::max<int64_t>(
      0, int64_t(std::ceil((*limit - *start) / *delta)));
  Type elementType =
      cast<RankedTensorType>(b.inputs[0].getType()).getElementType();
  auto type = RankedTensorType::get({n}, elementType);
  if (auto floatType = dyn_cast<FloatType>(elementType)) {
    SmallVector<APFloat> values;
    for (int64_t i = 0; i < n; ++i) {
      APFloat f(*start + i * *delta);
      bool lost;
      f.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                &lost);
      values.push_back(f);
    }
    return SmallVector<Value>{b.constant(DenseElementsAttr::get(type, values))};
  }
  SmallVector<APInt> values;
  for (int64_t i = 0; i < n; ++i)
    values.emplace_back(elementType.getIntOrFloatBitWidth(),
                        int64_t(*start + i * *delta), /*isSigned=*/true);
  return SmallVector<Value>{b.constant(DenseElementsAttr::get(type, values))};
}

/// Tile: [a, b] by [m, n] is [a, b] -> [1, a, 1, b] -> broadcast to
/// [m, a, n, b] -> [m*a, n*b].
static NodeResults tile(NodeBuilder &b) {
  if (failed(b.checkInputs(2)))
    return failure();
  FailureOr<SmallVector<int64_t>> multiples = b.constantInts(1, "multiples");
  if (failed(multiples))
    return failure();
  ArrayRef<int64_t> in = b.inputType(0).getShape();
  if (multiples->size() != in.size())
    return b.error() << "multiples must have one entry per dim ("
                     << in.size() << ")";
  SmallVector<int64_t> expanded, broadcast, result;
  for (auto [dim, m] : llvm::zip(in, *multiples)) {
    if (m < 0)
      return b.error() << "negative multiple " << m;
    expanded.append({1, dim});
    broadcast.append({m, dim});
    result.push_back(m * dim);
  }
  FailureOr<Value> x = b.reshape(b.inputs[0], expanded);
  if (failed(x))
    return failure();
  FailureOr<Value> y = b.buildValue<trace::BroadcastToOp>(*x, broadcast);
  if (failed(y))
    return failure();
  return one(b.reshape(*y, result));
}

/// Shape of a static shape: a constant.
static NodeResults shape(NodeBuilder &b) {
  if (failed(b.checkInputs(1)))
    return failure();
  Type outType = b.builder.getI32Type();
  if (b.attr("out_type")) {
    FailureOr<Type> type = b.typeAttr("out_type");
    if (failed(type))
      return failure();
    outType = *type;
  }
  if (!outType.isInteger(32) && !outType.isInteger(64))
    return b.error() << "out_type must be DT_INT32 or DT_INT64";
  ArrayRef<int64_t> dims = b.inputType(0).getShape();
  auto type = RankedTensorType::get({int64_t(dims.size())}, outType);
  SmallVector<APInt> values;
  for (int64_t dim : dims)
    values.emplace_back(outType.getIntOrFloatBitWidth(), dim);
  return SmallVector<Value>{b.constant(DenseElementsAttr::get(type, values))};
}

void tracec::graphdef::registerTensorOps(OpRegistry &registry) {
  registry.insert({
      {"Const", {constOp}},
      {"Identity", takingResources(forward)},
      {"IdentityN", takingResources(forward)},
      {"Snapshot", takingResources(forward)},
      {"PreventGradient", {forward}},
      {"StopGradient", {stopGradient}},
      {"NoOp", {noOp}},
      {"MatMul", {matmul}},
      {"BatchMatMul", {matmul}},
      {"BatchMatMulV2", {matmul}},
      {"BatchMatMulV3", {matmul}},
      {"Sum", {reduction<trace::ReduceSumOp>}},
      {"Mean", {reduction<trace::ReduceMeanOp>}},
      {"Max", {reduction<trace::ReduceMaxOp>}},
      {"Min", {reduction<trace::ReduceMinOp>}},
      {"Prod", {reduction<trace::ReduceProdOp>}},
      {"ArgMax", {argmax}},
      {"Softmax", {softmax<trace::SoftmaxOp>}},
      {"LogSoftmax", {softmax<trace::LogSoftmaxOp>}},
      {"Reshape", {reshape}},
      {"Transpose", {transpose}},
      {"ExpandDims", {expandDims}},
      {"Squeeze", {squeeze}},
      {"ConcatV2", {concat}},
      {"Pack", {pack}},
      {"Unpack", {unpack}},
      {"Slice", {slice}},
      {"StridedSlice", {stridedSlice}},
      {"Pad", {pad}},
      {"PadV2", {pad}},
      {"GatherV2", {gather}},
      {"Gather", {gather}},
      {"OneHot", {oneHot}},
      {"Fill", {fill}},
      {"ZerosLike", {filledLike<0>}},
      {"OnesLike", {filledLike<1>}},
      {"Range", {range}},
      {"Tile", {tile}},
      {"Shape", {shape}},
  });
}
