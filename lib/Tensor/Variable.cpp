//===- Variable.cpp - Mutable state passed to compiled functions ----------===//

#include "tracec/Tensor/Variable.h"

#include <cstring>

using namespace tracec;

Variable::Variable(const Tensor &initial) : buffer_(initial.clone()) {}

llvm::Error Variable::assign(const Tensor &value) {
  if (value.dtype() != buffer_.dtype() || value.shape() != buffer_.shape())
    return llvm::createStringError("cannot assign " + value.typeString() +
                                   " to a variable of " +
                                   buffer_.typeString());
  std::memcpy(buffer_.rawData(), value.rawData(), buffer_.sizeInBytes());
  return llvm::Error::success();
}
