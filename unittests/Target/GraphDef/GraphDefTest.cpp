//===- GraphDefTest.cpp - The C++ entry points of the GraphDef importer ---===//

#include "tracec/Target/GraphDef.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace tracec;

namespace {

constexpr const char *kGraph = R"pb(
  node {
    name: "x"
    op: "Placeholder"
    attr { key: "dtype" value { type: DT_FLOAT } }
    attr { key: "shape" value { shape { dim { size: 2 } dim { size: 3 } } } }
  }
  node {
    name: "y"
    op: "Relu"
    input: "x"
    attr { key: "T" value { type: DT_FLOAT } }
  }
)pb";

/// Collects the error messages of a context.
struct Errors {
  explicit Errors(mlir::MLIRContext &context)
      : handler(&context, [this](mlir::Diagnostic &diag) {
          messages.push_back(diag.str());
          return mlir::success();
        }) {}
  mlir::ScopedDiagnosticHandler handler;
  std::vector<std::string> messages;
};

TEST(GraphDefImport, TextGraphBecomesMain) {
  mlir::MLIRContext context;
  GraphImportOptions options;
  options.inputArrays = {"x"};
  options.outputArrays = {"y"};
  options.outputNames = {"activations"};
  auto module = importGraphDef(kGraph, /*isText=*/true, "graph.pbtxt",
                               options, &context);
  ASSERT_TRUE(module);
  auto main = module->lookupSymbol<mlir::func::FuncOp>("main");
  ASSERT_TRUE(main);
  auto tensor = mlir::RankedTensorType::get(
      {2, 3}, mlir::Float32Type::get(&context));
  EXPECT_EQ(main.getFunctionType(),
            mlir::FunctionType::get(&context, {tensor}, {tensor}));
  EXPECT_EQ(main.getResultAttrOfType<mlir::StringAttr>(0, "trace.name")
                .getValue(),
            "activations");
}

TEST(GraphDefImport, EntryNameAndShapeOverride) {
  mlir::MLIRContext context;
  GraphImportOptions options;
  options.inputArrays = {"x"};
  options.inputShapes = {{4, 5}};
  options.outputArrays = {"y"};
  options.entryName = "predict";
  auto module = importGraphDef(kGraph, true, "graph.pbtxt", options, &context);
  ASSERT_TRUE(module);
  auto predict = module->lookupSymbol<mlir::func::FuncOp>("predict");
  ASSERT_TRUE(predict);
  EXPECT_EQ(llvm::cast<mlir::RankedTensorType>(predict.getResultTypes()[0])
                .getShape(),
            llvm::ArrayRef<int64_t>({4, 5}));
}

TEST(GraphDefImport, ErrorsAreDiagnosticsNotCrashes) {
  mlir::MLIRContext context;
  Errors errors(context);
  GraphImportOptions options;
  options.outputArrays = {"missing"};
  EXPECT_FALSE(importGraphDef(kGraph, true, "graph.pbtxt", options, &context));
  ASSERT_EQ(errors.messages.size(), 1u);
  EXPECT_EQ(errors.messages[0],
            "output array 'missing' names no node of the graph");

  errors.messages.clear();
  EXPECT_FALSE(importGraphDef(llvm::StringRef("\x0a\xff\xff\xff", 4), false,
                              "graph.pb", {}, &context));
  ASSERT_EQ(errors.messages.size(), 1u);
  EXPECT_NE(errors.messages[0].find("corrupt or truncated"), std::string::npos);
}

TEST(GraphDefImport, InputShapesFlag) {
  std::vector<std::vector<int64_t>> shapes;
  EXPECT_FALSE(parseInputShapes("2,3:4:", shapes));
  EXPECT_EQ(shapes, (std::vector<std::vector<int64_t>>{{2, 3}, {4}, {}}));
  EXPECT_TRUE(parseInputShapes("2,x", shapes));
  EXPECT_TRUE(parseInputShapes("-1", shapes));
}

} // namespace
