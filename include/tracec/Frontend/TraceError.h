//===- TraceError.h - Errors raised while tracing -------------------------===//
//
// The tracer reports every error found at trace time (a shape or dtype the
// dialect rejects, a Value used outside its trace, a bad argument) by
// throwing tracec::TraceError: operator overloads cannot return
// llvm::Expected, and the Python bindings translate the exception into a
// Python exception. The message is the dialect's diagnostic with the op's
// location, e.g.
//   model.py:12:0: error: 'trace.add' shapes are not broadcast-compatible:
//   lhs 2x3 vs rhs 4
// The compiler libraries underneath stay exception-free: the tracer turns
// their diagnostics into this exception.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_FRONTEND_TRACEERROR_H
#define TRACEC_FRONTEND_TRACEERROR_H

#include <stdexcept>
#include <string>

namespace tracec {

class TraceError : public std::runtime_error {
public:
  explicit TraceError(const std::string &message)
      : std::runtime_error(message) {}
};

} // namespace tracec

#endif // TRACEC_FRONTEND_TRACEERROR_H
