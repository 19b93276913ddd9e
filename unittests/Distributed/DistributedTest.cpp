//===- DistributedTest.cpp - tracec::distributed under mpiexec -n 2 -------===//
//
// Run by ctest as `mpiexec -n 2 DistributedTests`: every process runs
// every test, and the job fails if any process fails one. A data-parallel
// step (each process a shard of the batch, gradients all-reduced inside the
// compiled step) against the one-process step on the whole batch, at f64.
//
//===----------------------------------------------------------------------===//

#include "tracec/Distributed/Distributed.h"

#include "tracec/Frontend/Frontend.h"
#include "tracec/Runtime/Compiler.h"
#include "tracec/Runtime/Executable.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <memory>
#include <random>

using namespace tracec;

namespace {

/// The value, or the job ends with the error (the other process would
/// wait for this one in its next collective).
template <typename T> T expect(llvm::Expected<T> value) {
  if (!value) {
    fprintf(stderr, "%s\n", llvm::toString(value.takeError()).c_str());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return std::move(*value);
}

TEST(Distributed, RankAndSizeAreTheWorlds) {
  int rank = expect(distributed::rank()), size = expect(distributed::size());
  EXPECT_EQ(size, 2);
  EXPECT_GE(rank, 0);
  EXPECT_LT(rank, size);
  // Two processes on this machine share its cores.
  unsigned threads = expect(distributed::threadsPerProcess());
  EXPECT_GE(threads, 1u);
  EXPECT_LE(threads * size,
            std::max<long>(sysconf(_SC_NPROCESSORS_ONLN), size));
}

TEST(Distributed, CompiledRankAndSizeAreTheWorlds) {
  int rank = expect(distributed::rank()), size = expect(distributed::size());
  ConcreteFunction f = trace("world", {}, [](llvm::ArrayRef<Value>) {
    return std::vector<Value>{comm_rank(), comm_size()};
  });
  ASSERT_FALSE(bool(f.compile()));
  std::vector<Tensor> results = expect(f({}));
  EXPECT_EQ(results[0].toVector<int64_t>(), (std::vector<int64_t>{rank}));
  EXPECT_EQ(results[1].toVector<int64_t>(), (std::vector<int64_t>{size}));
}

TEST(Distributed, AllReduceInGroupsReducesWithinEachGroup) {
  int rank = expect(distributed::rank());
  // Each process a group of its own: its own values, not the world's sum;
  // one group of both, listed backwards: the sum.
  ConcreteFunction f =
      trace("groups", {{DType::f64, {3}, false}}, [](llvm::ArrayRef<Value> a) {
        Value alone = all_reduce(a[0], "sum", {{0}, {1}});
        Value both =
            distributed::allReduceGradients({a[0]}, "mean", {{1, 0}})[0];
        return std::vector<Value>{alone, both};
      });
  ASSERT_FALSE(bool(f.compile()));
  Tensor x = expect(Tensor::fromVector<double>(
      {double(rank), double(rank) + 0.5, -1.0}, {3}));
  std::vector<Tensor> results = expect(f({x}));
  EXPECT_EQ(results[0].toVector<double>(),
            (std::vector<double>{double(rank), double(rank) + 0.5, -1.0}));
  EXPECT_EQ(results[1].toVector<double>(),
            (std::vector<double>{0.5, 1.0, -1.0}));
}

TEST(Distributed, CollectivesInGroupsUseTheGroupsOrder) {
  int rank = expect(distributed::rank());
  // One group of both processes, listed backwards: process 1 is at
  // position 0, the root of the broadcast and the first of the gather.
  const std::vector<std::vector<int64_t>> backwards = {{1, 0}};
  ConcreteFunction f =
      trace("ordered groups", {{DType::f64, {2}, false}},
            [&](llvm::ArrayRef<Value> a) {
              return std::vector<Value>{
                  comm_rank(backwards), broadcast(a[0], 0, backwards),
                  all_gather(a[0], 0, 2, backwards),
                  reduce_scatter(a[0], "sum", 0, 2, backwards)};
            });
  ASSERT_FALSE(bool(f.compile()));
  Tensor x =
      expect(Tensor::fromVector<double>({rank + 1.0, -rank - 0.25}, {2}));
  std::vector<Tensor> results = expect(f({x}));
  EXPECT_EQ(results[0].toVector<int64_t>(), (std::vector<int64_t>{1 - rank}));
  EXPECT_EQ(results[1].toVector<double>(), (std::vector<double>{2.0, -1.25}));
  EXPECT_EQ(results[2].toVector<double>(),
            (std::vector<double>{2.0, -1.25, 1.0, -0.25}));
  // The sum {3, -1.5}: position 0 (process 1) keeps 3, process 0 -1.5.
  EXPECT_EQ(results[3].toVector<double>(),
            (std::vector<double>{rank == 1 ? 3.0 : -1.5}));
}

/// A Megatron-style MLP through the shard dialect: W1 split by columns
/// and W2 by rows over a grid of the two processes, so each computes
/// relu(x W1[:, mine]) W2[mine, :] and one all-reduce adds the halves.
constexpr const char *kTensorParallelMlp = R"mlir(
shard.grid @grid(shape = 2)
func.func @mlp(%x: tensor<4x6xf64>, %w1: tensor<6x8xf64>, %w2: tensor<8x5xf64>) -> tensor<4x5xf64> {
  %columns = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %replicated = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %w1s = shard.shard %w1 to %columns : tensor<6x8xf64>
  %w2s = shard.shard %w2 to %rows : tensor<8x5xf64>
  %zero = arith.constant 0.0 : f64
  %e1 = tensor.empty() : tensor<4x8xf64>
  %f1 = linalg.fill ins(%zero : f64) outs(%e1 : tensor<4x8xf64>) -> tensor<4x8xf64>
  %h = linalg.matmul ins(%x, %w1s : tensor<4x6xf64>, tensor<6x8xf64>) outs(%f1 : tensor<4x8xf64>) -> tensor<4x8xf64>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%h : tensor<4x8xf64>) outs(%e1 : tensor<4x8xf64>) {
  ^bb0(%a: f64, %b: f64):
    %m = arith.maximumf %a, %zero : f64
    linalg.yield %m : f64
  } -> tensor<4x8xf64>
  %e2 = tensor.empty() : tensor<4x5xf64>
  %f2 = linalg.fill ins(%zero : f64) outs(%e2 : tensor<4x5xf64>) -> tensor<4x5xf64>
  %y = linalg.matmul ins(%r, %w2s : tensor<4x8xf64>, tensor<8x5xf64>) outs(%f2 : tensor<4x5xf64>) -> tensor<4x5xf64>
  %out = shard.shard %y to %replicated annotate_for_users : tensor<4x5xf64>
  return %out : tensor<4x5xf64>
}
)mlir";

