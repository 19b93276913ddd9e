//===- DLPackTest.cpp - tracec::toDLPack and fromDLPack on the host ------===//
//
// The CUDA cases (managed memory kept, device memory copied) are in
// CudaFakeDriverTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "tracec/Runtime/DLPack.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

using namespace tracec;
using namespace tracec::dlpack;

namespace {

/// A DLPack tensor over memory the test owns, as another framework would
/// hand over; counts the deleter's calls.
struct Foreign {
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
  DLManagedTensor managed{};
  int deleted = 0;

  Foreign(void *data, DLDataType dtype, std::vector<int64_t> dims,
          DLDevice device = {kDLCPU, 0})
      : shape(std::move(dims)) {
    managed.dl_tensor = {
        data,  device,       static_cast<int32_t>(shape.size()),
        dtype, shape.data(), nullptr,
        0};
    managed.manager_ctx = this;
    managed.deleter = [](DLManagedTensor *self) {
      ++static_cast<Foreign *>(self->manager_ctx)->deleted;
    };
  }
  void setStrides(std::vector<int64_t> elements) {
    strides = std::move(elements);
    managed.dl_tensor.strides = strides.data();
  }
};

constexpr DLDataType kF32{kDLFloat, 32, 1};

std::string errorOf(llvm::Expected<Tensor> tensor) {
  EXPECT_FALSE(bool(tensor));
  return tensor ? "" : llvm::toString(tensor.takeError());
}

TEST(DLPackTest, ExportSharesTheTensorsMemoryAndKeepsItAlive) {
  Tensor tensor = *Tensor::fromVector<double>({1, 2, 3, 4, 5, 6}, {2, 3});
  DLManagedTensor *managed = toDLPack(tensor);
  const DLTensor &view = managed->dl_tensor;
  EXPECT_EQ(view.data, tensor.rawData());
  EXPECT_EQ(view.device.device_type, kDLCPU);
  EXPECT_EQ(view.ndim, 2);
  EXPECT_EQ(view.shape[0], 2);
  EXPECT_EQ(view.shape[1], 3);
  EXPECT_EQ(view.strides, nullptr);
  EXPECT_EQ(view.dtype.code, kDLFloat);
  EXPECT_EQ(view.dtype.bits, 64);
  EXPECT_EQ(view.dtype.lanes, 1);
  // The consumer's view outlives the tensor it came from.
  tensor = Tensor::scalar(0.0f);
  EXPECT_EQ(static_cast<double *>(view.data)[5], 6.0);
  managed->deleter(managed);
}

TEST(DLPackTest, DTypesMapBothWays) {
  for (DType dtype : {DType::f16, DType::bf16, DType::f32, DType::f64,
                      DType::i1, DType::i32, DType::i64}) {
    DLManagedTensor *managed = toDLPack(Tensor::zeros(dtype, {3}));
    llvm::Expected<Tensor> back = fromDLPack(managed);
    ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
    EXPECT_EQ(back->dtype(), dtype) << dtypeName(dtype).str();
  }
}

TEST(DLPackTest, ImportUsesAlignedHostMemoryInPlace) {
  alignas(64) float data[6] = {1, 2, 3, 4, 5, 6};
  Foreign foreign(data, kF32, {3, 2});
  {
    llvm::Expected<Tensor> tensor = fromDLPack(&foreign.managed);
    ASSERT_TRUE(bool(tensor)) << llvm::toString(tensor.takeError());
    EXPECT_EQ(tensor->rawData(), data);
    EXPECT_EQ(tensor->shape(), llvm::ArrayRef<int64_t>({3, 2}));
    data[4] = 50;
    EXPECT_EQ(tensor->toVector<float>()[4], 50);
    Tensor copy = *tensor;
    tensor = Tensor::scalar(0.0f);
    EXPECT_EQ(foreign.deleted, 0) << "a copy still uses the memory";
  }
  EXPECT_EQ(foreign.deleted, 1);
}

TEST(DLPackTest, ImportCopiesMisalignedMemoryAndTakesByteOffsets) {
  alignas(64) float data[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  Foreign foreign(data, kF32, {2, 2});
  foreign.managed.dl_tensor.byte_offset = 2 * sizeof(float);
  llvm::Expected<Tensor> tensor = fromDLPack(&foreign.managed);
  ASSERT_TRUE(bool(tensor)) << llvm::toString(tensor.takeError());
  EXPECT_NE(tensor->rawData(), data + 2);
  EXPECT_EQ(tensor->toVector<float>(), (std::vector<float>{2, 3, 4, 5}));
  EXPECT_EQ(foreign.deleted, 1) << "the copy does not need the source";
}

TEST(DLPackTest, RowMajorStridesAreAcceptedOthersRejected) {
  alignas(64) float data[6] = {};
  Foreign rowMajor(data, kF32, {1, 2, 3});
  rowMajor.setStrides({99, 3, 1}); // a dim of 1: any stride
  EXPECT_TRUE(bool(fromDLPack(&rowMajor.managed)));

  Foreign transposed(data, kF32, {2, 3});
  transposed.setStrides({1, 2});
  EXPECT_EQ(errorOf(fromDLPack(&transposed.managed)),
            "DLPack tensor: a strided tensor<2x3xf32> (tracec takes row-major "
            "data: make it contiguous first)");
  EXPECT_EQ(transposed.deleted, 1) << "rejected tensors are released too";
}

TEST(DLPackTest, BadTensorsAreErrors) {
  alignas(64) uint8_t data[16] = {};
  Foreign bytes(data, {kDLUInt, 8, 1}, {16});
  EXPECT_EQ(errorOf(fromDLPack(&bytes.managed)),
            "DLPack tensor: tracec has no dtype uint8 (it computes in f16, "
            "bf16, f32, f64, bool, i32, i64)");
  Foreign vectors(data, {kDLFloat, 32, 4}, {1});
  EXPECT_EQ(errorOf(fromDLPack(&vectors.managed)),
            "DLPack tensor: tracec has no dtype float32x4 (it computes in "
            "f16, bf16, f32, f64, bool, i32, i64)");
  Foreign negative(data, kF32, {-1, 4});
  EXPECT_EQ(errorOf(fromDLPack(&negative.managed)),
            "DLPack tensor: shape tensor<-1x4xf32> (a negative dim, or more "
            "than 2^48 bytes)");
  Foreign huge(data, kF32, {int64_t(1) << 40, int64_t(1) << 40});
  EXPECT_NE(errorOf(fromDLPack(&huge.managed)).find("more than 2^48 bytes"),
            std::string::npos);
  Foreign opencl(data, kF32, {4}, {/*kDLOpenCL=*/4, 0});
  EXPECT_EQ(errorOf(fromDLPack(&opencl.managed)),
            "DLPack tensor: device type 4 (tracec takes CPU and CUDA memory)");
  EXPECT_EQ(bytes.deleted + vectors.deleted + negative.deleted + huge.deleted +
                opencl.deleted,
            5);
}

TEST(DLPackTest, EmptyTensorsRoundTrip) {
  Tensor empty = Tensor::zeros(DType::f32, {0, 5});
  llvm::Expected<Tensor> back = fromDLPack(toDLPack(empty));
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  EXPECT_EQ(back->shape(), llvm::ArrayRef<int64_t>({0, 5}));
  EXPECT_EQ(back->numElements(), 0);
}

} // namespace
