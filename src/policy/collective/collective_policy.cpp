// Distinct steps of a collective schedule, for costing it without replaying it; the protocol settings.
#include "policy/collective/collective_policy.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "core/splitmix.hpp"
#include "topology/unit_domains.hpp"

namespace zs::policy {

namespace {

bool same_step(const std::vector<Transfer>& a, const std::vector<Transfer>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].src != b[i].src || a[i].dst != b[i].dst || a[i].bytes != b[i].bytes ||
        a[i].pipelined != b[i].pipelined || a[i].protocol != b[i].protocol ||
        a[i].algorithm != b[i].algorithm)
      return false;
  return true;
}
}  // namespace

uint32_t CollectiveOptions::chunks_for(double bytes) const {
  const double wanted = std::ceil(bytes / chunk.value());
  return static_cast<uint32_t>(std::clamp(wanted, 1.0, double(std::max<uint32_t>(max_chunks, 1))));
}

const core::ParamTable& CollectiveOptions::params() {
  static const CollectiveOptions defaults;
  static const core::ParamTable table(
      "collective-chunking", "how a pipelined collective algorithm splits a buffer into chunks",
      {core::Param::bytes("chunk", "largest chunk a pipelined algorithm sends")
           .or_default(core::to_string(defaults.chunk)),
       core::Param::integer("max_chunks", 1, 4096, "most chunks a buffer is split into")
           .or_default(int64_t(defaults.max_chunks))});
  return table;
}

CollectiveOptions CollectiveOptions::from_params(core::ParamReader& reader) {
  CollectiveOptions options;
  options.chunk = reader.get<core::Bytes>("chunk");
  options.max_chunks = static_cast<uint32_t>(reader.get<int64_t>("max_chunks"));
  return options;
}

topology::NodeId endpoint_node(const topology::Machine& machine, const std::vector<topology::NodeId>& units,
                               uint32_t endpoint) {
  const auto n = static_cast<uint32_t>(units.size());
  if (endpoint < n) return units[endpoint];
  const auto sw = topology::reduction_switch(machine, units.at(endpoint - n));
  if (!sw) throw std::logic_error("a schedule names the reduction switch of a member that has none");
  return *sw;
}

std::string_view to_string(ProtocolSetting setting) {
  switch (setting) {
    case ProtocolSetting::kSimple:
      return "simple";
    case ProtocolSetting::kLl128:
      return "ll128";
    case ProtocolSetting::kLl:
      return "ll";
    case ProtocolSetting::kAuto:
      return "auto";
  }
  return "simple";
}

ProtocolSetting protocol_setting(std::string_view name) {
  for (auto s :
       {ProtocolSetting::kSimple, ProtocolSetting::kLl128, ProtocolSetting::kLl, ProtocolSetting::kAuto})
    if (to_string(s) == name) return s;
  throw std::invalid_argument("unknown collective protocol \"" + std::string(name) + "\"");
}

std::string_view to_string(AlgorithmSet set) {
  return set == AlgorithmSet::kNccl ? "nccl" : "any";
}

AlgorithmSet algorithm_set(std::string_view name) {
  for (auto s : {AlgorithmSet::kAny, AlgorithmSet::kNccl})
    if (to_string(s) == name) return s;
  throw std::invalid_argument("unknown collective algorithm set \"" + std::string(name) + "\"");
}

std::vector<RepeatedStep> repeated_steps(const CollectiveSchedule& schedule) {
  std::vector<std::vector<Transfer>> by_step;
  for (const auto& t : schedule.transfers) {
    if (by_step.size() <= t.step) by_step.resize(t.step + 1);
    by_step[t.step].push_back({t.src, t.dst, t.bytes, t.step, {}, t.pipelined, t.protocol, t.algorithm});
  }
  std::vector<RepeatedStep> out;
  std::multimap<uint64_t, size_t> seen;  // hash of a step -> its index in out
  for (auto& transfers : by_step) {
    if (transfers.empty()) continue;
    uint64_t h = 0x243f6a8885a308d3ull;
    for (const auto& t : transfers) {
      h = core::splitmix64(h ^ (uint64_t(t.src) << 32 | t.dst));
      h = core::splitmix64(h ^ static_cast<uint64_t>(t.bytes.value() * 1024.0) ^ uint64_t(t.pipelined) ^
                           uint64_t(t.protocol) << 8 ^ uint64_t(t.algorithm) << 16);
    }
    bool merged = false;
    for (auto [it, end] = seen.equal_range(h); it != end; ++it)
      if (same_step(out[it->second].transfers, transfers)) {
        ++out[it->second].repeat;
        merged = true;
        break;
      }
    if (merged) continue;
    seen.emplace(h, out.size());
    for (auto& t : transfers) t.step = 0;
    out.push_back({std::move(transfers), 1});
  }
  return out;
}

core::Seconds collective_base_latency(const CollectivePolicy& policy, const CollectiveRequest& request,
                                      hw::CollectiveProtocol protocol) {
  if (request.machine == nullptr || !request.machine->step_latency || request.member_units.size() <= 1)
    return core::Seconds(0.0);
  const auto algorithm = policy.library_algorithm(request);
  return algorithm ? hw::base_latency(*algorithm, protocol) : core::Seconds(0.0);
}

std::optional<core::Seconds> estimated_time(const CollectivePolicy& policy, const CollectiveRequest& request,
                                            hw::CollectiveProtocol protocol, RouteMeasurements& routes) {
  const auto seconds = policy.estimate(request, protocol, routes);
  if (!seconds) return std::nullopt;
  const auto algorithm = policy.library_algorithm(request);
  if (algorithm && !hw::runs_under(*algorithm, protocol)) return std::nullopt;
  return *seconds + collective_base_latency(policy, request, protocol);
}

bool nccl_algorithm_applies(workload::CollectiveKind kind) {
  return kind != workload::CollectiveKind::kAllToAll;
}

}  // namespace zs::policy
