//===- ProcessGroupsOpInterface.td - Groups of processes -*- tablegen -*-===//

#ifndef TRACE_PROCESS_GROUPS_OP_INTERFACE_TD
#define TRACE_PROCESS_GROUPS_OP_INTERFACE_TD

include "mlir/IR/OpBase.td"

def ProcessGroupsOpInterface : OpInterface<"ProcessGroupsOpInterface"> {
  let cppNamespace = "::mlir::trace";
  let description = [{
    An op over groups of processes (XLA's replica groups): its optional
    `groups`, a 2-d array of ranks whose rows partition a world of N
    processes (its N entries are 0 ... N-1, each once), each process
    working with the processes of its row only, in the row's order. No
    `groups`: the world. The interface verifies them.
  }];
  let methods = [
    InterfaceMethod<"The groups, a row per group; null: the world.",
                    "::mlir::DenseIntElementsAttr", "getGroupsAttr">,
  ];
  let extraSharedClassDeclaration = [{
    /// The length of a row of `groups`; 0 (the world's, known at run
    /// time) without groups.
    int64_t getGroupSize() {
      ::mlir::DenseIntElementsAttr groups = $_op.getGroupsAttr();
      return groups ? ::mlir::cast<::mlir::ShapedType>(groups.getType())
                          .getDimSize(1)
                    : 0;
    }
    /// The world's size `groups` asks for (their number of entries), 0
    /// without groups.
    int64_t getGroupsWorldSize() {
      ::mlir::DenseIntElementsAttr groups = $_op.getGroupsAttr();
      return groups ? groups.getNumElements() : 0;
    }
  }];
  let extraClassDeclaration = [{
    /// `groups` (where given) partition the ranks 0 ... N-1.
    static ::llvm::LogicalResult verifyGroups(::mlir::Operation *op,
                                              ::mlir::DenseIntElementsAttr groups);
  }];
  let verify = [{
    return ProcessGroupsOpInterface::verifyGroups(
        $_op, ::mlir::cast<ProcessGroupsOpInterface>($_op).getGroupsAttr());
  }];
}

#endif // TRACE_PROCESS_GROUPS_OP_INTERFACE_TD
