// Progress lines: what a report says, in place on a terminal, plain lines in a log, nothing when quiet.
#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>

#include "batch/progress_line.hpp"

using zs::batch::ProgressLine;

TEST_CASE("a report says the simulated time, the work done of its total, the rate and what is left") {
  CHECK(ProgressLine::text({300, 1200, "ops", 0.5}, 2.0) ==
        "simulated 0.5 s, 300 of 1200 ops (25%), 150 ops/s, about 6 s left");
  CHECK(ProgressLine::text({3, 22, "rows"}, 1.5) == "3 of 22 rows (14%), 2 rows/s, about 10 s left");
  CHECK(ProgressLine::text({7, 0, "seeds"}, 1.0) == "7 seeds, 7 seeds/s");
}

TEST_CASE("on a terminal the line is redrawn in place and cleared at the end, and in a log one line each") {
  const zs::batch::ProgressPace always{0, 0, 0};
  std::ostringstream terminal, log, quiet;
  {
    ProgressLine t(terminal, true, false, always), l(log, false, false, always),
        q(quiet, false, true, always);
    for (auto* p : {&t, &l, &q}) {
      p->report({10, 20, "ops", 1.0});
      p->report({20, 20, "ops", 2.0});
    }
  }
  const std::string drawn = terminal.str();
  CHECK(drawn.rfind("\r\x1b[Kprogress: simulated 1 s, 10 of 20 ops (50%)", 0) == 0);
  CHECK(drawn.find("\r\x1b[Kprogress: simulated 2 s, 20 of 20 ops (100%)") != std::string::npos);
  CHECK(drawn.find('\n') == std::string::npos);
  // Cleared at the end (return, erase the line): what follows starts at the line's beginning.
  CHECK(drawn.substr(drawn.size() - 4) == "\r\x1b[K");
  const std::string lines = log.str();
  CHECK(lines.find("progress: simulated 1 s, 10 of 20 ops (50%)") == 0);
  CHECK(std::count(lines.begin(), lines.end(), '\n') == 2);
  CHECK(quiet.str().empty());
}

TEST_CASE("a short run shows nothing") {
  std::ostringstream terminal;
  {
    ProgressLine t(terminal, true, false);  // the default pace: nothing in the first 2 s
    t.report({1, 2, "ops", 0.1});
  }
  CHECK(terminal.str().empty());
}
