//===- InlineAllocaScopes.cpp - Parallel bodies without stack scopes ------===//
//
// convert-scf-to-openmp wraps each parallel body in a memref.alloca_scope,
// whose region must stay one block. The canonicalizer inlines a scope only
// where nothing in it may allocate on the stack, and a call (a
// micro-kernel's) is an op it cannot see into: the scope stays, and the
// loops beside the call become blocks in it (invalid IR). A callee's
// allocas live in its own frame, so only the allocas of the body itself
// need the scope.
//
//===----------------------------------------------------------------------===//

#include "tracec/Codegen/CPU/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACECPUINLINEALLOCASCOPES
#include "tracec/Codegen/CPU/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;

namespace {

/// Whether `scope`'s body allocates on the stack itself (or holds a scope
/// that may).
bool allocatesOnStack(memref::AllocaScopeOp scope) {
  return scope.getBodyRegion()
      .walk([](Operation *op) {
        return isa<memref::AllocaOp, LLVM::AllocaOp, memref::AllocaScopeOp>(op)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

struct InlineAllocaScopesPass
    : mlir::trace::impl::TraceCpuInlineAllocaScopesBase<
          InlineAllocaScopesPass> {
  void runOnOperation() override {
    SmallVector<memref::AllocaScopeOp> scopes;
    getOperation()->walk([&](memref::AllocaScopeOp scope) {
      if (!allocatesOnStack(scope))
        scopes.push_back(scope);
    });
    IRRewriter rewriter(&getContext());
    for (memref::AllocaScopeOp scope : scopes) {
      Block *body = &scope.getBodyRegion().front();
      Operation *terminator = body->getTerminator();
      SmallVector<Value> results(terminator->getOperands());
      rewriter.eraseOp(terminator);
      rewriter.inlineBlockBefore(body, scope);
      rewriter.replaceOp(scope, results);
    }
  }
};

} // namespace
