// Point processes: one that crashes is recorded as failed with its signal and last line; one killed from
// outside is recorded too, and runs again when the sweep resumes.
#include <doctest/doctest.h>

#include <csignal>
#include <sstream>

#include <sys/wait.h>

#include "batch/local_backend.hpp"
#include "batch/sweep_support.hpp"

using namespace zs;

namespace {

scenario::SweepPlan small_plan(const test::SmallSweep& s) {
  core::DiskFileSource disk;
  return scenario::SweepPlan::make(disk, scenario::SweepSpec::load(disk, s.spec));
}

}  // namespace

TEST_CASE("a point whose process crashes is recorded as failed with its signal and last line") {
  test::SmallSweep s;
  const batch::SweepJournal journal(s.dir.path() / "j", small_plan(s));
  std::ostringstream quiet;
  batch::SweepProgress progress(quiet, 12, 0, false, true);
  // a stand-in for a point's process: prints a line, then dies of SIGSEGV (points 0, 1) or SIGKILL (2)
  const batch::PointCommand crash{"/bin/sh",
                                  {"-c",
                                   "echo \"about to fail on point $2\"; "
                                   "if [ $2 = 2 ]; then kill -KILL $$; else kill -SEGV $$; fi",
                                   "sh"}};
  batch::run_points_locally(journal, {0, 1, 2}, crash, 2, progress);
  const auto r0 = journal.record(0);
  REQUIRE(r0);
  CHECK(r0->at("status") == "failed");
  CHECK(r0->at("error") ==
        "the point's process was killed by signal 11 (Segmentation fault): about to fail on point 0");
  CHECK(journal.finished(1));
  const auto r2 = journal.record(2);
  REQUIRE(r2);
  CHECK(r2->at("status") == "failed");
  CHECK(r2->at("retry") == true);
  CHECK_FALSE(journal.finished(2));  // killed from outside: resuming runs it again
  CHECK(journal.pending().front() == 2);
}

TEST_CASE("a point's process that exits without a record is failed with its exit status") {
  const auto r = batch::failed_record(5, 3 << 8, "zettasim: internal error: x");
  CHECK(r.at("error") ==
        "the point's process exited with status 3 without a result: zettasim: internal error: x");
  CHECK_FALSE(r.contains("retry"));
}
