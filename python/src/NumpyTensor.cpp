//===- NumpyTensor.cpp - NumPy arrays as tracec::Tensors and back ---------===//

#include "NumpyTensor.h"

#include "llvm/ADT/bit.h"

#include <cstring>

using namespace tracec;
using namespace tracec::python;

DType tracec::python::parseDTypeOrThrow(const std::string &name) {
  if (auto dtype = parseDType(name))
    return *dtype;
  throw py::type_error("unknown dtype '" + name +
                       "' (expected one of f16, bf16, f32, f64, i1, i32, i64)");
}

py::dtype tracec::python::numpyDType(DType dtype) {
  // Cached: results are made on every call.
  static py::dtype *cache[7] = {};
  py::dtype *&cached = cache[static_cast<int>(dtype)];
  if (cached)
    return *cached;
  py::dtype result = [&] {
    switch (dtype) {
    case DType::f16: return py::dtype("float16");
    case DType::f32: return py::dtype::of<float>();
    case DType::f64: return py::dtype::of<double>();
    case DType::i1: return py::dtype::of<bool>();
    case DType::i32: return py::dtype::of<int32_t>();
    case DType::i64: return py::dtype::of<int64_t>();
    case DType::bf16: break;
    }
    throw py::type_error("bf16 tensors have no NumPy dtype");
  }();
  cached = new py::dtype(result); // leaked: lives as long as the module
  return result;
}

DType tracec::python::dtypeOfNumpy(const py::dtype &dtype,
                                   const std::string &what) {
  char kind = dtype.kind();
  size_t size = dtype.itemsize();
  if (kind == 'f' && size == 2) return DType::f16;
  if (kind == 'f' && size == 4) return DType::f32;
  if (kind == 'f' && size == 8) return DType::f64;
  if (kind == 'b' && size == 1) return DType::i1;
  if (kind == 'i' && size == 4) return DType::i32;
  if (kind == 'i' && size == 8) return DType::i64;
  throw py::type_error(what + " has dtype " +
                       py::str(dtype).cast<std::string>() +
                       ", which tracec does not support (float16, float32, "
                       "float64, bool, int32, int64)");
}

static char numpyKind(DType dtype) {
  switch (dtype) {
  case DType::f16:
  case DType::f32:
  case DType::f64: return 'f';
  case DType::i1: return 'b';
  case DType::i32:
  case DType::i64: return 'i';
  case DType::bf16: break;
  }
  return '?';
}

bool tracec::python::isBorrowable(const py::array &array) {
  return (array.flags() & py::array::c_style) && Tensor::isAligned(array.data());
}

/// Owns a reference to a Python object; releasing it needs the GIL, and
/// nothing once the interpreter is gone.
static std::shared_ptr<void> keepAlive(py::handle object) {
  object.inc_ref();
  return std::shared_ptr<void>(object.ptr(), [](void *p) {
    if (!Py_IsInitialized())
      return;
    // Most tensors die at the end of a call, with the GIL held: taking it
    // again (thread-state lookups) would be a good part of the call.
    if (PyGILState_Check()) {
      Py_DECREF(static_cast<PyObject *>(p));
      return;
    }
    py::gil_scoped_acquire gil;
    Py_DECREF(static_cast<PyObject *>(p));
  });
}

static std::string typeOf(const py::array &array, DType dtype) {
  llvm::SmallVector<int64_t, 4> shape(array.shape(),
                                      array.shape() + array.ndim());
  return formatTensorType(dtype, shape);
}

/// The rank agrees, and every static dim of the spec (a `?` takes any
/// size).
static bool shapeMatches(llvm::ArrayRef<int64_t> shape,
                         llvm::ArrayRef<int64_t> spec) {
  if (shape.size() != spec.size())
    return false;
  for (auto [dim, expected] : llvm::zip(shape, spec))
    if (expected != TensorSpec::kDynamic && dim != expected)
      return false;
  return true;
}

Tensor tracec::python::toTensor(py::handle object, const std::string &what,
                                const TensorSpec *spec) {
  return toTensor(object, [&] { return what; }, spec);
}

