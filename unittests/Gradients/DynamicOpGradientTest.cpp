//===- DynamicOpGradientTest.cpp - Every op's gradient at `?` dims --------===//
//
// Each differentiable op, with a `?` dim in its operands, is differentiated
// once by trace-autodiff, compiled once by the JIT and checked against
// central differences at two sizes of the `?` (2 and 5): elementwise ops
// and their broadcasts, select, matmul (plain, transposed, batched, a `?`
// contraction), reductions, softmax, the shape ops (reshape, transpose,
// broadcast_to, concat, slice, pad, gather, split and their `like` forms),
// conv2d, pooling and the backprop ops (at `?` batch, height and width
// too), scf.if, scf.for and func.call
// (scf.while has no gradient at any shape: its rule reports that). The
// checked function is sum(sin(1.3 y + 0.2)) of the op's
// result y, so every output element gets its own cotangent.
//
//===----------------------------------------------------------------------===//

#include "GradientChecker.h"

#include <functional>

using namespace tracec;
using namespace tracec::testing;

namespace {

const int64_t kSizes[] = {2, 5};

/// One argument: its type (with `?`), its shape for a size n (an entry -k
/// stands for n + k - 1), and how to fill it.
struct Arg {
  std::string type;
  std::vector<int64_t> shape;
  double low = -1, high = 1;
  /// For an index (i32) argument: values in [0, indexBound).
  int64_t indexBound = 0;
};

Tensor makeArg(const Arg &arg, int64_t n, unsigned seed) {
  std::vector<int64_t> shape;
  for (int64_t dim : arg.shape)
    shape.push_back(dim < 0 ? n - dim - 1 : dim);
  if (arg.indexBound == 0)
    return randomTensor(shape, seed, arg.low, arg.high);
  return indexTensor(shape, seed, arg.indexBound);
}

/// The rank of a type spelled "tensor<AxBxf64>".
int64_t rankOf(llvm::StringRef type) {
  llvm::StringRef inner = type.drop_front(strlen("tensor<")).drop_back();
  return static_cast<int64_t>(inner.count('x'));
}

/// Checks the gradient of sum(sin(1.3 y + 0.2)), `y` defined by `body`
/// from %arg0, %arg1, ... of `args`, with respect to every f64 argument
/// (the `like` operands included: their gradient is zero), at each size.
::testing::AssertionResult checkAtSizes(llvm::StringRef body,
                                        llvm::ArrayRef<Arg> args,
                                        llvm::StringRef resultType) {
  std::string source = "func.func @f(";
  std::vector<int64_t> wrt;
  for (auto [i, arg] : llvm::enumerate(args)) {
    source += (i ? ", %arg" : "%arg") + std::to_string(i) + ": " + arg.type;
    if (arg.indexBound == 0)
      wrt.push_back(static_cast<int64_t>(i));
  }
  std::string rt = resultType.str();
  std::string axes;
  for (int64_t d = 0; d < rankOf(resultType); ++d)
    axes += (d ? ", " : "") + std::to_string(d);
  source += ") -> tensor<f64> {\n" + body.str() + "\n" +
            "  %k = trace.constant dense<1.3> : tensor<f64>\n"
            "  %c = trace.constant dense<0.2> : tensor<f64>\n"
            "  %ky = trace.mul %y, %k : (" + rt + ", tensor<f64>) -> " + rt +
            "\n  %kc = trace.add %ky, %c : (" + rt + ", tensor<f64>) -> " + rt +
            "\n  %s = trace.sin %kc : " + rt + "\n";
  if (axes.empty())
    source += "  return %s : tensor<f64>\n}\n";
  else
    source += "  %l = trace.reduce_sum %s {axes = array<i64: " + axes +
              ">} : " + rt + " -> tensor<f64>\n  return %l : tensor<f64>\n}\n";
  std::vector<std::vector<Tensor>> sets;
  for (auto [s, n] : llvm::enumerate(kSizes)) {
    std::vector<Tensor> inputs;
    for (auto [i, arg] : llvm::enumerate(args))
      inputs.push_back(
          makeArg(arg, n, static_cast<unsigned>(100 * s + 10 * i + 1)));
    sets.push_back(std::move(inputs));
  }
  ::testing::AssertionResult result =
      checkGradientsAtSizes(source, "f", sets, wrt);
  if (!result)
    result << "\n" << source;
  return result;
}

const Arg kBatch3 = {"tensor<?x3xf64>", {-1, 3}};

TEST(DynamicOpGradients, Unary) {
  // Domains away from the poles and kinks (log, sqrt, rsqrt need x > 0;
  // relu, abs, sign and floor are checked away from 0 and the integers).
  const Arg positive = {"tensor<?x3xf64>", {-1, 3}, 0.2, 1.5};
  const Arg signedAway = {"tensor<?x3xf64>", {-1, 3}, 0.1, 0.9};
  struct Case {
    const char *op;
    const Arg &arg;
  } cases[] = {{"neg", kBatch3},      {"abs", signedAway},
               {"exp", kBatch3},      {"log", positive},
               {"log1p", positive},   {"sqrt", positive},
               {"rsqrt", positive},   {"tanh", kBatch3},
               {"sigmoid", kBatch3},  {"relu", signedAway},
               {"gelu", kBatch3},     {"erf", kBatch3},
               {"sin", kBatch3},      {"cos", kBatch3},
               {"sign", signedAway},  {"floor", signedAway},
               {"identity", kBatch3}};
  for (const Case &c : cases) {
    SCOPED_TRACE(c.op);
    EXPECT_TRUE(checkAtSizes(std::string("  %y = trace.") + c.op +
                                 " %arg0 : tensor<?x3xf64>",
                             {c.arg}, "tensor<?x3xf64>"));
  }
  // abs, relu and sign on the negative side too.
  const Arg negative = {"tensor<?x3xf64>", {-1, 3}, -0.9, -0.1};
  for (const char *op : {"abs", "relu", "sign"}) {
    SCOPED_TRACE(op);
    EXPECT_TRUE(checkAtSizes(std::string("  %y = trace.") + op +
                                 " %arg0 : tensor<?x3xf64>",
                             {negative}, "tensor<?x3xf64>"));
  }
}

TEST(DynamicOpGradients, BinaryWithBroadcasting) {
  // Operands in [0.5, 1.5): pow's base and div's divisor stay positive.
  auto arg = [](const char *type, std::vector<int64_t> shape) {
    return Arg{type, std::move(shape), 0.5, 1.5};
  };
  // `?` against `?`, against a missing dim, and a static 1 stretched to
  // `?` against a `?` 1 stretched to 3.
  const std::vector<std::pair<Arg, Arg>> operands = {
      {arg("tensor<?x3xf64>", {-1, 3}), arg("tensor<?x3xf64>", {-1, 3})},
      {arg("tensor<?x3xf64>", {-1, 3}), arg("tensor<3xf64>", {3})},
      {arg("tensor<?x1xf64>", {-1, 1}), arg("tensor<1x3xf64>", {1, 3})}};
  for (const char *op : {"add", "sub", "mul", "div", "rem", "pow", "max", "min"}) {
    for (const auto &[lhs, rhs] : operands) {
      std::string body = std::string("  %y = trace.") + op +
                         " %arg0, %arg1 : (" + lhs.type + ", " + rhs.type +
                         ") -> tensor<?x3xf64>";
      SCOPED_TRACE(body);
      EXPECT_TRUE(checkAtSizes(body, {lhs, rhs}, "tensor<?x3xf64>"));
    }
  }
}

/// select: the condition (a comparison) carries no gradient; the chosen
/// operand gets dy, the other zero; the static on_false is broadcast.
TEST(DynamicOpGradients, Select) {
  EXPECT_TRUE(checkAtSizes(
      "  %cond = trace.gt %arg0, %arg1 : (tensor<?x3xf64>, tensor<?x3xf64>) "
      "-> tensor<?x3xi1>\n"
      "  %y = trace.select %cond, %arg0, %arg2 : (tensor<?x3xi1>, "
      "tensor<?x3xf64>, tensor<3xf64>) -> tensor<?x3xf64>",
      {kBatch3, kBatch3, {"tensor<3xf64>", {3}}}, "tensor<?x3xf64>"));
}

TEST(DynamicOpGradients, Matmul) {
  struct Case {
    const char *body;
    std::vector<Arg> args;
    const char *result;
  } cases[] = {
      {"  %y = trace.matmul %arg0, %arg1 : (tensor<?x3xf64>, tensor<3x4xf64>) "
       "-> tensor<?x4xf64>",
       {kBatch3, {"tensor<3x4xf64>", {3, 4}}},
       "tensor<?x4xf64>"},
      // The contraction over `?` (a weight gradient's shape).
      {"  %y = trace.matmul %arg0, %arg1 {transpose_a} : (tensor<?x3xf64>, "
       "tensor<?x4xf64>) -> tensor<3x4xf64>",
       {kBatch3, {"tensor<?x4xf64>", {-1, 4}}},
       "tensor<3x4xf64>"},
      {"  %y = trace.matmul %arg0, %arg1 {transpose_b} : (tensor<?x3xf64>, "
       "tensor<4x3xf64>) -> tensor<?x4xf64>",
       {kBatch3, {"tensor<4x3xf64>", {4, 3}}},
       "tensor<?x4xf64>"},
      {"  %y = trace.matmul %arg0, %arg1 {transpose_a, transpose_b} : "
       "(tensor<3x?xf64>, tensor<4x3xf64>) -> tensor<?x4xf64>",
       {{"tensor<3x?xf64>", {3, -1}}, {"tensor<4x3xf64>", {4, 3}}},
       "tensor<?x4xf64>"},
      // A `?` batch against a broadcast (missing) one, and against a `?`.
      {"  %y = trace.matmul %arg0, %arg1 : (tensor<?x2x3xf64>, "
       "tensor<3x4xf64>) -> tensor<?x2x4xf64>",
       {{"tensor<?x2x3xf64>", {-1, 2, 3}}, {"tensor<3x4xf64>", {3, 4}}},
       "tensor<?x2x4xf64>"},
      {"  %y = trace.matmul %arg0, %arg1 : (tensor<?x2x3xf64>, "
       "tensor<?x3x4xf64>) -> tensor<?x2x4xf64>",
       {{"tensor<?x2x3xf64>", {-1, 2, 3}}, {"tensor<?x3x4xf64>", {-1, 3, 4}}},
       "tensor<?x2x4xf64>"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.body);
    EXPECT_TRUE(checkAtSizes(c.body, c.args, c.result));
  }
}

TEST(DynamicOpGradients, Reductions) {
  const Arg x3 = {"tensor<2x?x3xf64>", {2, -1, 3}, 0.5, 1.5};
  struct Case {
    const char *op, *attrs, *result;
  } cases[] = {
      {"reduce_sum", "axes = array<i64: 1>", "tensor<2x3xf64>"},
      {"reduce_sum", "axes = array<i64: 2>", "tensor<2x?xf64>"},
      {"reduce_sum", "axes = array<i64: 0, 1>, keepdims", "tensor<1x1x3xf64>"},
      {"reduce_mean", "axes = array<i64: 1>", "tensor<2x3xf64>"},
      {"reduce_mean", "axes = array<i64: 0, 1, 2>", "tensor<f64>"},
      {"reduce_mean", "axes = array<i64: -1>, keepdims", "tensor<2x?x1xf64>"},
      {"reduce_max", "axes = array<i64: 1>", "tensor<2x3xf64>"},
      {"reduce_max", "axes = array<i64: 2>", "tensor<2x?xf64>"},
      {"reduce_min", "axes = array<i64: 1>", "tensor<2x3xf64>"},
      {"reduce_min", "axes = array<i64: 0, 2>", "tensor<?xf64>"},
      {"reduce_prod", "axes = array<i64: 1>", "tensor<2x3xf64>"},
      {"reduce_prod", "axes = array<i64: 2>, keepdims", "tensor<2x?x1xf64>"},
  };
  for (const Case &c : cases) {
    std::string body = std::string("  %y = trace.") + c.op + " %arg0 {" +
                       c.attrs + "} : tensor<2x?x3xf64> -> " + c.result;
    SCOPED_TRACE(body);
    EXPECT_TRUE(checkAtSizes(body, {x3}, c.result));
  }
}

TEST(DynamicOpGradients, SoftmaxAndLogSoftmax) {
  for (const char *op : {"softmax", "log_softmax"}) {
    // Along the static dim, and along the `?` one.
    for (int axis : {1, 0}) {
      std::string body = std::string("  %y = trace.") + op +
                         " %arg0 {axis = " + std::to_string(axis) +
                         " : i64} : tensor<?x3xf64>";
      SCOPED_TRACE(body);
      EXPECT_TRUE(checkAtSizes(body, {kBatch3}, "tensor<?x3xf64>"));
    }
  }
}

struct ShapeCase {
  const char *body;
  std::vector<Arg> args;
  const char *result;
};

void checkCases(llvm::ArrayRef<ShapeCase> cases) {
  for (const ShapeCase &c : cases) {
    SCOPED_TRACE(c.body);
    EXPECT_TRUE(checkAtSizes(c.body, c.args, c.result));
  }
}

TEST(DynamicOpGradients, ReshapeTransposeBroadcast) {
  checkCases({
      {"  %y = trace.reshape %arg0 : tensor<?x3x2xf64> -> tensor<?x6xf64>",
       {{"tensor<?x3x2xf64>", {-1, 3, 2}}},
       "tensor<?x6xf64>"},
      {"  %y = trace.reshape %arg0 : tensor<?x6xf64> -> tensor<?x2x3xf64>",
       {{"tensor<?x6xf64>", {-1, 6}}},
       "tensor<?x2x3xf64>"},
      {"  %y = trace.reshape %arg0 like %arg1 : tensor<?x6xf64>, "
       "tensor<?x3x2xf64> -> tensor<?x3x2xf64>",
       {{"tensor<?x6xf64>", {-1, 6}}, {"tensor<?x3x2xf64>", {-1, 3, 2}}},
       "tensor<?x3x2xf64>"},
      {"  %y = trace.transpose %arg0 {perm = array<i64: 2, 0, 1>} : "
       "tensor<?x2x3xf64> -> tensor<3x?x2xf64>",
       {{"tensor<?x2x3xf64>", {-1, 2, 3}}},
       "tensor<3x?x2xf64>"},
      {"  %y = trace.broadcast_to %arg0 : tensor<?x1xf64> -> tensor<?x4xf64>",
       {{"tensor<?x1xf64>", {-1, 1}}},
       "tensor<?x4xf64>"},
      {"  %y = trace.broadcast_to %arg0 like %arg1 : tensor<1x4xf64>, "
       "tensor<?x4xf64> -> tensor<?x4xf64>",
       {{"tensor<1x4xf64>", {1, 4}}, {"tensor<?x4xf64>", {-1, 4}}},
       "tensor<?x4xf64>"},
  });
}

TEST(DynamicOpGradients, ConcatSlicePadSplit) {
  checkCases({
      // Along a static axis: every offset is static, the rows are `?`.
      {"  %y = trace.concat %arg0, %arg1 {axis = 1} : (tensor<?x2xf64>, "
       "tensor<?x3xf64>) -> tensor<?x5xf64>",
       {{"tensor<?x2xf64>", {-1, 2}}, kBatch3},
       "tensor<?x5xf64>"},
      // Along the `?` axis: the offsets are run-time sums.
      {"  %y = trace.concat %arg0, %arg1, %arg2 {axis = 0} : "
       "(tensor<?x3xf64>, tensor<2x3xf64>, tensor<?x3xf64>) -> "
       "tensor<?x3xf64>",
       {kBatch3, {"tensor<2x3xf64>", {2, 3}}, {"tensor<?x3xf64>", {-2, 3}}},
       "tensor<?x3xf64>"},
      // A static window (strided) of a `?` operand.
      {"  %y = trace.slice %arg0 {start = array<i64: 1, 0>, limit = "
       "array<i64: 2, 4>, strides = array<i64: 1, 2>} : tensor<?x4xf64> -> "
       "tensor<1x2xf64>",
       {{"tensor<?x4xf64>", {-1, 4}}},
       "tensor<1x2xf64>"},
      {"  %y = trace.slice %arg0 {start = array<i64: 0, 1>, limit = "
       "array<i64: 2, 3>} : tensor<?x4xf64> -> tensor<2x2xf64>",
       {{"tensor<?x4xf64>", {-1, 4}}},
       "tensor<2x2xf64>"},
      {"  %y = trace.slice %arg0 like %arg1 {start = array<i64: 1, 1>} : "
       "tensor<?x5xf64>, tensor<?x3xf64> -> tensor<?x3xf64>",
       {{"tensor<?x5xf64>", {-2, 5}}, kBatch3},
       "tensor<?x3xf64>"},
      {"  %y = trace.pad %arg0 {low = array<i64: 1, 0>, high = array<i64: 2, "
       "1>, value = 0.5 : f64} : tensor<?x3xf64> -> tensor<?x4xf64>",
       {kBatch3},
       "tensor<?x4xf64>"},
      {"  %y = trace.pad %arg0 like %arg1 {low = array<i64: 1, 0>} : "
       "tensor<?x3xf64>, tensor<?x4xf64> -> tensor<?x4xf64>",
       {kBatch3, {"tensor<?x4xf64>", {-3, 4}}},
       "tensor<?x4xf64>"},
      // A piece that is used and one that gets a zero cotangent.
      {"  %p:2 = trace.split %arg0 like %arg1, %arg2 {axis = 0 : i64} : "
       "tensor<?x3xf64>, tensor<?x3xf64>, tensor<2x3xf64> -> "
       "tensor<?x3xf64>, tensor<2x3xf64>\n"
       "  %y = trace.mul %p#0, %p#0 : (tensor<?x3xf64>, tensor<?x3xf64>) -> "
       "tensor<?x3xf64>",
       {{"tensor<?x3xf64>", {-3, 3}}, kBatch3, {"tensor<2x3xf64>", {2, 3}}},
       "tensor<?x3xf64>"},
  });
}

TEST(DynamicOpGradients, Gather) {
  checkCases({
      // `?` indices (an embedding lookup over a dynamic batch).
      {"  %y = trace.gather %arg0, %arg1 {axis = 0} : (tensor<5x3xf64>, "
       "tensor<?xi32>) -> tensor<?x3xf64>",
       {{"tensor<5x3xf64>", {5, 3}}, {"tensor<?xi32>", {-1}, 0, 0, 5}},
       "tensor<?x3xf64>"},
      // `?` params rows before the axis, and after it.
      {"  %y = trace.gather %arg0, %arg1 {axis = 1} : (tensor<?x5xf64>, "
       "tensor<3xi32>) -> tensor<?x3xf64>",
       {{"tensor<?x5xf64>", {-1, 5}}, {"tensor<3xi32>", {3}, 0, 0, 5}},
       "tensor<?x3xf64>"},
      {"  %y = trace.gather %arg0, %arg1 {axis = 0} : (tensor<4x?xf64>, "
       "tensor<2x3xi32>) -> tensor<2x3x?xf64>",
       {{"tensor<4x?xf64>", {4, -1}}, {"tensor<2x3xi32>", {2, 3}, 0, 0, 4}},
       "tensor<2x3x?xf64>"},
      // A `?` gathered dim (the gradient is a scatter_add, which needs no
      // static size), alone and with `?` indices and rows.
      {"  %y = trace.gather %arg0, %arg1 {axis = 0} : (tensor<?x3xf64>, "
       "tensor<4xi32>) -> tensor<4x3xf64>",
       {{"tensor<?x3xf64>", {-1, 3}}, {"tensor<4xi32>", {4}, 0, 0, 2}},
       "tensor<4x3xf64>"},
      {"  %y = trace.gather %arg0, %arg1 {axis = 1} : (tensor<?x?xf64>, "
       "tensor<?xi32>) -> tensor<?x?xf64>",
       {{"tensor<?x?xf64>", {3, -1}}, {"tensor<?xi32>", {-2}, 0, 0, 2}},
       "tensor<?x?xf64>"},
  });
}

TEST(DynamicOpGradients, ScatterAdd) {
  checkCases({
      // `?` rows of the table and `?` indices (repeats: 7 i mod 2).
      {"  %y = trace.scatter_add %arg0, %arg1, %arg2 : (tensor<?x3xf64>, "
       "tensor<?xi32>, tensor<?x3xf64>) -> tensor<?x3xf64>",
       {{"tensor<?x3xf64>", {-1, 3}},
        {"tensor<?xi32>", {-2}, 0, 0, 2},
        {"tensor<?x3xf64>", {-2, 3}}},
       "tensor<?x3xf64>"},
      // Every dim `?`, along the last axis.
      {"  %y = trace.scatter_add %arg0, %arg1, %arg2 {axis = 1} : "
       "(tensor<?x?xf64>, tensor<?xi32>, tensor<?x?xf64>) -> tensor<?x?xf64>",
       {{"tensor<?x?xf64>", {3, -1}},
        {"tensor<?xi32>", {-3}, 0, 0, 2},
        {"tensor<?x?xf64>", {3, -3}}},
       "tensor<?x?xf64>"},
  });
}

TEST(DynamicOpGradients, ConvAndPooling) {
  checkCases({
      {"  %y = trace.conv2d %arg0, %arg1 : (tensor<?x5x5x2xf64>, "
       "tensor<3x3x2x3xf64>) -> tensor<?x3x3x3xf64>",
       {{"tensor<?x5x5x2xf64>", {-1, 5, 5, 2}},
        {"tensor<3x3x2x3xf64>", {3, 3, 2, 3}}},
       "tensor<?x3x3x3xf64>"},
      {"  %y = trace.conv2d %arg0, %arg1 {strides = array<i64: 2, 1>, padding "
       "= array<i64: 1, 1, 0, 1>, dilations = array<i64: 1, 2>} : "
       "(tensor<?x5x5x2xf64>, tensor<2x2x2x3xf64>) -> tensor<?x3x4x3xf64>",
       {{"tensor<?x5x5x2xf64>", {-1, 5, 5, 2}},
        {"tensor<2x2x2x3xf64>", {2, 2, 2, 3}}},
       "tensor<?x3x4x3xf64>"},
      {"  %y = trace.max_pool2d %arg0 {window = array<i64: 2, 2>, strides = "
       "array<i64: 2, 2>} : tensor<?x4x4x2xf64> -> tensor<?x2x2x2xf64>",
       {{"tensor<?x4x4x2xf64>", {-1, 4, 4, 2}}},
       "tensor<?x2x2x2xf64>"},
      {"  %y = trace.max_pool2d %arg0 {window = array<i64: 3, 3>, strides = "
       "array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : "
       "tensor<?x5x5x2xf64> -> tensor<?x3x3x2xf64>",
       {{"tensor<?x5x5x2xf64>", {-1, 5, 5, 2}}},
       "tensor<?x3x3x2xf64>"},
      {"  %y = trace.avg_pool2d %arg0 {window = array<i64: 2, 2>, strides = "
       "array<i64: 2, 2>} : tensor<?x4x4x2xf64> -> tensor<?x2x2x2xf64>",
       {{"tensor<?x4x4x2xf64>", {-1, 4, 4, 2}}},
       "tensor<?x2x2x2xf64>"},
      {"  %y = trace.avg_pool2d %arg0 {window = array<i64: 3, 3>, strides = "
       "array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : "
       "tensor<?x5x5x2xf64> -> tensor<?x3x3x2xf64>",
       {{"tensor<?x5x5x2xf64>", {-1, 5, 5, 2}}},
       "tensor<?x3x3x2xf64>"},
  });
}

/// The backprop ops at a `?` batch are differentiable too (grad of grad):
/// the input's shape comes from `like`.
TEST(DynamicOpGradients, BackpropOps) {
  checkCases({
      {"  %y = trace.conv2d_backprop_input %arg0, %arg1 like %arg2 : "
       "(tensor<3x3x2x3xf64>, tensor<?x3x3x3xf64>, tensor<?x5x5x2xf64>) -> "
       "tensor<?x5x5x2xf64>",
       {{"tensor<3x3x2x3xf64>", {3, 3, 2, 3}},
        {"tensor<?x3x3x3xf64>", {-1, 3, 3, 3}},
        {"tensor<?x5x5x2xf64>", {-1, 5, 5, 2}}},
       "tensor<?x5x5x2xf64>"},
      {"  %y = trace.conv2d_backprop_filter %arg0, %arg1 {filter_shape = "
       "array<i64: 3, 3, 2, 3>} : (tensor<?x5x5x2xf64>, tensor<?x3x3x3xf64>) "
       "-> tensor<3x3x2x3xf64>",
       {{"tensor<?x5x5x2xf64>", {-1, 5, 5, 2}},
        {"tensor<?x3x3x3xf64>", {-1, 3, 3, 3}}},
       "tensor<3x3x2x3xf64>"},
      // max_pool2d_grad (whose rule is max_pool2d_select) and
      // max_pool2d_select at `?` dims (x random: no tie within a step).
      {"  %y = trace.max_pool2d_grad %arg0, %arg1 {window = array<i64: 3, 3>, "
       "strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : "
       "(tensor<?x5x5x2xf64>, tensor<?x3x3x2xf64>) -> tensor<?x5x5x2xf64>",
       {{"tensor<?x5x5x2xf64>", {-1, 5, 5, 2}},
        {"tensor<?x3x3x2xf64>", {-1, 3, 3, 2}}},
       "tensor<?x5x5x2xf64>"},
      {"  %y = trace.max_pool2d_select %arg0, %arg1 {window = array<i64: 2, "
       "2>, strides = array<i64: 2, 2>} : (tensor<?x?x?x2xf64>, "
       "tensor<?x?x?x2xf64>) -> tensor<?x?x?x2xf64>",
       {{"tensor<?x?x?x2xf64>", {-1, -4, -5, 2}},
        {"tensor<?x?x?x2xf64>", {-1, -4, -5, 2}}},
       "tensor<?x?x?x2xf64>"},
      {"  %y = trace.avg_pool2d_grad %arg0 like %arg1 {window = array<i64: 3, "
       "3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : "
       "tensor<?x3x3x2xf64>, tensor<?x5x5x2xf64> -> tensor<?x5x5x2xf64>",
       {{"tensor<?x3x3x2xf64>", {-1, 3, 3, 2}},
        {"tensor<?x5x5x2xf64>", {-1, 5, 5, 2}}},
       "tensor<?x5x5x2xf64>"},
  });
}

/// `?` batch, height and width: the gradients are the backprop ops at `?`
/// H and W (sizes 2x5x6 and 5x8x9; the backprop ops' own gradients at
/// 2x3x4 and 5x6x7).
TEST(DynamicOpGradients, SpatialDims) {
  const Arg image = {"tensor<?x?x?x2xf64>", {-1, -4, -5, 2}};
  const Arg small = {"tensor<?x?x?x2xf64>", {-1, -2, -3, 2}};
  const Arg smallDy = {"tensor<?x?x?x3xf64>", {-1, -2, -3, 3}};
  checkCases({
      {"  %y = trace.conv2d %arg0, %arg1 {strides = array<i64: 2, 1>, padding "
       "= array<i64: 1, 1, 0, 1>} : (tensor<?x?x?x2xf64>, tensor<2x2x2x3xf64>) "
       "-> tensor<?x?x?x3xf64>",
       {image, {"tensor<2x2x2x3xf64>", {2, 2, 2, 3}}},
       "tensor<?x?x?x3xf64>"},
      {"  %y = trace.max_pool2d %arg0 {window = array<i64: 3, 3>, strides = "
       "array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : "
       "tensor<?x?x?x2xf64> -> tensor<?x?x?x2xf64>",
       {image},
       "tensor<?x?x?x2xf64>"},
      {"  %y = trace.avg_pool2d %arg0 {window = array<i64: 3, 3>, strides = "
       "array<i64: 2, 2>, padding = array<i64: 1, 0, 1, 1>} : "
       "tensor<?x?x?x2xf64> -> tensor<?x?x?x2xf64>",
       {image},
       "tensor<?x?x?x2xf64>"},
      {"  %y = trace.conv2d_backprop_input %arg0, %arg1 like %arg2 {padding = "
       "array<i64: 1, 1, 1, 1>} : (tensor<3x3x2x3xf64>, tensor<?x?x?x3xf64>, "
       "tensor<?x?x?x2xf64>) -> tensor<?x?x?x2xf64>",
       {{"tensor<3x3x2x3xf64>", {3, 3, 2, 3}}, smallDy, small},
       "tensor<?x?x?x2xf64>"},
      {"  %y = trace.conv2d_backprop_filter %arg0, %arg1 {filter_shape = "
       "array<i64: 3, 3, 2, 3>, padding = array<i64: 1, 1, 1, 1>} : "
       "(tensor<?x?x?x2xf64>, tensor<?x?x?x3xf64>) -> tensor<3x3x2x3xf64>",
       {small, smallDy},
       "tensor<3x3x2x3xf64>"},
      // 8 input channels: one matmul per window tap (fewer: one im2col
      // matmul, above).
      {"  %y = trace.conv2d_backprop_filter %arg0, %arg1 {filter_shape = "
       "array<i64: 2, 2, 8, 3>, strides = array<i64: 1, 1>} : "
       "(tensor<?x?x?x8xf64>, tensor<?x?x?x3xf64>) -> tensor<2x2x8x3xf64>",
       {{"tensor<?x?x?x8xf64>", {-1, -3, -4, 8}}, smallDy},
       "tensor<2x2x8x3xf64>"},
      {"  %y = trace.avg_pool2d_grad %arg0 like %arg1 {window = array<i64: 3, "
       "3>, padding = array<i64: 1, 1, 1, 1>} : tensor<?x?x?x2xf64>, "
       "tensor<?x?x?x2xf64> -> tensor<?x?x?x2xf64>",
       {small, small},
       "tensor<?x?x?x2xf64>"},
  });
}

/// scf.if carrying a `?`-shaped value, scf.for with a tape of `?`-shaped
/// rows, and calls of a function with `?` dims.
TEST(DynamicOpGradients, ControlFlowAndCalls) {
  std::string callee = R"mlir(
func.func private @layer(%x: tensor<?x3xf64>, %w: tensor<3x3xf64>) -> tensor<?x3xf64> {
  %m = trace.matmul %x, %w : (tensor<?x3xf64>, tensor<3x3xf64>) -> tensor<?x3xf64>
  %t = trace.tanh %m : tensor<?x3xf64>
  return %t : tensor<?x3xf64>
}
)mlir";
  const Arg w = {"tensor<3x3xf64>", {3, 3}};
  checkCases({
      // Both branches taken: the sign of the sum decides.
      {"  %t = trace.reduce_sum %arg0 {axes = array<i64: 0, 1>} : "
       "tensor<?x3xf64> -> tensor<f64>\n"
       "  %z = trace.constant dense<0.0> : tensor<f64>\n"
       "  %gt = trace.gt %t, %z : (tensor<f64>, tensor<f64>) -> tensor<i1>\n"
       "  %b = tensor.extract %gt[] : tensor<i1>\n"
       "  %y = scf.if %b -> tensor<?x3xf64> {\n"
       "    %e = trace.exp %arg0 : tensor<?x3xf64>\n"
       "    %m = trace.mul %e, %arg1 : (tensor<?x3xf64>, tensor<3xf64>) -> "
       "tensor<?x3xf64>\n"
       "    scf.yield %m : tensor<?x3xf64>\n"
       "  } else {\n"
       "    %s = trace.sin %arg0 : tensor<?x3xf64>\n"
       "    scf.yield %s : tensor<?x3xf64>\n"
       "  }",
       {kBatch3, {"tensor<3xf64>", {3}}},
       "tensor<?x3xf64>"},
      {"  %c0 = arith.constant 0 : index\n"
       "  %c1 = arith.constant 1 : index\n"
       "  %c3 = arith.constant 3 : index\n"
       "  %y = scf.for %i = %c0 to %c3 step %c1 iter_args(%h = %arg0) -> "
       "(tensor<?x3xf64>) {\n"
       "    %m = trace.matmul %h, %arg1 : (tensor<?x3xf64>, tensor<3x3xf64>) "
       "-> tensor<?x3xf64>\n"
       "    %t = trace.tanh %m : tensor<?x3xf64>\n"
       "    scf.yield %t : tensor<?x3xf64>\n"
       "  }",
       {kBatch3, w},
       "tensor<?x3xf64>"},
  });
  // func.call: the callee is differentiated once for its `?` dims.
  std::vector<std::vector<Tensor>> sets;
  for (auto [s, n] : llvm::enumerate(kSizes))
    sets.push_back({makeArg(kBatch3, n, 300 + s), makeArg(w, n, 310 + s)});
  std::string source = callee + R"mlir(
func.func @f(%arg0: tensor<?x3xf64>, %arg1: tensor<3x3xf64>) -> tensor<f64> {
  %a = func.call @layer(%arg0, %arg1) : (tensor<?x3xf64>, tensor<3x3xf64>) -> tensor<?x3xf64>
  %b = func.call @layer(%a, %arg1) : (tensor<?x3xf64>, tensor<3x3xf64>) -> tensor<?x3xf64>
  %l = trace.reduce_mean %b {axes = array<i64: 0, 1>} : tensor<?x3xf64> -> tensor<f64>
  return %l : tensor<f64>
}
)mlir";
  EXPECT_TRUE(checkGradientsAtSizes(source, "f", sets, {0, 1}));
}

} // namespace
