/*===- Collectives.c - The collectives' agreement check and watchdog -----===*\
|*                                                                            *|
|* A collective that the processes disagree on, or that one of them never    *|
|* reaches, would hang the others inside MPI. These end the job instead,     *|
|* naming the collective: MPI_Abort on the world communicator when the       *|
|* process has OpenMPI loaded (mpirun then stops every process), else exit.  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#define _GNU_SOURCE
#include "tracec/ABI/tracec_collectives.h"

#include <dlfcn.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef int (*comm_function)(void *comm, int *value);
typedef int (*abort_function)(void *comm, int code);

/* OpenMPI's MPI_COMM_WORLD is the address of this global. */
static void *world(void) { return dlsym(RTLD_DEFAULT, "ompi_mpi_comm_world"); }

static int world_rank(void) {
  comm_function rank_of = (comm_function)dlsym(RTLD_DEFAULT, "MPI_Comm_rank");
  int rank = -1;
  if (rank_of && world())
    rank_of(world(), &rank);
  return rank;
}

static _Noreturn void end_job(void) {
  fflush(stdout);
  fflush(stderr);
  abort_function abort_job = (abort_function)dlsym(RTLD_DEFAULT, "MPI_Abort");
  if (abort_job && world())
    abort_job(world(), 1);
  _exit(1);
}

void tracec_collective_check(const char *where, int64_t signature,
                             const int64_t *agreed, int64_t world_size,
                             int64_t root) {
  int64_t most = agreed[0], least = -agreed[1], processes = agreed[2];
  if (least != signature || most != signature) {
    fprintf(stderr,
            "tracec: error: %s: the processes disagree on this collective "
            "(its op, attributes, shape or dtype differ on some; each must "
            "call the same collectives in the same order); this is process "
            "%d\n",
            where, world_rank());
    end_job();
  }
  if (world_size > 0 && processes != world_size) {
    fprintf(stderr,
            "tracec: error: %s: traced for a world of %" PRId64
            " processes, run in a world of %" PRId64 "\n",
            where, world_size, processes);
    end_job();
  }
  if (root >= processes) {
    fprintf(stderr,
            "tracec: error: %s: root %" PRId64
            " is not a rank of a world of %" PRId64 "\n",
            where, root, processes);
    end_job();
  }
}

/* The watchdog: one thread, started by the first collective, that looks
   every poll_seconds at the wait in progress. begin and end only store two
   atomics (no lock, no wakeup: they run around every collective, a
   microsecond apart); the watchdog reads them. */
static pthread_once_t started = PTHREAD_ONCE_INIT;
static double timeout_seconds;           /* 0: no watchdog */
static _Atomic(const char *) waiting_on; /* NULL when not in a collective */
static _Atomic double wait_began;        /* CLOCK_MONOTONIC seconds */

static double now(void) {
  struct timespec time;
  clock_gettime(CLOCK_MONOTONIC, &time);
  return (double)time.tv_sec + 1e-9 * (double)time.tv_nsec;
}

static void *watch(void *unused) {
  (void)unused;
  double poll_seconds = timeout_seconds < 10 ? timeout_seconds / 10 : 1;
  struct timespec poll = {
      (time_t)poll_seconds,
      (long)((poll_seconds - (double)(time_t)poll_seconds) * 1e9)};
  for (;;) {
    nanosleep(&poll, NULL);
    /* The wait, then its start: begin stores them in the other order, so
       the start read is that wait's or a later one's, and a wait never
       seems older than it is. */
    const char *where = atomic_load(&waiting_on);
    if (where && now() - atomic_load(&wait_began) > timeout_seconds) {
      fprintf(stderr,
              "tracec: error: %s: process %d waited %g s for the other "
              "processes (a process died, hangs, or skipped this "
              "collective; TRACEC_COLLECTIVE_TIMEOUT sets the limit)\n",
              where, world_rank(), timeout_seconds);
      end_job();
    }
  }
  return NULL;
}

static void start_watchdog(void) {
  const char *text = getenv("TRACEC_COLLECTIVE_TIMEOUT");
  timeout_seconds = text ? strtod(text, NULL) : 600.0;
  if (!(timeout_seconds > 0)) {
    timeout_seconds = 0;
    return;
  }
  pthread_t thread;
  if (pthread_create(&thread, NULL, watch, NULL) == 0)
    pthread_detach(thread);
  else
    timeout_seconds = 0;
}

void tracec_collective_begin(const char *where) {
  pthread_once(&started, start_watchdog);
  if (timeout_seconds == 0)
    return;
  atomic_store(&wait_began, now());
  atomic_store(&waiting_on, where);
}

void tracec_collective_end(void) {
  if (timeout_seconds != 0)
    atomic_store(&waiting_on, (const char *)NULL);
}

/* The non-blocking all-reduce: OpenMPI's handles are the addresses of its
   predefined globals, MPI_Request a pointer (the module is compiled for
   OpenMPI's ABI, as its mpi.allreduce ops are). */
typedef int (*iallreduce_function)(const void *send, void *recv, int count,
                                   void *datatype, void *op, void *comm,
                                   void **request);
typedef int (*wait_function)(void **request, void *status);

static _Noreturn void fail(const char *where, const char *why) {
  fprintf(stderr, "tracec: error: %s: %s; this is process %d\n", where, why,
          world_rank());
  end_job();
}

