/*===- tracec_cuda.h - CUDA errors of ahead-of-time compiled code -----------===
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

#ifdef __cplusplus
extern "C" {
#endif

/* The first CUDA error on this thread since the last call (loading the
 * kernels at start-up included), and forgets it; NULL if there was none.
 * The text stays valid until this thread's next call. */
const char *tracec_cuda_take_error(void);

#ifdef __cplusplus
}
#endif

#endif /* TRACEC_ABI_TRACEC_CUDA_H */
