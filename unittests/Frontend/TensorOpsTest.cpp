//===- TensorOpsTest.cpp - matmul, reductions, shape, nn and source ops ---===//
//
// References are small loops written here (row-major indexing).
//
//===----------------------------------------------------------------------===//

#include "FrontendTestUtil.h"

#include <cmath>
#include <numeric>

using namespace tracec;
using namespace tracec::testing;

namespace {

using Values = std::vector<Value>;

std::vector<double> iotaVector(int n, double scale = 1, double offset = 0) {
  std::vector<double> v(n);
  for (int i = 0; i < n; ++i)
    v[i] = offset + scale * i;
  return v;
}

/// C[b] = A[b] x B (A: BxMxK, B: KxN), optionally with A given transposed.
std::vector<double> matmulRef(const std::vector<double> &a,
                              const std::vector<double> &b, int batch, int m,
                              int k, int n) {
  std::vector<double> c(batch * m * n, 0);
  for (int p = 0; p < batch; ++p)
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j)
        for (int l = 0; l < k; ++l)
          c[(p * m + i) * n + j] += a[(p * m + i) * k + l] * b[l * n + j];
  return c;
}

TEST(TensorOps, Matmul) {
  std::vector<double> a = iotaVector(2 * 3 * 4, 0.5, -3); // 2x3x4
  std::vector<double> b = iotaVector(4 * 5, -0.25, 2);    // 4x5
  ConcreteFunction f = trace(
      "matmuls", {spec(DType::f64, {2, 3, 4}), spec(DType::f64, {4, 5})},
      [](llvm::ArrayRef<Value> v) -> Values {
        Value at = transpose(v[0], {0, 2, 1}); // 2x4x3
        Value bt = transpose(v[1]);            // 5x4
        return {matmul(v[0], v[1]), matmul(at, v[1], true, false),
                matmul(v[0], bt, false, true)};
      });
  std::vector<Tensor> out =
      run(f, {tensor<double>(a, {2, 3, 4}), tensor<double>(b, {4, 5})});
  ASSERT_EQ(out.size(), 3u);
  std::vector<double> expected = matmulRef(a, b, 2, 3, 4, 5);
  EXPECT_EQ(out[0].typeString(), "tensor<2x3x5xf64>");
  for (const Tensor &t : out)
    expectNear(t.toVector<double>(), expected, 1e-12);
}

TEST(TensorOps, Reductions) {
  std::vector<double> x = {1, 5, -2, 3, 0, 4}; // 2x3
  ConcreteFunction f = trace(
      "reduce", {spec(DType::f64, {2, 3})},
      [](llvm::ArrayRef<Value> v) -> Values {
        Value x = v[0];
        Value keep = sum(x, {1}, true);
        EXPECT_EQ(keep.typeString(), "tensor<2x1xf64>");
        return {sum(x),        sum(x, {0}),     keep,
                mean(x, {-1}), max(x),          min(x, {0}),
                argmax(x, 1),  softmax(x),      log_softmax(x, 0)};
      });
  std::vector<Tensor> out = run(f, {tensor<double>(x, {2, 3})});
  ASSERT_EQ(out.size(), 9u);
  expectNear(out[0].toVector<double>(), {11});
  expectNear(out[1].toVector<double>(), {4, 5, 2});
  expectNear(out[2].toVector<double>(), {4, 7});
  expectNear(out[3].toVector<double>(), {4.0 / 3, 7.0 / 3});
  expectNear(out[4].toVector<double>(), {5});
  expectNear(out[5].toVector<double>(), {1, 0, -2});
  EXPECT_EQ(out[6].toVector<int64_t>(), (std::vector<int64_t>{1, 2}));
  std::vector<double> sm, lsm(6);
  for (int r = 0; r < 2; ++r) {
    double total = 0;
    for (int c = 0; c < 3; ++c)
      total += std::exp(x[r * 3 + c]);
    for (int c = 0; c < 3; ++c)
      sm.push_back(std::exp(x[r * 3 + c]) / total);
  }
  for (int c = 0; c < 3; ++c) {
    double total = std::exp(x[c]) + std::exp(x[3 + c]);
    lsm[c] = x[c] - std::log(total);
    lsm[3 + c] = x[3 + c] - std::log(total);
  }
  expectNear(out[7].toVector<double>(), sm, 1e-12);
  expectNear(out[8].toVector<double>(), lsm, 1e-12);
}

