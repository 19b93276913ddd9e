//===- CollectivesTest.cpp - The collectives' agreement check and watchdog ===//
//
// In a process without MPI, where the job ends by exiting 1 (under mpirun
// it is MPI_Abort): the python tests run both under mpirun.
//
//===----------------------------------------------------------------------===//

#include "tracec/ABI/tracec_collectives.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <thread>

namespace {

TEST(CollectivesDeathTest, AgreementPassesAndDisagreementEndsTheJob) {
  const int64_t agreed[] = {42, -42, 2};
  tracec_collective_check("here", 42, agreed, 2, 1);
  tracec_collective_check("here", 42, agreed, 0, -1);
  const int64_t disagreed[] = {43, -42, 2};
  EXPECT_EXIT(tracec_collective_check("x.py:3:0: 'trace.all_reduce'", 42,
                                      disagreed, 0, -1),
              ::testing::ExitedWithCode(1),
              "x.py:3:0: 'trace.all_reduce': the processes disagree");
  EXPECT_EXIT(tracec_collective_check("gather", 42, agreed, 3, -1),
              ::testing::ExitedWithCode(1),
              "gather: traced for a world of 3 processes, run in a world of 2");
  EXPECT_EXIT(tracec_collective_check("bcast", 42, agreed, 0, 2),
              ::testing::ExitedWithCode(1),
              "bcast: root 2 is not a rank of a world of 2");
}

TEST(CollectivesDeathTest, TheWatchdogEndsAWaitThatLastsTooLong) {
  EXPECT_EXIT(
      {
        setenv("TRACEC_COLLECTIVE_TIMEOUT", "0.2", 1);
        // Waits that end in time are left alone, then one never ends.
        for (int i = 0; i < 3; ++i) {
          tracec_collective_begin("quick");
          std::this_thread::sleep_for(std::chrono::milliseconds(100));
          tracec_collective_end();
        }
        tracec_collective_begin("slow");
        std::this_thread::sleep_for(std::chrono::seconds(10));
        std::exit(0);
      },
      ::testing::ExitedWithCode(1), "slow: process -1 waited 0.2 s");
}

} // namespace
