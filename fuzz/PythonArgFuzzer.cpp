//===- PythonArgFuzzer.cpp - libFuzzer target: Python's argument conversion
//===//
//
// What a Python caller passes a compiled function becomes a tensor in
// python/src/NumpyTensor.cpp: arrays of every NumPy dtype, byte order,
// shape, stride and alignment, numbers, nested lists, strings, with the
// function's spec or without. Each must become the tensor NumPy's own
// conversion gives, bit for bit (and back through toNumpy), or raise a
// Python exception; a crash, a SystemError (a misused C API) or a wrong
// copy aborts. The interpreter is embedded (atheris, libFuzzer for Python,
// is not packaged in Debian).
//
//===----------------------------------------------------------------------===//

#include "../python/src/NumpyTensor.h"

#include "llvm/ADT/APFloat.h"

#include <fuzzer/FuzzedDataProvider.h>
#include <pybind11/embed.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

using namespace tracec;
namespace py = pybind11;

namespace {

// Every dtype tracec takes, in both byte orders where that exists, and
// some it does not (not "<U1": NumPy itself raises SystemError converting
// the invalid code points that raw bytes make).
constexpr const char *kNumpyDTypes[] = {
    "<f2", ">f2", "<f4", ">f4", "<f8", ">f8", "|b1", "<i4", ">i4", "<i8",
    ">i8", "|i1", "<i2", "|u1", "<u4", "<u8", "<c8", "|V4", "|S2", "<M8[s]"};
constexpr DType kDTypes[] = {DType::f16, DType::bf16, DType::f32, DType::f64,
                             DType::i1,  DType::i32,  DType::i64};

[[noreturn]] void fail(const std::string &what) {
  std::fprintf(stderr, "PythonArgFuzzer: %s\n", what.c_str());
  std::abort();
}

/// An array over fuzzed bytes: any dtype, offset (alignment), shape, and
/// views that are strided, reversed, transposed, broadcast (stride 0) or
/// Fortran-ordered.
py::object makeArray(FuzzedDataProvider &in, const py::module_ &np) {
  py::dtype dtype = np.attr("dtype")(in.PickValueInArray(kNumpyDTypes));
  auto item = static_cast<size_t>(dtype.itemsize());
  std::string bytes =
      in.ConsumeBytesAsString(in.ConsumeIntegralInRange<size_t>(0, 256));
  size_t offset = in.ConsumeIntegralInRange<size_t>(0, 7);
  offset = std::min(offset, bytes.size());
  size_t count = (bytes.size() - offset) / item;
  py::object array =
      np.attr("frombuffer")(py::bytes(bytes), dtype, count, offset);
  py::list dims;
  size_t product = 1;
  for (int rank = in.ConsumeIntegralInRange(0, 4), d = 0; d < rank; ++d) {
    size_t dim = std::min<size_t>(in.ConsumeIntegralInRange(0, 5),
                                  product ? count / product : 5);
    dims.append(dim);
    product *= dim;
  }
  array = array[py::slice(0, static_cast<py::ssize_t>(product), 1)].attr(
      "reshape")(dims);
  int ndim = py::len(dims);
  auto views = in.ConsumeIntegral<uint8_t>();
  if ((views & 1) && ndim)
    array = array[py::slice(py::none(), py::none(), py::int_(2))];
  if ((views & 2) && ndim)
    array = array[py::slice(py::none(), py::none(), py::int_(-1))];
  if (views & 4)
    array = array.attr("T");
  if (views & 8) {
    py::tuple shape = array.attr("shape");
    array = np.attr("broadcast_to")(array, py::make_tuple(2) + shape);
  }
  if (views & 16)
    array = np.attr("asfortranarray")(array);
  if (views & 32)
    array = array.attr("copy")(); // NumPy's own allocation, writeable
  return array;
}

/// Any Python value a caller might pass.
py::object makeObject(FuzzedDataProvider &in, const py::module_ &np) {
  switch (in.ConsumeIntegralInRange(0, 5)) {
  case 0:
    return makeArray(in, np);
  case 1: { // a literal: nested lists, numbers, strings, None, ...
    std::string text = in.ConsumeRandomLengthString(256);
    return py::module_::import("ast").attr("literal_eval")(text);
  }
  case 2: { // a list of arrays
    py::list items;
    for (int n = in.ConsumeIntegralInRange(0, 3); n > 0; --n)
      items.append(makeArray(in, np));
    return items;
  }
  case 3: { // an int of any size
    std::string bytes =
        in.ConsumeBytesAsString(in.ConsumeIntegralInRange<size_t>(1, 16));
    return py::int_(py::reinterpret_steal<py::object>(_PyLong_FromByteArray(
        reinterpret_cast<const unsigned char *>(bytes.data()), bytes.size(),
        /*little_endian=*/1, /*is_signed=*/1)));
  }
  case 4:
    return py::float_(in.ConsumeFloatingPoint<double>());
  default:
    return py::bool_(in.ConsumeBool());
  }
}

/// What the user states about the argument: a dtype and dims, some `?`,
/// often those of `object` so that conversions succeed.
TensorSpec makeSpec(FuzzedDataProvider &in, const py::object &object,
                    const py::module_ &np) {
  TensorSpec spec;
  spec.dtype = in.PickValueInArray(kDTypes);
  py::tuple shape = np.attr("shape")(object);
  bool likeObject = in.ConsumeBool();
  int rank = likeObject ? static_cast<int>(py::len(shape))
                        : in.ConsumeIntegralInRange(0, 4);
  for (int d = 0; d < rank; ++d) {
    int choice = in.ConsumeIntegralInRange(0, 2);
    if (choice == 0)
      spec.shape.push_back(TensorSpec::kDynamic);
    else if (choice == 1 && likeObject)
      spec.shape.push_back(shape[d].cast<int64_t>());
    else
      spec.shape.push_back(in.ConsumeIntegralInRange(0, 5));
  }
  return spec;
}

/// The tensor holds what NumPy's conversion to its dtype gives, and so
/// does the array made back from it.
void checkConversion(const Tensor &tensor, const py::object &object,
                     const TensorSpec *spec, const py::module_ &np) {
  py::object asArray =
      spec ? np.attr("asarray")(object, python::numpyDType(spec->dtype))
           : np.attr("asarray")(object);
  // (np.ascontiguousarray would make a 0-d array 1-d.)
  py::array expected = np.attr("array")(
      asArray, python::numpyDType(tensor.dtype()), py::arg("order") = "C");
  llvm::ArrayRef<int64_t> shape = tensor.shape();
  if (static_cast<size_t>(expected.ndim()) != shape.size() ||
      !std::equal(shape.begin(), shape.end(), expected.shape()))
    fail("shape " + formatTensorType(tensor.dtype(), shape) +
         " differs from NumPy's conversion of " +
         py::repr(object).cast<std::string>());
  auto bytes = static_cast<size_t>(expected.nbytes());
  if (bytes != tensor.sizeInBytes() ||
      std::memcmp(expected.data(), tensor.rawData(), bytes) != 0)
    fail("elements differ from NumPy's conversion of " +
         py::repr(object).cast<std::string>());
  py::array back = python::toNumpy(tensor);
  if (static_cast<size_t>(back.nbytes()) != bytes ||
      std::memcmp(back.data(), expected.data(), bytes) != 0)
    fail("toNumpy differs from the tensor");
}

/// NumPy has no bf16: a bf16 tensor holds NumPy's float32 conversion, each
/// element rounded to the nearest bf16 (ties to even; APFloat here), and
/// toNumpy widens it back to float32 exactly.
void checkBf16Conversion(const Tensor &tensor, const py::object &object,
                         const py::module_ &np) {
  py::array floats = np.attr("array")(np.attr("asarray")(object, "float32"),
                                      "float32", py::arg("order") = "C");
  llvm::ArrayRef<int64_t> shape = tensor.shape();
  if (static_cast<size_t>(floats.ndim()) != shape.size() ||
      !std::equal(shape.begin(), shape.end(), floats.shape()))
    fail("bf16: shape differs from NumPy's float32 conversion of " +
         py::repr(object).cast<std::string>());
  const float *from = static_cast<const float *>(floats.data());
  const uint16_t *got = static_cast<const uint16_t *>(tensor.rawData());
  for (int64_t i = 0; i < tensor.numElements(); ++i) {
    llvm::APFloat value(from[i]);
    bool losesInfo;
    value.convert(llvm::APFloat::BFloat(), llvm::APFloat::rmNearestTiesToEven,
                  &losesInfo);
    bool gotNaN = (got[i] & 0x7f80) == 0x7f80 && (got[i] & 0x7f) != 0;
    if (value.isNaN() ? !gotNaN
                      : got[i] != value.bitcastToAPInt().getZExtValue())
      fail("bf16: element " + std::to_string(i) +
           " is not the nearest bf16 of " + std::to_string(from[i]));
  }
  py::array back = python::toNumpy(tensor);
  const uint32_t *wide = static_cast<const uint32_t *>(back.data());
  if (back.dtype().kind() != 'f' || back.itemsize() != 4 ||
      back.size() != tensor.numElements())
    fail("bf16: toNumpy is not a float32 array of the tensor's size");
  for (int64_t i = 0; i < tensor.numElements(); ++i)
    if (wide[i] != uint32_t(got[i]) << 16)
      fail("bf16: toNumpy does not widen element " + std::to_string(i));
}

/// A Python exception is the documented outcome of a bad argument, except
/// SystemError (a C API misused) and what is not an Exception.
void checkRaised(py::error_already_set &error) {
  if (error.matches(PyExc_SystemError) || !error.matches(PyExc_Exception))
    fail(std::string("raised ") + error.what());
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  static py::scoped_interpreter interpreter;
  // NumPy warns (to stderr) on overflowing casts: noise at these rates.
  py::module_::import("warnings").attr("simplefilter")("ignore");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FuzzedDataProvider in(data, size);
  py::module_ np = py::module_::import("numpy");
  py::object object;
  try {
    object = makeObject(in, np);
  } catch (py::error_already_set &) {
    return 0; // not a value (a literal that does not parse, ...)
  }
  bool withSpec = in.ConsumeBool();
  TensorSpec spec;
  if (withSpec) {
    try {
      spec = makeSpec(in, object, np);
    } catch (py::error_already_set &) {
      return 0; // np.shape of a ragged list
    }
  }
  const TensorSpec *specOrNull = withSpec ? &spec : nullptr;
  std::optional<Tensor> tensor;
  try {
    tensor = python::toTensor(object, "x", specOrNull);
  } catch (py::error_already_set &error) {
    checkRaised(error);
    return 0;
  } catch (py::builtin_exception &) {
    return 0; // TypeError, ValueError
  }
  if (tensor->dtype() == DType::bf16)
    checkBf16Conversion(*tensor, object, np);
  else
    checkConversion(*tensor, object, specOrNull, np);
  return 0;
}
