//===- NumpyTensor.h - NumPy arrays as tracec::Tensors and back -----------===//
//
// Arrays cross the boundary without a copy where the layout allows: an
// input that is C-contiguous and 64-byte aligned (what compiled code
// requires) is borrowed, the tensor keeping the array alive; any other is
// copied once into an aligned tensor. Results are returned as arrays over
// the result tensors' own storage.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_PYTHON_NUMPYTENSOR_H
#define TRACEC_PYTHON_NUMPYTENSOR_H

#include "tracec/Runtime/Signature.h"
#include "tracec/Tensor/Tensor.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>

namespace tracec::python {

namespace py = pybind11;

/// Raises TypeError unless `name` ("f32", ...) is a tracec dtype.
DType parseDTypeOrThrow(const std::string &name);
/// The NumPy dtype of a tracec dtype; bf16 has none (TypeError).
py::dtype numpyDType(DType dtype);
/// The tracec dtype of a NumPy dtype, or TypeError naming `what`.
DType dtypeOfNumpy(const py::dtype &dtype, const std::string &what);

/// `object` (an array, or anything np.asarray takes) as a tensor. With a
/// spec, a non-array (a Python number or list) is converted to the spec's
/// dtype, and an array of another dtype or shape (a `?` dim of the spec
/// takes any size) is a TypeError/ValueError naming `what` and the
/// expected type. NumPy has no bf16: a bf16 spec takes float arrays, as
/// float32 rounded to the nearest bf16 (Tensor::convertedTo).
Tensor toTensor(py::handle object, const std::string &what,
                const TensorSpec *spec = nullptr);
/// The same, describing the argument only when there is an error.
Tensor toTensor(py::handle object, llvm::function_ref<std::string()> describe,
                const TensorSpec *spec = nullptr);

/// An array over the tensor's storage (no copy); it keeps the storage alive.
/// A bf16 tensor becomes a float32 copy (exact).
py::array toNumpy(const Tensor &tensor);

/// Whether a tensor made from this array would share its memory.
bool isBorrowable(const py::array &array);

} // namespace tracec::python

#endif // TRACEC_PYTHON_NUMPYTENSOR_H
