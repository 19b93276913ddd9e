//===- OpRegistry.cpp - The table from TF op type to builder --------------===//

#include "NodeBuilder.h"

using namespace tracec::graphdef;

const OpMapping *tracec::graphdef::lookupOpMapping(llvm::StringRef type) {
  static const OpRegistry registry = [] {
    OpRegistry r;
    registerElementwiseOps(r);
    registerTensorOps(r);
    registerConvPoolOps(r);
    registerStateOps(r);
    registerCallOps(r);
    return r;
  }();
  auto it = registry.find(type);
  return it == registry.end() ? nullptr : &it->second;
}
