//===- TensorTest.cpp - tracec::Tensor ------------------------------------===//

#include "tracec/Tensor/Tensor.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace tracec;

namespace {

std::string errorText(llvm::Error error) { return llvm::toString(std::move(error)); }

/// A path in a fresh temporary directory, removed with the fixture.
class TempDir : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tracec-test", dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(dir); }
  std::string path(llvm::StringRef name) { return (dir + "/" + name).str(); }
  void writeFile(llvm::StringRef name, llvm::StringRef bytes) {
    std::error_code ec;
    llvm::raw_fd_ostream os(path(name), ec);
    ASSERT_FALSE(ec);
    os << bytes;
  }
  llvm::SmallString<128> dir;
};

TEST(TensorTest, StorageIs64ByteAligned) {
  for (int64_t n : {0, 1, 3, 17, 1000}) {
    Tensor t = Tensor::zeros(DType::f32, {n});
    EXPECT_EQ(reinterpret_cast<uintptr_t>(t.rawData()) % 64, 0u) << n;
    EXPECT_EQ(t.sizeInBytes(), size_t(n) * 4);
  }
}

TEST(TensorTest, LargeBlocksAreReusedAndZeroed) {
  // A freed block of 1 MiB or more is kept for the next tensor of its size
  // (no fresh mapping to fault in), and that tensor still starts as zeros.
  const float *first;
  {
    Tensor t = Tensor::zeros(DType::f32, {512, 1024});
    first = t.data<float>();
    std::fill_n(t.data<float>(), 512 * 1024, 3.0f);
  }
  Tensor again = Tensor::zeros(DType::f32, {1024, 512});
  EXPECT_EQ(again.data<float>(), first);
  const float *values = again.data<float>();
  EXPECT_TRUE(std::all_of(values, values + 512 * 1024,
                          [](float v) { return v == 0.0f; }));
  // Another size gets another block, while the first is in use.
  Tensor other = Tensor::zeros(DType::f32, {1024, 1024});
  EXPECT_NE(other.data<float>(), again.data<float>());
}

TEST(TensorTest, EmptyIsAlignedAndSizeChecked) {
  // The storage of a compiled function's results: aligned as zeros' is,
  // its size checked as allocate's (not written: the function writes it).
  for (int64_t n : {0, 1, 17, 1000}) {
    llvm::Expected<Tensor> t = Tensor::empty(DType::f64, {n, 3});
    ASSERT_TRUE(bool(t));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(t->rawData()) % 64, 0u) << n;
    EXPECT_EQ(t->sizeInBytes(), size_t(n) * 3 * 8);
  }
  llvm::Expected<Tensor> huge =
      Tensor::empty(DType::f32, {int64_t(1) << 40, int64_t(1) << 10});
  ASSERT_FALSE(bool(huge));
  EXPECT_NE(
      llvm::toString(huge.takeError()).find("larger than a tensor can be"),
      std::string::npos);
}

