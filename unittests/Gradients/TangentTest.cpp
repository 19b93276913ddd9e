//===- TangentTest.cpp - Every op's tangent rule, static and `?` dims -----===//
//
// Forward mode (trace.jvp) of each differentiable op, checked by
// checkTangentsAtSizes: J v against central differences and against reverse
// mode (<J v, w> == <v, J^T w>). Each case is written once with size
// placeholders and checked twice: with static shapes (each `$k` dim is
// 3 + k) and with `?` dims (compiled once, run at sizes 2 and 5, `$k` being
// n + k). The op lists mirror the reverse-mode tests
// (DynamicOpGradientTest.cpp and the static ones), control flow and calls
// included. The checked function returns the op's result itself, so every
// output element's tangent is compared.
//
//===----------------------------------------------------------------------===//

#include "GradientChecker.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <regex>

using namespace tracec;
using namespace tracec::testing;

namespace {

const int64_t kStaticSize = 3;
const int64_t kDynamicSizes[] = {2, 5};

/// One argument: its type with `$k` placeholders (size n + k), and how to
/// fill it.
struct Arg {
  std::string type;
  double low = -1, high = 1;
  /// For an index (i32) argument: values in [0, indexBound).
  int64_t indexBound = 0;
};

/// `text` with each `$k` replaced by n + k, or by `?` when n is 0.
std::string instantiate(const std::string &text, int64_t n) {
  static const std::regex placeholder("\\$([0-9]+)");
  std::string out;
  auto begin = std::sregex_iterator(text.begin(), text.end(), placeholder);
  size_t last = 0;
  for (auto it = begin; it != std::sregex_iterator(); ++it) {
    out += text.substr(last, it->position() - last);
    out += n == 0 ? "?" : std::to_string(n + std::stoi((*it)[1]));
    last = it->position() + it->length();
  }
  return out + text.substr(last);
}

/// The shape of `arg` at size n.
std::vector<int64_t> shapeOf(const Arg &arg, int64_t n) {
  std::string inner = instantiate(arg.type, n);
  inner = inner.substr(strlen("tensor<"));
  inner.pop_back();
  std::vector<int64_t> shape;
  llvm::SmallVector<llvm::StringRef> parts;
  llvm::StringRef(inner).split(parts, 'x');
  parts.pop_back(); // the element type
  for (llvm::StringRef part : parts)
    shape.push_back(std::stoll(part.str()));
  return shape;
}

Tensor makeArg(const Arg &arg, int64_t n, unsigned seed) {
  std::vector<int64_t> shape = shapeOf(arg, n);
  if (arg.indexBound == 0)
    return randomTensor(shape, seed, arg.low, arg.high);
  return indexTensor(shape, seed, arg.indexBound);
}

struct Case {
  /// Defines `%y` from %arg0, %arg1, ...
  std::string body;
  std::vector<Arg> args;
  std::string result;
  /// Checked against reverse mode too (false only where reverse mode has
  /// no rule).
  bool againstReverse = true;
  /// Functions the body calls.
  std::string prelude = "";
};

/// Checks `c` with static shapes, then with `?` dims at two sizes.
::testing::AssertionResult check(const Case &c) {
  for (int64_t n : {kStaticSize, int64_t(0)}) {
    std::string source = instantiate(c.prelude, n) + "func.func @f(";
    std::vector<int64_t> wrt;
    for (auto [i, arg] : llvm::enumerate(c.args)) {
      source += (i ? ", %arg" : "%arg") + std::to_string(i) + ": " +
                instantiate(arg.type, n);
      if (arg.indexBound == 0)
        wrt.push_back(static_cast<int64_t>(i));
    }
    std::string result = instantiate(c.result, n);
    source += ") -> " + result + " {\n" + instantiate(c.body, n) +
              "\n  return %y : " + result + "\n}\n";
    std::vector<std::vector<Tensor>> sets;
    std::vector<int64_t> sizes =
        n ? std::vector<int64_t>{n}
          : std::vector<int64_t>(std::begin(kDynamicSizes),
                                 std::end(kDynamicSizes));
    for (auto [s, size] : llvm::enumerate(sizes)) {
      std::vector<Tensor> inputs;
      for (auto [i, arg] : llvm::enumerate(c.args))
        inputs.push_back(
            makeArg(arg, size, static_cast<unsigned>(100 * s + 10 * i + 1)));
      sets.push_back(std::move(inputs));
    }
    ::testing::AssertionResult result_ =
        checkTangentsAtSizes(source, "f", sets, wrt, c.againstReverse);
    if (!result_)
      return result_ << "\n" << (n ? "static shapes" : "`?` dims") << ":\n"
                     << source;
  }
  return ::testing::AssertionSuccess();
}

void checkAll(llvm::ArrayRef<Case> cases) {
  for (const Case &c : cases) {
    SCOPED_TRACE(c.body);
    EXPECT_TRUE(check(c));
  }
}

const Arg kRows = {"tensor<$0x3xf64>"};

TEST(Tangents, Unary) {
  // Domains away from the poles and kinks, as in the reverse-mode tests.
  const Arg positive = {"tensor<$0x3xf64>", 0.2, 1.5};
  const Arg away = {"tensor<$0x3xf64>", 0.1, 0.9};
  const Arg negative = {"tensor<$0x3xf64>", -0.9, -0.1};
  std::vector<Case> cases;
  for (auto [op, arg] : std::vector<std::pair<const char *, Arg>>{
           {"neg", kRows},      {"abs", away},       {"abs", negative},
           {"exp", kRows},      {"log", positive},   {"log1p", positive},
           {"sqrt", positive},  {"rsqrt", positive}, {"tanh", kRows},
           {"sigmoid", kRows},  {"relu", away},      {"relu", negative},
           {"gelu", kRows},     {"erf", kRows},      {"sin", kRows},
           {"cos", kRows},      {"sign", away},      {"floor", away},
           {"identity", kRows}})
    cases.push_back({std::string("  %y = trace.") + op +
                         " %arg0 : tensor<$0x3xf64>",
                     {arg},
                     "tensor<$0x3xf64>"});
  checkAll(cases);
}

TEST(Tangents, BinaryWithBroadcasting) {
  auto arg = [](const char *type) { return Arg{type, 0.5, 1.5}; };
  const std::vector<std::pair<Arg, Arg>> operands = {
      {arg("tensor<$0x3xf64>"), arg("tensor<$0x3xf64>")},
      {arg("tensor<$0x3xf64>"), arg("tensor<3xf64>")},
      {arg("tensor<$0x1xf64>"), arg("tensor<1x3xf64>")},
      {arg("tensor<f64>"), arg("tensor<$0x3xf64>")}};
  std::vector<Case> cases;
  for (const char *op : {"add", "sub", "mul", "div", "rem", "pow", "max", "min"})
    for (const auto &[lhs, rhs] : operands)
      cases.push_back({std::string("  %y = trace.") + op +
                           " %arg0, %arg1 : (" + lhs.type + ", " + rhs.type +
                           ") -> tensor<$0x3xf64>",
                       {lhs, rhs},
                       "tensor<$0x3xf64>"});
  checkAll(cases);
}

TEST(Tangents, SelectSizeAndFill) {
  checkAll({
      {"  %cond = trace.gt %arg0, %arg1 : (tensor<$0x3xf64>, "
       "tensor<$0x3xf64>) -> tensor<$0x3xi1>\n"
       "  %y = trace.select %cond, %arg0, %arg2 : (tensor<$0x3xi1>, "
       "tensor<$0x3xf64>, tensor<3xf64>) -> tensor<$0x3xf64>",
       {kRows, kRows, {"tensor<3xf64>"}},
       "tensor<$0x3xf64>"},
      // A comparison gives no tangent; size reads only the shape.
      {"  %n = trace.size %arg0 : tensor<$0x3xf64> -> tensor<f64>\n"
       "  %y = trace.mul %arg0, %n : (tensor<$0x3xf64>, tensor<f64>) -> "
       "tensor<$0x3xf64>",
       {kRows},
       "tensor<$0x3xf64>"},
      {"  %y = trace.fill %arg0 like %arg1 : tensor<f64>, tensor<$0x3xf64> "
       "-> tensor<$0x3xf64>",
       {{"tensor<f64>"}, kRows},
       "tensor<$0x3xf64>"},
      {"  %y = trace.fill %arg0 : tensor<f64> -> tensor<2x3xf64>",
       {{"tensor<f64>"}},
       "tensor<2x3xf64>"},
      {"  %c = tensor.cast %arg0 : tensor<$0x3xf64> to tensor<?x3xf64>\n"
       "  %y = trace.exp %c : tensor<?x3xf64>",
       {kRows},
       "tensor<?x3xf64>"},
  });
}

TEST(Tangents, Matmul) {
  checkAll({
      {"  %y = trace.matmul %arg0, %arg1 : (tensor<$0x3xf64>, tensor<3x4xf64>) "
       "-> tensor<$0x4xf64>",
       {kRows, {"tensor<3x4xf64>"}},
       "tensor<$0x4xf64>"},
      {"  %y = trace.matmul %arg0, %arg1 {transpose_a} : (tensor<$0x3xf64>, "
       "tensor<$0x4xf64>) -> tensor<3x4xf64>",
       {kRows, {"tensor<$0x4xf64>"}},
       "tensor<3x4xf64>"},
      {"  %y = trace.matmul %arg0, %arg1 {transpose_b} : (tensor<$0x3xf64>, "
       "tensor<4x3xf64>) -> tensor<$0x4xf64>",
       {kRows, {"tensor<4x3xf64>"}},
       "tensor<$0x4xf64>"},
      {"  %y = trace.matmul %arg0, %arg1 {transpose_a, transpose_b} : "
       "(tensor<3x$0xf64>, tensor<4x3xf64>) -> tensor<$0x4xf64>",
       {{"tensor<3x$0xf64>"}, {"tensor<4x3xf64>"}},
       "tensor<$0x4xf64>"},
      {"  %y = trace.matmul %arg0, %arg1 : (tensor<$0x2x3xf64>, "
       "tensor<3x4xf64>) -> tensor<$0x2x4xf64>",
       {{"tensor<$0x2x3xf64>"}, {"tensor<3x4xf64>"}},
       "tensor<$0x2x4xf64>"},
      {"  %y = trace.matmul %arg0, %arg1 : (tensor<$0x2x3xf64>, "
       "tensor<$0x3x4xf64>) -> tensor<$0x2x4xf64>",
       {{"tensor<$0x2x3xf64>"}, {"tensor<$0x3x4xf64>"}},
       "tensor<$0x2x4xf64>"},
      // One value as both operands: the product rule gives both terms.
      {"  %y = trace.matmul %arg0, %arg0 : (tensor<3x3xf64>, "
       "tensor<3x3xf64>) -> tensor<3x3xf64>",
       {{"tensor<3x3xf64>"}},
       "tensor<3x3xf64>"},
  });
}

TEST(Tangents, Reductions) {
  const Arg x3 = {"tensor<2x$0x3xf64>", 0.5, 1.5};
  std::vector<Case> cases;
  for (auto [op, attrs, result] :
       std::vector<std::tuple<const char *, const char *, const char *>>{
           {"reduce_sum", "axes = array<i64: 1>", "tensor<2x3xf64>"},
           {"reduce_sum", "axes = array<i64: 2>", "tensor<2x$0xf64>"},
           {"reduce_sum", "axes = array<i64: 0, 1>, keepdims",
            "tensor<1x1x3xf64>"},
           {"reduce_mean", "axes = array<i64: 1>", "tensor<2x3xf64>"},
           {"reduce_mean", "axes = array<i64: 0, 1, 2>", "tensor<f64>"},
           {"reduce_mean", "axes = array<i64: -1>, keepdims",
            "tensor<2x$0x1xf64>"},
           {"reduce_max", "axes = array<i64: 1>", "tensor<2x3xf64>"},
           {"reduce_max", "axes = array<i64: 2>, keepdims",
            "tensor<2x$0x1xf64>"},
           {"reduce_min", "axes = array<i64: 1>", "tensor<2x3xf64>"},
           {"reduce_min", "axes = array<i64: 0, 2>", "tensor<$0xf64>"},
           {"reduce_prod", "axes = array<i64: 1>", "tensor<2x3xf64>"},
           {"reduce_prod", "axes = array<i64: 2>, keepdims",
            "tensor<2x$0x1xf64>"},
           {"reduce_logsumexp", "axes = array<i64: 1>", "tensor<2x3xf64>"},
           {"reduce_logsumexp", "axes = array<i64: 0, 2>, keepdims",
            "tensor<1x$0x1xf64>"}})
    cases.push_back({std::string("  %y = trace.") + op + " %arg0 {" + attrs +
                         "} : tensor<2x$0x3xf64> -> " + result,
                     {x3},
                     result});
  for (const char *op : {"softmax", "log_softmax"})
    for (int axis : {1, 0})
      cases.push_back({std::string("  %y = trace.") + op +
                           " %arg0 {axis = " + std::to_string(axis) +
                           " : i64} : tensor<$0x3xf64>",
                       {kRows},
                       "tensor<$0x3xf64>"});
  checkAll(cases);
}

TEST(Tangents, ShapeOps) {
  checkAll({
      {"  %y = trace.reshape %arg0 : tensor<$0x3x2xf64> -> tensor<$0x6xf64>",
       {{"tensor<$0x3x2xf64>"}},
       "tensor<$0x6xf64>"},
      {"  %y = trace.reshape %arg0 like %arg1 : tensor<$0x6xf64>, "
       "tensor<$0x3x2xf64> -> tensor<$0x3x2xf64>",
       {{"tensor<$0x6xf64>"}, {"tensor<$0x3x2xf64>"}},
       "tensor<$0x3x2xf64>"},
      {"  %y = trace.transpose %arg0 {perm = array<i64: 2, 0, 1>} : "
       "tensor<$0x2x3xf64> -> tensor<3x$0x2xf64>",
       {{"tensor<$0x2x3xf64>"}},
       "tensor<3x$0x2xf64>"},
      {"  %y = trace.broadcast_to %arg0 : tensor<$0x1xf64> -> "
       "tensor<$0x4xf64>",
       {{"tensor<$0x1xf64>"}},
       "tensor<$0x4xf64>"},
      {"  %y = trace.broadcast_to %arg0 like %arg1 : tensor<1x4xf64>, "
       "tensor<$0x4xf64> -> tensor<$0x4xf64>",
       {{"tensor<1x4xf64>"}, {"tensor<$0x4xf64>"}},
       "tensor<$0x4xf64>"},
      {"  %y = trace.concat %arg0, %arg1 {axis = 1} : (tensor<$0x2xf64>, "
       "tensor<$0x3xf64>) -> tensor<$0x5xf64>",
       {{"tensor<$0x2xf64>"}, kRows},
       "tensor<$0x5xf64>"},
      {"  %y = trace.concat %arg0, %arg1 {axis = 0} : (tensor<$0x3xf64>, "
       "tensor<2x3xf64>) -> tensor<$2x3xf64>",
       {kRows, {"tensor<2x3xf64>"}},
       "tensor<$2x3xf64>"},
      {"  %y = trace.slice %arg0 {start = array<i64: 1, 0>, limit = "
       "array<i64: 2, 4>, strides = array<i64: 1, 2>} : tensor<$0x4xf64> -> "
       "tensor<1x2xf64>",
       {{"tensor<$0x4xf64>"}},
       "tensor<1x2xf64>"},
      {"  %y = trace.slice %arg0 like %arg1 {start = array<i64: 1, 1>} : "
       "tensor<$1x5xf64>, tensor<$0x3xf64> -> tensor<$0x3xf64>",
       {{"tensor<$1x5xf64>"}, kRows},
       "tensor<$0x3xf64>"},
      // A nonzero padding value: the tangent pads with zeros.
      {"  %y = trace.pad %arg0 {low = array<i64: 1, 0>, high = array<i64: 2, "
       "1>, value = 0.5 : f64} : tensor<$0x3xf64> -> tensor<$3x4xf64>",
       {kRows},
       "tensor<$3x4xf64>"},
      {"  %y = trace.pad %arg0 like %arg1 {low = array<i64: 1, 0>} : "
       "tensor<$0x3xf64>, tensor<$2x4xf64> -> tensor<$2x4xf64>",
       {kRows, {"tensor<$2x4xf64>"}},
       "tensor<$2x4xf64>"},
      {"  %p:2 = trace.split %arg0 like %arg1, %arg2 {axis = 0 : i64} : "
       "tensor<$2x3xf64>, tensor<$0x3xf64>, tensor<2x3xf64> -> "
       "tensor<$0x3xf64>, tensor<2x3xf64>\n"
       "  %y = trace.mul %p#0, %p#0 : (tensor<$0x3xf64>, tensor<$0x3xf64>) -> "
       "tensor<$0x3xf64>",
       {{"tensor<$2x3xf64>"}, kRows, {"tensor<2x3xf64>"}},
       "tensor<$0x3xf64>"},
  });
}

TEST(Tangents, Gather) {
  checkAll({
      {"  %y = trace.gather %arg0, %arg1 {axis = 0} : (tensor<5x3xf64>, "
       "tensor<$0xi32>) -> tensor<$0x3xf64>",
       {{"tensor<5x3xf64>"}, {"tensor<$0xi32>", 0, 0, 5}},
       "tensor<$0x3xf64>"},
      {"  %y = trace.gather %arg0, %arg1 {axis = 1} : (tensor<$0x5xf64>, "
       "tensor<3xi32>) -> tensor<$0x3xf64>",
       {{"tensor<$0x5xf64>"}, {"tensor<3xi32>", 0, 0, 5}},
       "tensor<$0x3xf64>"},
      {"  %y = trace.gather %arg0, %arg1 {axis = 0} : (tensor<4x$0xf64>, "
       "tensor<2x3xi32>) -> tensor<2x3x$0xf64>",
       {{"tensor<4x$0xf64>"}, {"tensor<2x3xi32>", 0, 0, 4}},
       "tensor<2x3x$0xf64>"},
  });
}

TEST(Tangents, ConvAndPooling) {
  checkAll({
      {"  %y = trace.conv2d %arg0, %arg1 : (tensor<$0x5x5x2xf64>, "
       "tensor<3x3x2x3xf64>) -> tensor<$0x3x3x3xf64>",
       {{"tensor<$0x5x5x2xf64>"}, {"tensor<3x3x2x3xf64>"}},
       "tensor<$0x3x3x3xf64>"},
      {"  %y = trace.conv2d %arg0, %arg1 {strides = array<i64: 2, 1>, padding "
       "= array<i64: 1, 1, 0, 1>, dilations = array<i64: 1, 2>} : "
       "(tensor<$0x5x5x2xf64>, tensor<2x2x2x3xf64>) -> tensor<$0x3x4x3xf64>",
       {{"tensor<$0x5x5x2xf64>"}, {"tensor<2x2x2x3xf64>"}},
       "tensor<$0x3x4x3xf64>"},
      {"  %y = trace.avg_pool2d %arg0 {window = array<i64: 2, 2>, strides = "
       "array<i64: 2, 2>} : tensor<$0x4x4x2xf64> -> tensor<$0x2x2x2xf64>",
       {{"tensor<$0x4x4x2xf64>"}},
       "tensor<$0x2x2x2xf64>"},
      {"  %y = trace.avg_pool2d %arg0 {window = array<i64: 3, 3>, strides = "
       "array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : "
       "tensor<$0x5x5x2xf64> -> tensor<$0x3x3x2xf64>",
       {{"tensor<$0x5x5x2xf64>"}},
       "tensor<$0x3x3x2xf64>"},
      // `?` batch, height and width.
      {"  %y = trace.conv2d %arg0, %arg1 {padding = array<i64: 1, 1, 0, 1>} "
       ": (tensor<$0x$3x$4x2xf64>, tensor<2x2x2x3xf64>) -> "
       "tensor<$0x$4x$4x3xf64>",
       {{"tensor<$0x$3x$4x2xf64>"}, {"tensor<2x2x2x3xf64>"}},
       "tensor<$0x$4x$4x3xf64>"},
  });
}

/// The backprop ops are bilinear (conv2d's) or linear (avg_pool2d_grad's).
TEST(Tangents, BackpropOps) {
  checkAll({
      {"  %y = trace.conv2d_backprop_input %arg0, %arg1 like %arg2 : "
       "(tensor<3x3x2x3xf64>, tensor<$0x3x3x3xf64>, tensor<$0x5x5x2xf64>) -> "
       "tensor<$0x5x5x2xf64>",
       {{"tensor<3x3x2x3xf64>"},
        {"tensor<$0x3x3x3xf64>"},
        {"tensor<$0x5x5x2xf64>"}},
       "tensor<$0x5x5x2xf64>"},
      {"  %y = trace.conv2d_backprop_filter %arg0, %arg1 {filter_shape = "
       "array<i64: 3, 3, 2, 3>} : (tensor<$0x5x5x2xf64>, "
       "tensor<$0x3x3x3xf64>) -> tensor<3x3x2x3xf64>",
       {{"tensor<$0x5x5x2xf64>"}, {"tensor<$0x3x3x3xf64>"}},
       "tensor<3x3x2x3xf64>"},
      {"  %y = trace.avg_pool2d_grad %arg0 like %arg1 {window = array<i64: 3, "
       "3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : "
       "tensor<$0x3x3x2xf64>, tensor<$0x5x5x2xf64> -> tensor<$0x5x5x2xf64>",
       {{"tensor<$0x3x3x2xf64>"}, {"tensor<$0x5x5x2xf64>"}},
       "tensor<$0x5x5x2xf64>"},
  });
}

const char *kLayer = R"mlir(
func.func private @layer(%x: tensor<$0x3xf64>, %w: tensor<3x3xf64>) -> tensor<$0x3xf64> {
  %m = trace.matmul %x, %w : (tensor<$0x3xf64>, tensor<3x3xf64>) -> tensor<$0x3xf64>
  %t = trace.tanh %m : tensor<$0x3xf64>
  return %t : tensor<$0x3xf64>
}
)mlir";

