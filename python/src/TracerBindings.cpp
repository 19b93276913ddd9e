//===- TracerBindings.cpp - The C++ tracer from Python --------------------===//
//
// Every op the Python package records goes through these functions into
// tracec/Frontend: one implementation of op building. Python callables
// become tracec::Callables (lists of Values in, a list of Values out); the
// tracer's TraceError becomes tracec.TraceError.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"
#include "Errors.h"
#include "NumpyTensor.h"

#include "tracec/ABI/CudaRuntime.h"
#include "tracec/Frontend/Frontend.h"
#include "tracec/Frontend/GradientSlice.h"

#include <cstdlib>

#include <pybind11/functional.h>
#include <pybind11/stl.h>

using namespace tracec;
using namespace tracec::python;
using I64s = std::vector<int64_t>;

namespace {

/// A Python callable taking a list of Values and returning a list of them.
Callable toCallable(py::function fn) {
  return [fn](llvm::ArrayRef<Value> args) -> std::vector<Value> {
    py::list list;
    for (const Value &arg : args)
      list.append(py::cast(arg));
    py::object result = fn(list);
    try {
      return result.cast<std::vector<Value>>();
    } catch (const py::cast_error &) {
      throw py::type_error("a traced function must return tracec values, got " +
                           py::repr(result).cast<std::string>());
    }
  };
}

/// Runs `f`, C++ that takes the trace context's mutex, without the GIL: a
/// thread tracing holds that mutex while its Python body waits for the GIL
/// (the interpreter hands the GIL to other threads now and then), so
/// waiting for the mutex with the GIL would deadlock.
template <typename F> auto withoutGil(F &&f) {
  py::gil_scoped_release release;
  return f();
}

/// The options of a compile at `optLevel` for `device` ("cpu", or "gpu":
/// CUDA, the default chip; a RuntimeError where the driver is missing).
CompileOptions compileOptions(unsigned optLevel, const std::string &device) {
  CompileOptions options;
  options.optLevel = optLevel;
  // TRACEC_OVERLAP_COLLECTIVES=1: gradient all-reduces overlap the
  // backward pass (CompileOptions::overlapCollectives).
  if (const char *overlap = std::getenv("TRACEC_OVERLAP_COLLECTIVES"))
    options.overlapCollectives = std::string(overlap) == "1";
  if (device == "gpu") {
    options.target = Target::cuda;
    // TRACEC_ALLOW_TF32=1: f32 matmuls on tensor cores in TF32
    // (CompileOptions::tf32, PyTorch's allow_tf32).
    if (const char *tf32 = std::getenv("TRACEC_ALLOW_TF32"))
      options.tf32 = std::string(tf32) == "1";
    // No driver (no GPU here) is the machine's state, not bad input.
    std::string why;
    if (!cuda::driverAvailable(&why))
      throw std::runtime_error(why);
  } else if (device != "cpu")
    throw py::value_error("device must be 'cpu' or 'gpu', got '" + device +
                          "'");
  return options;
}

/// A concrete function and the Python-owned variables it updates, with its
/// compiled function and extra arguments looked up once for fast calls.
class PyConcreteFunction {
public:
  explicit PyConcreteFunction(ConcreteFunction function)
      : function_(std::move(function)) {
    for (Variable *variable : function_.variables()) {
      std::shared_ptr<Variable> owner = lookupVariable(variable);
      if (!owner)
        throw py::value_error("a traced function uses a variable that was "
                              "not created from Python");
      variables_.push_back(std::move(owner));
    }
  }

  ConcreteFunction &get() { return function_; }

  void compile(unsigned optLevel, const std::string &device) {
    if (compiled_)
      return;
    CompileOptions options = compileOptions(optLevel, device);
    unwrap(withoutGil([&] { return function_.compile(options); }));
    // Another thread may have compiled it meanwhile.
    if (compiled_)
      return;
    compiled_.emplace(unwrap(function_.compiledFunction()));
    for (const ArgumentInfo &argument : function_.arguments()) {
      if (argument.kind == ArgumentInfo::Kind::captured)
        extras_.push_back(*argument.captured);
      else if (argument.kind == ArgumentInfo::Kind::variable)
        extras_.push_back(argument.variable->buffer());
    }
  }

  py::tuple call(const py::args &args) {
    if (!compiled_)
      compile(3, "cpu");
    return callWithArrays(*compiled_, args, 0, extras_);
  }

  py::list variables() const { return py::cast(variables_); }

