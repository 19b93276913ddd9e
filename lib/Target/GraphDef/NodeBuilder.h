//===- NodeBuilder.h - What an op mapping sees of one TensorFlow node -----===//
//
// The importer turns each NodeDef into ops of the `trace` dialect through a
// table from op type to builder (OpRegistry). A builder gets a NodeBuilder:
// the node, its data inputs as SSA values, its control tokens, typed access
// to its attributes, and create(), which builds an op with the types the
// dialect infers and verifies it. Every failure is an error at the node's
// location that names the op type, the node and the function.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_LIB_IMPORT_GRAPHDEF_NODEBUILDER_H
#define TRACEC_LIB_IMPORT_GRAPHDEF_NODEBUILDER_H

#include "tracec/tensorflow/attr_value.pb.h"
#include "tracec/tensorflow/node_def.pb.h"
#include "tracec/tensorflow/tensor.pb.h"
#include "tracec/tensorflow/types.pb.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <string>

namespace tracec::graphdef {

namespace tf = ::tracec::tensorflow;

/// The element type of `dtype`, or an error at `loc` naming the dtype.
mlir::FailureOr<mlir::Type> convertDataType(tf::DataType dtype,
                                            mlir::MLIRContext *context,
                                            mlir::Location loc);
/// A tensor type from a TensorShapeProto; unknown dims or rank are an error
/// that names `what`.
mlir::FailureOr<mlir::RankedTensorType>
convertShape(const tf::TensorShapeProto &shape, mlir::Type elementType,
             mlir::Location loc, llvm::StringRef what);
/// The elements of a TensorProto (tensor_content or the typed *_val
/// fields, a single value splatted).
mlir::FailureOr<mlir::DenseElementsAttr>
convertTensor(const tf::TensorProto &tensor, mlir::Location loc);

/// What the importer provides to builders that need more than the node:
/// functions of the library (calls) and arguments (variables).
class FunctionScope {
public:
  virtual ~FunctionScope() = default;
  /// The library function `name` instantiated for `argTypes` (imported on
  /// first use); errors are emitted at `loc`.
  virtual mlir::FailureOr<mlir::func::FuncOp>
  instantiate(llvm::StringRef name, mlir::TypeRange argTypes,
              mlir::Location loc) = 0;
  /// The function argument standing for variable `name` of `type` (the same
  /// argument for the same name), created by VarHandleOp node `node`.
  virtual mlir::FailureOr<mlir::Value>
  variableArgument(llvm::StringRef name, llvm::StringRef node,
                   mlir::Type type, mlir::Location loc) = 0;
};

class NodeBuilder {
public:
  NodeBuilder(const tf::NodeDef &node, llvm::StringRef function,
              mlir::OpBuilder &builder, mlir::Location loc,
              llvm::ArrayRef<mlir::Value> inputs,
              llvm::ArrayRef<mlir::Value> after, FunctionScope &scope)
      : node(node), function(function), builder(builder), loc(loc),
        inputs(inputs), after(after), scope(scope) {}

  const tf::NodeDef &node;
  llvm::StringRef function;
  mlir::OpBuilder &builder;
  mlir::Location loc;
  llvm::SmallVector<mlir::Value> inputs;
  /// The control tokens of the node's control inputs (^node).
  llvm::SmallVector<mlir::Value> after;
  FunctionScope &scope;
  /// A stateful builder sets this to its op's control result.
  mlir::Value token;
  /// Set by builders whose output is a TF1 reference (VariableV2, Assign):
  /// a resource that consumers read where they use it (after `token`).
  bool refOutput = false;

  mlir::MLIRContext *context() { return builder.getContext(); }

  /// An error at the node: "'OpType' node 'name' in function 'f': ...".
  mlir::InFlightDiagnostic error();

  // Attributes. A missing attribute without a default is an error.
  const tf::AttrValue *attr(llvm::StringRef name) const;
  mlir::FailureOr<int64_t> intAttr(llvm::StringRef name,
                                   std::optional<int64_t> byDefault = {});
  mlir::FailureOr<bool> boolAttr(llvm::StringRef name,
                                 std::optional<bool> byDefault = {});
  mlir::FailureOr<float> floatAttr(llvm::StringRef name,
                                   std::optional<float> byDefault = {});
  mlir::FailureOr<std::string>
  stringAttr(llvm::StringRef name,
             std::optional<llvm::StringRef> byDefault = {});
  mlir::FailureOr<llvm::SmallVector<int64_t>>
  intListAttr(llvm::StringRef name,
              std::optional<llvm::ArrayRef<int64_t>> byDefault = {});
  /// A `type` attribute as an element type of the dialect.
  mlir::FailureOr<mlir::Type> typeAttr(llvm::StringRef name);