TEST(Tangents, ControlFlowAndCalls) {
  const Arg w = {"tensor<3x3xf64>"};
  checkAll({
      // Both branches taken (the sign of the sum decides).
      {"  %t = trace.reduce_sum %arg0 {axes = array<i64: 0, 1>} : "
       "tensor<$0x3xf64> -> tensor<f64>\n"
       "  %z = trace.constant dense<0.0> : tensor<f64>\n"
       "  %gt = trace.gt %t, %z : (tensor<f64>, tensor<f64>) -> tensor<i1>\n"
       "  %b = tensor.extract %gt[] : tensor<i1>\n"
       "  %y = scf.if %b -> tensor<$0x3xf64> {\n"
       "    %e = trace.exp %arg0 : tensor<$0x3xf64>\n"
       "    %m = trace.mul %e, %arg1 : (tensor<$0x3xf64>, tensor<3xf64>) -> "
       "tensor<$0x3xf64>\n"
       "    scf.yield %m : tensor<$0x3xf64>\n"
       "  } else {\n"
       "    %s = trace.sin %arg0 : tensor<$0x3xf64>\n"
       "    scf.yield %s : tensor<$0x3xf64>\n"
       "  }",
       {kRows, {"tensor<3xf64>"}},
       "tensor<$0x3xf64>"},
      // A loop carrying a value with a tangent, and one (the step count)
      // without; the weight is captured from above.
      {"  %c0 = arith.constant 0 : index\n"
       "  %c1 = arith.constant 1 : index\n"
       "  %c3 = arith.constant 3 : index\n"
       "  %k = trace.constant dense<0.0> : tensor<f64>\n"
       "  %y, %n = scf.for %i = %c0 to %c3 step %c1 iter_args(%h = %arg0, "
       "%m = %k) -> (tensor<$0x3xf64>, tensor<f64>) {\n"
       "    %p = trace.matmul %h, %arg1 : (tensor<$0x3xf64>, tensor<3x3xf64>) "
       "-> tensor<$0x3xf64>\n"
       "    %t = trace.tanh %p : tensor<$0x3xf64>\n"
       "    %one = trace.constant dense<1.0> : tensor<f64>\n"
       "    %m1 = trace.add %m, %one : (tensor<f64>, tensor<f64>) -> "
       "tensor<f64>\n"
       "    scf.yield %t, %m1 : tensor<$0x3xf64>, tensor<f64>\n"
       "  }",
       {kRows, w},
       "tensor<$0x3xf64>"},
      // A value that gets a tangent only from the second iteration on.
      {"  %c0 = arith.constant 0 : index\n"
       "  %c1 = arith.constant 1 : index\n"
       "  %c3 = arith.constant 3 : index\n"
       "  %z = trace.constant dense<0.5> : tensor<3xf64>\n"
       "  %a, %y = scf.for %i = %c0 to %c3 step %c1 iter_args(%u = %arg0, "
       "%v = %z) -> (tensor<3xf64>, tensor<3xf64>) {\n"
       "    %s = trace.sin %u : tensor<3xf64>\n"
       "    %p = trace.mul %v, %u : (tensor<3xf64>, tensor<3xf64>) -> "
       "tensor<3xf64>\n"
       "    scf.yield %s, %p : tensor<3xf64>, tensor<3xf64>\n"
       "  }",
       {{"tensor<3xf64>"}},
       "tensor<3xf64>"},
      // scf.while with a data-dependent trip count (halve until the sum of
      // squares is below 0.1): forward mode carries the tangents along;
      // reverse mode has no rule for while loops, so J v is checked against
      // central differences only.
      {"  %limit = trace.constant dense<0.1> : tensor<f64>\n"
       "  %half = trace.constant dense<0.5> : tensor<f64>\n"
       "  %y = scf.while (%h = %arg0) : (tensor<$0x3xf64>) -> "
       "tensor<$0x3xf64> {\n"
       "    %sq = trace.mul %h, %h : (tensor<$0x3xf64>, tensor<$0x3xf64>) -> "
       "tensor<$0x3xf64>\n"
       "    %s = trace.reduce_sum %sq {axes = array<i64: 0, 1>} : "
       "tensor<$0x3xf64> -> tensor<f64>\n"
       "    %more = trace.gt %s, %limit : (tensor<f64>, tensor<f64>) -> "
       "tensor<i1>\n"
       "    %b = tensor.extract %more[] : tensor<i1>\n"
       "    scf.condition(%b) %h : tensor<$0x3xf64>\n"
       "  } do {\n"
       "  ^bb0(%g: tensor<$0x3xf64>):\n"
       "    %t = trace.sin %g : tensor<$0x3xf64>\n"
       "    %n = trace.mul %t, %half : (tensor<$0x3xf64>, tensor<f64>) -> "
       "tensor<$0x3xf64>\n"
       "    %m = trace.mul %n, %arg1 : (tensor<$0x3xf64>, tensor<3xf64>) -> "
       "tensor<$0x3xf64>\n"
       "    scf.yield %m : tensor<$0x3xf64>\n"
       "  }",
       {kRows, {"tensor<3xf64>", 0.5, 0.9}},
       "tensor<$0x3xf64>",
       /*againstReverse=*/false},
      // Two calls of one function: its __jvp is generated once.
      {"  %a = func.call @layer(%arg0, %arg1) : (tensor<$0x3xf64>, "
       "tensor<3x3xf64>) -> tensor<$0x3xf64>\n"
       "  %y = func.call @layer(%a, %arg1) : (tensor<$0x3xf64>, "
       "tensor<3x3xf64>) -> tensor<$0x3xf64>",
       {kRows, w},
       "tensor<$0x3xf64>",
       true,
       kLayer},
  });
}

