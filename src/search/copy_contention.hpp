// What the other groups of a communicator add to one group's communication when all run at once.
#pragma once

#include <cstdint>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include "topology/machine.hpp"
#include "topology/router.hpp"

namespace zs::search {

/// A communicator's groups as tier 1 costs them: the first group's units in communicator order, and a
/// sample of the other groups (each standing for `weight` groups) that run the same communication at the
/// same time, as the ranks of an SPMD job do.
struct GroupUnits {
  std::vector<topology::NodeId> first;
  std::vector<std::vector<topology::NodeId>> others;
  double weight = 1;  ///< groups each sampled other group stands for
  uint64_t hash = 0;  ///< hash_of() of the above, set by whoever fills them (caches key on it)
};

/// A hash of the groups' units and weight.
uint64_t hash_of(const GroupUnits& groups);

/// The bottleneck-link model of one step of a pattern run by every group at once: each transfer routed as
/// the engine routes it (per-connection ECMP), the bytes of the sampled other groups weighted onto the
/// link directions they cross (at most 2^18 of their transfers routed: beyond, fewer groups, evenly
/// spread, each weighted for more). A group of more than 2^14 transfers routes an even sample of its
/// members', each weighted for the members between. The step's drain time is the busiest direction the first group crosses,
/// its load over its bandwidth: alone, and with the other groups.
class CopyContention {
 public:
  explicit CopyContention(const topology::Machine& machine);

  /// Drain time per byte of each transfer (s/B) of one step in which, for every shift k of `shifts`,
  /// member i of every group sends to member (i + k) mod n of its own group, all at once:
  /// {the first group alone, with the other groups}.
  std::pair<double, double> drain(const GroupUnits& groups, const std::vector<uint32_t>& shifts);

 private:
  void add_route(topology::NodeId a, topology::NodeId b, double bytes);

  const topology::Machine& machine_;
  topology::Router router_;
  std::vector<double> bandwidth_;  ///< per link direction, B/s
  std::vector<double> load_;       ///< per link direction, scratch, B
  std::vector<uint32_t> touched_;
  std::map<std::tuple<uint64_t, size_t, std::vector<uint32_t>>, std::pair<double, double>> cache_;
};

}  // namespace zs::search
