/*===- tracec_cuda.h - CUDA errors and buffers of compiled code ------------===
 *
 * For C and C++ programs that link an object compiled with
 * `tracec --cuda-chip` and TracecCudaRuntime. The C entry points return
 * 0 even when the GPU failed (their code covers null buffers only); ask
 * here after a call:
 *
 *   int status = model_step(...);
 *   const char *error = tracec_cuda_take_error();
 *   if (error) fprintf(stderr, "%s\n", error);  // "CUDA driver not found: ..."
 *
 *===----------------------------------------------------------------------===*/

#ifndef TRACEC_ABI_TRACEC_CUDA_H
#define TRACEC_ABI_TRACEC_CUDA_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The first CUDA error on this thread since the last call (loading the
 * kernels at start-up included), and forgets it; NULL if there was none.
 * The text stays valid until this thread's next call. */
const char *tracec_cuda_take_error(void);

/* Frees the device buffers that calls have freed and that are kept for
 * the next calls to reuse (a steady loop of calls then allocates nothing
 * from the driver); returns the bytes freed. The cache is also emptied
 * when the driver runs out of memory. */
size_t tracec_cuda_empty_cache(void);

#ifdef __cplusplus
}
#endif

#endif /* TRACEC_ABI_TRACEC_CUDA_H */