/// A small MLP loss differentiated forward-over-reverse: the jvp of its
/// gradient is a Hessian-vector product, checked against central
/// differences of the gradient and against reverse-over-reverse (the
/// Hessian is symmetric, so <H v, w> == <v, H w>).
TEST(Tangents, ForwardOverReverse) {
  std::string source = R"mlir(
func.func @loss(%w: tensor<3x4xf64>, %x: tensor<5x3xf64>) -> tensor<f64> {
  %h = trace.matmul %x, %w : (tensor<5x3xf64>, tensor<3x4xf64>) -> tensor<5x4xf64>
  %t = trace.tanh %h : tensor<5x4xf64>
  %s = trace.log_softmax %t {axis = 1 : i64} : tensor<5x4xf64>
  %m = trace.reduce_mean %s {axes = array<i64: 0, 1>} : tensor<5x4xf64> -> tensor<f64>
  return %m : tensor<f64>
}
func.func @dloss(%w: tensor<3x4xf64>, %x: tensor<5x3xf64>) -> tensor<3x4xf64> {
  %g = trace.grad @loss(%w, %x) {wrt = array<i64: 0>} : (tensor<3x4xf64>, tensor<5x3xf64>) -> tensor<3x4xf64>
  return %g : tensor<3x4xf64>
}
)mlir";
  EXPECT_TRUE(checkTangents(source, "dloss",
                            {randomTensor({3, 4}, 1), randomTensor({5, 3}, 2)},
                            {0, 1}));
}

