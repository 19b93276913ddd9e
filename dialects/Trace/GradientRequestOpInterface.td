//===- GradientRequestOpInterface.td - Derivative requests -*- tablegen -*-===//

#ifndef TRACE_GRADIENT_REQUEST_OP_INTERFACE_TD
#define TRACE_GRADIENT_REQUEST_OP_INTERFACE_TD

include "mlir/IR/OpBase.td"

def Trace_GradientRequestOpInterface : OpInterface<"GradientRequestOpInterface"> {
  let cppNamespace = "::mlir::trace";
  let description = [{
    Ops that *request* a derivative (grad, value_and_grad, vjp in reverse
    mode; jvp in forward mode): they run
    the function `callee` on `args` and differentiate it with respect to the
    `wrt` arguments. trace-autodiff rewrites them; trace-auto-control-deps
    treats them as calls of `callee`: one whose callee touches state takes
    `after` tokens and yields a token (its last result), which the call of
    the generated forward (or __jvp) function then takes and yields. The ops' own accessors implement the
    first methods; each op says how it seeds the backward sweep and which
    values it yields, so trace-autodiff knows none of them by name.
    Not to be confused with DifferentiableOpInterface: the ops that *have*
    a derivative rule, which trace-autodiff applies inside the callee.
  }];
  let methods = [
    InterfaceMethod<"The differentiated function.",
      "::mlir::FlatSymbolRefAttr", "getCalleeAttr">,
    InterfaceMethod<"The operands passed to the callee.",
      "::mlir::OperandRange", "getArgs">,
    InterfaceMethod<"The indices of the differentiated arguments.",
      "::llvm::ArrayRef<int64_t>", "getWrt">,
    InterfaceMethod<"The control tokens the op waits for.",
      "::mlir::OperandRange", "getAfter">,
    InterfaceMethod<[{
        The op's control token (its last result, a `!trace.control`), or
        null where the op is not ordered.
      }],
      "::mlir::Value", "getControl", (ins), /*methodBody=*/"",
      /*defaultImplementation=*/[{
        if ($_op->getNumResults() == 0)
          return {};
        ::mlir::Value last = $_op->getResults().back();
        return ::llvm::isa<::mlir::trace::ControlType>(last.getType())
                   ? last
                   : ::mlir::Value();
      }]>,
    InterfaceMethod<"What arguments the results do not depend on get.",
      "::mlir::trace::Unconnected", "getUnconnected">,
    InterfaceMethod<[{
        Forward mode (a Jacobian-vector product, trace.jvp): the callee is
        swept forward with tangents, seeded with the `wrt` arguments'
        tangents, rather than backward.
      }],
      "bool", "isForwardMode", (ins), /*methodBody=*/"",
      /*defaultImplementation=*/"return false;">,
    InterfaceMethod<[{
        The cotangents of the callee's results (of types `calleeResults`)
        that seed the backward sweep, one per result, built at `builder`'s
        insertion point: 1 for a scalar loss, the op's own cotangent
        operands for a vector-Jacobian product. In forward mode: the
        tangents of the `wrt` arguments, which seed the forward sweep.
      }],
      "::llvm::SmallVector<::mlir::Value>", "buildSeedCotangents",
      (ins "::mlir::OpBuilder &":$builder,
           "::mlir::TypeRange":$calleeResults)>,
    InterfaceMethod<[{
        The values that replace the op's results, in order, given the
        callee's results (`values`) and the cotangents of the `wrt`
        arguments (`gradients`; in forward mode, the tangents of the
        callee's floating-point results).
      }],
      "::llvm::SmallVector<::mlir::Value>", "getResultReplacements",
      (ins "::mlir::ValueRange":$values, "::mlir::ValueRange":$gradients)>,
  ];
}

#endif // TRACE_GRADIENT_REQUEST_OP_INTERFACE_TD
