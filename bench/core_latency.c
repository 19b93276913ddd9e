// The round trip of a cache line between CPU 0 and CPU 1: what a parallel
// region pays when one core reads what the other wrote. On one CCX of a
// recent x86 it is well under 100 ns; far apart (other CCD, socket, or a
// VM's vCPUs placed so), several hundred.
//
//   cc -O2 -pthread bench/core_latency.c -o /tmp/core_latency && /tmp/core_latency
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

enum { ROUNDS = 200000 };
static _Atomic int flag = 0;

static void pin(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

static void *pong(void *unused) {
  (void)unused;
  pin(1);
  for (int i = 0; i < ROUNDS; ++i) {
    while (atomic_load(&flag) != 1)
      ;
    atomic_store(&flag, 0);
  }
  return NULL;
}

int main(void) {
  pthread_t thread;
  pthread_create(&thread, NULL, pong, NULL);
  pin(0);
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (int i = 0; i < ROUNDS; ++i) {
    atomic_store(&flag, 1);
    while (atomic_load(&flag) != 0)
      ;
  }
  clock_gettime(CLOCK_MONOTONIC, &end);
  pthread_join(thread, NULL);
  double ns = (end.tv_sec - start.tv_sec) * 1e9 + (end.tv_nsec - start.tv_nsec);
  printf("CPU 0 <-> CPU 1 cache-line round trip: %.0f ns\n", ns / ROUNDS);
  return 0;
}