/// Forward-over-reverse through a loop: the gradient's forward function
/// tapes the carried values (tensor.insert_slice), its backward function
/// reads them back (tensor.extract_slice); forward mode goes through both.
/// Checked against central differences and against reverse-over-reverse.
TEST(Tangents, ForwardOverReverseThroughALoop) {
  std::string source = R"mlir(
func.func @loss(%x: tensor<3xf64>, %w: tensor<3x3xf64>) -> tensor<f64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %y = scf.for %i = %c0 to %c3 step %c1 iter_args(%h = %x) -> (tensor<3xf64>) {
    %r = trace.reshape %h : tensor<3xf64> -> tensor<1x3xf64>
    %m = trace.matmul %r, %w : (tensor<1x3xf64>, tensor<3x3xf64>) -> tensor<1x3xf64>
    %t = trace.tanh %m : tensor<1x3xf64>
    %f = trace.reshape %t : tensor<1x3xf64> -> tensor<3xf64>
    scf.yield %f : tensor<3xf64>
  }
  %s = trace.reduce_sum %y {axes = array<i64: 0>} : tensor<3xf64> -> tensor<f64>
  return %s : tensor<f64>
}
func.func @dloss(%x: tensor<3xf64>, %w: tensor<3x3xf64>) -> tensor<3x3xf64> {
  %g = trace.grad @loss(%x, %w) {wrt = array<i64: 1>} : (tensor<3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
  return %g : tensor<3x3xf64>
}
)mlir";
  EXPECT_TRUE(checkTangents(source, "dloss",
                            {randomTensor({3}, 11), randomTensor({3, 3}, 12)},
                            {0, 1}));
}