Tensor tracec::python::toTensor(py::handle object,
                                llvm::function_ref<std::string()> describe,
                                const TensorSpec *spec) {
  py::array array;
  if (spec && spec->dtype == DType::bf16) {
    // float32 in, rounded once: NumPy has no bf16.
    TensorSpec wide = *spec;
    wide.dtype = DType::f32;
    py::object numpy = py::module_::import("numpy");
    py::array floats = numpy.attr("asarray")(object);
    if (floats.dtype().kind() != 'f')
      throw py::value_error(describe() + ": expected " + spec->str() +
                            " (as float32), got " +
                            typeOf(floats, dtypeOfNumpy(floats.dtype(),
                                                        describe())));
    Tensor tensor = toTensor(numpy.attr("asarray")(floats, "float32"),
                             describe, &wide);
    return llvm::cantFail(tensor.convertedTo(DType::bf16));
  }
  if (py::isinstance<py::array>(object)) {
    array = py::reinterpret_borrow<py::array>(object);
  } else {
    py::object numpy = py::module_::import("numpy");
    if (spec)
      array = numpy.attr("asarray")(object, numpyDType(spec->dtype));
    else
      array = numpy.attr("asarray")(object);
    if (array.dtype().kind() == 'O')
      throw py::type_error(describe() + " is a " +
                           py::str(py::type::of(object).attr("__name__"))
                               .cast<std::string>() +
                           ", not an array or a number");
  }
  // The other byte order (">f4" here) holds the same values in other
  // bytes: convert it, as NumPy's own arithmetic does, not copy it.
  constexpr char kSwapped =
      llvm::endianness::native == llvm::endianness::little ? '>' : '<';
  if (array.dtype().byteorder() == kSwapped)
    array = py::module_::import("numpy").attr("asarray")(
        array, array.dtype().attr("newbyteorder")("="));
  DType dtype = spec && array.dtype().kind() == numpyKind(spec->dtype) &&
                        size_t(array.itemsize()) == dtypeSize(spec->dtype)
                    ? spec->dtype
                    : dtypeOfNumpy(array.dtype(), describe());
  llvm::SmallVector<int64_t, 4> shape(array.shape(),
                                      array.shape() + array.ndim());
  if (spec && (dtype != spec->dtype || !shapeMatches(shape, spec->shape)))
    throw py::value_error(describe() + ": expected " + spec->str() + ", got " +
                          typeOf(array, dtype));
  if (isBorrowable(array))
    return Tensor::borrow(dtype, shape, const_cast<void *>(array.data()),
                          keepAlive(array));
  // Misaligned or strided: one copy into aligned storage, in C order.
  llvm::Expected<Tensor> storage = Tensor::empty(dtype, shape);
  if (!storage)
    throw py::value_error(describe() + ": " +
                          llvm::toString(storage.takeError()));
  Tensor tensor = std::move(*storage);
  if (array.flags() & py::array::c_style) {
    std::memcpy(tensor.rawData(), array.data(), tensor.sizeInBytes());
    return tensor;
  }
  py::module_::import("numpy").attr("copyto")(toNumpy(tensor), array);
  return tensor;
}

py::array tracec::python::toNumpy(const Tensor &tensor) {
  if (tensor.dtype() == DType::bf16)
    return toNumpy(llvm::cantFail(tensor.convertedTo(DType::f32)));
  // NumPy's C API directly (py::array's constructor builds shape and
  // stride vectors): this runs once per result of every call.
  auto *owner = new Tensor(tensor);
  py::capsule capsule(owner,
                      [](void *p) { delete static_cast<Tensor *>(p); });
  llvm::ArrayRef<int64_t> shape = tensor.shape();
  llvm::SmallVector<Py_intptr_t, 4> dims(shape.begin(), shape.end());
  auto &api = py::detail::npy_api::get();
  py::dtype dtype = numpyDType(tensor.dtype());
  auto array = py::reinterpret_steal<py::array>(api.PyArray_NewFromDescr_(
      api.PyArray_Type_, dtype.release().ptr(), (int)dims.size(), dims.data(),
      /*strides=*/nullptr, owner->rawData(),
      py::detail::npy_api::NPY_ARRAY_C_CONTIGUOUS_ |
          py::detail::npy_api::NPY_ARRAY_ALIGNED_ |
          py::detail::npy_api::NPY_ARRAY_WRITEABLE_,
      nullptr));
  if (!array)
    throw py::error_already_set();
  if (api.PyArray_SetBaseObject_(array.ptr(), capsule.release().ptr()) != 0)
    throw py::error_already_set();
  return array;
}
