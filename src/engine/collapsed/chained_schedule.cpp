// A schedule's transfers as fluid charges started as their dependencies end.
#include "engine/collapsed/chained_schedule.hpp"

#include <queue>
#include <stdexcept>
#include <tuple>

#include "engine/collapsed/concurrent_charges.hpp"

namespace zs::engine {

ChainedRun run_chained(const std::vector<ChainedTransfer>& transfers,
                       const std::vector<double>& direction_bandwidth) {
  const auto count = static_cast<uint32_t>(transfers.size());
  std::vector<uint32_t> pending(count, 0);
  std::vector<std::vector<uint32_t>> successors(count);
  for (uint32_t t = 0; t < count; ++t)
    for (uint32_t a : transfers[t].after) {
      if (a >= count) throw std::logic_error("a schedule transfer waits for one that does not exist");
      successors[a].push_back(t);
      ++pending[t];
    }
  ConcurrentCharges charges(direction_bandwidth);
  std::vector<uint32_t> transfer_of_charge;
  std::vector<double> path_latency(count, 0.0);  // s of latency on the chain that started each one
  // Events: (time s, kind, key, version), earliest first.
  enum Kind : int {
    kBytesStart = 0,    ///< a transfer's bytes begin to flow (key: transfer index)
    kChargeFinish = 1,  ///< a charge's finish as it stood at `version` (key: charge id)
  };
  using Event = std::tuple<double, int, uint32_t, uint32_t>;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events;
  ChainedRun run;
  uint32_t ended = 0;
  auto queue_changed = [&] {
    for (auto id : charges.changed())
      events.emplace(charges.finish(id), kChargeFinish, id, charges.version(id));
  };
  auto release = [&](uint32_t t, double now, double latency) {
    path_latency[t] = latency + transfers[t].latency;
    events.emplace(now + transfers[t].latency, kBytesStart, t, 0);
  };
  auto finish = [&](uint32_t t, double now) {
    ++ended;
    if (now >= run.seconds) run = {now, path_latency[t]};
    for (uint32_t s : successors[t])
      if (--pending[s] == 0) release(s, now, path_latency[t]);
  };
  for (uint32_t t = 0; t < count; ++t)
    if (pending[t] == 0) release(t, 0.0, 0.0);
  while (!events.empty()) {
    const auto [now, kind, key, version] = events.top();
    events.pop();
    if (kind == kBytesStart) {
      const auto& tr = transfers[key];
      if (!(tr.seconds > 0)) {
        finish(key, now);
        continue;
      }
      const auto id = charges.start(now, tr.seconds, tr.link_bytes);
      if (id >= transfer_of_charge.size()) transfer_of_charge.resize(id + 1);
      transfer_of_charge[id] = key;
      queue_changed();
      continue;
    }
    if (!charges.active(key) || charges.version(key) != version) continue;  // a stale finish time
    charges.end(key, now);
    queue_changed();
    finish(transfer_of_charge[key], now);
  }
  if (ended != count) throw std::logic_error("a schedule's dependencies form a cycle");
  return run;
}

}  // namespace zs::engine
