// Pipelined double binary tree schedules.
#include "policy/collective/double_binary_tree_collective.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "policy/collective/recursive_collective.hpp"
#include "policy/collective/ring_collective.hpp"
#include "policy/collective/route_measurements.hpp"
#include "policy/collective/schedule_builder.hpp"
#include "policy/collective/tree_collective.hpp"

namespace zs::policy {
namespace {

using workload::CollectiveKind;

struct Tree {
  std::vector<int64_t> parent;   ///< by member
  std::vector<uint32_t> height;  ///< 0 for a leaf
  std::vector<uint32_t> depth;   ///< 0 for the root
  uint32_t root = 0;
};

Tree make_tree(std::vector<int64_t> parent) {
  const auto n = static_cast<uint32_t>(parent.size());
  Tree t;
  t.height.assign(n, 0);
  t.depth.assign(n, 0);
  // Parents of NCCL's tree have a higher lowest set bit than their children, so a node's depth follows
  // from its parent's once the parent is done: walk up with memoization.
  std::vector<char> known(n, 0);
  for (uint32_t r = 0; r < n; ++r) {
    if (parent[r] < 0) t.root = r;
    std::vector<uint32_t> path;
    uint32_t at = r;
    while (!known[at] && parent[at] >= 0) {
      path.push_back(at);
      at = static_cast<uint32_t>(parent[at]);
    }
    known[at] = 1;
    for (auto it = path.rbegin(); it != path.rend(); ++it) {
      t.depth[*it] = t.depth[static_cast<uint32_t>(parent[*it])] + 1;
      known[*it] = 1;
    }
  }
  for (uint32_t r = 0; r < n; ++r)  // height: longest way down, by relaxing up each leaf's path
    for (uint32_t at = r, h = 0; parent[at] >= 0; at = static_cast<uint32_t>(parent[at])) {
      ++h;
      auto& up = t.height[static_cast<uint32_t>(parent[at])];
      if (up >= h) break;
      up = h;
    }
  t.parent = std::move(parent);
  return t;
}

}  // namespace

std::vector<int64_t> binary_tree_parents(uint32_t n) {
  std::vector<int64_t> parent(n, -1);
  for (uint32_t r = 1; r < n; ++r) {
    const uint32_t b = r & (~r + 1);
    uint32_t up = (r ^ b) | (b << 1);
    if (up >= n) up = r ^ b;
    parent[r] = up;
  }
  return parent;
}

CollectiveSchedule DoubleBinaryTreeCollective::schedule(const CollectiveRequest& request) const {
  switch (request.kind) {
    case CollectiveKind::kAllReduce:
      break;
    case CollectiveKind::kReduce:
    case CollectiveKind::kBroadcast:
      return TreeCollective().schedule(request);
    default:
      return RingCollective().schedule(request);
  }
  const auto n = static_cast<uint32_t>(request.member_units.size());
  CollectiveSchedule s;
  s.algorithm = "double-binary-tree";
  if (n <= 1) return s;
  const auto first = binary_tree_parents(n);
  std::vector<int64_t> second(n, -1);
  auto map = [n](uint32_t r) { return n % 2 == 0 ? n - 1 - r : (r + 1) % n; };
  auto unmap = [n](uint32_t r) { return n % 2 == 0 ? n - 1 - r : (r + n - 1) % n; };
  for (uint32_t r = 0; r < n; ++r) {
    const int64_t p = first[map(r)];
    second[r] = p < 0 ? -1 : int64_t(unmap(static_cast<uint32_t>(p)));
  }
  const Tree trees[2] = {make_tree(first), make_tree(second)};

  const double S = request.bytes.value();
  const uint32_t k = options_.chunks_for(S / 2);
  const double chunk = S / 2 / k;
  // Every (step, sender, receiver) once: at step t a node at height h sends chunk t - h up; the root
  // of height H has chunk c after step c + H - 1 and a node at depth e sends it down at step c + H + e.
  struct Send {
    uint32_t src, dst;
    bool pipelined;  ///< a chunk behind the first
  };
  std::map<uint32_t, std::vector<Send>> by_step;
  for (const auto& tree : trees) {
    const uint32_t H = tree.height[tree.root];
    for (uint32_t r = 0; r < n; ++r) {
      if (tree.parent[r] < 0) continue;
      const auto p = static_cast<uint32_t>(tree.parent[r]);
      for (uint32_t c = 0; c < k; ++c) {
        by_step[c + tree.height[r]].push_back({r, p, c > 0});
        by_step[c + H + tree.depth[p]].push_back({p, r, c > 0});
      }
    }
  }
  ScheduleBuilder b(s, n);
  for (const auto& [step, sends] : by_step) {
    while (b.steps() < step) b.end_step();  // keeps the builder's step numbers equal to the plan's
    for (const auto& send : sends) b.send(send.src, send.dst, chunk, send.pipelined);
    b.end_step();
  }
  // Its steps pay the library's tree row of per-step latencies.
  for (auto& t : s.transfers) t.algorithm = hw::LibraryAlgorithm::kTree;
  return s;
}

std::optional<std::string> DoubleBinaryTreeCollective::nccl_algorithm(const CollectiveRequest& request) const {
  const auto algorithm = library_algorithm(request);
  if (!algorithm) return std::nullopt;
  return std::string(*algorithm == hw::LibraryAlgorithm::kTree ? "Tree" : "Ring");
}

std::optional<hw::LibraryAlgorithm> DoubleBinaryTreeCollective::library_algorithm(
    const CollectiveRequest& request) const {
  if (request.kind == CollectiveKind::kAllReduce) return hw::LibraryAlgorithm::kTree;
  return ring_library_algorithm(request);
}

std::optional<core::Seconds> DoubleBinaryTreeCollective::estimate(const CollectiveRequest& request,
                                                                  hw::CollectiveProtocol protocol,
                                                                  RouteMeasurements& routes) const {
  if (request.kind != workload::CollectiveKind::kAllReduce) return std::nullopt;
  const double n = double(request.member_units.size()), S = request.bytes.value();
  const double k = options_.chunks_for(S / 2), H = std::floor(std::log2(n));
  const AlphaBeta a = routes.all().under(protocol, hw::LibraryAlgorithm::kTree);
  return core::Seconds(2 * H * a.alpha + k * a.wire + (k + 2 * H) * 2 * S / k / a.bandwidth);
}

}  // namespace zs::policy