/// Forward-over-reverse through a while loop: the gradient's forward
/// function grows its tape (tensor.empty + tensor.insert_slice of the old
/// rows), whose tangent needs zeros for the new rows before the copy.
/// 20 iterations: the tape doubles once. Against central differences and
/// reverse-over-reverse.
TEST(Tangents, ForwardOverReverseThroughAWhileLoop) {
  std::string source = R"mlir(
func.func @loss(%x: tensor<3xf64>, %w: tensor<3xf64>) -> tensor<f64> {
  %zero = trace.constant dense<0> : tensor<i64>
  %one = trace.constant dense<1> : tensor<i64>
  %n = trace.constant dense<20> : tensor<i64>
  %eps = trace.constant dense<0.05> : tensor<3xf64>
  %r:2 = scf.while (%v = %x, %k = %zero) : (tensor<3xf64>, tensor<i64>) -> (tensor<3xf64>, tensor<i64>) {
    %go = trace.lt %k, %n : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %b = tensor.extract %go[] : tensor<i1>
    scf.condition(%b) %v, %k : tensor<3xf64>, tensor<i64>
  } do {
  ^bb0(%v: tensor<3xf64>, %k: tensor<i64>):
    %m = trace.mul %v, %w : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %s = trace.sin %m : tensor<3xf64>
    %d = trace.mul %s, %eps : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %v1 = trace.add %v, %d : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %k1 = trace.add %k, %one : (tensor<i64>, tensor<i64>) -> tensor<i64>
    scf.yield %v1, %k1 : tensor<3xf64>, tensor<i64>
  }
  %e = trace.exp %r#0 : tensor<3xf64>
  %s = trace.reduce_sum %e {axes = array<i64: 0>} : tensor<3xf64> -> tensor<f64>
  return %s : tensor<f64>
}
func.func @dloss(%x: tensor<3xf64>, %w: tensor<3xf64>) -> tensor<3xf64> {
  %g = trace.grad @loss(%x, %w) {wrt = array<i64: 1>} : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  return %g : tensor<3xf64>
}
)mlir";
  EXPECT_TRUE(checkTangents(source, "dloss",
                            {randomTensor({3}, 13), randomTensor({3}, 14)},
                            {0, 1}));
}

