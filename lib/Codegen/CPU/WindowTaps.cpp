//===- WindowTaps.cpp - Window reductions as elementwise ops over taps ----===//
//
// Poolings and their gradients iterate (n, oh, ow, c, kh, kw): the window
// loops are reductions innermost, so no operand is contiguous along the
// innermost loop and trace-cpu-vectorize leaves them to scalar loops
// (which LLVM's loop vectorizer then spends tens of milliseconds on, per
// op). With the window loops fixed to one tap (kh, kw), each windowed
// operand is read at n, oh * sh + kh, ow * sw + kw, c: a strided slice of
// the operand, as large as the output, read with an identity map. The op
// becomes one elementwise op over those slices, whose body applies the
// original body once per tap, in the window loops' order, to the running
// accumulators (so results are the same, rounding included).
//
// An op qualifies when its loops are parallel ones then reduction ones
// (the window), its results are indexed by the parallel loops in order,
// and every input is either read at `stride * d + offset` per dim once the
// window is fixed, or only shapes the window (a pooling's window operand:
// the body never reads it).
//
//===----------------------------------------------------------------------===//

#include "WindowTaps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

namespace {

/// `stride * d + offset` of one result of an input's map once the window is
/// fixed.
struct StridedDim {
  unsigned dim;
  int64_t stride;
  int64_t offset;
};

/// Splits `expr` = `rest <kind> constant` into `rest` and the constant;
/// leaves both alone (and succeeds) if `expr` is not of `kind`, fails if
/// its right-hand side is not a constant.
bool peelConstant(AffineExpr &expr, AffineExprKind kind, int64_t &constant) {
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary || binary.getKind() != kind)
    return true;
  auto rhs = dyn_cast<AffineConstantExpr>(binary.getRHS());
  if (!rhs)
    return false;
  constant = rhs.getValue();
  expr = binary.getLHS();
  return true;
}

std::optional<StridedDim> matchStridedDim(AffineExpr expr) {
  int64_t offset = 0, stride = 1;
  if (!peelConstant(expr, AffineExprKind::Add, offset) ||
      !peelConstant(expr, AffineExprKind::Mul, stride))
    return std::nullopt;
  auto dim = dyn_cast<AffineDimExpr>(expr);
  if (!dim || stride < 1 || offset < 0)
    return std::nullopt;
  return StridedDim{dim.getPosition(), stride, offset};
}

/// One tap's read of an input: the slice (offsets, strides, sizes) and
/// the parallel dim of each of its dims.
struct TapRead {
  SmallVector<int64_t> offsets, strides, sizes;
  SmallVector<AffineExpr> dims;
};

/// The window reduction `op` as taps: for each tap (in the window loops'
/// order) and each input, its read, or failure where `op` is not one.
/// `shapeOnly[i]`: input i only shapes the window and is dropped.
struct Window {
  unsigned numParallel;
  SmallVector<SmallVector<int64_t>> taps;
  SmallVector<bool> shapeOnly;
  SmallVector<SmallVector<TapRead, 2>, 0> reads; // [tap][input]
};

FailureOr<Window> analyze(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() ||
      !llvm::all_of(op->getOperandTypes(), [](Type t) {
        auto shaped = dyn_cast<RankedTensorType>(t);
        return shaped && shaped.hasStaticShape();
      }))
    return failure();
  Window window;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  window.numParallel = llvm::count(iterators, utils::IteratorType::parallel);
  unsigned numLoops = iterators.size();
  if (window.numParallel == numLoops || window.numParallel == 0)
    return failure();
  for (unsigned d = 0; d < numLoops; ++d)
    if ((d < window.numParallel) !=
        (iterators[d] == utils::IteratorType::parallel))
      return failure();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  // An empty dim: nothing to compute, nothing to win.
  if (llvm::is_contained(ranges, 0))
    return failure();
  int64_t numTaps = 1;
  for (unsigned d = window.numParallel; d < numLoops; ++d)
    numTaps *= ranges[d];
  if (numTaps > tracec::kMaxWindowTaps)
    return failure();
  MLIRContext *context = op.getContext();
  SmallVector<AffineExpr> parallelDims;
  for (unsigned d = 0; d < window.numParallel; ++d)
    parallelDims.push_back(getAffineDimExpr(d, context));
  AffineMap resultMap = AffineMap::get(numLoops, 0, parallelDims, context);
  for (OpOperand &init : op.getDpsInitsMutable())
    if (op.getMatchingIndexingMap(&init) != resultMap)
      return failure();

  // The taps, row-major over the window loops.
  SmallVector<int64_t> tap(numLoops - window.numParallel, 0);
  for (int64_t t = 0; t < numTaps; ++t) {
    window.taps.push_back(tap);
    for (int64_t w = tap.size() - 1; w >= 0; --w) {
      if (++tap[w] < ranges[window.numParallel + w])
        break;
      tap[w] = 0;
    }
  }

  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    bool windowOnly = llvm::all_of(map.getResults(), [&](AffineExpr e) {
      for (unsigned d = 0; d < window.numParallel; ++d)
        if (e.isFunctionOfDim(d))
          return false;
      return true;
    });
    window.shapeOnly.push_back(windowOnly &&
                               op.getMatchingBlockArgument(input).use_empty());
  }
  for (ArrayRef<int64_t> fixed : window.taps) {
    SmallVector<AffineExpr> replacements;
    for (unsigned d = 0; d < numLoops; ++d)
      replacements.push_back(
          d < window.numParallel
              ? getAffineDimExpr(d, context)
              : getAffineConstantExpr(fixed[d - window.numParallel], context));
    SmallVector<TapRead, 2> reads;
    for (auto [i, input] : llvm::enumerate(op.getDpsInputOperands())) {
      TapRead read;
      if (window.shapeOnly[i]) {
        reads.push_back(read);
        continue;
      }
      auto type = cast<RankedTensorType>(input->get().getType());
      AffineMap map = op.getMatchingIndexingMap(input);
      for (auto [r, result] : llvm::enumerate(map.getResults())) {
        AffineExpr fixedExpr =
            simplifyAffineExpr(result.replaceDims(replacements), numLoops, 0);
        std::optional<StridedDim> strided = matchStridedDim(fixedExpr);
        if (!strided)
          return failure();
        int64_t size = ranges[strided->dim];
        if (strided->offset + strided->stride * (size - 1) >=
            type.getDimSize(r))
          return failure();
        read.offsets.push_back(strided->offset);
        read.strides.push_back(strided->stride);
        read.sizes.push_back(size);
        read.dims.push_back(getAffineDimExpr(strided->dim, context));
      }
      reads.push_back(read);
    }
    window.reads.push_back(reads);
  }
  return window;
}