  /// The captured inputs and variable buffers a call passes after the
  /// inputs, as arrays over the same storage (variables are updated in
  /// place through them), each with its VariableHandle or None.
  py::list extras() {
    if (!compiled_)
      compile(3, "cpu");
    py::list list;
    size_t i = 0;
    for (const ArgumentInfo &argument : function_.arguments()) {
      if (argument.kind == ArgumentInfo::Kind::input)
        continue;
      py::object variable = py::none();
      if (argument.kind == ArgumentInfo::Kind::variable)
        variable = py::cast(lookupVariable(argument.variable));
      list.append(py::make_tuple(toNumpy(extras_[i++]), variable));
    }
    return list;
  }

  /// The compiled forward/backward pair for `wrt` (indices into the
  /// arguments: inputs, then captured inputs and variables).
  py::tuple forwardBackward(const I64s &wrt, unsigned optLevel,
                            const std::string &device) {
    CompileOptions options = compileOptions(optLevel, device);
    ForwardBackward pair = unwrap(
        withoutGil([&] { return function_.forwardBackward(wrt, options); }));
    return py::make_tuple(pair.forward, pair.backward, pair.numResults,
                          pair.numResiduals,
                          std::vector<unsigned>(pair.cotangentResults),
                          pair.wrt);
  }

private:
  ConcreteFunction function_;
  std::vector<std::shared_ptr<Variable>> variables_;
  std::optional<Function> compiled_;
  std::vector<Tensor> extras_;
};

/// A shape as Python sees it: a dynamic dim (`?`) is None, as in
/// TensorFlow's TensorShape.
py::tuple shapeTuple(llvm::ArrayRef<int64_t> shape) {
  py::tuple t(shape.size());
  for (size_t i = 0; i < shape.size(); ++i)
    t[i] = shape[i] == TensorSpec::kDynamic ? py::object(py::none())
                                            : py::object(py::int_(shape[i]));
  return t;
}

py::list specList(const std::vector<TensorSpec> &specs) {
  py::list list;
  for (const TensorSpec &spec : specs)
    list.append(py::make_tuple(dtypeName(spec.dtype).str(),
                               shapeTuple(spec.shape)));
  return list;
}

/// A dict of plain Python values as the attributes of op `name`: bool (a
/// unit attribute), int, float, str, or a sequence of ints.
std::vector<OpAttribute> toAttributes(const std::string &name,
                                      const py::dict &attributes) {
  std::vector<OpAttribute> result;
  for (auto [key, value] : attributes) {
    std::string attr = py::str(key);
    if (py::isinstance<py::bool_>(value))
      result.emplace_back(attr, value.cast<bool>());
    else if (py::isinstance<py::int_>(value))
      result.emplace_back(attr, value.cast<int64_t>());
    else if (py::isinstance<py::float_>(value))
      result.emplace_back(attr, value.cast<double>());
    else if (py::isinstance<py::str>(value))
      result.emplace_back(attr, llvm::StringRef(value.cast<std::string>()));
    else if (py::isinstance<py::sequence>(value))
      result.emplace_back(attr, llvm::ArrayRef<int64_t>(value.cast<I64s>()));
    else
      throw py::type_error("attribute '" + attr + "' of '" + name +
                           "' must be a bool, int, float, str or a sequence "
                           "of ints, got " +
                           py::repr(value).cast<std::string>());
  }
  return result;
}

GradOptions gradOptions(const I64s &argnums,
                        const std::vector<std::shared_ptr<Variable>> &variables,
                        bool unconnectedZero) {
  GradOptions options;
  options.argnums = argnums;
  for (const auto &variable : variables)
    options.variables.push_back(variable.get());
  options.unconnected = unconnectedZero ? Unconnected::zero : Unconnected::error;
  return options;
}

} // namespace

