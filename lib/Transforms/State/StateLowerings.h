//===- StateLowerings.h - Patterns of trace-lower-state -------------------===//
//
// trace-lower-state is a dialect conversion: StateTypeConverter says what
// the state types become, one pattern per stateful op says what the op
// becomes, and upstream's structural patterns (func signatures, calls,
// returns, scf regions) follow the types.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_LIB_TRANSFORMS_STATELOWERINGS_H
#define TRACEC_LIB_TRANSFORMS_STATELOWERINGS_H

#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/DialectConversion.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

namespace mlir::trace {

/// `!trace.resource<tensor<S x T>>` becomes `memref<S x T>` (the caller's
/// buffer; statically shaped values only); `!trace.control` becomes nothing
/// (a 1:0 conversion: once ops touch buffers, program order carries what
/// the tokens said); every other type stays.
class StateTypeConverter : public TypeConverter {
public:
  StateTypeConverter();
};

/// var.read, var.assign, var.assign_add, var.assign_sub, and identity with
/// tokens (LowerState.cpp).
void populateVariableLoweringPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns);

/// print: a call of tracec_print_tensor (tracec/ABI/tracec_print.h)
/// on a contiguous copy of the tensor (LowerPrint.cpp). The message and
/// shape globals and the callback's declaration go into `symbols`.
void populatePrintLoweringPatterns(const TypeConverter &converter,
                                   RewritePatternSet &patterns,
                                   SymbolTable &symbols);

/// random_uniform / random_normal: the op's run counter lives in a private
/// i64 `memref.global` (0 in a fresh module) that `memref.atomic_rmw`
/// advances on every run; a `linalg.generic` draws the numbers with Philox
/// (LowerRandom.cpp); the keyed stateless_random_* ops too, from their key.
/// Each generic whose f32 log and cos should become
/// polynomials is appended to `approximate`, for
/// approximateRandomMath once the conversion is done (a pattern cannot run
/// other patterns).
void populateRandomLoweringPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns,
                                    SymbolTable &symbols,
                                    SmallVectorImpl<Operation *> &approximate);
LogicalResult approximateRandomMath(ArrayRef<Operation *> generics);

/// all_reduce: MPI_Allreduce through the `mpi` dialect from the operand's
/// buffer into a new one (`mean`: the sum, then a trace.div by the number
/// of processes); broadcast, all_gather, reduce_scatter: all-reduces too;
/// each guarded by the agreement check and the watchdog of
/// tracec/ABI/tracec_collectives.h, whose strings and declarations go into
/// `symbols`; comm_rank and comm_size: the world communicator's
/// (LowerCollectives.cpp). `overlap`: an all-reduce whose result is used
/// only later starts without blocking and is waited for there.
void populateCollectiveLoweringPatterns(const TypeConverter &converter,
                                        RewritePatternSet &patterns,
                                        SymbolTable &symbols, bool overlap);
/// Marks a module with collectives as calling OpenMPI (the dlti.map entry
/// "MPI:Implementation" that the mpi dialect's lowering to LLVM reads).
void markMpiImplementation(ModuleOp module);

/// The checks the patterns rely on, with a diagnostic on `op` when it
/// cannot be lowered (run before the conversion, so that a failure is one
/// clear error, not a pattern that does not apply).
LogicalResult checkPrintLowerable(PrintOp print);
LogicalResult checkRandomLowerable(Operation *random);

/// `element`'s code in TracecABI's calls (tracec/ABI/tracec_dtype.h), or
/// nullopt for a type it has none for.
std::optional<int32_t> abiDTypeCode(Type element);

/// The aligned pointer of a memref, as an !llvm.ptr for a C callee.
Value pointerTo(OpBuilder &b, Location loc, Value memref);

/// A pointer to a private constant memref.global holding `value`.
Value constantGlobal(OpBuilder &b, Location loc, SymbolTable &symbols,
                     StringRef name, DenseElementsAttr value);

/// A pointer to a private constant global holding `text` and a NUL: a C
/// string.
Value constantString(OpBuilder &b, Location loc, SymbolTable &symbols,
                     StringRef name, StringRef text);

/// A symbol name based on `base` that `symbols` does not hold yet.
std::string uniqueSymbolName(SymbolTable &symbols, StringRef base);

/// Creates a module-level symbol op with `b` (so that a conversion sees
/// it), at the start of `symbols`' module, and registers it.
template <typename OpTy, typename... Args>
OpTy createModuleSymbol(OpBuilder &b, SymbolTable &symbols, Location loc,
                        Args &&...args) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&symbols.getOp()->getRegion(0).front());
  auto op = OpTy::create(b, loc, std::forward<Args>(args)...);
  symbols.insert(op);
  return op;
}

} // namespace mlir::trace

#endif // TRACEC_LIB_TRANSFORMS_STATELOWERINGS_H
