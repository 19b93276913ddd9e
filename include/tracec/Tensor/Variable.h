//===- Variable.h - Mutable state passed to compiled functions ------------===//
//
//   tracec::Variable w(*tracec::Tensor::fromVector<float>({1, 2}, {2}));
//   auto step = (*exe)->function("step");   // @step(%w: !trace.resource<...>, ...)
//   {
//     auto guard = w.lock();                 // when other threads use w too
//     auto outputs = (*step)({w.buffer(), x});  // updates w in place
//   }
//   std::vector<float> now = w.value().toVector<float>();
//
// A `!trace.resource<tensor<...>>` argument of a compiled function is the
// caller's buffer, read and written in place (TensorSpec::isVariable). A
// Variable owns such a buffer. Compiled code does not synchronize: two calls
// that update the same variable from different threads must be serialized
// by the caller, each holding `variable.lock()` for the whole call.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_TENSOR_VARIABLE_H
#define TRACEC_TENSOR_VARIABLE_H

#include "tracec/Tensor/Tensor.h"

#include <mutex>

namespace tracec {

class Variable {
public:
  /// A variable holding a copy of `initial` (later changes to `initial` do
  /// not affect it).
  explicit Variable(const Tensor &initial);
  /// A variable whose storage is `storage` itself, not a copy: memory
  /// chosen for the code that updates it (GPU memory, which a function
  /// compiled for the GPU then updates in place, with no copy per call).
  struct AdoptStorage {};
  Variable(Tensor storage, AdoptStorage) : buffer_(std::move(storage)) {}
  Variable(const Variable &) = delete;
  Variable &operator=(const Variable &) = delete;

  /// A snapshot of the current value (a deep copy). Does not lock: take
  /// lock() first when another thread may be updating the variable.
  Tensor value() const { return buffer_.clone(); }

  /// The variable's storage, to pass for a resource argument of a compiled
  /// function: a Tensor sharing the buffer, which the call updates in place.
  const Tensor &buffer() const { return buffer_; }

  /// Overwrites the value; `value` must have the variable's dtype and shape.
  llvm::Error assign(const Tensor &value);

  /// Serializes calls (and reads) that touch this variable.
  [[nodiscard]] std::unique_lock<std::mutex> lock() const {
    return std::unique_lock<std::mutex>(mutex_);
  }

private:
  Tensor buffer_;
  mutable std::mutex mutex_;
};

} // namespace tracec

#endif // TRACEC_TENSOR_VARIABLE_H