void tracec::python::bindTracer(py::module_ &m) {
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p)
        std::rethrow_exception(p);
    } catch (const TraceError &error) {
      PyErr_SetString(traceErrorType().ptr(), error.what());
    }
  });

  py::class_<Value>(m, "Value")
      .def_property_readonly("dtype",
                             [](const Value &v) { return dtypeName(v.dtype()).str(); })
      .def_property_readonly("shape",
                             [](const Value &v) { return shapeTuple(v.shape()); })
      .def_property_readonly("ndim", &Value::rank)
      .def_property_readonly("size",
                             [](const Value &v) -> py::object {
                               int64_t n = v.numElements();
                               if (n == TensorSpec::kDynamic)
                                 return py::none();
                               return py::int_(n);
                             })
      .def_property_readonly("weak_type", &Value::isWeak)
      .def("type_string", &Value::typeString);
  // A Python number among a jit-ed function's arguments: weakly typed.
  m.def("weak", [](const Value &v) { return v.asWeak(); });

  // Sources.
  m.def("constant", [](py::handle array) {
    return constant(toTensor(array, "a constant"));
  });
  m.def("capture", [](py::handle array) {
    return capture(toTensor(array, "a captured array"));
  });
  m.def("full", [](const I64s &shape, double value, const std::string &dtype) {
    return full(shape, value, parseDTypeOrThrow(dtype));
  });
  m.def("fill", [](const Value &v, const I64s &shape) { return fill(v, shape); });
  m.def("iota", [](const I64s &shape, const std::string &dtype, int64_t axis) {
    return iota(shape, parseDTypeOrThrow(dtype), axis);
  });
  m.def("random_uniform", [](const I64s &shape, const std::string &dtype,
                             int64_t seed, double low, double high) {
    return random_uniform(shape, parseDTypeOrThrow(dtype), seed, low, high);
  });
  m.def("stateless_random_uniform",
        [](const Value &key, const I64s &shape, const std::string &dtype,
           double low, double high) {
          return stateless_random_uniform(key, shape, parseDTypeOrThrow(dtype),
                                          low, high);
        });
  m.def("stateless_random_normal",
        [](const Value &key, const I64s &shape, const std::string &dtype,
           double mean, double stddev) {
          return stateless_random_normal(key, shape, parseDTypeOrThrow(dtype),
                                         mean, stddev);
        });
  m.def("stateless_random_bits", [](const Value &key, const Value &counter,
                                    const I64s &shape, int64_t stream) {
    return stateless_random_bits(key, counter, shape, stream);
  });
  m.def("random_normal", [](const I64s &shape, const std::string &dtype,
                            int64_t seed, double mean, double stddev) {
    return random_normal(shape, parseDTypeOrThrow(dtype), seed, mean, stddev);
  });
  m.def("scalar_like", [](double value, bool integral, const Value &like) {
    Scalar scalar(0.0);
    scalar.value = value;
    scalar.isIntegral = integral;
    return scalarLike(scalar, like);
  });

  // Every op of the dialect that infers its result: op("trace.exp", [x]),
  // op("trace.reduce_sum", [x], {"axes": [0], "keepdims": True}).
  m.def("op", [](const std::string &name, const std::vector<Value> &operands,
                 const py::dict &attributes) {
    return op(name, operands, toAttributes(name, attributes));
  }, py::arg("name"), py::arg("operands"), py::arg("attributes") = py::dict());
  // The ops whose result type is an input.
  m.def("cast", [](const Value &x, const std::string &dtype) {
    return cast(x, parseDTypeOrThrow(dtype));
  });
  m.def("reshape", [](const Value &x, const I64s &s) { return reshape(x, s); });
  m.def("broadcast_to",
        [](const Value &x, const I64s &s) { return broadcast_to(x, s); });
  m.def("promote_types", [](const std::string &a, const std::string &b) {
    return dtypeName(
               promoteTypes(parseDTypeOrThrow(a), parseDTypeOrThrow(b)))
        .str();
  });
  m.def("common_dtype", [](const std::vector<Value> &values) {
    bool weak = false;
    return dtypeName(commonDType(values, weak)).str();
  });
  m.def("size", [](const Value &x, const I64s &axes, const std::string &dtype) {
    return size(x, axes, parseDTypeOrThrow(dtype));
  });
  m.def("one_hot", [](const Value &i, int64_t depth, const std::string &dtype,
                      int64_t axis, double on, double off) {
    return one_hot(i, depth, parseDTypeOrThrow(dtype), axis, on, off);
  });
  m.def("sort", [](const std::vector<Value> &inputs, int64_t axis,
                   bool descending) { return sort(inputs, axis, descending); });
  m.def("zeros_like", [](const Value &x) { return zeros_like(x); });
  m.def("ones_like", [](const Value &x) { return ones_like(x); });
  m.def(
      "all_reduce",
      [](const Value &x, const std::string &reduction,
         const std::vector<std::vector<int64_t>> &groups) {
        return all_reduce(x, reduction, groups);
      },
      py::arg("x"), py::arg("reduction"),
      py::arg("groups") = std::vector<std::vector<int64_t>>{});
  using Groups = std::vector<std::vector<int64_t>>;
  m.def(
      "broadcast",
      [](const Value &x, int64_t root, const Groups &groups) {
        return broadcast(x, root, groups);
      },
      py::arg("x"), py::arg("root"), py::arg("groups") = Groups{});
  m.def(
      "all_gather",
      [](const Value &x, int64_t axis, int64_t worldSize,
         const Groups &groups) {
        return all_gather(x, axis, worldSize, groups);
      },
      py::arg("x"), py::arg("axis"), py::arg("world_size"),
      py::arg("groups") = Groups{});
  m.def(
      "reduce_scatter",
      [](const Value &x, const std::string &reduction, int64_t axis,
         int64_t worldSize, const Groups &groups) {
        return reduce_scatter(x, reduction, axis, worldSize, groups);
      },
      py::arg("x"), py::arg("reduction"), py::arg("axis"),
      py::arg("world_size"), py::arg("groups") = Groups{});
  m.def("print", [](const Value &x, const std::string &message) {
    print(x, message);
  });

  // State.
  m.def("read", [](Variable &v) { return read(v); });
  m.def("assign", [](Variable &v, const Value &x) { assign(v, x); });
  m.def("assign_add", [](Variable &v, const Value &x) { assign_add(v, x); });
  m.def("assign_sub", [](Variable &v, const Value &x) { assign_sub(v, x); });

  // Locations, tracing.
  m.def("set_location", [](const std::string &file, unsigned line) {
    setLocation(file, line);
  });
  m.def("clear_location", &clearLocation);
  m.def("is_tracing", &isTracing);

  // Gradients and control flow: Python callables of a list of Values.
  m.def("grad", [](py::function fn, const std::vector<Value> &args,
                   const I64s &argnums,
                   const std::vector<std::shared_ptr<Variable>> &variables,
                   bool unconnectedZero, bool withValue, bool hasAux) {
    GradOptions options = gradOptions(argnums, variables, unconnectedZero);
    options.hasAux = hasAux;
    Callable f = toCallable(std::move(fn));
    return withValue ? value_and_grad(f, options)(args) : grad(f, options)(args);
  }, py::arg("fn"), py::arg("args"), py::arg("argnums"), py::arg("variables"),
     py::arg("unconnected_zero"), py::arg("with_value"),
     py::arg("has_aux") = false);
  m.def("vjp", [](py::function fn, const std::vector<Value> &primals,
                  const std::vector<Value> &cotangents, const I64s &argnums,
                  const std::vector<std::shared_ptr<Variable>> &variables,
                  bool unconnectedZero) {
    return vjp(toCallable(std::move(fn)), primals, cotangents,
               gradOptions(argnums, variables, unconnectedZero));
  });
  // Forward mode: f's results, then the tangents of its float results.
  m.def(
      "jvp",
      [](py::function fn, const std::vector<Value> &primals,
         const std::vector<Value> &tangents, const I64s &argnums) {
        JvpOptions options;
        options.argnums.assign(argnums.begin(), argnums.end());
        return jvp(toCallable(std::move(fn)), primals, tangents, options);
      },
      py::arg("fn"), py::arg("primals"), py::arg("tangents"),
      py::arg("argnums"));
  // vmap: f mapped over dim in_axes[i] of argument i (-1: not mapped).
  m.def(
      "vmap",
      [](py::function fn, const std::vector<Value> &args, const I64s &inAxes,
         const I64s &outAxes) {
        return vmap(toCallable(std::move(fn)), args, inAxes, outAxes);
      },
      py::arg("fn"), py::arg("args"), py::arg("in_axes"),
      py::arg("out_axes"));
  // jvp at several tangent sets, f traced once: a list of result lists.
  m.def(
      "jvps",
      [](py::function fn, const std::vector<Value> &primals,
         const std::vector<std::vector<Value>> &tangentSets,
         const I64s &argnums) {
        JvpOptions options;
        options.argnums.assign(argnums.begin(), argnums.end());
        return jvps(toCallable(std::move(fn)), primals, tangentSets, options);
      },
      py::arg("fn"), py::arg("primals"), py::arg("tangent_sets"),
      py::arg("argnums"));
  m.def("gradients", [](const std::vector<Value> &ys,
                        const std::vector<Value> &xs,
                        const std::vector<Value> &gradYs,
                        const std::vector<Value> &stopGradients,
                        bool unconnectedZero) {
    GradientsOptions options;
    options.gradYs = gradYs;
    options.stopGradients = stopGradients;
    options.unconnected = unconnectedZero ? UnconnectedGradients::zero
                                          : UnconnectedGradients::none;
    py::list result;
    for (const Value &g : gradients(ys, xs, options))
      result.append(g ? py::cast(g) : py::none());
    return result;
  });
  // gradients() as a function: (gradient(list of Values) -> list, or None,
  // operands, the operand of each x (-1: unconnected), the index of each
  // x's gradient among the function's results (-1)).
  m.def("gradients_function", [](const std::vector<Value> &ys,
                                 const std::vector<Value> &xs,
                                 const std::vector<Value> &stopGradients) {
    GradientsOptions options;
    options.stopGradients = stopGradients;
    GradientsFunction f = gradients_function(ys, xs, options);
    py::object gradient = py::none();
    if (f.gradient)
      gradient = py::cpp_function(
          [g = f.gradient](const std::vector<Value> &args) { return g(args); });
    return py::make_tuple(gradient, f.operands, f.xArgument, f.xResult);
  });
  // The records of an eager tape that gradients replay (the tracer's own
  // slice, over value ids): (records, reached sources, intermediates).
  m.def("slice_tape", [](const std::vector<std::vector<int64_t>> &inputs,
                         const std::vector<std::vector<int64_t>> &outputs,
                         const std::vector<int64_t> &ys,
                         const std::vector<int64_t> &sources,
                         const std::vector<int64_t> &stops,
                         const std::vector<int64_t> &noGradient) {
    if (inputs.size() != outputs.size())
      throw std::invalid_argument("slice_tape: inputs and outputs differ in "
                                  "length");
    TapeSlice slice =
        sliceTape(inputs, outputs, ys, sources, stops, noGradient);
    return py::make_tuple(slice.records, slice.reached, slice.intermediate);
  });
  m.def("call", [](const std::string &name, const std::vector<Value> &args,
                   py::function fn) {
    return call(name, args, toCallable(std::move(fn)));
  });
  // The call with its variable reads hoisted to the call site: (results,
  // [(variable, value read)]).
  m.def("call_hoisting_reads", [](const std::string &name,
                                  const std::vector<Value> &args,
                                  py::function fn) {
    std::vector<std::pair<Variable *, Value>> reads;
    CallOptions options;
    options.hoistReads = true;
    options.reads = &reads;
    std::vector<Value> results =
        call(name, args, toCallable(std::move(fn)), options);
    py::list pairs;
    for (auto &[variable, value] : reads)
      pairs.append(py::make_tuple(
          py::cast(lookupVariable(variable)), value));
    return py::make_tuple(results, pairs);
  });
  // A function given as MLIR text (an imported GraphDef) called like a
  // traced one; `variables` stand for its resource arguments.
  m.def("call_module", [](const std::string &name, const std::string &text,
                          const std::string &entry,
                          const std::vector<Value> &args,
                          const std::vector<std::shared_ptr<Variable>> &vars) {
    std::vector<Variable *> variables;
    for (const auto &variable : vars)
      variables.push_back(variable.get());
    return callModuleFunction(name, text, entry, args, variables);
  });
  m.def("is_traced_callee", &isTracedCallee);
  // tf.custom_gradient: fn(list of Values) returns (outputs, grad_fn), with
  // grad_fn(list of cotangents) returning one Value or None per argument.
  m.def("custom_gradient", [](py::function fn, const std::vector<Value> &args,
                              const std::string &name) {
    CustomGradientFn f = [fn](llvm::ArrayRef<Value> inputs) {
      py::list list;
      for (const Value &input : inputs)
        list.append(py::cast(input));
      py::tuple result = fn(list).cast<py::tuple>();
      py::function gradFn = result[1].cast<py::function>();
      Callable backward = [gradFn](llvm::ArrayRef<Value> dys) {
        py::list cotangents;
        for (const Value &dy : dys)
          cotangents.append(py::cast(dy));
        std::vector<Value> grads;
        for (py::handle grad : gradFn(cotangents))
          grads.push_back(grad.is_none() ? Value() : grad.cast<Value>());
        return grads;
      };
      return CustomGradientResult{result[0].cast<std::vector<Value>>(),
                                  backward};
    };
    return customGradient(f, name)(args);
  });
  // jax.custom_jvp: the results of a custom_gradient call (whose gradient
  // is the rule's transpose) get the forward-mode rule fn(list of the
  // arguments, then tangents) -> list of outputs, then tangents.
  m.def("set_custom_jvp", [](const std::vector<Value> &results,
                             size_t numArgs, py::function fn) {
    setCustomJvp(results, numArgs, toCallable(std::move(fn)));
  });
  m.def("call_rules_function", [](const std::vector<Value> &args) {
    return callRulesFunction(args);
  });
  m.def("checkpoint", [](py::function fn, const std::vector<Value> &args,
                         const std::string &policy, const std::string &name) {
    return checkpoint(toCallable(std::move(fn)), policy, name)(args);
  });
  m.def("cond", [](const Value &pred, py::function t, py::function f,
                   const std::vector<Value> &operands) {
    return cond(pred, toCallable(std::move(t)), toCallable(std::move(f)),
                operands);
  });
  m.def("while_loop", [](py::function c, py::function b,
                         const std::vector<Value> &init) {
    return while_loop(toCallable(std::move(c)), toCallable(std::move(b)), init);
  });
  m.def("output_specs", [](py::function fn) {
    return specList(output_specs(toCallable(std::move(fn))));
  });
  m.def("fori_loop", [](int64_t lower, int64_t upper, py::function b,
                        const std::vector<Value> &init) {
    return fori_loop(lower, upper, toCallable(std::move(b)), init);
  });
  m.def("fori_loop", [](const Value &lower, const Value &upper, py::function b,
                        const std::vector<Value> &init) {
    return fori_loop(lower, upper, toCallable(std::move(b)), init);
  });

  py::class_<PyConcreteFunction>(m, "ConcreteFunction")
      .def_property_readonly(
          "name", [](PyConcreteFunction &f) { return f.get().name(); })
      .def(
          "ir",
          [](PyConcreteFunction &f, bool afterAutodiff) {
            return withoutGil([&] { return f.get().ir(afterAutodiff); });
          },
          py::arg("after_autodiff") = false)
      .def("argument_kinds",
           [](PyConcreteFunction &f) {
             // "input", "captured" or "variable", per func.func argument.
             std::vector<std::string> kinds;
             for (const ArgumentInfo &argument : f.get().arguments())
               kinds.push_back(
                   argument.kind == ArgumentInfo::Kind::input      ? "input"
                   : argument.kind == ArgumentInfo::Kind::captured ? "captured"
                                                                   : "variable");
             return kinds;
           })
      .def("argument_names",
           [](PyConcreteFunction &f) {
             return withoutGil([&] { return f.get().argumentNames(); });
           })
      .def("set_argument_names",
           [](PyConcreteFunction &f, const std::vector<std::string> &names) {
             f.get().setArgumentNames(names);
           })
      .def("inputs",
           [](PyConcreteFunction &f) { return specList(f.get().inputs()); })
      .def("outputs",
           [](PyConcreteFunction &f) { return specList(f.get().outputs()); })
      .def("captured_inputs",
           [](PyConcreteFunction &f) {
             py::list list;
             for (const Tensor &t : f.get().capturedInputs())
               list.append(toNumpy(t));
             return list;
           })
      .def("variables", &PyConcreteFunction::variables)
      .def("extras", &PyConcreteFunction::extras)
      .def("forward_backward", &PyConcreteFunction::forwardBackward,
           py::arg("wrt"), py::arg("opt_level") = 3, py::arg("device") = "cpu")
      .def("compile", &PyConcreteFunction::compile, py::arg("opt_level") = 3,
           py::arg("device") = "cpu")
      .def("compile_stats",
           [](PyConcreteFunction &f) -> py::object {
             const CompileStats *stats = f.get().compileStats();
             if (!stats)
               return py::none();
             py::dict d;
             d["pipeline_seconds"] = stats->pipelineSeconds;
             d["optimize_seconds"] = stats->optimizeSeconds;
             d["codegen_seconds"] = stats->codegenSeconds;
             d["cache_hit"] = stats->cacheHit;
             return d;
           })
      .def("__call__", &PyConcreteFunction::call);

  m.def("trace", [](const std::string &name, py::list specs, py::function fn) {
    std::vector<TensorSpec> signature;
    // (dtype name, [dims]); a None dim is dynamic (`?`).
    for (py::handle item : specs) {
      auto pair = item.cast<std::pair<std::string, py::sequence>>();
      TensorSpec spec;
      spec.dtype = parseDTypeOrThrow(pair.first);
      for (py::handle dim : pair.second)
        spec.shape.push_back(dim.is_none() ? TensorSpec::kDynamic
                                           : dim.cast<int64_t>());
      signature.push_back(std::move(spec));
    }
    return new PyConcreteFunction(
        trace(name, signature, toCallable(std::move(fn))));
  }, py::return_value_policy::take_ownership);
}
