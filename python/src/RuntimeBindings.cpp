//===- RuntimeBindings.cpp - The JIT and variables from Python ------------===//
//
// tracec._tracec.compile_module(text) -> Executable; Executable.function(name)
// -> Function, called with NumPy arrays; Variable over tracec::Variable.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"
#include "Errors.h"
#include "NumpyTensor.h"

#include "tracec/ABI/CudaRuntime.h"
#include "tracec/ABI/tracec_cuda.h"
#include "tracec/Runtime/Executable.h"

#include <pybind11/stl.h>

#include <cstring>
#include <mutex>
#include <unordered_map>

using namespace tracec;
using namespace tracec::python;

//===----------------------------------------------------------------------===//
// Calls with NumPy arrays
//===----------------------------------------------------------------------===//

py::tuple tracec::python::callWithArrays(const Function &function,
                                         const py::args &args,
                                         size_t firstInput,
                                         llvm::ArrayRef<Tensor> extras) {
  const Signature &signature = function.signature();
  size_t numGiven = args.size();
  size_t numInputs = signature.inputs.size() - firstInput - extras.size();
  if (numGiven != numInputs)
    throw py::type_error("@" + signature.name + " takes " +
                         std::to_string(numInputs) + " argument" +
                         (numInputs == 1 ? "" : "s") + ", got " +
                         std::to_string(numGiven));
  llvm::SmallVector<Tensor, 8> inputs;
  inputs.reserve(signature.inputs.size());
  for (size_t i = 0; i < numGiven; ++i)
    inputs.push_back(toTensor(
        args[i],
        [&] {
          return "argument " + std::to_string(i) + " of @" + signature.name;
        },
        &signature.inputs[firstInput + i]));
  inputs.append(extras.begin(), extras.end());
  llvm::SmallVector<Tensor, 4> outputs;
  outputs.reserve(signature.results.size());
  if (!signature.hasDynamicDims()) {
    for (auto [i, spec] : llvm::enumerate(signature.results))
      outputs.push_back(unwrap(function.newResult(i, spec.shape)));
    unwrap(function.call(inputs, outputs));
  } else {
    // The results' sizes come from the arguments' (the shape function),
    // which also checks that dims the ops tie together agree: a mismatch
    // is a ValueError naming the arguments, dims and sizes.
    std::vector<Tensor> results = unwrap(function(inputs));
    outputs.append(results.begin(), results.end());
  }
  py::tuple results(outputs.size());
  for (size_t i = 0; i < outputs.size(); ++i)
    results[i] = toNumpy(outputs[i]);
  return results;
}

//===----------------------------------------------------------------------===//
// Variables
//===----------------------------------------------------------------------===//

std::shared_ptr<Variable>
tracec::python::lookupVariable(const Variable *variable) {
  std::lock_guard<std::mutex> lock(variableRegistryMutex());
  auto it = variableRegistry().find(variable);
  if (it == variableRegistry().end())
    return nullptr;
  return it->second.lock();
}

std::mutex &tracec::python::variableRegistryMutex() {
  static std::mutex mutex;
  return mutex;
}

std::unordered_map<const Variable *, std::weak_ptr<Variable>> &
tracec::python::variableRegistry() {
  static auto *registry =
      new std::unordered_map<const Variable *, std::weak_ptr<Variable>>();
  return *registry;
}

/// A copy of `bytes` at `data` in GPU managed memory (tracec_cuda.h),
/// freed when the owner it comes with dies; RuntimeError where there is no
/// device.
static std::pair<void *, std::shared_ptr<void>> managedCopyOf(const void *data,
                                                              size_t bytes) {
  std::string why;
  if (!cuda::driverAvailable(&why))
    throw std::runtime_error(why);
  void *managed = tracec_cuda_alloc_managed(bytes);
  if (!managed) {
    const char *error = tracec_cuda_take_error();
    throw std::runtime_error(error ? error
                                   : "the GPU has no memory for " +
                                         std::to_string(bytes) + " bytes");
  }
  std::memcpy(managed, data, bytes);
  return {managed, std::shared_ptr<void>(managed, tracec_cuda_free_managed)};
}

/// A variable of `initial`'s value, in GPU memory where `initial` is
/// (tracec.Variable(tracec.device_put(x))): a GPU function updates it in
/// place.
static std::shared_ptr<Variable> makeVariable(py::handle initial) {
  Tensor value = toTensor(initial, "the initial value");
  Variable *made;
  if (tracec_cuda_is_managed(value.rawData())) {
    auto [managed, owner] = managedCopyOf(value.rawData(), value.sizeInBytes());
    made = new Variable(
        Tensor::borrow(value.dtype(), value.shape(), managed, owner),
        Variable::AdoptStorage{});
  } else {
    made = new Variable(value);
  }
  auto variable = std::shared_ptr<Variable>(made, [](Variable *v) {
    {
      std::lock_guard<std::mutex> lock(variableRegistryMutex());
      variableRegistry().erase(v);
    }
    delete v;
  });
  std::lock_guard<std::mutex> lock(variableRegistryMutex());
  variableRegistry()[variable.get()] = variable;
  return variable;
}

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

static Compiler &runtimeCompiler() {
  // Leaked: compiled code may outlive any static destructor order.
  static Compiler *compiler = new Compiler();
  return *compiler;
}