TEST(Distributed, TensorParallelMlpThroughTheShardDialect) {
  int rank = expect(distributed::rank());
  std::mt19937_64 engine(11); // the same weights on every process
  std::normal_distribution<double> normal;
  auto random = [&](size_t count) {
    std::vector<double> values(count);
    for (double &v : values)
      v = normal(engine);
    return values;
  };
  std::vector<double> x = random(4 * 6), w1 = random(6 * 8), w2 = random(8 * 5);
  // The whole MLP, on this process alone.
  std::vector<double> expected(4 * 5, 0.0);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 8; ++j) {
      double h = 0;
      for (int k = 0; k < 6; ++k)
        h += x[i * 6 + k] * w1[k * 8 + j];
      for (int o = 0; o < 5; ++o)
        expected[i * 5 + o] += std::max(h, 0.0) * w2[j * 5 + o];
    }
  // This process's shards: columns 4r..4r+3 of W1, those rows of W2.
  std::vector<double> w1Mine, w2Mine;
  for (int k = 0; k < 6; ++k)
    for (int j = 4 * rank; j < 4 * rank + 4; ++j)
      w1Mine.push_back(w1[k * 8 + j]);
  w2Mine.assign(w2.begin() + 4 * rank * 5, w2.begin() + (4 * rank + 4) * 5);

  Compiler compiler;
  Module module = expect(compiler.parseString(kTensorParallelMlp, "mlp.mlir"));
  std::unique_ptr<Executable> executable = expect(Executable::compile(module));
  Function mlp = expect(executable->function("mlp"));
  // The compiled function is one process's: it takes the shards.
  std::vector<Tensor> results =
      expect(mlp({expect(Tensor::fromVector(x, {4, 6})),
                  expect(Tensor::fromVector(w1Mine, {6, 4})),
                  expect(Tensor::fromVector(w2Mine, {4, 5}))}));
  std::vector<double> y = results[0].toVector<double>();
  ASSERT_EQ(y.size(), expected.size());
  for (size_t i = 0; i < y.size(); ++i)
    EXPECT_NEAR(y[i], expected[i], 1e-12 * std::abs(expected[i]) + 1e-14) << i;
}