TEST(TensorOps, ShapeOps) {
  std::vector<float> x = {0, 1, 2, 3, 4, 5}; // 2x3
  ConcreteFunction f = trace(
      "shapes", {spec(DType::f32, {2, 3}), spec(DType::i32, {2})},
      [](llvm::ArrayRef<Value> v) -> Values {
        Value x = v[0], idx = v[1];
        return {reshape(x, {3, -1}),
                transpose(x),
                broadcast_to(sum(x, {0}, true), {2, 3}),
                concat({x, x * 10}, 0),
                slice(x, {0, 0}, {2, 3}, {1, 2}),
                pad(x, {1, 0}, {0, 1}, -1.0),
                gather(x, idx, 1),
                one_hot(idx, 3),
                one_hot(idx, 4, DType::i32, 0, 5, -5)};
      });
  std::vector<Tensor> out =
      run(f, {tensor<float>(x, {2, 3}), tensor<int32_t>({2, 0}, {2})});
  ASSERT_EQ(out.size(), 9u);
  EXPECT_EQ(out[0].typeString(), "tensor<3x2xf32>");
  expectNear(out[0].toVector<double>(), {0, 1, 2, 3, 4, 5});
  expectNear(out[1].toVector<double>(), {0, 3, 1, 4, 2, 5});
  expectNear(out[2].toVector<double>(), {3, 5, 7, 3, 5, 7});
  EXPECT_EQ(out[3].typeString(), "tensor<4x3xf32>");
  expectNear(out[3].toVector<double>(), {0, 1, 2, 3, 4, 5, 0, 10, 20, 30, 40, 50});
  expectNear(out[4].toVector<double>(), {0, 2, 3, 5});
  EXPECT_EQ(out[5].typeString(), "tensor<3x4xf32>");
  expectNear(out[5].toVector<double>(),
             {-1, -1, -1, -1, 0, 1, 2, -1, 3, 4, 5, -1});
  expectNear(out[6].toVector<double>(), {2, 0, 5, 3});
  expectNear(out[7].toVector<double>(), {0, 0, 1, 1, 0, 0});
  EXPECT_EQ(out[8].typeString(), "tensor<4x2xi32>");
  EXPECT_EQ(out[8].toVector<int>(),
            (std::vector<int>{-5, 5, -5, -5, 5, -5, -5, -5}));
}

TEST(TensorOps, ShapeErrors) {
  std::string message = traceError([] {
    trace("bad", {spec(DType::f32, {2, 3})},
          [](llvm::ArrayRef<Value> v) -> Values {
            return {reshape(v[0], {4, -1})};
          });
  });
  EXPECT_NE(message.find("'trace.reshape'"), std::string::npos) << message;
  message = traceError([] {
    trace("bad", {spec(DType::f32, {2, 3})},
          [](llvm::ArrayRef<Value> v) -> Values {
            return {reshape(v[0], {-1, -1})};
          });
  });
  EXPECT_NE(message.find("only one -1"), std::string::npos) << message;
  message = traceError([] {
    trace("bad", {spec(DType::f32, {2, 3})},
          [](llvm::ArrayRef<Value> v) -> Values {
            return {sum(v[0], {2})};
          });
  });
  EXPECT_NE(message.find("'trace.reduce_sum'"), std::string::npos) << message;
  message = traceError([] {
    trace("bad", {spec(DType::f32, {2, 3}), spec(DType::f32, {2, 3})},
          [](llvm::ArrayRef<Value> v) -> Values {
            return {matmul(v[0], v[1])};
          });
  });
  EXPECT_NE(message.find("'trace.matmul'"), std::string::npos) << message;
  EXPECT_NE(message.find("contraction dims differ: lhs 3 vs rhs 2"),
            std::string::npos)
      << message;
}

