//===- TraceToLinalgPass.cpp - The trace-to-linalg pass -------------------===//

#include "tracec/Conversion/Passes.h"
#include "tracec/Conversion/TraceToLinalg/TraceToLinalg.h"
#include "tracec/Dialect/Trace/IR/TraceDialect.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"
#include "tracec/Dialect/Trace/IR/TraceTraits.h"

#include "LoweringUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACETOLINALG
#include "tracec/Conversion/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;
using namespace mlir::trace;

namespace {
/// A reduction without an identity checks that no `?` dim it reduces is
/// empty at run time (the verifier checked the static ones). Before
/// lowering, so that the maximum logsumexp's lowering takes, which may
/// reduce empty dims, is not checked.
void checkReducedDimsNonEmpty(Operation *root) {
  root->walk([](Operation *op) {
    if (!op->hasTrait<OpTrait::trace::ReducesNonEmpty>())
      return;
    Value x = op->getOperand(0);
    auto type = cast<RankedTensorType>(x.getType());
    OpBuilder builder(op);
    Location loc = op->getLoc();
    for (int64_t dim : OpTrait::trace::reducedDims(op)) {
      if (!type.isDynamicDim(dim))
        continue;
      Value size = tensor::DimOp::create(builder, loc, x, dim);
      Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
      Value nonEmpty = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::ne, size, zero);
      checkAtRunTime(builder, loc, op, nonEmpty,
                     "reduces dim " + llvm::Twine(dim) +
                         ", which is empty: a maximum, minimum or argmax of "
                         "no elements is undefined");
    }
  });
}

struct TraceToLinalgPass
    : mlir::trace::impl::TraceToLinalgBase<TraceToLinalgPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    ConversionTarget target(*context);
    target.addLegalDialect<affine::AffineDialect, arith::ArithDialect,
                           cf::ControlFlowDialect,
                           linalg::LinalgDialect, math::MathDialect,
                           scf::SCFDialect, tensor::TensorDialect>();
    // Every trace op must be lowered; one that is not is reported.
    target.addIllegalDialect<TraceDialect>();
    // ... but the optimization barrier, which must outlive the CSE passes
    // until bufferization erases it.
    target.addLegalOp<OptimizationBarrierOp>();

    checkReducedDimsNonEmpty(getOperation());
    joinSumsOfProducts(getOperation());
    RewritePatternSet patterns(context);
    populateElementwiseToLinalgPatterns(patterns);
    populateMatmulToLinalgPatterns(patterns);
    populateReductionToLinalgPatterns(patterns);
    populateConvPoolToLinalgPatterns(patterns);
    populateConvBackpropToLinalgPatterns(patterns);
    populatePoolingGradToLinalgPatterns(patterns);
    populateSoftmaxToLinalgPatterns(patterns);
    populateSourcesToLinalgPatterns(patterns);
    populateShapeToLinalgPatterns(patterns);
    populateConcatSliceToTensorPatterns(patterns);
    populateIndexingToLinalgPatterns(patterns);
    populateSortToLoopsPatterns(patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
