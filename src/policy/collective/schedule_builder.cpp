// Step-by-step schedule construction.
#include "policy/collective/schedule_builder.hpp"

#include <algorithm>

namespace zs::policy {

ScheduleBuilder::ScheduleBuilder(CollectiveSchedule& schedule, uint32_t endpoints)
    : schedule_(schedule), last_send_(endpoints, -1), received_(endpoints) {}

void ScheduleBuilder::send(uint32_t src, uint32_t dst, double bytes, bool pipelined) {
  Transfer t{src, dst, core::Bytes(bytes), schedule_.steps, received_[src], pipelined};
  t.after.insert(t.after.end(), received_[dst].begin(), received_[dst].end());
  for (uint32_t end : {src, dst})
    if (last_send_[end] >= 0) t.after.push_back(static_cast<uint32_t>(last_send_[end]));
  std::sort(t.after.begin(), t.after.end());
  t.after.erase(std::unique(t.after.begin(), t.after.end()), t.after.end());
  step_.push_back({src, dst, static_cast<uint32_t>(schedule_.transfers.size())});
  schedule_.transfers.push_back(std::move(t));
}

void ScheduleBuilder::end_step() {
  for (const auto& p : step_) {
    last_send_[p.src] = p.index;
    received_[p.src].clear();
  }
  for (const auto& p : step_) received_[p.dst].push_back(p.index);
  step_.clear();
  ++schedule_.steps;
}

void ring_steps(ScheduleBuilder& builder, const std::vector<std::vector<uint32_t>>& rings, uint32_t steps,
                double bytes) {
  for (uint32_t k = 0; k < steps; ++k) {
    for (const auto& ring : rings)
      for (size_t i = 0; i < ring.size(); ++i) builder.send(ring[i], ring[(i + 1) % ring.size()], bytes);
    builder.end_step();
  }
}

}  // namespace zs::policy
