/*===- tracec_format.h - Tensors as NumPy prints them ---------------------===*\
|*                                                                            *|
|* The formatter behind tracec_print_tensor and tracec::Tensor::toString:     *|
|* one implementation, in C, so that what compiled code prints needs no       *|
|* LLVM and matches what the C++ API prints.                                  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef TRACEC_ABI_TRACEC_FORMAT_H
#define TRACEC_ABI_TRACEC_FORMAT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The tensor (a tracec_dtype code, `rank` dims in `shape`, row-major `data`)
   as NumPy's repr of its elements with the default print options: "[[1.
   2.]\n [3. 4.]]", "2.5" for a 0-d array, "..." summarizing more than 1000
   elements. Returns a string to free() with free(), or NULL for an unknown
   dtype code, a negative rank or when out of memory. */
char *tracec_format_tensor(int32_t dtype, int64_t rank, const int64_t *shape,
                           const void *data);

#ifdef __cplusplus
}
#endif

#endif /* TRACEC_ABI_TRACEC_FORMAT_H */
