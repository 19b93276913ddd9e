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
