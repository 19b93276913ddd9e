//===- DLPackBindings.cpp - Capsules of DLPack tensors for tracec.dlpack --===//
//
// The capsule protocol every framework follows: a capsule named
// "dltensor" holds a DLManagedTensor; its consumer renames it
// "used_dltensor" and owns the tensor from then on; a capsule that dies
// unconsumed releases the tensor itself.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"
#include "NumpyTensor.h"

#include "tracec/Runtime/DLPack.h"
#include "tracec/Tensor/Variable.h"

using namespace tracec;
using namespace tracec::python;

static constexpr const char *kFresh = "dltensor";
static constexpr const char *kUsed = "used_dltensor";

static void releaseUnconsumed(PyObject *capsule) {
  if (!PyCapsule_IsValid(capsule, kFresh))
    return; // consumed (renamed): the consumer releases it
  auto *managed = static_cast<dlpack::DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, kFresh));
  if (managed && managed->deleter)
    managed->deleter(managed);
}

/// A fresh capsule over `tensor`'s memory, which it keeps alive.
static py::capsule capsuleOf(const Tensor &tensor) {
  dlpack::DLManagedTensor *managed = toDLPack(tensor);
  PyObject *capsule = PyCapsule_New(managed, kFresh, releaseUnconsumed);
  if (!capsule) {
    managed->deleter(managed);
    throw py::error_already_set();
  }
  return py::reinterpret_steal<py::capsule>(capsule);
}

void tracec::python::bindDLPack(py::module_ &m) {
  m.def(
      "to_dlpack_capsule",
      [](py::array array) { return capsuleOf(toTensor(array, "to_dlpack")); },
      py::arg("array"),
      "A DLPack capsule over `array`'s memory (row-major and aligned: "
      "tracec.dlpack.to_dlpack ensures it), on CUDA device 0 where the "
      "array is GPU memory.");
  m.def(
      "variable_dlpack_capsule",
      [](const Variable &variable) { return capsuleOf(variable.buffer()); },
      py::arg("variable"),
      "A DLPack capsule over a variable's storage (no copy, bf16 included): "
      "the consumer sees the variable's later updates; on CUDA device 0 "
      "where the storage is GPU memory.");
  m.def(
      "from_dlpack_capsule",
      [](py::capsule capsule) {
        if (!PyCapsule_IsValid(capsule.ptr(), kFresh))
          throw py::value_error(
              "from_dlpack: not an unconsumed DLPack capsule (a capsule "
              "is named 'dltensor' and can be consumed once)");
        auto *managed = static_cast<dlpack::DLManagedTensor *>(
            PyCapsule_GetPointer(capsule.ptr(), kFresh));
        if (PyCapsule_SetName(capsule.ptr(), kUsed) != 0)
          throw py::error_already_set();
        llvm::Expected<Tensor> tensor = fromDLPack(managed);
        if (!tensor)
          throw py::value_error("from_dlpack: " +
                                llvm::toString(tensor.takeError()));
        return toNumpy(*tensor);
      },
      py::arg("capsule"),
      "The DLPack capsule's tensor as a NumPy array (consumes the capsule): "
      "host and CUDA managed memory in place, CUDA device memory copied "
      "into managed memory.");
}
