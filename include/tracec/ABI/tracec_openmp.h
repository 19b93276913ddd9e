/*===- tracec_openmp.h - The OpenMP settings compiled code runs with ---===*/
/*
 * How long a worker of the OpenMP pool spins for the next parallel region
 * before it sleeps (libomp's KMP_BLOCKTIME): long enough to cover the gaps
 * between the regions of one call and between a training loop's calls,
 * short enough to give the core back soon after (docs/guides/threads.md).
 * The JIT sets it before libomp starts, and so does every AOT object
 * compiled with threads (a constructor), unless the user set KMP_BLOCKTIME
 * or OMP_WAIT_POLICY. TensorFlow sets KMP_BLOCKTIME=1 for its OpenMP
 * builds the same way.
 */
#ifndef TRACEC_ABI_TRACEC_OPENMP_H
#define TRACEC_ABI_TRACEC_OPENMP_H

#define TRACEC_OPENMP_BLOCKTIME "1ms"

#endif /* TRACEC_ABI_TRACEC_OPENMP_H */
