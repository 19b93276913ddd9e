//===- Module.cpp - The tracec._tracec extension module -------------------===//
//
// A thin layer over the C++ libraries: the tracer (tracec/Frontend) records
// every op, the JIT (tracec/Runtime) compiles and runs. The Python package
// (python/tracec) builds its API on these.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"
#include "Errors.h"
#include "tracec/Version.h"

using namespace tracec::python;

PYBIND11_MODULE(_tracec, m) {
  m.doc() = "tracec's C++ core: the tracer and the JIT";
  m.attr("__version__") = TRACEC_VERSION;
  registerErrors(m);
  bindRuntime(m);
  bindGraphDef(m);
  bindAot(m);
  bindDLPack(m);
#ifdef TRACEC_PYTHON_HAS_TRACER
  bindTracer(m);
#endif
}
