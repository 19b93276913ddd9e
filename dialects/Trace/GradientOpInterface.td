//===- GradientOpInterface.td - grad, value_and_grad, vjp ----*- tablegen -*-===//

#ifndef TRACE_GRADIENT_OP_INTERFACE_TD
#define TRACE_GRADIENT_OP_INTERFACE_TD

include "mlir/IR/OpBase.td"

def Trace_GradientOpInterface : OpInterface<"GradientOpInterface"> {
  let cppNamespace = "::mlir::trace";
  let description = [{
    What the gradient ops (grad, value_and_grad, vjp) share: they run the
    function `callee` on `args` and differentiate it with respect to the
    `wrt` arguments. trace-autodiff rewrites them; trace-auto-control-deps
    treats them as calls of `callee`. The ops' own accessors implement it.
  }];
  let methods = [
    InterfaceMethod<"The differentiated function.",
      "::mlir::FlatSymbolRefAttr", "getCalleeAttr">,
    InterfaceMethod<"The operands passed to the callee.",
      "::mlir::OperandRange", "getArgs">,
    InterfaceMethod<"The indices of the differentiated arguments.",
      "::llvm::ArrayRef<int64_t>", "getWrt">,
    InterfaceMethod<"What arguments the results do not depend on get.",
      "::mlir::trace::Unconnected", "getUnconnected">,
  ];
}

#endif // TRACE_GRADIENT_OP_INTERFACE_TD
