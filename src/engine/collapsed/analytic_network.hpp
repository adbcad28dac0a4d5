// Network costs without flows, for collapsed fidelity: a step of concurrent transfers drains in its
// slowest route's latency plus the busiest link direction's bytes over that direction's bandwidth.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "topology/machine.hpp"
#include "topology/router.hpp"

namespace zs::engine {

/// The bottleneck-link model of a set of transfers that start together. With max-min sharing, as the
/// flow-level engine uses, an uncontended transfer of S bytes takes route latency + S / narrowest
/// bandwidth, and n equal transfers through one link direction drain together in n S / bandwidth:
/// the model is exact in those cases. When transfers of unequal size share links it gives a lower
/// bound (the busiest direction never idles), which is what collapsed fidelity states it assumes.
class AnalyticNetwork {
 public:
  struct Flow {
    topology::NodeId src = 0;
    topology::NodeId dst = 0;
    double bytes = 0;  ///< B
    /// A chunk behind the first of a pipelined schedule (policy::Transfer::pipelined): it pays its
    /// route's physical latency, never a step latency.
    bool pipelined = false;
    /// The collective library's protocol: the step latency its links charge (policy::Transfer::protocol).
    hw::CollectiveProtocol protocol = hw::CollectiveProtocol::kSimple;
    /// Whose row of step latencies it pays (policy::Transfer::algorithm).
    hw::LibraryAlgorithm algorithm = hw::LibraryAlgorithm::kRing;
    /// Its index into CachedRoute::step_latency.
    size_t step_kind() const {
      return size_t(algorithm) * hw::kCollectiveProtocols.size() + size_t(protocol);
    }
  };
  /// A step's cost in two parts, s: the latency (the slowest own route's, at least the mean step
  /// latency of the routes of the own transfers that are not pipelined), and the drain time.
  struct StepCost {
    double latency = 0;
    double drain = 0;
    double total() const { return latency + drain; }
  };

  /// `router` must outlive this object and already reflect the links that are up.
  AnalyticNetwork(const topology::Machine& machine, topology::Router& router);

  /// The cost of `own` transfers running at once with `others`, which are weighted `others_weight`
  /// times on the links they cross (a sample standing for more concurrent copies). The drain time is
  /// the largest load / bandwidth over every direction crossed: where own transfers cross, with the
  /// others' weighted contention; where only others cross, their bytes counted once (a copy's own
  /// links carry its bytes once, however many copies it stands for), so a copy whose links are busier
  /// than the own transfers' holds the step up, and no direction's load exceeds what the step's time
  /// lets through. Appends (link direction, bytes x `repeat`) with those loads to `link_bytes` when
  /// it is not null (directions numbered as in ReplayResult::link_bytes), and the same for the
  /// directions own transfers cross to `own_link_bytes` when it is not null.
  /// When `per_own` is not null and the step is routed transfer by transfer (not fluid), it receives
  /// each own transfer's cost in order: its route's latency (at least its step latency unless it is
  /// pipelined) and its busiest direction's load over that direction's bandwidth (a transfer without bytes
  /// costs its latency only); it is left empty otherwise.
  StepCost step(const std::vector<Flow>& own, const std::vector<Flow>& others, double others_weight,
                std::vector<std::pair<uint32_t, double>>* link_bytes = nullptr, double repeat = 1.0,
                std::vector<std::pair<uint32_t, double>>* own_link_bytes = nullptr,
                std::vector<StepCost>* per_own = nullptr);

  /// Steps with more transfers than this are costed by fluid ECMP (Router::spread): demand
  /// aggregated per source and destination group and split evenly over equal next hops, instead of
  /// one hashed route per transfer. The latency is then the largest over 64 evenly spaced own
  /// transfers' routes.
  static constexpr size_t kFluidTransfers = size_t(1) << 16;

  /// Route computations done so far (each pair is routed once; for benchmarks and reports).
  uint64_t routes_computed() const { return routes_.size(); }

 private:
  struct CachedRoute {
    std::vector<uint32_t> directions;  ///< link directions in order: 2 l (a to b) or 2 l + 1
    double latency = 0;                ///< links' latencies plus transit latencies, s
    /// The largest step_latency of its links, by library algorithm and protocol (Flow::step_kind), s.
    std::array<double, 2 * hw::kCollectiveProtocols.size()> step_latency{};
    /// The transfer's own latency under `protocol`: the route's, at least its step latency, s.
    double transfer_latency(const Flow& f) const { return std::max(latency, step_latency[f.step_kind()]); }
  };
  /// A step's latency as its transfers are added: the largest route latency, at least the mean step
  /// latency of its transfers that are not pipelined. A collective library's steps are pipelined along
  /// its rings and trees, so a chunk pays the step latency of each hop it crosses, not the slowest hop's
  /// at every step (NCCL's latency model counts intra-node and network steps apart); the mean over a
  /// step's transfers is that per step. Chunks behind the first pay none (Flow::pipelined).
  struct StepLatency {
    double slowest_route = 0, step_sum = 0;
    size_t transfers = 0;
    void add(const CachedRoute& r, const Flow& f) {
      slowest_route = std::max(slowest_route, r.latency);
      if (f.pipelined) return;
      step_sum += r.step_latency[f.step_kind()];
      ++transfers;
    }
    double value() const { return std::max(slowest_route, transfers == 0 ? 0.0 : step_sum / transfers); }
  };
  const CachedRoute& route(topology::NodeId src, topology::NodeId dst);
  StepCost fluid_step(const std::vector<Flow>& own, const std::vector<Flow>& others, double others_weight,
                      std::vector<std::pair<uint32_t, double>>* link_bytes, double repeat,
                      std::vector<std::pair<uint32_t, double>>* own_link_bytes);
  void add_load(uint32_t direction, double bytes);
  /// Ends a step: the drain time also covers the directions only other copies cross (their loads
  /// counted once, unweighted), appends the loads to the lists and clears the scratch.
  void finish_step(StepCost& cost, double others_weight, std::vector<std::pair<uint32_t, double>>* link_bytes,
                   double repeat, std::vector<std::pair<uint32_t, double>>* own_link_bytes);

  const topology::Machine& machine_;
  topology::Router& router_;
  std::unordered_map<uint64_t, uint32_t> route_index_;  ///< (src << 32 | dst) -> index in routes_
  std::vector<CachedRoute> routes_;
  std::vector<double> direction_bandwidth_;  ///< per link direction, B/s
  std::vector<double> load_;                 ///< per link direction, scratch, B
  std::vector<uint32_t> touched_;
  std::vector<char> own_touched_;  ///< per link direction, scratch: crossed by an own transfer
  std::vector<double> node_sum_;   ///< per node, scratch (fluid steps), B
  /// A fluid step's demand towards one set of destinations sharing their attachments.
  struct FluidGroup {
    std::vector<std::pair<topology::NodeId, double>> own, others;  ///< by source, B
    std::vector<std::pair<topology::NodeId, double>> received;     ///< by destination, B
  };
  std::vector<FluidGroup> fluid_groups_;  ///< scratch kept between steps (their buffers reused)
  std::vector<uint32_t> group_of_node_;   ///< per node, scratch: 1 + its group in this step, 0: none
};

}  // namespace zs::engine