  // Inputs.
  /// Checks the number of data inputs (at least `min`, at most `max`).
  mlir::LogicalResult checkInputs(unsigned min, unsigned max);
  mlir::LogicalResult checkInputs(unsigned n) { return checkInputs(n, n); }
  /// An op whose inputs are a list of `N` tensors (its attr `N`, at least
  /// `min`, as the op's definition says) and then `others` single ones:
  /// the node must have N + others inputs.
  mlir::LogicalResult checkListInputs(unsigned min, unsigned others);
  mlir::RankedTensorType inputType(unsigned i);
  /// Input `i`, which must be a constant (shapes, axes, permutations).
  mlir::FailureOr<mlir::DenseElementsAttr> constantInput(unsigned i,
                                                         llvm::StringRef what);
  mlir::FailureOr<llvm::SmallVector<int64_t>>
  constantInts(unsigned i, llvm::StringRef what);
  mlir::FailureOr<double> constantScalar(unsigned i, llvm::StringRef what);

  // Ops.
  /// Builds op `name`, its result types inferred by the dialect, and
  /// verifies it (the dialect's message, at the node, on failure); `create`
  /// folds it.
  mlir::FailureOr<mlir::Operation *>
  createOp(llvm::StringRef name, mlir::ValueRange operands,
           llvm::ArrayRef<mlir::NamedAttribute> attributes = {},
           unsigned numResults = 1);
  mlir::FailureOr<mlir::Value>
  create(llvm::StringRef name, mlir::ValueRange operands,
         llvm::ArrayRef<mlir::NamedAttribute> attributes = {});
  template <typename OpTy>
  mlir::FailureOr<mlir::Value>
  create(mlir::ValueRange operands,
         llvm::ArrayRef<mlir::NamedAttribute> attributes = {}) {
    return create(OpTy::getOperationName(), operands, attributes);
  }
  /// Builds an op with its ODS builder (the type-directed ops: reshape,
  /// cast, fill, ...) and verifies it.
  template <typename OpTy, typename... Args>
  mlir::FailureOr<mlir::Operation *> build(Args &&...args) {
    mlir::OperationState state(loc, OpTy::getOperationName());
    OpTy::build(builder, state, std::forward<Args>(args)...);
    return insertVerified(mlir::Operation::create(state));
  }
  template <typename OpTy, typename... Args>
  mlir::FailureOr<mlir::Value> buildValue(Args &&...args) {
    auto op = build<OpTy>(std::forward<Args>(args)...);
    if (mlir::failed(op))
      return mlir::failure();
    return foldResult(*op);
  }
  /// The result of `op`, just built, or what it folds to (createOrFold):
  /// a constant where its operands are, or an existing value; a folded op
  /// is erased. Constant shape arithmetic thus stays constant for the ops
  /// that need it as an attribute.
  mlir::Value foldResult(mlir::Operation *op);
  /// A constant of `attr`.
  mlir::Value constant(mlir::DenseElementsAttr attr);
  /// A rank-0 constant `value` of `elementType`.
  mlir::Value scalar(double value, mlir::Type elementType);
  mlir::FailureOr<mlir::Value> reshape(mlir::Value x,
                                       llvm::ArrayRef<int64_t> shape);
  mlir::FailureOr<mlir::Value> cast(mlir::Value x, mlir::Type elementType);

  mlir::NamedAttribute named(llvm::StringRef name, mlir::Attribute value) {
    return builder.getNamedAttr(name, value);
  }
  mlir::DenseI64ArrayAttr i64s(llvm::ArrayRef<int64_t> values) {
    return builder.getDenseI64ArrayAttr(values);
  }

private:
  mlir::FailureOr<mlir::Operation *> insertVerified(mlir::Operation *op);
};

using NodeResults = mlir::FailureOr<llvm::SmallVector<mlir::Value>>;
using NodeBuildFn = NodeResults (*)(NodeBuilder &);

/// How one TensorFlow op type becomes ops of the dialect.
struct OpMapping {
  NodeBuildFn build;
  /// The op's output arg names, for a FunctionDef's "node:arg:index"
  /// references, when it has several single-tensor output args; empty for
  /// one output arg (maybe a list: "node:output:3" is output 3).
  llvm::SmallVector<llvm::StringRef, 0> outputArgs = {};
  /// Input 0 is a TF1 reference that the op updates (Assign): passed as
  /// the resource, not read.
  bool refInput = false;
  /// Variables' resource handles may be among the inputs: the variable
  /// ops, Identity and its relatives, calls and control flow. Every other
  /// op takes tensors, and a handle fed to one is an error.
  bool takesResources = false;
};

/// `build`'s mapping, for an op that takes resource handles.
inline OpMapping takingResources(NodeBuildFn build) {
  OpMapping mapping{build};
  mapping.takesResources = true;
  return mapping;
}

using OpRegistry = llvm::StringMap<OpMapping>;

/// The mapping of op type `type`, or null.
const OpMapping *lookupOpMapping(llvm::StringRef type);

// The families, one file each.
void registerElementwiseOps(OpRegistry &registry);
void registerTensorOps(OpRegistry &registry);
void registerConvPoolOps(OpRegistry &registry);
void registerStateOps(OpRegistry &registry);
void registerCallOps(OpRegistry &registry);

/// A node whose op type is a library function: a call of it.
NodeResults buildDirectCall(NodeBuilder &b);

} // namespace tracec::graphdef

#endif // TRACEC_LIB_IMPORT_GRAPHDEF_NODEBUILDER_H