TEST(TensorOps, ConvPoolOps) {
  // input 1x4x4x1, filter 3x3x1x2, stride 1, padding 1 (same).
  std::vector<double> in = iotaVector(16, 0.5, -2);
  std::vector<double> filt = iotaVector(18, 0.1, -0.9);
  ConcreteFunction f = trace(
      "nn", {spec(DType::f64, {1, 4, 4, 1}), spec(DType::f64, {3, 3, 1, 2})},
      [](llvm::ArrayRef<Value> v) -> Values {
        return {conv2d(v[0], v[1], {1, 1}, {1, 1, 1, 1}),
                max_pool2d(v[0], {2, 2}, {2, 2}),
                avg_pool2d(v[0], {3, 3}, {2, 2}, {1, 1, 1, 1})};
      });
  std::vector<Tensor> out = run(f, {tensor<double>(in, {1, 4, 4, 1}),
                                    tensor<double>(filt, {3, 3, 1, 2})});
  ASSERT_EQ(out.size(), 3u);
  std::vector<double> conv(4 * 4 * 2, 0);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x)
      for (int o = 0; o < 2; ++o)
        for (int dy = 0; dy < 3; ++dy)
          for (int dx = 0; dx < 3; ++dx) {
            int iy = y + dy - 1, ix = x + dx - 1;
            if (iy < 0 || iy >= 4 || ix < 0 || ix >= 4)
              continue;
            conv[(y * 4 + x) * 2 + o] +=
                in[iy * 4 + ix] * filt[(dy * 3 + dx) * 2 + o];
          }
  expectNear(out[0].toVector<double>(), conv, 1e-12);
  std::vector<double> maxPool, avgPool;
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 2; ++x) {
      double m = -1e300, total = 0;
      int count = 0;
      for (int dy = 0; dy < 2; ++dy)
        for (int dx = 0; dx < 2; ++dx)
          m = std::max(m, in[(2 * y + dy) * 4 + 2 * x + dx]);
      for (int dy = 0; dy < 3; ++dy)
        for (int dx = 0; dx < 3; ++dx) {
          int iy = 2 * y + dy - 1, ix = 2 * x + dx - 1;
          if (iy < 0 || iy >= 4 || ix < 0 || ix >= 4)
            continue;
          total += in[iy * 4 + ix];
          ++count;
        }
      maxPool.push_back(m);
      avgPool.push_back(total / count);
    }
  expectNear(out[1].toVector<double>(), maxPool, 1e-12);
  expectNear(out[2].toVector<double>(), avgPool, 1e-12);
}

TEST(TensorOps, Sources) {
  Tensor table = tensor<float>({1.5, -2, 3}, {3});
  ConcreteFunction f = trace(
      "sources", {spec(DType::f32, {})},
      [&](llvm::ArrayRef<Value> v) -> Values {
        return {constant(table),
                full({2}, 7, DType::i64),
                zeros({2}),
                ones({2}, DType::f64),
                fill(v[0], {2, 2}),
                iota({2, 3}, DType::i32, 1),
                zeros_like(v[0]) + ones_like(v[0]),
                random_uniform({1000}, DType::f32, 42, -1, 3),
                random_normal({2000}, DType::f64, 7, 1, 2)};
      });
  std::string ir = f.ir();
  EXPECT_NE(ir.find("dense<[1.500000e+00, -2.000000e+00, 3.000000e+00]>"),
            std::string::npos)
      << ir;
  std::vector<Tensor> out = run(f, {Tensor::scalar<float>(2.5f)});
  ASSERT_EQ(out.size(), 9u);
  expectNear(out[0].toVector<double>(), {1.5, -2, 3});
  EXPECT_EQ(out[1].toVector<int64_t>(), (std::vector<int64_t>{7, 7}));
  expectNear(out[2].toVector<double>(), {0, 0});
  expectNear(out[3].toVector<double>(), {1, 1});
  expectNear(out[4].toVector<double>(), {2.5, 2.5, 2.5, 2.5});
  EXPECT_EQ(out[5].toVector<int>(), (std::vector<int>{0, 1, 2, 0, 1, 2}));
  expectNear(out[6].toVector<double>(), {1});
  std::vector<double> u = out[7].toVector<double>();
  for (double value : u) {
    EXPECT_GE(value, -1);
    EXPECT_LT(value, 3);
  }
  double uMean = std::accumulate(u.begin(), u.end(), 0.0) / u.size();
  EXPECT_NEAR(uMean, 1.0, 0.15); // 5 sigma of the mean of 1000 draws
  std::vector<double> n = out[8].toVector<double>();
  double nMean = std::accumulate(n.begin(), n.end(), 0.0) / n.size();
  double var = 0;
  for (double value : n)
    var += (value - nMean) * (value - nMean) / n.size();
  EXPECT_NEAR(nMean, 1.0, 0.25);
  EXPECT_NEAR(std::sqrt(var), 2.0, 0.2);
}

TEST(TensorOps, PrintRunsInProgramOrder) {
  ConcreteFunction f = trace(
      "printer", {spec(DType::f32, {2})},
      [](llvm::ArrayRef<Value> v) -> Values {
        print(v[0], "x =");
        print(v[0] * 2, "2x =");
        return {v[0]};
      });
  EXPECT_NE(f.ir().find("trace.print"), std::string::npos);
  ::testing::internal::CaptureStdout();
  std::vector<Tensor> out = run(f, {tensor<float>({1, 2}, {2})});
  std::fflush(stdout);
  std::string printed = ::testing::internal::GetCapturedStdout();
  EXPECT_EQ(printed, "x = [1. 2.]\n2x = [2. 4.]\n");
}

} // namespace
