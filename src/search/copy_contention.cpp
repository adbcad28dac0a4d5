// What the other groups of a communicator add to one group's communication when all run at once.
#include "search/copy_contention.hpp"

#include <algorithm>

namespace zs::search {
namespace {

/// The most transfers of the other groups one drain routes (more groups are sampled fewer, and weighted).
constexpr size_t kRoutedTransfers = size_t(1) << 18;
/// The most transfers of the first group one drain routes (a larger group's members are sampled evenly).
constexpr size_t kOwnTransfers = size_t(1) << 14;

}  // namespace
uint64_t hash_of(const GroupUnits& g) {
  uint64_t h = 0xcbf29ce484222325ull;
  auto mix = [&](uint64_t v) { h = (h ^ v) * 0x100000001b3ull; };
  for (auto u : g.first) mix(u);
  for (const auto& other : g.others) {
    mix(0xffffffffull);
    for (auto u : other) mix(u);
  }
  mix(static_cast<uint64_t>(g.weight * 1024));
  return h;
}

CopyContention::CopyContention(const topology::Machine& machine)
    : machine_(machine), router_(machine, topology::PathSelection::kEcmpHash) {
  const size_t links = machine.topology.links().size();
  bandwidth_.resize(2 * links);
  for (topology::LinkId l = 0; l < links; ++l) {
    const double b = machine.link_model(l).effective_bandwidth().value() * machine.topology.link(l).width;
    bandwidth_[2 * l] = bandwidth_[2 * l + 1] = b;
  }
  load_.assign(2 * links, 0.0);
}

void CopyContention::add_route(topology::NodeId a, topology::NodeId b, double bytes) {
  if (a == b) return;
  topology::NodeId at = a;
  for (topology::LinkId l : router_.route(a, b)) {
    const auto& link = machine_.topology.link(l);
    const uint32_t direction = link.a == at ? 2 * l : 2 * l + 1;
    at = link.a == at ? link.b : link.a;
    if (load_[direction] == 0.0) touched_.push_back(direction);
    load_[direction] += bytes;
  }
}

std::pair<double, double> CopyContention::drain(const GroupUnits& groups,
                                                const std::vector<uint32_t>& shifts) {
  const size_t n = groups.first.size();
  if (n < 2 || shifts.empty()) return {0.0, 0.0};
  const auto key = std::make_tuple(groups.hash, n, shifts);
  if (auto it = cache_.find(key); it != cache_.end()) return it->second;
  // A group of more transfers than kOwnTransfers routes every stride-th member's, each weighted stride.
  const size_t per_group = n * shifts.size();
  const size_t stride = (per_group + kOwnTransfers - 1) / kOwnTransfers;
  auto route_group = [&](const std::vector<topology::NodeId>& members, double weight) {
    for (uint32_t shift : shifts)
      for (size_t i = 0; i < members.size(); i += stride)
        add_route(members[i], members[(i + shift) % members.size()], weight * double(stride));
  };
  route_group(groups.first, 1.0);
  const std::vector<uint32_t> own = touched_;
  double alone = 0;
  for (uint32_t d : own) alone = std::max(alone, load_[d] / bandwidth_[d]);
  // At most kRoutedTransfers routed for the other groups: fewer of them, each weighted for the rest.
  const size_t routed_per_group = (per_group + stride - 1) / stride;
  const size_t used = std::min(std::max<size_t>(1, kRoutedTransfers / routed_per_group), groups.others.size());
  const double weight = used == 0 ? 0.0 : groups.weight * double(groups.others.size()) / double(used);
  for (size_t g = 0; g < used; ++g) route_group(groups.others[g * groups.others.size() / used], weight);
  double with = alone;  // where the first group and the others cross: their sum
  for (uint32_t d : own) with = std::max(with, load_[d] / bandwidth_[d]);
  for (uint32_t d : touched_) load_[d] = 0.0;
  touched_.clear();
  const std::pair<double, double> out{alone, with};
  cache_.emplace(key, out);
  return out;
}

}  // namespace zs::search
