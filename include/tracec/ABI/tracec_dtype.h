/*===- tracec_dtype.h - Element type codes of the C ABI -------------------===*\
|*                                                                            *|
|* The codes by which compiled code tells TracecABI a buffer's element type  *|
|* (tracec_print_tensor, tracec_collective_start). The compiler takes them   *|
|* from here (abiDTypeCode in trace-lower-state).                             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef TRACEC_ABI_TRACEC_DTYPE_H
#define TRACEC_ABI_TRACEC_DTYPE_H

/* Element types, in the order of tracec::DType. f16/bf16 elements are their
   16-bit patterns; i1 elements are one byte each (0 or 1). */
enum tracec_dtype {
  TRACEC_DTYPE_F16 = 0,
  TRACEC_DTYPE_BF16 = 1,
  TRACEC_DTYPE_F32 = 2,
  TRACEC_DTYPE_F64 = 3,
  TRACEC_DTYPE_I1 = 4,
  TRACEC_DTYPE_I32 = 5,
  TRACEC_DTYPE_I64 = 6
};

#endif /* TRACEC_ABI_TRACEC_DTYPE_H */
