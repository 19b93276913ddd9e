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

/* Buffers that stay on the device across calls: CUDA managed memory, which
 * the host reads and writes too (its pages migrate to whichever side
 * touches them). A compiled function given one reads and writes it in
 * place, where it copies host memory in and out on every call. NULL when
 * there is no device (tracec_cuda_take_error says why). Free with
 * tracec_cuda_free_managed. */
void *tracec_cuda_alloc_managed(size_t bytes);
void tracec_cuda_free_managed(void *pointer);

/* 1 if `pointer` is in CUDA managed memory, else 0 (host memory, or no
 * device). */
int tracec_cuda_is_managed(const void *pointer);

#ifdef __cplusplus
}
#endif

#endif /* TRACEC_ABI_TRACEC_CUDA_H */
