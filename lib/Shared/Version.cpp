//===- Version.cpp - The version libtracec.so was built as ----------------===//

#include "tracec/Version.h"

extern "C" const char *tracec_shared_library_version(void) {
  return TRACEC_VERSION;
}