void rewriteAsTaps(linalg::GenericOp op, const Window &window,
                   RewriterBase &rewriter) {
  Location loc = op.getLoc();
  MLIRContext *context = op.getContext();
  rewriter.setInsertionPoint(op);
  auto indices = [&](ArrayRef<int64_t> values) {
    return getAsIndexOpFoldResult(context, values);
  };
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (ArrayRef<TapRead> reads : window.reads)
    for (auto [i, input] : llvm::enumerate(op.getDpsInputs())) {
      if (window.shapeOnly[i])
        continue;
      const TapRead &read = reads[i];
      auto type = cast<RankedTensorType>(input.getType());
      inputs.push_back(tensor::ExtractSliceOp::create(
          rewriter, loc,
          RankedTensorType::get(read.sizes, type.getElementType()), input,
          indices(read.offsets), indices(read.sizes), indices(read.strides)));
      maps.push_back(AffineMap::get(window.numParallel, 0, read.dims, context));
    }
  unsigned numTapInputs = inputs.size() / window.taps.size();
  maps.append(op.getNumDpsInits(),
              rewriter.getMultiDimIdentityMap(window.numParallel));
  SmallVector<utils::IteratorType> iterators(window.numParallel,
                                             utils::IteratorType::parallel);
  Block *body = op.getBody();
  auto generic = linalg::GenericOp::create(
      rewriter, loc, op.getResultTypes(), inputs, op.getDpsInits(), maps,
      iterators, [&](OpBuilder &b, Location l, ValueRange args) {
        SmallVector<Value> accumulators(args.take_back(op.getNumDpsInits()));
        for (auto [t, fixed] : llvm::enumerate(window.taps)) {
          IRMapping mapping;
          unsigned next = t * numTapInputs;
          for (auto [i, input] : llvm::enumerate(op.getDpsInputOperands()))
            if (!window.shapeOnly[i])
              mapping.map(op.getMatchingBlockArgument(input), args[next++]);
          for (auto [i, init] : llvm::enumerate(op.getDpsInitsMutable()))
            mapping.map(op.getMatchingBlockArgument(&init), accumulators[i]);
          for (Operation &inner : body->without_terminator()) {
            auto index = dyn_cast<linalg::IndexOp>(inner);
            if (index && index.getDim() >= window.numParallel) {
              mapping.map(
                  index.getResult(),
                  arith::ConstantIndexOp::create(
                      b, l, fixed[index.getDim() - window.numParallel]));
              continue;
            }
            b.clone(inner, mapping);
          }
          for (auto [i, yielded] :
               llvm::enumerate(body->getTerminator()->getOperands()))
            accumulators[i] = mapping.lookupOrDefault(yielded);
        }
        linalg::YieldOp::create(b, l, accumulators);
      });
  rewriter.replaceOp(op, generic.getResults());
}

} // namespace

bool tracec::isPooling(linalg::LinalgOp op) {
  return linalg::isaConvolutionOpInterface(op) && op.getNumDpsInputs() == 2 &&
         op.getMatchingBlockArgument(op.getDpsInputOperand(1)).use_empty();
}

void tracec::rewriteWindowsAsTaps(Operation *root, RewriterBase &rewriter) {
  SmallVector<linalg::LinalgOp> ops;
  // Named poolings of few taps are tried in their generic form.
  auto fewTaps = [](linalg::LinalgOp pooling) {
    auto window = cast<ShapedType>(pooling.getDpsInputs()[1].getType());
    return window.hasStaticShape() &&
           window.getNumElements() <= tracec::kMaxWindowTaps;
  };
  root->walk([&](linalg::LinalgOp op) {
    if (isa<linalg::GenericOp>(op) || (isPooling(op) && fewTaps(op)))
      ops.push_back(op);
  });
  for (linalg::LinalgOp op : ops) {
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic) {
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::GenericOp> generalized =
          linalg::generalizeNamedOp(rewriter, op);
      if (failed(generalized))
        continue;
      generic = *generalized;
    }
    if (FailureOr<Window> window = analyze(generic); succeeded(window))
      rewriteAsTaps(generic, *window, rewriter);
  }
}
