// The protocol decorator: picks NCCL's LL, LL128 or Simple per collective and applies it to the transfers.
#include "policy/collective/protocol_choice.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <optional>
#include <unordered_map>

#include "topology/router.hpp"
#include "topology/routing.hpp"

namespace zs::policy {

namespace {

/// Transfers routed per step for an estimate: larger steps are sampled evenly, each sampled transfer's
/// bytes weighted by the sampling stride, so large steps stay cheap to estimate.
constexpr size_t kSampledTransfers = 4096;

/// Route maps the kept router caches (each 4 B per node of the machine).
constexpr size_t kCachedRouteMaps = 16;

bool runs_under_protocol(workload::CollectiveKind kind) {
  return kind != workload::CollectiveKind::kAllToAll;
}

/// Sets the protocol of every transfer and grows its bytes to what the protocol puts on the wire.
void apply(std::vector<Transfer>& transfers, hw::CollectiveProtocol protocol) {
  const double fraction = hw::bandwidth_fraction(protocol);
  for (auto& t : transfers) {
    t.protocol = protocol;
    t.bytes = core::Bytes(t.bytes.value() / fraction);
  }
}

/// The protocol `setting` names; none under kAuto.
std::optional<hw::CollectiveProtocol> named_protocol(ProtocolSetting setting) {
  switch (setting) {
    case ProtocolSetting::kSimple:
      return hw::CollectiveProtocol::kSimple;
    case ProtocolSetting::kLl128:
      return hw::CollectiveProtocol::kLl128;
    case ProtocolSetting::kLl:
      return hw::CollectiveProtocol::kLl;
    case ProtocolSetting::kAuto:
      break;
  }
  return std::nullopt;
}

std::string with_protocol(std::string algorithm, hw::CollectiveProtocol protocol) {
  if (protocol == hw::CollectiveProtocol::kSimple) return algorithm;
  return algorithm + "/" + std::string(hw::to_string(protocol));
}

}  // namespace

ProtocolChoice::ProtocolChoice(std::unique_ptr<CollectivePolicy> inner, ProtocolSetting setting)
    : inner_(std::move(inner)), setting_(setting) {}

ProtocolChoice::Estimates ProtocolChoice::estimates(const CollectiveRequest& request,
                                                    const std::vector<RepeatedStep>& steps) {
  topology::Router router(*request.machine, topology::PathSelection::kLowestId, 1);
  return estimates(request, steps, router);
}

ProtocolChoice::Estimates ProtocolChoice::estimates(const CollectiveRequest& request,
                                                    const std::vector<RepeatedStep>& steps,
                                                    topology::Router& router) {
  const topology::Machine& machine = *request.machine;
  constexpr size_t kProtocols = hw::kCollectiveProtocols.size();
  std::unordered_map<uint32_t, double> load;  // link direction (topology::route_directions) -> B
  Estimates total{};
  for (const auto& step : steps) {
    double slowest = 0;
    std::array<double, kProtocols> step_sum{};
    size_t counted = 0;
    load.clear();
    const size_t stride = std::max<size_t>(1, step.transfers.size() / kSampledTransfers);
    for (size_t i = 0; i < step.transfers.size(); i += stride) {
      const Transfer& t = step.transfers[i];
      const auto src = endpoint_node(machine, request.member_units, t.src);
      const auto dst = endpoint_node(machine, request.member_units, t.dst);
      if (src == dst || t.bytes.value() <= 0) continue;
      const topology::Route route{router.route(src, dst)};
      slowest = std::max(slowest, topology::route_latency(machine, route.links).value());
      for (uint32_t d : topology::route_directions(machine.topology, src, route.links))
        load[d] += t.bytes.value() * double(stride);
      if (t.pipelined) continue;
      for (auto protocol : hw::kCollectiveProtocols)
        step_sum[size_t(protocol)] +=
            topology::route_step_latency(machine, route.links, protocol, t.algorithm).value();
      ++counted;
    }
    // Under Simple; a protocol moves its payload at its fraction of that rate.
    double drain = 0;
    for (const auto& [direction, bytes] : load)
      drain = std::max(drain, bytes / machine.link_bandwidth(direction / 2).value());
    for (auto protocol : hw::kCollectiveProtocols) {
      const size_t p = size_t(protocol);
      const double latency = std::max(slowest, counted == 0 ? 0.0 : step_sum[p] / double(counted));
      total[p] += step.repeat * (latency + drain / hw::bandwidth_fraction(protocol));
    }
  }
  return total;
}

hw::CollectiveProtocol ProtocolChoice::least_estimate(const CollectiveRequest& request,
                                                      const std::vector<RepeatedStep>& steps) const {
  const Estimates all = estimates(request, steps, router_for(*request.machine));
  // The library's base latency under each protocol, from one call (auto's pick is made once).
  const bool charged = request.machine->step_latency && request.member_units.size() > 1;
  const auto algorithm = charged ? inner_->library_algorithm(request) : std::nullopt;
  auto best = hw::CollectiveProtocol::kSimple;
  double least = std::numeric_limits<double>::infinity();
  for (auto protocol : hw::kCollectiveProtocols) {
    if (algorithm && !hw::runs_under(*algorithm, protocol)) continue;
    const double t =
        all[size_t(protocol)] + (algorithm ? hw::base_latency(*algorithm, protocol).value() : 0.0);
    if (t < least) {
      least = t;
      best = protocol;
    }
  }
  return best;
}

std::optional<hw::CollectiveProtocol> ProtocolChoice::named_protocol_for(
    const CollectiveRequest& request) const {
  const auto named = named_protocol(setting_);
  if (!named) return std::nullopt;
  const auto algorithm = inner_->library_algorithm(request);
  if (algorithm && !hw::runs_under(*algorithm, *named)) return hw::CollectiveProtocol::kSimple;
  return named;
}

topology::Router& ProtocolChoice::router_for(const topology::Machine& machine) const {
  if (!router_ || router_machine_ != &machine || router_links_down_ != machine.links_down) {
    router_ =
        std::make_unique<topology::Router>(machine, topology::PathSelection::kLowestId, kCachedRouteMaps);
    router_machine_ = &machine;
    router_links_down_ = machine.links_down;
  }
  return *router_;
}

CollectiveSchedule ProtocolChoice::schedule(const CollectiveRequest& request) const {
  CollectiveSchedule s = inner_->schedule(request);
  if (!runs_under_protocol(request.kind)) return s;
  // Chosen from the wrapped policy's steps, as steps() chooses, so both fidelities run one protocol.
  auto protocol = named_protocol_for(request);
  if (!protocol) protocol = least_estimate(request, inner_->steps(request).second);
  apply(s.transfers, *protocol);
  s.algorithm = with_protocol(std::move(s.algorithm), *protocol);
  return s;
}

std::pair<std::string, std::vector<RepeatedStep>> ProtocolChoice::steps(
    const CollectiveRequest& request) const {
  auto [algorithm, steps] = inner_->steps(request);
  if (!runs_under_protocol(request.kind)) return {std::move(algorithm), std::move(steps)};
  auto protocol = named_protocol_for(request);
  if (!protocol) protocol = least_estimate(request, steps);
  for (auto& step : steps) apply(step.transfers, *protocol);
  return {with_protocol(std::move(algorithm), *protocol), std::move(steps)};
}

}  // namespace zs::policy
