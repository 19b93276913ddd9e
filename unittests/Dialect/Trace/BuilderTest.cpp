#include "tracec/Dialect/Trace/IR/TraceOps.h"
#include <gtest/gtest.h>
TEST(Placeholder, Builds) {}
