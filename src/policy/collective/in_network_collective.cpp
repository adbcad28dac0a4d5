// In-network reduction schedules.
#include "policy/collective/in_network_collective.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "policy/collective/pairwise_collective.hpp"
#include "policy/collective/ring_collective.hpp"
#include "policy/collective/route_measurements.hpp"
#include "topology/unit_domains.hpp"

namespace zs::policy {

using workload::CollectiveKind;

std::optional<topology::NodeId> shared_reduction_switch(const CollectiveRequest& request) {
  if (request.machine == nullptr || request.member_units.empty()) return std::nullopt;
  std::optional<topology::NodeId> shared;
  for (auto unit : request.member_units) {
    const auto sw = topology::reduction_switch(*request.machine, unit);
    if (!sw || (shared && *sw != *shared)) return std::nullopt;
    shared = sw;
  }
  return shared;
}

namespace {

/// Where a request's reduction runs under this policy: nowhere (all-to-all and other kinds), on the ring
/// it falls back to (one member, or no switch all members share), in a host's NVSwitch (NCCL's NVLS) or in
/// a fabric switch (NCCL's CollNet, SHARP).
enum class ReductionSite : uint8_t { kNone, kRingFallback, kHostSwitch, kFabricSwitch };

ReductionSite reduction_site(const CollectiveRequest& request) {
  if (!reduces_or_gathers(request.kind)) return ReductionSite::kNone;
  const auto sw = shared_reduction_switch(request);
  if (request.member_units.size() <= 1 || !sw) return ReductionSite::kRingFallback;
  // A host's NVSwitch has nothing but units and memory pools on its ports.
  const auto& topo = request.machine->topology;
  for (const auto& [neighbour, link] : topo.neighbours(*sw))
    if (topo.node(neighbour).kind == topology::NodeKind::kSwitch) return ReductionSite::kFabricSwitch;
  return ReductionSite::kHostSwitch;
}

}  // namespace

std::optional<std::string> InNetworkCollective::nccl_algorithm(const CollectiveRequest& request) const {
  switch (reduction_site(request)) {
    case ReductionSite::kRingFallback:
      return std::string("Ring");
    case ReductionSite::kHostSwitch:
      return std::string("NVLS");
    case ReductionSite::kFabricSwitch:  // NCCL's CollNet reduces all-reduces only
      if (request.kind == CollectiveKind::kAllReduce) return std::string("CollNet");
      return std::nullopt;
    case ReductionSite::kNone:
      break;
  }
  return std::nullopt;
}

std::optional<hw::LibraryAlgorithm> InNetworkCollective::library_algorithm(
    const CollectiveRequest& request) const {
  switch (reduction_site(request)) {
    case ReductionSite::kRingFallback:
      return ring_library_algorithm(request);
    case ReductionSite::kHostSwitch:
      return hw::LibraryAlgorithm::kNvls;
    case ReductionSite::kFabricSwitch:  // CollNet's costs are not modelled
    case ReductionSite::kNone:
      break;
  }
  return std::nullopt;
}

CollectiveSchedule InNetworkCollective::schedule(const CollectiveRequest& request) const {
  if (request.kind == CollectiveKind::kAllToAll) return direct_all_to_all(request);
  if (!reduces_or_gathers(request.kind))
    throw std::invalid_argument("the in-network policy does not implement " +
                                std::string(workload::to_string(request.kind)));
  const auto n = static_cast<uint32_t>(request.member_units.size());
  const auto sw = shared_reduction_switch(request);
  if (n <= 1 || !sw) return RingCollective().schedule(request);

  const double eta = request.machine->switch_model(*sw)->reduction_efficiency();
  const double S = request.bytes.value();
  const uint32_t k = options_.chunks_for(S);
  const double chunk = S / k;
  double up = chunk / eta, down = chunk;  // all-reduce
  if (request.kind == CollectiveKind::kReduceScatter) down = chunk / n;
  if (request.kind == CollectiveKind::kAllGather) up = chunk / n, down = chunk;

  CollectiveSchedule s;
  s.algorithm = "in-network";
  s.steps = k + 1;
  s.transfers.reserve(size_t(2) * k * n);
  // Transfer index of member i's chunk c going up: 2nc + i; coming down: 2nc + n + i.
  for (uint32_t c = 0; c < k; ++c) {
    for (uint32_t i = 0; i < n; ++i) {
      Transfer t{i, switch_endpoint(n, i), core::Bytes(up), c, {}, c > 0};
      if (c > 0) t.after.push_back(2 * n * (c - 1) + i);
      s.transfers.push_back(std::move(t));
    }
    for (uint32_t i = 0; i < n; ++i) {
      Transfer t{switch_endpoint(n, i), i, core::Bytes(down), c + 1, {}, c > 0};
      for (uint32_t j = 0; j < n; ++j) t.after.push_back(2 * n * c + j);
      if (c > 0) t.after.push_back(2 * n * (c - 1) + n + i);
      s.transfers.push_back(std::move(t));
    }
  }
  return s;
}

std::optional<core::Seconds> InNetworkCollective::estimate(const CollectiveRequest& request,
                                                           hw::CollectiveProtocol protocol,
                                                           RouteMeasurements& routes) const {
  if (!reduces_or_gathers(request.kind)) return std::nullopt;
  const auto sw = shared_reduction_switch(request);
  if (!sw) return std::nullopt;
  const AlphaBeta ab = routes.all().under(protocol);
  const double n = double(request.member_units.size()), S = request.bytes.value();
  const double eta = request.machine->switch_model(*sw)->reduction_efficiency();
  const double wire = ab.wire / 2;  // member to switch is half a member-to-member route
  const double first = ab.alpha > ab.wire ? ab.alpha : wire;  // a step latency is the link's, not halved
  const double k = options_.chunks_for(S);
  double up = S / k / eta, down = S / k;
  if (request.kind == CollectiveKind::kReduceScatter) down /= n;
  if (request.kind == CollectiveKind::kAllGather) up = S / k / n;
  const double x = up / ab.bandwidth, y = down / ab.bandwidth;
  const double up_paced = first + x + (k - 1) * (wire + x) + wire + y;
  const double down_paced = 2 * first + x + y + (k - 1) * (wire + y);
  return core::Seconds(std::max(up_paced, down_paced));
}

}  // namespace zs::policy
