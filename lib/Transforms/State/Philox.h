//===- Philox.h - The Philox4x32-10 counter-based generator as arith ops --===//

#ifndef TRACEC_LIB_TRANSFORMS_PHILOX_H
#define TRACEC_LIB_TRANSFORMS_PHILOX_H

#include "mlir/IR/Builders.h"

#include <array>

namespace mlir::trace {

/// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2,
/// 3", SC'11; the generator of TensorFlow's and cuRAND's Philox): four
/// 32-bit words of `counter` (i32 values) scrambled under the 64-bit `key`
/// (low word first) by ten rounds. The key schedule is folded into
/// constants. Returns the four i32 output words.
std::array<Value, 4> buildPhilox4x32(OpBuilder &b, Location loc,
                                     std::array<Value, 4> counter,
                                     uint64_t key);

/// The same under a key known at run time: its two i32 words, low first.
std::array<Value, 4> buildPhilox4x32(OpBuilder &b, Location loc,
                                     std::array<Value, 4> counter,
                                     std::array<Value, 2> key);

} // namespace mlir::trace

#endif // TRACEC_LIB_TRANSFORMS_PHILOX_H
