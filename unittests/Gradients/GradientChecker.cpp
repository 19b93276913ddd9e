//===- GradientChecker.cpp - trace.grad against finite differences --------===//

#include "GradientChecker.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <optional>
#include <random>

using namespace tracec;

namespace {

std::string typeText(mlir::Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

/// `source` plus @__gradient_check returning trace.grad of `function`.
llvm::Expected<std::string> withGradientFunction(Compiler &compiler,
                                                 llvm::StringRef source,
                                                 llvm::StringRef function,
                                                 llvm::ArrayRef<int64_t> wrt) {
  auto module = compiler.parseString(source, "gradient-case.mlir");
  if (!module)
    return module.takeError();
  auto f = module->get().lookupSymbol<mlir::func::FuncOp>(function);
  if (!f)
    return llvm::createStringError("no function @" + function);
  std::string args, argTypes, gradTypes, wrtList;
  for (auto [i, type] : llvm::enumerate(f.getArgumentTypes())) {
    args += (i ? ", %a" : "%a") + std::to_string(i);
    argTypes += (i ? ", " : "") + typeText(type);
  }
  for (auto [i, index] : llvm::enumerate(wrt)) {
    gradTypes += (i ? ", " : "") + typeText(f.getArgumentTypes()[index]);
    wrtList += (i ? ", " : "") + std::to_string(index);
  }
  std::string signature;
  for (auto [i, type] : llvm::enumerate(f.getArgumentTypes()))
    signature += (i ? ", %a" : "%a") + std::to_string(i) + ": " + typeText(type);
  std::string results = wrt.size() == 1 ? "%g" : "%g:" + std::to_string(wrt.size());
  std::string returned;
  for (size_t i = 0; i < wrt.size(); ++i)
    returned += (i ? ", %g#" : "%g#") + std::to_string(i);
  if (wrt.size() == 1)
    returned = "%g";
  return source.str() + "\nfunc.func @__gradient_check(" + signature +
         ") -> (" + gradTypes + ") {\n  " + results + " = trace.grad @" +
         function.str() + "(" + args + ") {wrt = array<i64: " + wrtList +
         ">} : (" + argTypes + ") -> (" + gradTypes + ")\n  return " +
         returned + " : " + gradTypes + "\n}\n";
}

double scalarOf(const Tensor &t) { return t.elementAsDouble(0); }

void setElement(Tensor &t, int64_t i, double value) {
  if (t.dtype() == DType::f64)
    t.data<double>()[i] = value;
  else
    t.data<float>()[i] = static_cast<float>(value);
}

} // namespace

llvm::Expected<std::vector<Tensor>> tracec::testing::evaluateGradients(
    llvm::StringRef source, llvm::StringRef function,
    llvm::ArrayRef<Tensor> inputs, llvm::ArrayRef<int64_t> wrt) {
  Compiler compiler;
  auto text = withGradientFunction(compiler, source, function, wrt);
  if (!text)
    return text.takeError();
  auto module = compiler.parseString(*text, "gradient-check.mlir");
  if (!module)
    return module.takeError();
  auto exe = Executable::compile(*module);
  if (!exe)
    return exe.takeError();
  auto grad = (*exe)->function("__gradient_check");
  if (!grad)
    return grad.takeError();
  return (*grad)(inputs);
}

::testing::AssertionResult tracec::testing::checkGradients(
    llvm::StringRef source, llvm::StringRef function,
    llvm::ArrayRef<Tensor> inputs, llvm::ArrayRef<int64_t> wrt) {
  return checkGradientsAtSizes(source, function, {inputs.vec()}, wrt);
}

::testing::AssertionResult tracec::testing::checkGradientsAtSizes(
    llvm::StringRef source, llvm::StringRef function,
    llvm::ArrayRef<std::vector<Tensor>> inputSets,
    llvm::ArrayRef<int64_t> wrt) {
  Compiler compiler;
  auto text = withGradientFunction(compiler, source, function, wrt);
  if (!text)
    return ::testing::AssertionFailure() << llvm::toString(text.takeError());
  auto module = compiler.parseString(*text, "gradient-check.mlir");
  if (!module)
    return ::testing::AssertionFailure() << llvm::toString(module.takeError());
  auto exe = Executable::compile(*module);
  if (!exe)
    return ::testing::AssertionFailure() << llvm::toString(exe.takeError());
  auto f = (*exe)->function(function);
  auto grad = (*exe)->function("__gradient_check");
  if (!f || !grad) {
    llvm::consumeError(f.takeError());
    llvm::consumeError(grad.takeError());
    return ::testing::AssertionFailure() << "functions missing after compile";
  }
  for (auto [set, inputs] : llvm::enumerate(inputSets)) {
    auto analytic = (*grad)(inputs);
    if (!analytic)
      return ::testing::AssertionFailure()
             << "input set " << set << ": "
             << llvm::toString(analytic.takeError());
    for (auto [k, index] : llvm::enumerate(wrt))
      if ((*analytic)[k].shape() != inputs[index].shape())
        return ::testing::AssertionFailure()
               << "input set " << set << ": the gradient of arg " << index
               << " has the wrong shape";

    std::vector<Tensor> point;
    for (const Tensor &input : inputs)
      point.push_back(input.clone());
    for (auto [k, index] : llvm::enumerate(wrt)) {
      Tensor &x = point[index];
      for (int64_t i = 0; i < x.numElements(); ++i) {
        double original = x.elementAsDouble(i);
        double h = 1e-6 * std::max(1.0, std::fabs(original));
        setElement(x, i, original + h);
        auto plus = (*f)(point);
        setElement(x, i, original - h);
        auto minus = (*f)(point);
        setElement(x, i, original);
        if (!plus || !minus) {
          llvm::consumeError(plus.takeError());
          llvm::consumeError(minus.takeError());
          return ::testing::AssertionFailure() << "evaluating f failed";
        }
        double numeric =
            (scalarOf((*plus)[0]) - scalarOf((*minus)[0])) / (2 * h);
        double got = (*analytic)[k].elementAsDouble(i);
        if (!(std::fabs(got - numeric) <= 1e-6 + 1e-5 * std::fabs(numeric)))
          return ::testing::AssertionFailure()
                 << "input set " << set << ": d/d(arg " << index << ")[" << i
                 << "]: trace.grad gives " << got << ", central difference "
                 << numeric;
      }
    }
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult tracec::testing::checkOpGradients(
    llvm::StringRef opText, llvm::ArrayRef<std::string> argTypes,
    llvm::StringRef resultType, llvm::ArrayRef<Tensor> inputs) {
  std::string signature;
  std::vector<int64_t> wrt;
  for (auto [i, type] : llvm::enumerate(argTypes)) {
    signature += (i ? ", %arg" : "%arg") + std::to_string(i) + ": " + type;
    if (llvm::StringRef(type).contains("f64>"))
      wrt.push_back(i);
  }
  // Weights 0.3, 0.5, 0.7, ... (repeating): distinct, so a rule that mixes
  // up output elements shows.
  Compiler compiler;
  auto parsed = compiler.parseString(
      "func.func @t(%x: " + resultType.str() + ") -> " + resultType.str() +
      " { return %x : " + resultType.str() + " }");
  if (!parsed)
    return ::testing::AssertionFailure()
           << "bad result type: " << llvm::toString(parsed.takeError());
  auto result = llvm::cast<mlir::RankedTensorType>(
      parsed->get().lookupSymbol<mlir::func::FuncOp>("t").getResultTypes()[0]);
  std::string weights = "dense<[";
  for (int64_t i = 0; i < result.getNumElements(); ++i)
    weights += (i ? ", " : "") + std::to_string(0.3 + 0.2 * (i % 7));
  weights += "]>";
  if (result.getRank() != 1) {
    // Reshape the flat literal through a 1-D constant.
    std::string flat = "tensor<" + std::to_string(result.getNumElements()) +
                       "xf64>";
    weights = weights + " : " + flat + "\n  %w = trace.reshape %wflat : " +
              flat + " -> " + resultType.str();
    weights = "%wflat = trace.constant " + weights;
  } else {
    weights = "%w = trace.constant " + weights + " : " + resultType.str();
  }
  if (result.getRank() == 0)
    weights = "%w = trace.constant dense<0.3> : tensor<f64>";
  std::string axes;
  for (int64_t d = 0; d < result.getRank(); ++d)
    axes += (d ? ", " : "") + std::to_string(d);
  std::string sum =
      result.getRank() == 0
          ? "%s = trace.identity %p : tensor<f64>"
          : "%s = trace.reduce_sum %p {axes = array<i64: " + axes + ">} : " +
                resultType.str() + " -> tensor<f64>";
  std::string source =
      "func.func @f(" + signature + ") -> tensor<f64> {\n  " + opText.str() +
      "\n  " + weights + "\n  %p = trace.mul %y, %w : (" + resultType.str() +
      ", " + resultType.str() + ") -> " + resultType.str() + "\n  " + sum +
      "\n  return %s : tensor<f64>\n}\n";
  return checkGradients(source, "f", inputs, wrt);
}

Tensor tracec::testing::randomTensor(llvm::ArrayRef<int64_t> shape,
                                     unsigned seed, double low, double high) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<double> uniform(low, high);
  Tensor t = Tensor::zeros(DType::f64, shape);
  for (int64_t i = 0; i < t.numElements(); ++i)
    t.data<double>()[i] = uniform(generator);
  return t;
}

Tensor tracec::testing::indexTensor(llvm::ArrayRef<int64_t> shape,
                                    unsigned seed, int64_t bound) {
  int64_t count = 1;
  for (int64_t dim : shape)
    count *= dim;
  std::vector<int32_t> values;
  for (int64_t i = 0; i < count; ++i)
    values.push_back(static_cast<int32_t>((i * 7 + seed) % bound));
  return *Tensor::fromVector<int32_t>(values, shape);
}

namespace {

/// `source` plus @__jvp_check (trace.jvp of `function`) and, where asked,
/// @__vjp_check (trace.vjp of it), both returning every result.
llvm::Expected<std::string> withTangentFunctions(Compiler &compiler,
                                                 llvm::StringRef source,
                                                 llvm::StringRef function,
                                                 llvm::ArrayRef<int64_t> wrt,
                                                 bool againstReverse) {
  auto module = compiler.parseString(source, "tangent-case.mlir");
  if (!module)
    return module.takeError();
  auto f = module->get().lookupSymbol<mlir::func::FuncOp>(function);
  if (!f)
    return llvm::createStringError("no function @" + function);
  auto list = [](auto &&items, auto &&text) {
    std::string out;
    for (auto [i, item] : llvm::enumerate(items))
      out += (i ? ", " : "") + text(i, item);
    return out;
  };
  std::vector<mlir::Type> argTypesV(f.getArgumentTypes().begin(),
                                    f.getArgumentTypes().end());
  std::vector<mlir::Type> resultTypesV(f.getResultTypes().begin(),
                                       f.getResultTypes().end());
  std::string argTypes =
      list(argTypesV, [](size_t, mlir::Type t) { return typeText(t); });
  std::string resultTypes =
      list(resultTypesV, [](size_t, mlir::Type t) { return typeText(t); });
  std::string params = list(argTypesV, [](size_t i, mlir::Type t) {
    return "%a" + std::to_string(i) + ": " + typeText(t);
  });
  std::string args = list(
      argTypesV, [](size_t i, mlir::Type) { return "%a" + std::to_string(i); });
  std::string wrtList =
      list(wrt, [](size_t, int64_t index) { return std::to_string(index); });
  std::string tangentTypes = list(
      wrt, [&](size_t, int64_t index) { return typeText(argTypesV[index]); });
  std::string tangentParams = list(wrt, [&](size_t k, int64_t index) {
    return "%t" + std::to_string(k) + ": " + typeText(argTypesV[index]);
  });
  std::string tangents =
      list(wrt, [](size_t k, int64_t) { return "%t" + std::to_string(k); });
  size_t numResults = resultTypesV.size();
  auto results = [](size_t count) {
    std::string out;
    for (size_t i = 0; i < count; ++i)
      out += (i ? ", %r#" : "%r#") + std::to_string(i);
    return out;
  };
  std::string text =
      source.str() + "\nfunc.func @__jvp_check(" + params + ", " +
      tangentParams + ") -> (" + resultTypes + ", " + resultTypes +
      ") {\n  %r:" + std::to_string(2 * numResults) + " = trace.jvp @" +
      function.str() + "(" + args + ") tangents(" + tangents +
      ") {wrt = array<i64: " + wrtList + ">} : (" + argTypes + "), (" +
      tangentTypes + ") -> (" + resultTypes + ", " + resultTypes +
      ")\n  return " + results(2 * numResults) + " : " + resultTypes + ", " +
      resultTypes + "\n}\n";
  if (!againstReverse)
    return text;
  std::string gradTypes = list(
      wrt, [&](size_t, int64_t index) { return typeText(argTypesV[index]); });
  std::string cotangentParams = list(resultTypesV, [](size_t i, mlir::Type t) {
    return "%c" + std::to_string(i) + ": " + typeText(t);
  });
  std::string cotangents = list(resultTypesV, [](size_t i, mlir::Type) {
    return "%c" + std::to_string(i);
  });
  size_t numVjp = numResults + wrt.size();
  return text + "func.func @__vjp_check(" + params + ", " + cotangentParams +
         ") -> (" + resultTypes + ", " + gradTypes +
         ") {\n  %r:" + std::to_string(numVjp) + " = trace.vjp @" +
         function.str() + "(" + args + ") cotangents(" + cotangents +
         ") {wrt = array<i64: " + wrtList + ">} : (" + argTypes + "), (" +
         resultTypes + ") -> (" + resultTypes + ", " + gradTypes +
         ")\n  return " + results(numVjp) + " : " + resultTypes + ", " +
         gradTypes + "\n}\n";
}

double maxAbs(const Tensor &t) {
  double m = 0;
  for (int64_t i = 0; i < t.numElements(); ++i)
    m = std::max(m, std::fabs(t.elementAsDouble(i)));
  return m;
}

} // namespace

::testing::AssertionResult
tracec::testing::checkTangents(llvm::StringRef source, llvm::StringRef function,
                               llvm::ArrayRef<Tensor> inputs,
                               llvm::ArrayRef<int64_t> wrt,
                               bool againstReverse) {
  return checkTangentsAtSizes(source, function, {inputs.vec()}, wrt,
                              againstReverse);
}

::testing::AssertionResult tracec::testing::checkTangentsAtSizes(
    llvm::StringRef source, llvm::StringRef function,
    llvm::ArrayRef<std::vector<Tensor>> inputSets, llvm::ArrayRef<int64_t> wrt,
    bool againstReverse) {
  using ::testing::AssertionFailure;
  Compiler compiler;
  auto text =
      withTangentFunctions(compiler, source, function, wrt, againstReverse);
  if (!text)
    return AssertionFailure() << llvm::toString(text.takeError());
  auto module = compiler.parseString(*text, "tangent-check.mlir");
  if (!module)
    return AssertionFailure() << llvm::toString(module.takeError());
  auto exe = Executable::compile(*module);
  if (!exe)
    return AssertionFailure() << llvm::toString(exe.takeError());
  auto f = (*exe)->function(function);
  auto jvp = (*exe)->function("__jvp_check");
  if (!f || !jvp) {
    llvm::consumeError(f.takeError());
    llvm::consumeError(jvp.takeError());
    return AssertionFailure() << "functions missing after compile";
  }
  std::optional<Function> vjp;
  if (againstReverse) {
    auto found = (*exe)->function("__vjp_check");
    if (!found)
      return AssertionFailure() << llvm::toString(found.takeError());
    vjp.emplace(std::move(*found));
  }
  for (auto [set, inputs] : llvm::enumerate(inputSets)) {
    // Random tangents of the wrt arguments.
    std::vector<Tensor> tangents;
    for (auto [k, index] : llvm::enumerate(wrt))
      tangents.push_back(randomTensor(
          inputs[index].shape(), static_cast<unsigned>(7000 + 31 * set + k)));
    std::vector<Tensor> jvpArgs;
    for (const Tensor &input : inputs)
      jvpArgs.push_back(input.clone());
    for (const Tensor &t : tangents)
      jvpArgs.push_back(t.clone());
    auto forward = (*jvp)(jvpArgs);
    if (!forward)
      return AssertionFailure() << "input set " << set << ": "
                                << llvm::toString(forward.takeError());
    size_t numResults = forward->size() / 2;
    auto primal = (*f)(inputs);
    if (!primal)
      return AssertionFailure() << llvm::toString(primal.takeError());
    for (size_t r = 0; r < numResults; ++r) {
      const Tensor &got = (*forward)[r], &want = (*primal)[r];
      if (got.shape() != want.shape())
        return AssertionFailure() << "input set " << set << ": result " << r
                                  << " of trace.jvp has the wrong shape";
      for (int64_t i = 0; i < got.numElements(); ++i)
        if (!(std::fabs(got.elementAsDouble(i) - want.elementAsDouble(i)) <=
              1e-12 * (1 + std::fabs(want.elementAsDouble(i)))))
          return AssertionFailure()
                 << "input set " << set << ": primal result " << r << "[" << i
                 << "] of trace.jvp is " << got.elementAsDouble(i)
                 << ", the function gives " << want.elementAsDouble(i);
    }

    // Central differences along v.
    double scale = 1;
    for (int64_t index : wrt)
      scale = std::max(scale, maxAbs(inputs[index]));
    double h = 1e-6 * scale;
    std::vector<Tensor> plusPoint, minusPoint;
    for (const Tensor &input : inputs) {
      plusPoint.push_back(input.clone());
      minusPoint.push_back(input.clone());
    }
    for (auto [k, index] : llvm::enumerate(wrt)) {
      for (int64_t i = 0; i < inputs[index].numElements(); ++i) {
        double x = inputs[index].elementAsDouble(i);
        double v = tangents[k].elementAsDouble(i);
        setElement(plusPoint[index], i, x + h * v);
        setElement(minusPoint[index], i, x - h * v);
      }
    }
    auto plus = (*f)(plusPoint);
    auto minus = (*f)(minusPoint);
    if (!plus || !minus) {
      llvm::consumeError(plus.takeError());
      llvm::consumeError(minus.takeError());
      return AssertionFailure() << "evaluating f failed";
    }
    for (size_t r = 0; r < numResults; ++r) {
      const Tensor &jv = (*forward)[numResults + r];
      if (jv.shape() != (*primal)[r].shape())
        return AssertionFailure() << "input set " << set << ": the tangent of "
                                  << "result " << r << " has the wrong shape";
      for (int64_t i = 0; i < jv.numElements(); ++i) {
        double numeric =
            ((*plus)[r].elementAsDouble(i) - (*minus)[r].elementAsDouble(i)) /
            (2 * h);
        double got = jv.elementAsDouble(i);
        if (!(std::fabs(got - numeric) <= 1e-6 + 1e-5 * std::fabs(numeric)))
          return AssertionFailure()
                 << "input set " << set << ": tangent of result " << r << "["
                 << i << "]: trace.jvp gives " << got << ", central difference "
                 << numeric;
      }
    }
    if (!againstReverse)
      continue;

    // <J v, w> == <v, J^T w>.
    std::vector<Tensor> vjpArgs;
    for (const Tensor &input : inputs)
      vjpArgs.push_back(input.clone());
    std::vector<Tensor> cotangents;
    for (size_t r = 0; r < numResults; ++r)
      cotangents.push_back(randomTensor(
          (*primal)[r].shape(), static_cast<unsigned>(9000 + 31 * set + r)));
    for (const Tensor &w : cotangents)
      vjpArgs.push_back(w.clone());
    auto backward = (*vjp)(vjpArgs);
    if (!backward)
      return AssertionFailure() << "input set " << set << ": "
                                << llvm::toString(backward.takeError());
    double forwardDot = 0, reverseDot = 0, magnitude = 0;
    for (size_t r = 0; r < numResults; ++r) {
      const Tensor &jv = (*forward)[numResults + r];
      for (int64_t i = 0; i < jv.numElements(); ++i) {
        double term = jv.elementAsDouble(i) * cotangents[r].elementAsDouble(i);
        forwardDot += term;
        magnitude += std::fabs(term);
      }
    }
    for (size_t k = 0; k < wrt.size(); ++k) {
      const Tensor &g = (*backward)[numResults + k];
      for (int64_t i = 0; i < g.numElements(); ++i) {
        double term = g.elementAsDouble(i) * tangents[k].elementAsDouble(i);
        reverseDot += term;
        magnitude += std::fabs(term);
      }
    }
    if (!(std::fabs(forwardDot - reverseDot) <= 1e-10 * (1 + magnitude)))
      return AssertionFailure()
             << "input set " << set << ": <J v, w> = " << forwardDot
             << " (trace.jvp) but <v, J^T w> = " << reverseDot
             << " (trace.vjp)";
  }
  return ::testing::AssertionSuccess();
}
