//===- GradientRuleFailureTest.cpp - Rules propagate the state's failures -===//
//
// A gradient rule that asks the AdjointState to do something (clone an op
// into the primal sweep) must stop and report when that fails, not build
// on a half-emitted body. The differentiator's own state rarely fails, so
// the rules are driven here by a state whose clonePrimal fails on demand.
//
//===----------------------------------------------------------------------===//

#include "tracec/Dialect/Trace/Gradients/Gradients.h"
#include "tracec/Dialect/Trace/IR/DifferentiableOpInterface.h"
#include "tracec/Dialect/Trace/IR/TraceDialect.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::trace;

namespace {

/// Maps values like the differentiator does; clonePrimal fails for ops
/// named `failOn`.
class FailingState : public AdjointState {
public:
  explicit FailingState(StringRef failOn) : failOn(failOn) {}

  Value primal(Value original) override {
    return primals.lookupOrDefault(original);
  }
  void setPrimal(Value original, Value primal) override {
    primals.map(original, primal);
  }
  LogicalResult clonePrimal(Operation *op, OpBuilder &builder) override {
    if (op->getName().getStringRef() == failOn)
      return op->emitError("cannot clone this op");
    builder.clone(*op, primals);
    return success();
  }
  void save(Operation *, ValueRange) override {}
  ValueRange saved(Operation *) override { return {}; }
  Value cotangent(Value) override { return {}; }
  LogicalResult accumulate(Value, Value) override { return success(); }
  FailureOr<GradientFunctions> differentiate(func::FuncOp) override {
    return failure();
  }
  FailureOr<SmallVector<Value>>
  differentiateBlock(Block &, ValueRange, ArrayRef<Value>, ArrayRef<Value>,
                     OpBuilder &,
                     ArrayRef<std::pair<Value, Value>>) override {
    return failure();
  }
  bool isActive(Value) override { return true; }
  bool savesResultsOf(Operation *) override { return true; }

private:
  std::string failOn;
  IRMapping primals;
};

constexpr const char *kLoop = R"mlir(
func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %x) -> (tensor<3xf32>) {
    %t = trace.tanh %a : tensor<3xf32>
    %m = trace.mul %t, %a : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    scf.yield %m : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}
)mlir";

struct LoopFixture {
  LoopFixture() {
    DialectRegistry registry;
    registry.insert<TraceDialect, func::FuncDialect, arith::ArithDialect,
                    scf::SCFDialect, tensor::TensorDialect>();
    registerGradientRules(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    // Only the messages themselves are compared.
    context.printOpOnDiagnostic(false);
    module = parseSourceString<ModuleOp>(kLoop, &context);
  }
  scf::ForOp loop() {
    scf::ForOp found;
    module->walk([&](scf::ForOp op) { found = op; });
    return found;
  }
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

/// Emits the primal of the loop before it, with `state`.
LogicalResult emitLoopPrimal(scf::ForOp loop, AdjointState &state) {
  OpBuilder builder(loop);
  auto differentiable = cast<DifferentiableOpInterface>(loop.getOperation());
  return differentiable.emitPrimal(builder, state);
}

TEST(GradientRuleFailures, ForPrimalReportsABodyOpThatCannotBeCloned) {
  LoopFixture fixture;
  ASSERT_TRUE(fixture.module);
  scf::ForOp loop = fixture.loop();
  ASSERT_TRUE(loop);
  std::vector<std::string> messages;
  ScopedDiagnosticHandler handler(&fixture.context, [&](Diagnostic &diag) {
    messages.push_back(diag.str());
    for (Diagnostic &note : diag.getNotes())
      messages.push_back(note.str());
    return success();
  });
  FailingState state("trace.mul");
  EXPECT_TRUE(failed(emitLoopPrimal(loop, state)));
  ASSERT_EQ(messages.size(), 3u);
  EXPECT_EQ(messages[0], "cannot clone this op");
  EXPECT_EQ(messages[1], "'scf.for' op cannot be differentiated: its body "
                         "could not be copied into the primal loop");
  EXPECT_EQ(messages[2], "could not copy 'trace.mul'");
  // No half-built loop is left behind: the function holds the original
  // loop only.
  int loops = 0;
  fixture.module->walk([&](scf::ForOp) { ++loops; });
  EXPECT_EQ(loops, 1);
  EXPECT_TRUE(succeeded(verify(*fixture.module)));
}

TEST(GradientRuleFailures, ForPrimalSucceedsWhenEveryOpIsCloned) {
  LoopFixture fixture;
  ASSERT_TRUE(fixture.module);
  scf::ForOp loop = fixture.loop();
  ASSERT_TRUE(loop);
  FailingState state("no.such.op");
  EXPECT_TRUE(succeeded(emitLoopPrimal(loop, state)));
  int loops = 0;
  fixture.module->walk([&](scf::ForOp) { ++loops; });
  EXPECT_EQ(loops, 2);
}

} // namespace