static void *mpi_symbol(const char *where, const char *name) {
  void *symbol = dlsym(RTLD_DEFAULT, name);
  if (!symbol) {
    char why[160];
    snprintf(why, sizeof why,
             "%s is not loaded (the process must load OpenMPI and call "
             "MPI_Init first)",
             name);
    fail(where, why);
  }
  return symbol;
}

void *tracec_collective_start(const char *where, const void *send, void *recv,
                              int64_t count, int32_t element, int32_t reduction,
                              int64_t communicator) {
  const char *datatype = element == TRACEC_DTYPE_F32   ? "ompi_mpi_float"
                         : element == TRACEC_DTYPE_F64 ? "ompi_mpi_double"
                         : element == TRACEC_DTYPE_I32 ? "ompi_mpi_int32_t"
                         : element == TRACEC_DTYPE_I64 ? "ompi_mpi_int64_t"
                                                       : NULL;
  static const char *const ops[] = {"ompi_mpi_op_sum", "ompi_mpi_op_max",
                                    "ompi_mpi_op_min"};
  if (!datatype || reduction < 0 || reduction > 2)
    fail(where, "unknown element type or reduction");
  if (count < 0 || count > INT32_MAX)
    fail(where, "more elements than one MPI call can take (2^31 - 1)");
  iallreduce_function iallreduce =
      (iallreduce_function)mpi_symbol(where, "MPI_Iallreduce");
  void *request = NULL;
  if (iallreduce(send, recv, (int)count, mpi_symbol(where, datatype),
                 mpi_symbol(where, ops[reduction]),
                 communicator ? (void *)(intptr_t)communicator
                              : mpi_symbol(where, "ompi_mpi_comm_world"),
                 &request) != 0)
    fail(where, "MPI_Iallreduce failed");
  return request;
}

void tracec_collective_wait(const char *where, void *request, const void *send,
                            void *recv) {
  (void)send, (void)recv; /* only kept live by the caller */
  wait_function wait = (wait_function)mpi_symbol(where, "MPI_Wait");
  tracec_collective_begin(where);
  /* MPI_STATUS_IGNORE is OpenMPI's null status. */
  if (wait(&request, NULL) != 0)
    fail(where, "MPI_Wait failed");
  tracec_collective_end();
}

/* MPI_Comm_rank or MPI_Comm_size (`query`) of the world. */
static int world_query(const char *where, const char *query) {
  comm_function query_world = (comm_function)mpi_symbol(where, query);
  int value = 0;
  if (query_world(mpi_symbol(where, "ompi_mpi_comm_world"), &value) != 0) {
    char why[80];
    snprintf(why, sizeof why, "%s failed", query);
    fail(where, why);
  }
  return value;
}

int32_t tracec_collective_world_size(void) {
  return world_query("'trace.comm_size'", "MPI_Comm_size");
}

int32_t tracec_collective_group_rank(const char *where, const int64_t *groups,
                                     int64_t count, int64_t size) {
  int world_size = world_query(where, "MPI_Comm_size");
  if (world_size != count * size) {
    char why[160];
    snprintf(why, sizeof why,
             "the groups partition a world of %" PRId64
             " processes, this one has %d",
             count * size, world_size);
    fail(where, why);
  }
  int rank = world_query(where, "MPI_Comm_rank");
  for (int64_t i = 0; i < count * size; ++i)
    if (groups[i] == rank)
      return (int32_t)(i % size);
  fail(where, "this process's rank is in none of the groups");
}

/* The groups met so far and their communicators: a few per program
   (one per distinct `groups`), kept for the process's life. */
struct group {
  int64_t *ranks; /* count * size */
  int64_t count, size;
  int64_t communicator;
  struct group *next;
};
static struct group *groups_met;
static pthread_mutex_t groups_lock = PTHREAD_MUTEX_INITIALIZER;

typedef int (*split_function)(void *comm, int color, int key, void **out);

int64_t tracec_collective_group(const char *where, const int64_t *groups,
                                int64_t count, int64_t size) {
  size_t bytes = (size_t)(count * size) * sizeof(int64_t);
  pthread_mutex_lock(&groups_lock);
  for (struct group *met = groups_met; met; met = met->next)
    if (met->count == count && met->size == size &&
        memcmp(met->ranks, groups, bytes) == 0) {
      pthread_mutex_unlock(&groups_lock);
      return met->communicator;
    }
  int rank = world_rank();
  int64_t color = -1, key = 0;
  for (int64_t i = 0; i < count * size; ++i)
    if (groups[i] == rank) {
      color = i / size;
      key = i % size;
    }
  if (color < 0) {
    pthread_mutex_unlock(&groups_lock);
    fail(where, "this process's rank is in none of the groups");
  }
  split_function split = (split_function)mpi_symbol(where, "MPI_Comm_split");
  void *communicator = NULL;
  struct group *met = malloc(sizeof *met);
  int64_t *ranks = malloc(bytes);
  if (!met || !ranks ||
      split(mpi_symbol(where, "ompi_mpi_comm_world"), (int)color, (int)key,
            &communicator) != 0) {
    pthread_mutex_unlock(&groups_lock);
    fail(where, "MPI_Comm_split failed");
  }
  memcpy(ranks, groups, bytes);
  *met = (struct group){ranks, count, size, (int64_t)(intptr_t)communicator,
                        groups_met};
  groups_met = met;
  pthread_mutex_unlock(&groups_lock);
  return met->communicator;
}
