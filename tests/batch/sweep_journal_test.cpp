// The sweep journal: records of the same plan kept, another plan's discarded, stale temporaries removed.
#include <doctest/doctest.h>

#include "batch/sweep_journal.hpp"
#include "batch/sweep_support.hpp"

using namespace zs;

TEST_CASE("a journal keeps the records of its own plan and discards those of another") {
  test::SmallSweep s;
  core::DiskFileSource disk;
  scenario::SweepPlan plan = scenario::SweepPlan::make(disk, scenario::SweepSpec::load(disk, s.spec));
  const auto dir = s.dir.path() / "j";
  {
    const batch::SweepJournal journal(dir, plan);
    CHECK_FALSE(journal.restarted());
    CHECK(journal.pending().size() == 12);
    journal.write(3, {{"point", 3}, {"status", "ok"}});
  }
  s.dir.write("j/points/4.json.tmp-123", "{\"point\"");  // a writer killed mid-write
  {
    const batch::SweepJournal journal(dir, plan);
    CHECK_FALSE(journal.restarted());
    CHECK(journal.finished(3));
    CHECK(journal.pending().size() == 11);
    CHECK_FALSE(std::filesystem::exists(dir / "points" / "4.json.tmp-123"));
    const batch::SweepJournal reader(dir);  // as a point's process reads it
    CHECK(reader.plan().points.size() == 12);
    CHECK(reader.plan().to_json() == plan.to_json());
  }
  plan.points.pop_back();
  CHECK(batch::SweepJournal::holds_another(dir, plan));
  const batch::SweepJournal other(dir, plan);
  CHECK(other.restarted());
  CHECK_FALSE(other.finished(3));
}