void tracec::python::bindRuntime(py::module_ &m) {
  py::class_<Function>(m, "Function")
      .def_property_readonly("name",
                             [](const Function &f) { return f.signature().name; })
      .def_property_readonly(
          "signature", [](const Function &f) { return f.signature().str(); })
      .def("__call__", [](const Function &f, const py::args &args) {
        return callWithArrays(f, args, 0, {});
      });

  py::class_<Executable, std::shared_ptr<Executable>>(m, "Executable")
      .def("function",
           [](std::shared_ptr<Executable> exe, const std::string &name) {
             return unwrap(exe->function(name));
           },
           py::keep_alive<0, 1>())
      .def("function_names", &Executable::functionNames);

  m.def(
      "set_num_threads",
      [](int threads) {
        if (threads < 1)
          throw py::value_error("set_num_threads: the number of threads "
                                "must be at least 1, got " +
                                std::to_string(threads));
        setDefaultThreads(static_cast<unsigned>(threads));
      },
      py::arg("threads"),
      "Sets the threads compiled functions use from now on, from every "
      "Python thread (as torch.set_num_threads): the default is "
      "OMP_NUM_THREADS, else one per core. Results do not depend on it.");
  m.def("get_num_threads", &defaultThreads,
        "The threads compiled functions use (set_num_threads, else "
        "OMP_NUM_THREADS, else one per core).");

  m.def(
      "device_put_array",
      [](py::array array) {
        // Numbers only: the bytes of objects (pointers) or strings copied
        // elsewhere would be arrays NumPy cannot own.
        char kind = array.dtype().kind();
        if (!llvm::StringRef("biufc").contains(kind))
          throw py::type_error("device_put: an array of numbers, not of " +
                               py::str(array.dtype()).cast<std::string>());
        py::array contiguous =
            py::module_::import("numpy").attr("ascontiguousarray")(array);
        auto [managed, memory] =
            managedCopyOf(contiguous.data(), contiguous.nbytes());
        // The array holds a reference to the memory's owner.
        py::capsule owner(new std::shared_ptr<void>(memory), [](void *held) {
          delete static_cast<std::shared_ptr<void> *>(held);
        });
        std::vector<py::ssize_t> shape(contiguous.shape(),
                                       contiguous.shape() + contiguous.ndim());
        std::vector<py::ssize_t> strides(
            contiguous.strides(), contiguous.strides() + contiguous.ndim());
        return py::array(contiguous.dtype(), shape, strides, managed, owner);
      },
      py::arg("array"),
      "A copy of `array` in GPU memory that the host can read and write "
      "too (CUDA managed memory): a function compiled for the GPU uses it "
      "in place, with no copy through the host per call, as it does its "
      "own results. RuntimeError where there is no CUDA driver.");
  m.def(
      "array_on_device",
      [](py::array array) { return tracec_cuda_is_managed(array.data()) != 0; },
      py::arg("array"),
      "Whether `array`'s memory is GPU memory (device_put, or a result of a "
      "function compiled for the GPU).");

  m.def(
      "compile_module",
      [](const std::string &source, const std::string &name, unsigned optLevel) {
        auto module = unwrap(runtimeCompiler().parseString(source, name));
        CompileOptions options;
        options.optLevel = optLevel;
        return std::shared_ptr<Executable>(
            unwrap(Executable::compile(module, options)));
      },
      py::arg("source"), py::arg("name") = "<string>",
      py::arg("opt_level") = 3,
      "Parses and JIT-compiles a module of the trace dialect.");

  py::class_<Variable, std::shared_ptr<Variable>>(m, "VariableHandle")
      .def(py::init(&makeVariable), py::arg("initial"))
      .def_property_readonly(
          "dtype",
          [](const Variable &v) { return dtypeName(v.buffer().dtype()).str(); })
      .def_property_readonly("shape",
                             [](const Variable &v) {
                               auto shape = v.buffer().shape();
                               return std::vector<int64_t>(shape.begin(),
                                                           shape.end());
                             })
      .def_property_readonly(
          "on_device",
          [](const Variable &v) {
            return tracec_cuda_is_managed(v.buffer().rawData()) != 0;
          },
          "Whether the variable's storage is GPU memory.")
      .def(
          "view",
          [](const Variable &v) {
            if (v.buffer().dtype() == DType::bf16)
              throw py::type_error("a bf16 variable has no NumPy view "
                                   "(NumPy has no bf16): use value()");
            return toNumpy(v.buffer());
          },
          "The variable's storage as an array (no copy): it sees updates.")
      .def(
          "value", [](const Variable &v) { return toNumpy(v.value()); },
          "A copy of the current value.")
      .def("assign", [](Variable &v, py::handle value) {
        // Broadcast and cast as NumPy assignment does, in place.
        if (v.buffer().dtype() == DType::bf16) {
          // Through float32, rounded once (NumPy has no bf16).
          py::array wide = toNumpy(v.buffer());
          py::module_::import("numpy").attr("copyto")(
              wide, value, py::arg("casting") = "same_kind");
          Tensor rounded =
              llvm::cantFail(toTensor(wide, "the value").convertedTo(
                  DType::bf16));
          // In place, as the view NumPy writes through elsewhere.
          std::memcpy(const_cast<void *>(v.buffer().rawData()),
                      rounded.rawData(), rounded.sizeInBytes());
          return;
        }
        py::module_::import("numpy").attr("copyto")(
            toNumpy(v.buffer()), value, py::arg("casting") = "same_kind");
      });
}