TEST(TensorTest, FromAndToVector) {
  auto t = Tensor::fromVector<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  ASSERT_TRUE(bool(t)) << errorText(t.takeError());
  EXPECT_EQ(t->dtype(), DType::f32);
  EXPECT_EQ(t->shape(), llvm::ArrayRef<int64_t>({2, 3}));
  EXPECT_EQ(t->typeString(), "tensor<2x3xf32>");
  EXPECT_EQ(t->toVector<float>(), std::vector<float>({1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(t->toVector<int64_t>(), std::vector<int64_t>({1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(Tensor::scalar<int64_t>(-7).typeString(), "tensor<i64>");
}

TEST(TensorTest, FromVectorRejectsWrongCount) {
  auto t = Tensor::fromVector<float>({1, 2, 3}, {2, 2});
  ASSERT_FALSE(bool(t));
  EXPECT_EQ(errorText(t.takeError()),
            "cannot make a tensor of shape [2, 2] (4 elements) from 3 values");
}

TEST(TensorTest, ViewsShareStorage) {
  Tensor t = *Tensor::fromVector<int32_t>({0, 1, 2, 3, 4, 5}, {2, 3});
  auto flat = t.reshaped({6});
  ASSERT_TRUE(bool(flat));
  EXPECT_TRUE(flat->sharesStorageWith(t));
  auto row = t[1];
  ASSERT_TRUE(bool(row));
  EXPECT_EQ(row->toVector<int32_t>(), std::vector<int32_t>({3, 4, 5}));
  row->data<int32_t>()[0] = 30;
  EXPECT_EQ(t.toVector<int32_t>()[3], 30);
  Tensor copy = t.clone();
  EXPECT_FALSE(copy.sharesStorageWith(t));

  EXPECT_EQ(errorText(t.reshaped({4}).takeError()),
            "cannot view tensor<2x3xi32> as tensor<4xi32>: the element counts "
            "differ");
  EXPECT_EQ(errorText(t[2].takeError()),
            "index 2 is out of range for dim 0 of tensor<2x3xi32>");
}

TEST(TensorTest, PrintsLikeNumPy) {
  EXPECT_EQ(Tensor::fromVector<float>({1, 2.5, -3, 4}, {2, 2})->toString(),
            "[[ 1.   2.5]\n [-3.   4. ]]");
  EXPECT_EQ(Tensor::scalar<double>(0.5).toString(), "0.5");
  EXPECT_EQ(Tensor::scalar<float>(29).toString(), "29.0");
  EXPECT_EQ(Tensor::fromVector<bool>({true, false}, {2})->toString(),
            "[ True False]");
  // Shortest round-trip digits (at most 8), aligned on the point.
  EXPECT_EQ(Tensor::fromVector<float>({2.7182817f, 0.13533528f, 20.085537f},
                                      {3})
                ->toString(),
            "[ 2.7182817   0.13533528 20.085537  ]");
  EXPECT_EQ(Tensor::fromVector<double>({1.0 / 3, 2}, {2})->toString(),
            "[0.33333333 2.        ]");
  // Scientific when magnitudes differ by more than 1000x.
  EXPECT_EQ(Tensor::fromVector<float>({1e-5f, 1}, {2})->toString(),
            "[1.e-05 1.e+00]");
  EXPECT_EQ(Tensor::fromVector<int64_t>({(int64_t(1) << 62) + 1}, {1})
                ->toString(),
            "[4611686018427387905]");
  // Rows wrap at 75 columns with a hanging indent (np.arange(30.) * 1.5).
  std::vector<float> ramp;
  for (int i = 0; i < 30; ++i)
    ramp.push_back(1.5f * i);
  EXPECT_EQ(Tensor::fromVector<float>(ramp, {30})->toString(),
            "[ 0.   1.5  3.   4.5  6.   7.5  9.  10.5 12.  13.5 15.  16.5 18.  "
            "19.5\n 21.  22.5 24.  25.5 27.  28.5 30.  31.5 33.  34.5 36.  37.5 "
            "39.  40.5\n 42.  43.5]");
  // More than 1000 elements: summarized (np.arange(2000).reshape(40, 50)).
  std::vector<int64_t> counting;
  for (int64_t i = 0; i < 2000; ++i)
    counting.push_back(i);
  EXPECT_EQ(Tensor::fromVector<int64_t>(counting, {40, 50})->toString(),
            "[[   0    1    2 ...   47   48   49]\n [  50   51   52 ...   97   "
            "98   99]\n [ 100  101  102 ...  147  148  149]\n ...\n [1850 1851 "
            "1852 ... 1897 1898 1899]\n [1900 1901 1902 ... 1947 1948 1949]\n "
            "[1950 1951 1952 ... 1997 1998 1999]]");
  EXPECT_EQ(Tensor::fromVector<int64_t>({1, 2, 3, 4, 5, 6, 7, 8}, {2, 2, 2})
                ->toString(),
            "[[[1 2]\n  [3 4]]\n\n [[5 6]\n  [7 8]]]");
}

using NpyTest = TempDir;

TEST_F(NpyTest, RoundTripsEveryDType) {
  auto f32 = *Tensor::fromVector<float>({1.5f, -2, 3, 4}, {2, 2});
  auto f64 = Tensor::scalar<double>(3.25);
  auto i1 = *Tensor::fromVector<bool>({true, false, true}, {3});
  auto i32 = *Tensor::fromVector<int32_t>({-1, 2}, {2, 1});
  auto i64 = *Tensor::fromVector<int64_t>({}, {0, 3});
  Tensor f16 = Tensor::zeros(DType::f16, {2});
  static_cast<uint16_t *>(f16.rawData())[0] = 0x3C00; // 1.0
  static_cast<uint16_t *>(f16.rawData())[1] = 0xC000; // -2.0
  for (const Tensor &t : {f32, f64, i1, i32, i64, f16}) {
    std::string file = path(std::string(dtypeName(t.dtype())) + ".npy");
    ASSERT_FALSE(bool(t.saveNpy(file)));
    auto loaded = Tensor::loadNpy(file);
    ASSERT_TRUE(bool(loaded)) << errorText(loaded.takeError());
    EXPECT_EQ(loaded->typeString(), t.typeString());
    EXPECT_EQ(loaded->toVector<double>(), t.toVector<double>());
  }
  EXPECT_EQ(Tensor::loadNpy(path("f16.npy"))->toVector<double>(),
            std::vector<double>({1.0, -2.0}));
}

TEST_F(NpyTest, ReadsNumPyWrittenHeader) {
  // What np.save(np.arange(6, dtype=np.int32).reshape(2, 3)) writes.
  std::string header =
      "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }";
  // NumPy pads the header so that the data starts at a multiple of 64.
  header.append(128 - 10 - header.size() - 1, ' ');
  header += '\n';
  std::string bytes = std::string("\x93NUMPY\x01\x00", 8);
  bytes += char(header.size());
  bytes += char(0);
  bytes += header;
  for (int32_t i = 0; i < 6; ++i)
    bytes.append(reinterpret_cast<const char *>(&i), 4);
  writeFile("arange.npy", bytes);
  auto t = Tensor::loadNpy(path("arange.npy"));
  ASSERT_TRUE(bool(t)) << errorText(t.takeError());
  EXPECT_EQ(t->typeString(), "tensor<2x3xi32>");
  EXPECT_EQ(t->toVector<int32_t>(), std::vector<int32_t>({0, 1, 2, 3, 4, 5}));
}

TEST_F(NpyTest, CorruptFilesAreErrors) {
  auto missing = Tensor::loadNpy(path("missing.npy"));
  EXPECT_NE(errorText(missing.takeError()).find("cannot read"),
            std::string::npos);

  writeFile("text.npy", "hello, world");
  EXPECT_NE(errorText(Tensor::loadNpy(path("text.npy")).takeError())
                .find("not a .npy file"),
            std::string::npos);

  Tensor t = *Tensor::fromVector<float>({1, 2, 3}, {3});
  ASSERT_FALSE(bool(t.saveNpy(path("ok.npy"))));
  auto buffer = llvm::MemoryBuffer::getFile(path("ok.npy"));
  ASSERT_TRUE(bool(buffer));
  writeFile("truncated.npy", (*buffer)->getBuffer().drop_back(4));
  EXPECT_NE(errorText(Tensor::loadNpy(path("truncated.npy")).takeError())
                .find("holds 8 data bytes but tensor<3xf32> needs 12"),
            std::string::npos);

  std::string fortran = (*buffer)->getBuffer().str();
  fortran.replace(fortran.find("False"), 5, "True ");
  writeFile("fortran.npy", fortran);
  EXPECT_NE(errorText(Tensor::loadNpy(path("fortran.npy")).takeError())
                .find("Fortran-order arrays are not supported"),
            std::string::npos);

  std::string complex = (*buffer)->getBuffer().str();
  complex.replace(complex.find("<f4"), 3, "<c8");
  writeFile("complex.npy", complex);
  EXPECT_NE(errorText(Tensor::loadNpy(path("complex.npy")).takeError())
                .find("unsupported dtype '<c8'"),
            std::string::npos);

}

// bf16 crosses .npy files as f32: rounded to nearest even on the way in,
// widened exactly on the way out.
TEST_F(NpyTest, Bf16CrossesAsF32) {
  // 1 + 2^-8 is a tie between 1 and 1 + 2^-7: even is 1. 1 + 3 * 2^-8
  // ties to 1 + 2^-6 (even). 1 + 2^-8 + 2^-20 is past the tie: up.
  std::vector<float> values = {1.0f, 1.0f + 0x1p-8f, 1.0f + 3 * 0x1p-8f,
                               1.0f + 0x1p-8f + 0x1p-20f, -2.5f,
                               std::numeric_limits<float>::infinity(),
                               std::numeric_limits<float>::quiet_NaN()};
  auto f32 = Tensor::fromVector(values, {7});
  ASSERT_TRUE(bool(f32)) << errorText(f32.takeError());
  auto bf16 = f32->convertedTo(DType::bf16);
  ASSERT_TRUE(bool(bf16)) << errorText(bf16.takeError());
  ASSERT_FALSE(bool(bf16->saveNpy(path("b.npy"))));
  auto loaded = Tensor::loadNpy(path("b.npy"));
  ASSERT_TRUE(bool(loaded)) << errorText(loaded.takeError());
  EXPECT_EQ(loaded->dtype(), DType::f32);
  std::vector<float> back = loaded->toVector<float>();
  EXPECT_EQ(back[0], 1.0f);
  EXPECT_EQ(back[1], 1.0f);
  EXPECT_EQ(back[2], 1.0f + 0x1p-6f);
  EXPECT_EQ(back[3], 1.0f + 0x1p-7f);
  EXPECT_EQ(back[4], -2.5f);
  EXPECT_EQ(back[5], std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(back[6]));
  EXPECT_NE(errorText(Tensor::zeros(DType::i32, {2})
                          .convertedTo(DType::bf16)
                          .takeError())
                .find("cannot convert a i32 tensor to bf16"),
            std::string::npos);
}

} // namespace
