//===- PrintCallback.cpp - What compiled trace.print calls ----------------===//
//
// The tensor is copied into a tracec::Tensor and printed with its NumPy
// formatter. stdout is flushed on every call so prints interleave with the
// host program's own output in program order.
//
//===----------------------------------------------------------------------===//

#include "tracec/Runtime/PrintCallback.h"

#include "tracec/Runtime/Tensor.h"

#include <cstdio>
#include <cstring>

using namespace tracec;

static_assert(TRACEC_DTYPE_F16 == static_cast<int>(DType::f16) &&
                  TRACEC_DTYPE_BF16 == static_cast<int>(DType::bf16) &&
                  TRACEC_DTYPE_F32 == static_cast<int>(DType::f32) &&
                  TRACEC_DTYPE_F64 == static_cast<int>(DType::f64) &&
                  TRACEC_DTYPE_I1 == static_cast<int>(DType::i1) &&
                  TRACEC_DTYPE_I32 == static_cast<int>(DType::i32) &&
                  TRACEC_DTYPE_I64 == static_cast<int>(DType::i64),
              "the C dtype codes follow tracec::DType");

extern "C" void tracec_print_tensor(const char *message, int32_t dtype,
                                    int64_t rank, const int64_t *shape,
                                    const void *data) {
  std::string text = message ? message : "";
  if (dtype < TRACEC_DTYPE_F16 || dtype > TRACEC_DTYPE_I64 || rank < 0) {
    text += (text.empty() ? "" : " ");
    text += "<tensor of unknown dtype code " + std::to_string(dtype) + ">";
  } else {
    Tensor tensor = Tensor::zeros(static_cast<DType>(dtype),
                                  llvm::ArrayRef<int64_t>(shape, rank));
    if (tensor.sizeInBytes())
      std::memcpy(tensor.rawData(), data, tensor.sizeInBytes());
    text += (text.empty() ? "" : " ") + tensor.toString();
  }
  text += "\n";
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}
