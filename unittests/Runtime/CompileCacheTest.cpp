//===- CompileCacheTest.cpp - The persistent compile cache ----------------===//
//
// Each test compiles in fresh Compilers (as separate processes would) with
// a cache in a temporary directory of its own, and checks what the cache
// did through Executable::compileStats(), never by timing.
//
//===----------------------------------------------------------------------===//

#include "tracec/Runtime/Executable.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <sys/stat.h>

using namespace tracec;

namespace {

// Global state (the random counter) and a libm call (tanh) in the object:
// both must link when the object is loaded from the cache.
constexpr const char *kModel = R"mlir(
func.func @f(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %t = trace.tanh %x : tensor<4xf32>
  %y = trace.add %t, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %r, %c = trace.random_uniform {seed = 7} : tensor<4xf32>
  return %y, %r : tensor<4xf32>, tensor<4xf32>
}
)mlir";

std::string errorText(llvm::Error error) {
  return llvm::toString(std::move(error));
}

class CompileCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    // ctest disables the cache for every other test: put it back after.
    if (const char *disable = std::getenv("TRACEC_DISABLE_CACHE"))
      savedDisable = disable;
    ::unsetenv("TRACEC_DISABLE_CACHE");
    ASSERT_FALSE(
        llvm::sys::fs::createUniqueDirectory("tracec-cache-test", dir));
  }
  void TearDown() override {
    llvm::sys::fs::remove_directories(dir);
    if (savedDisable)
      ::setenv("TRACEC_DISABLE_CACHE", savedDisable->c_str(), 1);
    else
      ::unsetenv("TRACEC_DISABLE_CACHE");
  }

  std::optional<std::string> savedDisable;

  /// Compiles `source` in a Compiler of its own, runs @f on [0.5, -1, 2, 3]
  /// and checks its results; returns the compile's statistics.
  CompileStats compileAndRun(const char *source = kModel,
                             CompileOptions options = {}) {
    if (options.cacheDirectory.empty())
      options.cacheDirectory = dir.str().str();
    Compiler compiler;
    auto module = compiler.parseString(source, "model.mlir");
    EXPECT_TRUE(bool(module)) << errorText(module.takeError());
    auto exe = Executable::compile(*module, options);
    EXPECT_TRUE(bool(exe)) << errorText(exe.takeError());
    if (!exe)
      return {};
    auto f = (*exe)->function("f");
    EXPECT_TRUE(bool(f)) << errorText(f.takeError());
    auto x = Tensor::fromVector<float>({0.5f, -1, 2, 3}, {4});
    auto results = (*f)({*x});
    EXPECT_TRUE(bool(results)) << errorText(results.takeError());
    if (!results)
      return (*exe)->compileStats();
    std::vector<float> y = (*results)[0].toVector<float>();
    std::vector<float> xs = {0.5f, -1, 2, 3};
    for (int i = 0; i < 4; ++i)
      EXPECT_FLOAT_EQ(y[i], std::tanh(xs[i]) + xs[i]) << "element " << i;
    randoms.push_back((*results)[1].toVector<float>());
    return (*exe)->compileStats();
  }

  std::vector<std::string> entries() {
    std::vector<std::string> files;
    std::error_code ec;
    for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
         it.increment(ec))
      files.push_back(it->path());
    return files;
  }

  llvm::SmallString<128> dir;
  std::vector<std::vector<float>> randoms;
};

TEST_F(CompileCacheTest, SecondCompileHits) {
  CompileStats first = compileAndRun();
  EXPECT_FALSE(first.cacheHit);
  EXPECT_TRUE(first.cacheStored);
  EXPECT_GT(first.pipelineSeconds, 0);
  ASSERT_EQ(entries().size(), 1u) << "one entry, no temporary files left";
  EXPECT_EQ(llvm::sys::path::extension(entries()[0]), ".objects");

  CompileStats second = compileAndRun();
  EXPECT_TRUE(second.cacheHit);
  EXPECT_EQ(second.pipelineSeconds, 0) << "a hit runs no pass pipeline";
  EXPECT_FALSE(second.cacheStored);
  EXPECT_EQ(entries().size(), 1u);
  // The cached code is the same code: the same random numbers, too.
  ASSERT_EQ(randoms.size(), 2u);
  EXPECT_EQ(randoms[0], randoms[1]);
}