TEST(Distributed, BroadcastVariablesGivesEveryProcessTheRootsValues) {
  int rank = expect(distributed::rank()), size = expect(distributed::size());
  Variable weights(expect(Tensor::fromVector<float>(
      {float(rank), float(rank) + 0.5f, -float(rank)}, {3})));
  Variable steps(expect(Tensor::fromVector<int64_t>({rank}, {})));
  ASSERT_FALSE(bool(distributed::broadcastVariables({&weights, &steps},
                                                    /*root=*/size - 1)));
  float last = float(size - 1);
  EXPECT_EQ(weights.value().toVector<float>(),
            (std::vector<float>{last, last + 0.5f, -last}));
  EXPECT_EQ(steps.value().toVector<int64_t>(),
            (std::vector<int64_t>{size - 1}));
  llvm::Error error = distributed::broadcastVariables({&weights}, size);
  ASSERT_TRUE(bool(error));
  EXPECT_NE(llvm::toString(std::move(error)).find("root 2 is not a rank"),
            std::string::npos);
}

/// A tanh MLP 4-6-1 with a mean squared error, its weights variables.
struct Model {
  explicit Model(uint64_t seed) {
    std::mt19937_64 engine(seed);
    std::normal_distribution<double> normal(0, 0.5);
    auto random = [&](std::vector<int64_t> shape) {
      int64_t n = 1;
      for (int64_t d : shape)
        n *= d;
      std::vector<double> values(n);
      for (double &v : values)
        v = normal(engine);
      return std::make_unique<Variable>(
          expect(Tensor::fromVector<double>(values, shape)));
    };
    weights.push_back(random({4, 6}));
    weights.push_back(random({6}));
    weights.push_back(random({6, 1}));
  }
  std::vector<Variable *> variables() {
    return {weights[0].get(), weights[1].get(), weights[2].get()};
  }
  std::vector<std::unique_ptr<Variable>> weights;
};

constexpr int64_t kBatch = 12;

/// A step on `rows` of the global batch: the loss is the shard's part of
/// the global batch's mean, so the sum over processes of their gradients
/// is the global batch's gradient (allReduceGradients "sum").
ConcreteFunction traceStep(Model &model, int64_t rows, bool reduce) {
  std::vector<TensorSpec> specs = {{DType::f64, {rows, 4}, false},
                                   {DType::f64, {rows, 1}, false}};
  return trace("step", specs, [&, reduce](llvm::ArrayRef<Value> a) {
    GradOptions wrtWeights;
    wrtWeights.argnums = {};
    wrtWeights.variables = model.variables();
    std::vector<Value> grads = grad(
        [&](llvm::ArrayRef<Value> b) -> std::vector<Value> {
          std::vector<Variable *> w = model.variables();
          Value h = tanh(matmul(b[0], read(*w[0])) + read(*w[1]));
          Value error = matmul(h, read(*w[2])) - b[1];
          return {sum(error * error) / double(kBatch)};
        },
        wrtWeights)({a[0], a[1]});
    if (reduce)
      grads = distributed::allReduceGradients(grads, "sum");
    std::vector<Variable *> w = model.variables();
    for (size_t i = 0; i < w.size(); ++i)
      assign_sub(*w[i], grads[i] * 0.1);
    return std::vector<Value>{};
  });
}

