// Calls @entry of adaptive-parallel-recovers.mlir 160 times and prints how
// each call ran: P (its region forked) or S (serial). The region's work is
// simulated: thread 0 sleeps for a time that depends on whether the region
// forked, and the first sample of one way (argv[1]: "parallel-burst" or
// "serial-burst") is slowed as a burst on the host would slow it.
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void entry(void);

// The slow way is 400x the fast one so that a host under load (a fork waits
// for a worker to be scheduled) is unlikely to make an exploring call of the fast
// way look as slow as the slow way; the burst is 2.5x the slow way.
enum { kCalls = 160, kFastUs = 100, kSlowUs = 40000, kBurstUs = 100000 };

static char ran[kCalls + 1];
static int call;
static int parallelIsFast;
static int forkedCalls, serialCalls;

void simulated_work(int threads, int thread) {
  if (thread != 0)
    return;
  int forked = threads > 1;
  ran[call] = forked ? 'P' : 'S';
  int fast = forked == parallelIsFast;
  // The first call forks untimed; the first parallel sample is the second
  // forked call, the first serial sample the first serial call.
  int burst = parallelIsFast ? forked && ++forkedCalls == 2
                             : !forked && ++serialCalls == 1;
  usleep(burst ? kBurstUs : fast ? kFastUs : kSlowUs);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s parallel-burst|serial-burst\n", argv[0]);
    return 2;
  }
  parallelIsFast = strcmp(argv[1], "parallel-burst") == 0;
  for (call = 0; call < kCalls; ++call)
    entry();
  puts(ran);
  return 0;
}
