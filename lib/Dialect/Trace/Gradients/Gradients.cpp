//===- Gradients.cpp - Attaching the reverse-mode rules -------------------===//

#include "tracec/Dialect/Trace/Gradients/Gradients.h"

#include "GradientModels.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::trace;

void mlir::trace::registerGradientRules(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, TraceDialect *) {
    registerBarrierGradients(context);
    registerElementwiseGradients(context);
    registerMatmulGradients(context);
    registerConvPoolGradients(context);
    registerReductionGradients(context);
    registerShapeGradients(context);
    registerStateGradients(context);
    registerCollectiveGradients(context);
  });
  registry.addExtension(+[](MLIRContext *context, func::FuncDialect *) {
    registerCallGradients(context);
  });
  registry.addExtension(+[](MLIRContext *context, scf::SCFDialect *) {
    registerControlFlowGradients(context);
    registerWhileGradients(context);
  });
  registry.addExtension(+[](MLIRContext *context, tensor::TensorDialect *) {
    registerTensorGradients(context);
  });
}