TEST_F(CompileCacheTest, KeyCoversModuleAndOptions) {
  EXPECT_FALSE(compileAndRun().cacheHit);
  CompileOptions o1;
  o1.optLevel = 1;
  EXPECT_FALSE(compileAndRun(kModel, o1).cacheHit) << "another -O level";
  EXPECT_TRUE(compileAndRun(kModel, o1).cacheHit);
  std::string other = std::string(kModel) + "func.func private @unused()\n";
  EXPECT_FALSE(compileAndRun(other.c_str()).cacheHit) << "another module";
  EXPECT_EQ(entries().size(), 3u);
  // Two entries of one module compile two different objects.
  std::string two = std::string(kModel) +
                    "func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
                    "  return %x : tensor<4xf32>\n}\n";
  CompileOptions onlyF;
  onlyF.entries = {"f"};
  EXPECT_FALSE(compileAndRun(two.c_str()).cacheHit);
  EXPECT_FALSE(compileAndRun(two.c_str(), onlyF).cacheHit)
      << "the same module, other entries";
  EXPECT_TRUE(compileAndRun(two.c_str(), onlyF).cacheHit);
  EXPECT_EQ(entries().size(), 5u);
}

/// Overwrites the single entry with `bytes`, or truncates it to `size`.
void damage(const std::string &path, std::optional<std::string> bytes,
            size_t size = 0) {
  auto old = llvm::MemoryBuffer::getFile(path, false, false);
  ASSERT_TRUE(bool(old));
  std::string text = bytes ? *bytes : (*old)->getBuffer().substr(0, size).str();
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  ASSERT_FALSE(ec);
  os << text;
}

TEST_F(CompileCacheTest, CorruptEntriesAreRecompiledAndRewritten) {
  compileAndRun();
  ASSERT_EQ(entries().size(), 1u);
  std::string entry = entries()[0];
  auto original = llvm::MemoryBuffer::getFile(entry, false, false);
  ASSERT_TRUE(bool(original));
  std::string bytes = (*original)->getBuffer().str();

  // Garbage, a truncated entry, one flipped byte in the object code, and
  // an empty file: each is rejected, compiled anew and replaced.
  std::string flipped = bytes;
  flipped[flipped.size() / 3] ^= 0x5a;
  for (std::optional<std::string> content :
       {std::optional<std::string>("not an object"),
        std::optional<std::string>(std::nullopt),
        std::optional<std::string>(flipped), std::optional<std::string>("")}) {
    damage(entry, content, bytes.size() / 2);
    CompileStats stats = compileAndRun();
    EXPECT_FALSE(stats.cacheHit);
    EXPECT_TRUE(stats.cacheEntryRejected);
    EXPECT_TRUE(stats.cacheStored);
    CompileStats again = compileAndRun();
    EXPECT_TRUE(again.cacheHit) << "the entry was rewritten";
  }
  EXPECT_EQ(entries().size(), 1u);
}

TEST_F(CompileCacheTest, DisabledByOptionOrEnvironment) {
  CompileOptions off;
  off.useCache = false;
  EXPECT_FALSE(compileAndRun(kModel, off).cacheStored);
  EXPECT_FALSE(compileAndRun(kModel, off).cacheHit);
  EXPECT_TRUE(entries().empty());

  ::setenv("TRACEC_DISABLE_CACHE", "1", 1);
  EXPECT_FALSE(compileAndRun().cacheStored);
  EXPECT_FALSE(compileAndRun().cacheHit);
  EXPECT_TRUE(entries().empty()) << "the environment wins over the options";
  ::setenv("TRACEC_DISABLE_CACHE", "0", 1);
  EXPECT_TRUE(compileAndRun().cacheStored) << "0 does not disable it";
  ::unsetenv("TRACEC_DISABLE_CACHE");
}

