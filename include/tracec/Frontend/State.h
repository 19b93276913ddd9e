//===- State.h - Variables inside traced functions ------------------------===//
//
// A tracec::Variable used by a traced callable becomes a
// `!trace.resource<tensor<...>>` argument of the function (once, however
// often it is used); the concrete function passes the variable's buffer at
// each call, and assignments update it in place. Automatic control
// dependencies keep reads and writes of a variable in program order.
//
//   tracec::Variable w(initial);
//   auto step = tracec::trace("step", {...}, [&](auto args) {
//     tracec::assign_sub(w, tracec::read(w) * 0.1);
//     return std::vector<tracec::Value>{tracec::read(w)};
//   });
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_FRONTEND_STATE_H
#define TRACEC_FRONTEND_STATE_H

#include "tracec/Frontend/Value.h"
#include "tracec/Tensor/Variable.h"

namespace tracec {

/// The variable's value at this point of the program (`trace.var.read`).
Value read(Variable &variable);
/// variable = value / += / -= (`trace.var.assign*`); `value` is cast to the
/// variable's dtype and broadcast to its shape (a scalar is allowed).
void assign(Variable &variable, const Value &value);
void assign_add(Variable &variable, const Value &value);
void assign_sub(Variable &variable, const Value &value);
/// A C++ number, as a constant of the variable's dtype.
void assign(Variable &variable, Scalar value);
void assign_add(Variable &variable, Scalar value);
void assign_sub(Variable &variable, Scalar value);

} // namespace tracec

#endif // TRACEC_FRONTEND_STATE_H
