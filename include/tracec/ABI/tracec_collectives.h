/*===- tracec_collectives.h - What compiled collectives call --------------===*\
|*                                                                            *|
|* Every collective (trace.all_reduce, broadcast, all_gather, reduce_scatter) *|
|* lowers, in trace-lower-state, to                                           *|
|*   tracec_collective_begin(where);                                          *|
|*   MPI_Allreduce(MAX) of {signature, -signature, rank + 1} into agreed;     *|
|*   tracec_collective_check(where, signature, agreed, world_size, root);     *|
|*   the collective's own MPI_Allreduce;                                      *|
|*   tracec_collective_end();                                                 *|
|* so that processes that disagree on a collective (its op, attributes,       *|
|* shape or dtype: the signature), or wait on one longer than                 *|
|* TRACEC_COLLECTIVE_TIMEOUT seconds (600 by default; 0 waits forever),       *|
|* end the job with an error naming it instead of hanging. TracecABI          *|
|* implements them in C, with no LLVM and no link to MPI (MPI_Abort is looked *|
|* up in the process).                                                        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef TRACEC_ABI_TRACEC_COLLECTIVES_H
#define TRACEC_ABI_TRACEC_COLLECTIVES_H

#include "tracec/ABI/tracec_dtype.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TRACEC_COLLECTIVE_BEGIN_SYMBOL "tracec_collective_begin"
#define TRACEC_COLLECTIVE_CHECK_SYMBOL "tracec_collective_check"
#define TRACEC_COLLECTIVE_END_SYMBOL "tracec_collective_end"
#define TRACEC_COLLECTIVE_START_SYMBOL "tracec_collective_start"
#define TRACEC_COLLECTIVE_WAIT_SYMBOL "tracec_collective_wait"
#define TRACEC_COLLECTIVE_WORLD_SIZE_SYMBOL "tracec_collective_world_size"
#define TRACEC_COLLECTIVE_GROUP_SYMBOL "tracec_collective_group"
#define TRACEC_COLLECTIVE_GROUP_RANK_SYMBOL "tracec_collective_group_rank"

/* This process starts waiting on the collective `where` describes (its
   location, op, attributes and type): a watchdog ends the job if it has
   not ended after the timeout. */
void tracec_collective_begin(const char *where);

/* Ends the job with an error naming `where` unless every process passed
   this `signature` (agreed[0] is the largest signature, -agreed[1] the
   smallest), the world (agreed[2] processes) has `world_size` of them
   (0: any) and `root` is one of its ranks (-1: no root). */
void tracec_collective_check(const char *where, int64_t signature,
                             const int64_t *agreed, int64_t world_size,
                             int64_t root);

/* This process's wait on the collective is over. */
void tracec_collective_end(void);

/* An all-reduce whose result is needed only later (trace-lower-state's
   overlap-collectives) is started, between check and end, by
     request = tracec_collective_start(where, send, recv, count, element,
                                       reduction);
   and finished, right before the result's first use, by
     tracec_collective_wait(where, request, send, recv);
   (OpenMPI's MPI_Iallreduce and MPI_Wait, looked up in the process, on
   `communicator`: 0 for the world, else tracec_collective_group's;
   computation runs between the two). `element` is TRACEC_DTYPE_F32, _F64,
   _I32 or _I64 (tracec_dtype.h), `reduction` one of TRACEC_COLLECTIVE_SUM
   ....
   Neither buffer may be touched in between: the wait takes them again so
   that compiled code keeps them live until then (it does not read them).
   The wait is watched as a begin ... end is. An MPI error ends the job
   naming `where`. */
enum {
  TRACEC_COLLECTIVE_SUM = 0,
  TRACEC_COLLECTIVE_MAX = 1,
  TRACEC_COLLECTIVE_MIN = 2
};
void *tracec_collective_start(const char *where, const void *send, void *recv,
                              int64_t count, int32_t element, int32_t reduction,
                              int64_t communicator);
void tracec_collective_wait(const char *where, void *request, const void *send,
                            void *recv);

/* The number of processes of MPI's world (trace.comm_size): MPI_Comm_size,
   looked up in the process (MLIR 22's mpi-to-llvm cannot lower
   mpi.comm_size). Ends the job with an error when MPI is not loaded. */
int32_t tracec_collective_world_size(void);

/* The communicator of this process's group (trace.all_reduce's `groups`):
   `groups` holds `count` groups of `size` world ranks each, row by row,
   which partition the world. MPI_Comm_split of the world (a collective:
   every process calls it here, after the agreement check) the first time
   a process meets these groups; kept and reused after. Returned as
   OpenMPI's handle, an integer (what the `mpi` dialect's communicators
   lower to). */
int64_t tracec_collective_group(const char *where, const int64_t *groups,
                                int64_t count, int64_t size);

/* This process's position in its group (trace.comm_rank with `groups`, laid
   out as above): a lookup, no communicator. Ends the job with an error
   naming `where` when the world does not have the count * size processes
   the groups partition. */
int32_t tracec_collective_group_rank(const char *where, const int64_t *groups,
                                     int64_t count, int64_t size);

#ifdef __cplusplus
}
#endif

#endif /* TRACEC_ABI_TRACEC_COLLECTIVES_H */