std::vector<double> flat(Model &model) {
  std::vector<double> all;
  for (Variable *v : model.variables())
    for (double x : v->value().toVector<double>())
      all.push_back(x);
  return all;
}

class DataParallel : public ::testing::TestWithParam<bool> {};

TEST_P(DataParallel, StepOnShardsEqualsTheStepOnTheWholeBatch) {
  int rank = expect(distributed::rank()), size = expect(distributed::size());
  std::mt19937_64 engine(7); // the same data on every process
  std::normal_distribution<double> normal;
  std::vector<double> x(kBatch * 4), y(kBatch);
  for (double &v : x)
    v = normal(engine);
  for (double &v : y)
    v = normal(engine);
  int64_t rows = kBatch / size;
  auto shard = [&](const std::vector<double> &all, int64_t columns) {
    return std::vector<double>(all.begin() + rank * rows * columns,
                               all.begin() + (rank + 1) * rows * columns);
  };
  Model parallel(rank + 1), whole(1); // different until the broadcast
  ASSERT_FALSE(bool(distributed::broadcastVariables(parallel.variables())));
  CompileOptions options;
  options.threads = expect(distributed::threadsPerProcess());
  options.overlapCollectives = GetParam();
  ConcreteFunction step = traceStep(parallel, rows, /*reduce=*/true);
  ConcreteFunction reference = traceStep(whole, kBatch, /*reduce=*/false);
  EXPECT_NE(step.ir().find("trace.all_reduce"), std::string::npos);
  ASSERT_FALSE(bool(step.compile(options)));
  ASSERT_FALSE(bool(reference.compile(options)));
  Tensor xs = expect(Tensor::fromVector(shard(x, 4), {rows, 4}));
  Tensor ys = expect(Tensor::fromVector(shard(y, 1), {rows, 1}));
  Tensor xAll = expect(Tensor::fromVector(x, {kBatch, 4}));
  Tensor yAll = expect(Tensor::fromVector(y, {kBatch, 1}));
  for (int i = 0; i < 3; ++i) {
    expect(step({xs, ys}));
    expect(reference({xAll, yAll}));
  }
  std::vector<double> mine = flat(parallel), expected = flat(whole);
  ASSERT_EQ(mine.size(), expected.size());
  for (size_t i = 0; i < mine.size(); ++i)
    EXPECT_NEAR(mine[i], expected[i], 1e-12 * std::abs(expected[i]) + 1e-15)
        << i;
  // Every process holds the same weights, bit for bit.
  std::vector<double> root = mine;
  MPI_Bcast(root.data(), int(root.size()), MPI_DOUBLE, 0, MPI_COMM_WORLD);
  EXPECT_EQ(mine, root);
}

INSTANTIATE_TEST_SUITE_P(Blocking, DataParallel, ::testing::Values(false));
INSTANTIATE_TEST_SUITE_P(Overlapped, DataParallel, ::testing::Values(true));

} // namespace

int main(int argc, char **argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (llvm::Error error = distributed::init()) {
    fprintf(stderr, "%s\n", llvm::toString(std::move(error)).c_str());
    return 1;
  }
  // Only rank 0 prints gtest's report; every process's result counts.
  int rank = expect(distributed::rank());
  if (rank != 0)
    delete ::testing::UnitTest::GetInstance()->listeners().Release(
        ::testing::UnitTest::GetInstance()
            ->listeners()
            .default_result_printer());
  int failed = RUN_ALL_TESTS();
  int anyFailed = 0;
  MPI_Allreduce(&failed, &anyFailed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return anyFailed;
}
