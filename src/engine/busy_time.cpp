// Busy intervals to a rank's time breakdown.
#include "engine/busy_time.hpp"

#include <algorithm>

namespace zs::engine {

double union_length(std::vector<BusyTime::Interval> intervals) {
  std::sort(intervals.begin(), intervals.end());
  double total = 0, start = 0, end = -1;
  bool open = false;
  for (auto [a, b] : intervals) {
    if (open && a <= end) {
      end = std::max(end, b);
      continue;
    }
    if (open) total += end - start;
    start = a;
    end = b;
    open = true;
  }
  if (open) total += end - start;
  return total;
}

RankBreakdown BusyTime::breakdown(double finish, double iteration_end,
                                  const std::map<std::string, size_t>& communicators) const {
  const std::vector<Interval>* categories[5] = {&compute, &collective, &p2p, &memory, &collective_wait};
  std::vector<Interval> all;
  double covered[5];
  for (int c = 0; c < 5; ++c) {
    all.insert(all.end(), categories[c]->begin(), categories[c]->end());
    covered[c] = union_length(all);
  }
  RankBreakdown out{core::Seconds(finish),
                    core::Seconds(covered[0]),
                    core::Seconds(covered[1] - covered[0]),
                    core::Seconds(covered[2] - covered[1]),
                    core::Seconds(covered[3] - covered[2]),
                    core::Seconds(covered[4] - covered[3]),
                    core::Seconds(iteration_end - covered[4]),
                    {}};
  for (const auto& [name, comm] : communicators) {  // sorted by name
    if (comm >= collective_by_communicator.size() || collective_by_communicator[comm].empty()) continue;
    std::vector<Interval> with = compute;
    with.insert(with.end(), collective_by_communicator[comm].begin(), collective_by_communicator[comm].end());
    out.exposed_by_communicator.emplace_back(name, core::Seconds(union_length(with) - covered[0]));
  }
  return out;
}

}  // namespace zs::engine
