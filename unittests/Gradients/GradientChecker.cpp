//===- GradientChecker.cpp - trace.grad against finite differences --------===//

#include "GradientChecker.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
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
