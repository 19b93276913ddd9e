/*===- tracec_print.h - The C ABI that compiled trace.print calls ---------===*\
|*                                                                            *|
|* `trace.print %x {message = "..."}` lowers to a call of                     *|
|* tracec_print_tensor with the message, the dtype code, the rank, the shape  *|
|* and the row-major, contiguous data of a copy of %x. The compiler           *|
|* (trace-lower-state) takes the symbol's name and the dtype codes from here; *|
|* TracecABI implements it, in C, with no LLVM: the JIT resolves the symbol   *|
|* to it, and a program linking a tracec object that prints links it.        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef TRACEC_ABI_TRACEC_PRINT_H
#define TRACEC_ABI_TRACEC_PRINT_H

#include "tracec/ABI/tracec_dtype.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The callback's symbol name, for code generators. */
#define TRACEC_PRINT_TENSOR_SYMBOL "tracec_print_tensor"

/* Writes `message`, a space (when the message is not empty) and the tensor
   in NumPy's format, then a newline, to stdout, and flushes it: what
   Python's print(message, array) shows. `shape` holds `rank` dims (it may be
   null when rank is 0); `data` holds the elements in row-major order. */
void tracec_print_tensor(const char *message, int32_t dtype, int64_t rank,
                         const int64_t *shape, const void *data);

#ifdef __cplusplus
}
#endif

#endif /* TRACEC_ABI_TRACEC_PRINT_H */
