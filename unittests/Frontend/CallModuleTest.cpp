//===- CallModuleTest.cpp - callModuleFunction: a written-down callee -----===//

#include "FrontendTestUtil.h"

using namespace tracec;
using namespace tracec::testing;

namespace {

using Values = std::vector<Value>;

// y = helper(x) * w, helper(x) = tanh(x): what an imported GraphDef with a
// library function and a variable looks like.
const char *kModule = R"mlir(
module {
  func.func private @helper(%x: tensor<3xf64>) -> tensor<3xf64> {
    %t = trace.tanh %x : tensor<3xf64>
    return %t : tensor<3xf64>
  }
  func.func @main(%x: tensor<3xf64>, %w: !trace.resource<tensor<3xf64>>) -> tensor<3xf64> {
    %h = func.call @helper(%x) : (tensor<3xf64>) -> tensor<3xf64>
    %v, %c = trace.var.read %w : !trace.resource<tensor<3xf64>>
    %y = trace.mul %h, %v : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    return %y : tensor<3xf64>
  }
}
)mlir";

size_t count(const std::string &text, const std::string &what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos;
       at = text.find(what, at + 1))
    ++n;
  return n;
}

TEST(CallModule, CopiedOncePerTraceAndDifferentiated) {
  Variable w(tensor<double>({2, -1, 0.5}, {3}));
  ConcreteFunction f = trace(
      "outer", {spec(DType::f64, {3})}, [&](llvm::ArrayRef<Value> a) -> Values {
        Value y = callModuleFunction("graph", kModule, "main", {a[0]}, {&w})[0];
        Value z = callModuleFunction("graph", kModule, "main", {y}, {&w})[0];
        // d/dx sum(graph(x)) = w * (1 - tanh(x)^2).
        Value g = grad([&](llvm::ArrayRef<Value> b) -> Values {
          return {sum(callModuleFunction("graph", kModule, "main", {b[0]},
                                         {&w})[0])};
        })(a)[0];
        return {z, g};
      });
  std::string ir = f.ir();
  EXPECT_EQ(count(ir, "func.func private @graph("), 1u) << ir;
  EXPECT_EQ(count(ir, "func.func private @graph_helper("), 1u) << ir;
  EXPECT_EQ(count(ir, "call @graph("), 3u) << ir;
  std::vector<double> x = {0.3, -0.7, 1.1}, wv = {2, -1, 0.5};
  std::vector<Tensor> out = run(f, {tensor<double>(x, {3})});
  std::vector<double> z, g;
  for (int i = 0; i < 3; ++i) {
    z.push_back(std::tanh(std::tanh(x[i]) * wv[i]) * wv[i]);
    g.push_back(wv[i] * (1 - std::tanh(x[i]) * std::tanh(x[i])));
  }
  expectNear(out[0].toVector<double>(), z, 1e-12);
  expectNear(out[1].toVector<double>(), g, 1e-12);
}

TEST(CallModule, Errors) {
  Variable w(tensor<double>({1, 2, 3}, {3}));
  Variable wrong(tensor<float>({1, 2}, {2}));
  auto callWith = [&](const char *text, const char *entry,
                      std::vector<Variable *> variables) {
    return traceError([&] {
      trace("bad", {spec(DType::f64, {3})},
            [&](llvm::ArrayRef<Value> a) -> Values {
              return callModuleFunction("graph", text, entry, {a[0]},
                                        variables);
            });
    });
  };
  EXPECT_NE(callWith("module { func.func @main( }", "main", {&w})
                .find("call of @graph: the module does not parse"),
            std::string::npos);
  EXPECT_NE(callWith(kModule, "nope", {&w})
                .find("the module has no function @nope"),
            std::string::npos);
  EXPECT_NE(callWith(kModule, "main", {})
                .find("with 1 arguments and 0 variables, but it takes 1 "
                      "tensors and 1 variables"),
            std::string::npos);
  std::string message = callWith(kModule, "main", {&wrong});
  EXPECT_NE(message.find("variable 0 is !trace.resource<tensor<2xf32>>, "
                         "expected !trace.resource<tensor<3xf64>>"),
            std::string::npos)
      << message;
  // A callee with hoisted reads cannot read the graph's variables.
  message = traceError([&] {
    trace("bad", {spec(DType::f64, {3})},
          [&](llvm::ArrayRef<Value> a) -> Values {
            CallOptions options;
            options.hoistReads = true;
            return callModuleFunction("graph", kModule, "main", {a[0]}, {&w},
                                      options);
          });
  });
  EXPECT_NE(message.find("it reads variables, which cannot be hoisted"),
            std::string::npos)
      << message;
}

TEST(CallModule, ArgumentTypesAreChecked) {
  std::string message = traceError([&] {
    trace("bad", {spec(DType::f32, {3})},
          [&](llvm::ArrayRef<Value> a) -> Values {
            Variable w(tensor<double>({1, 2, 3}, {3}));
            return callModuleFunction("graph", kModule, "main", {a[0]}, {&w});
          });
  });
  EXPECT_NE(message.find("argument 0 is tensor<3xf32>, expected "
                         "tensor<3xf64>"),
            std::string::npos)
      << message;
}

} // namespace