/// Reverse-over-forward: the gradient of a function that holds a jvp.
TEST(Tangents, ReverseOverForward) {
  std::string source = R"mlir(
func.func @f(%x: tensor<4xf64>) -> tensor<4xf64> {
  %e = trace.exp %x : tensor<4xf64>
  %s = trace.sin %e : tensor<4xf64>
  return %s : tensor<4xf64>
}
func.func @directional(%x: tensor<4xf64>, %v: tensor<4xf64>) -> tensor<f64> {
  %y, %t = trace.jvp @f(%x) tangents(%v) {wrt = array<i64: 0>} : (tensor<4xf64>), (tensor<4xf64>) -> (tensor<4xf64>, tensor<4xf64>)
  %p = trace.mul %t, %y : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  %r = trace.reduce_sum %p {axes = array<i64: 0>} : tensor<4xf64> -> tensor<f64>
  return %r : tensor<f64>
}
)mlir";
  EXPECT_TRUE(checkGradients(source, "directional",
                             {randomTensor({4}, 3), randomTensor({4}, 4)},
                             {0, 1}));
  // And the jvp of that (forward over reverse over forward).
  EXPECT_TRUE(checkTangents(source, "directional",
                            {randomTensor({4}, 5), randomTensor({4}, 6)},
                            {0, 1}));
}