TEST_F(CompileCacheTest, EnvironmentMovesTheDirectory) {
  llvm::SmallString<128> moved(dir);
  llvm::sys::path::append(moved, "moved", "here");
  ::setenv("TRACEC_CACHE_DIR", moved.c_str(), 1);
  Compiler compiler;
  auto module = compiler.parseString(kModel);
  ASSERT_TRUE(bool(module));
  auto exe = Executable::compile(*module); // no directory in the options
  ::unsetenv("TRACEC_CACHE_DIR");
  ASSERT_TRUE(bool(exe)) << errorText(exe.takeError());
  EXPECT_TRUE((*exe)->compileStats().cacheStored);
  std::error_code ec;
  EXPECT_FALSE(llvm::sys::fs::directory_iterator(moved, ec) ==
               llvm::sys::fs::directory_iterator());
}

TEST_F(CompileCacheTest, UnwritableDirectoryCompilesWithoutCache) {
  // A directory below a regular file can never be created.
  llvm::SmallString<128> file(dir);
  llvm::sys::path::append(file, "file");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(file, ec);
  }
  CompileOptions options;
  options.cacheDirectory = (file + "/cache").str();
  CompileStats stats = compileAndRun(kModel, options);
  EXPECT_FALSE(stats.cacheStored);
  EXPECT_FALSE(stats.cacheHit);
}

/// The permission bits of `path`.
static unsigned modeOf(const llvm::Twine &path) {
  struct stat info;
  EXPECT_EQ(::stat(path.str().c_str(), &info), 0) << path.str();
  return info.st_mode & 07777;
}

// The cache holds code the JIT runs: a directory it creates is the user's
// alone (0700), and so is each entry (0600).
TEST_F(CompileCacheTest, DirectoryAndEntriesAreTheUsersAlone) {
  llvm::SmallString<128> fresh(dir);
  llvm::sys::path::append(fresh, "fresh");
  CompileOptions options;
  options.cacheDirectory = fresh.str().str();
  EXPECT_FALSE(compileAndRun(kModel, options).cacheHit);
  EXPECT_EQ(modeOf(fresh), 0700u);
  std::error_code ec;
  int seen = 0;
  for (llvm::sys::fs::directory_iterator it(fresh, ec), end;
       it != end && !ec; it.increment(ec), ++seen)
    EXPECT_EQ(modeOf(it->path()), 0600u) << it->path();
  EXPECT_EQ(seen, 1);
  EXPECT_TRUE(compileAndRun(kModel, options).cacheHit);
}

// A directory that others can write could hold code they planted: it is
// not used (neither read nor written), and stderr says why.
TEST_F(CompileCacheTest, DirectoryOthersCanWriteIsNotUsed) {
  CompileOptions options;
  options.cacheDirectory = dir.str().str();
  EXPECT_TRUE(compileAndRun(kModel, options).cacheStored);
  ASSERT_EQ(::chmod(dir.c_str(), 0777), 0);
  testing::internal::CaptureStderr();
  CompileStats shared = compileAndRun(kModel, options);
  std::string warning = testing::internal::GetCapturedStderr();
  EXPECT_FALSE(shared.cacheHit);
  EXPECT_FALSE(shared.cacheStored);
  // Once per process: an earlier test may have printed it already.
  if (!warning.empty())
    EXPECT_NE(warning.find("not using the compile cache"), std::string::npos)
        << warning;
  ASSERT_EQ(::chmod(dir.c_str(), 0700), 0);
  EXPECT_TRUE(compileAndRun(kModel, options).cacheHit);
}

} // namespace