/// stop_gradient blocks the tangent (central differences see through it,
/// so the value is checked exactly): y = x + stop_gradient(x) * x has the
/// tangent v + stop_gradient(x) * v.
TEST(Tangents, StopGradientGivesZero) {
  std::string source = R"mlir(
func.func @f(%x: tensor<3xf64>) -> tensor<3xf64> {
  %s = trace.stop_gradient %x : tensor<3xf64>
  %p = trace.mul %s, %x : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  %y = trace.add %x, %p : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  return %y : tensor<3xf64>
}
func.func @check(%x: tensor<3xf64>, %v: tensor<3xf64>) -> tensor<3xf64> {
  %y, %t = trace.jvp @f(%x) tangents(%v) {wrt = array<i64: 0>} : (tensor<3xf64>), (tensor<3xf64>) -> (tensor<3xf64>, tensor<3xf64>)
  return %t : tensor<3xf64>
}
)mlir";
  Compiler compiler;
  auto module = compiler.parseString(source, "stop-gradient.mlir");
  ASSERT_TRUE(static_cast<bool>(module)) << llvm::toString(module.takeError());
  auto exe = Executable::compile(*module);
  ASSERT_TRUE(static_cast<bool>(exe)) << llvm::toString(exe.takeError());
  auto check = (*exe)->function("check");
  ASSERT_TRUE(static_cast<bool>(check)) << llvm::toString(check.takeError());
  Tensor x = *Tensor::fromVector<double>({0.5, -2.0, 3.0}, {3});
  Tensor v = *Tensor::fromVector<double>({1.0, 0.25, -1.0}, {3});
  auto t = (*check)({x, v});
  ASSERT_TRUE(static_cast<bool>(t)) << llvm::toString(t.takeError());
  EXPECT_EQ((*t)[0].toVector<double>(),
            (std::vector<double>{1.5, 0.25 - 0.5, -4.0}));
}

/// The checker itself fails a wrong tangent: central differences see
/// through stop_gradient, so for y = stop_gradient(x) * x they give 2 x v
/// where trace.jvp (rightly) gives x v.
TEST(Tangents, CheckerCatchesAWrongTangent) {
  std::string source = R"mlir(
func.func @f(%x: tensor<3xf64>) -> tensor<3xf64> {
  %s = trace.stop_gradient %x : tensor<3xf64>
  %y = trace.mul %s, %x : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  return %y : tensor<3xf64>
}
)mlir";
  ::testing::AssertionResult result =
      checkTangents(source, "f", {randomTensor({3}, 8, 0.5, 1.5)}, {0});
  ASSERT_FALSE(result);
  EXPECT_NE(std::string(result.message()).find("central difference"),
            std::string::npos)
      << result.message();
}

/// Max pooling: max_pool2d's tangent is max_pool2d_select(x, t_x);
/// max_pool2d_grad and max_pool2d_select are linear in their second operand
/// (x random: no tie within a difference step).
TEST(Tangents, MaxPooling) {
  checkAll({
      {"  %y = trace.max_pool2d %arg0 {window = array<i64: 2, 2>, strides = "
       "array<i64: 2, 2>} : tensor<$0x4x4x2xf64> -> tensor<$0x2x2x2xf64>",
       {{"tensor<$0x4x4x2xf64>"}},
       "tensor<$0x2x2x2xf64>"},
      // Padded, `?` height and width.
      {"  %y = trace.max_pool2d %arg0 {window = array<i64: 3, 3>, padding = "
       "array<i64: 1, 1, 1, 1>} : tensor<$0x$3x$2x2xf64> -> "
       "tensor<$0x$3x$2x2xf64>",
       {{"tensor<$0x$3x$2x2xf64>"}},
       "tensor<$0x$3x$2x2xf64>"},
      {"  %y = trace.max_pool2d_grad %arg0, %arg1 {window = array<i64: 3, 3>, "
       "strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : "
       "(tensor<$0x5x5x2xf64>, tensor<$0x3x3x2xf64>) -> tensor<$0x5x5x2xf64>",
       {{"tensor<$0x5x5x2xf64>"}, {"tensor<$0x3x3x2xf64>"}},
       "tensor<$0x5x5x2xf64>"},
      {"  %y = trace.max_pool2d_select %arg0, %arg1 {window = array<i64: 2, "
       "2>, strides = array<i64: 2, 2>} : (tensor<$0x4x4x2xf64>, "
       "tensor<$0x4x4x2xf64>) -> tensor<$0x2x2x2xf64>",
       {{"tensor<$0x4x4x2xf64>"}, {"tensor<$0x4x4x2xf64>"}},
       "tensor<$0x2x2x2xf64>"},
  });
}

/// scatter_add is linear in (operand, updates) jointly; repeated indices
/// (7 i mod bound) add up.
TEST(Tangents, ScatterAdd) {
  checkAll({
      {"  %y = trace.scatter_add %arg0, %arg1, %arg2 : (tensor<4x3xf64>, "
       "tensor<$0xi32>, tensor<$0x3xf64>) -> tensor<4x3xf64>",
       {{"tensor<4x3xf64>"},
        {"tensor<$0xi32>", 0, 0, 4},
        {"tensor<$0x3xf64>"}},
       "tensor<4x3xf64>"},
      {"  %y = trace.scatter_add %arg0, %arg1, %arg2 {axis = 1} : "
       "(tensor<$0x5xf64>, tensor<3xi32>, tensor<$0x3xf64>) -> "
       "tensor<$0x5xf64>",
       {{"tensor<$0x5xf64>"},
        {"tensor<3xi32>", 0, 0, 5},
        {"tensor<$0x3xf64>"}},
       "tensor<$0x5xf64>"},
  });
}

} // namespace
