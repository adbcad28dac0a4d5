// NCCL's double binary tree all-reduce, pipelined in chunks.
#pragma once

#include <cstdint>
#include <vector>

#include "policy/collective/collective_policy.hpp"

namespace zs::policy {

/// Parent of each member in the binary tree NCCL builds over n ranks (-1 for the root, rank 0): rank r
/// with lowest set bit b hangs under (r ^ b) | 2b, or under r ^ b when that is past the end. Odd ranks
/// are leaves.
std::vector<int64_t> binary_tree_parents(uint32_t n);

/// Two binary trees, the second the first mirrored (r -> n-1-r) for even n or shifted by one for odd n,
/// so that a rank inner in one is a leaf in the other. Each tree reduces half of the buffer to its root
/// and broadcasts it back, both pipelined in k chunks (CollectiveOptions): a chunk moves up a level, or
/// down a level, per step, and every level works on a different chunk. With H the deeper tree's height,
/// all-reduce on a non-blocking switch takes between 2S/B (an inner rank moves 2S each way) and
/// (k + 2H)(alpha + 2 S/(k B)) (every step as loaded as the steady state's): latency logarithmic in n,
/// bandwidth within 2x of the ring. The auto policy estimates it by the second.
/// Reduce-scatter and all-gather use the ring, all-to-all is direct, reduce and broadcast the binomial
/// tree.
class DoubleBinaryTreeCollective final : public CollectivePolicy {
 public:
  explicit DoubleBinaryTreeCollective(CollectiveOptions options = {}) : options_(options) {}
  std::string_view name() const override { return "double-binary-tree"; }
  CollectiveSchedule schedule(const CollectiveRequest& request) const override;
  /// All-reduce: the library's tree; reduce-scatter and all-gather: its ring; none for the others.
  std::optional<hw::LibraryAlgorithm> library_algorithm(const CollectiveRequest& request) const override;
  /// NCCL's "Tree" for an all-reduce (NCCL's tree runs all-reduce only); "Ring" where it falls back to
  /// the ring.
  std::optional<std::string> nccl_algorithm(const CollectiveRequest& request) const override;
  /// All-reduce: the first chunk pays the tree's step latency on each of the 2H steps of its way, the
  /// other k - 1 their routes' latency, and (k + 2H) steps move 2S/k each, over RouteMeasurements::all
  /// (H = floor(lg n), k chunks of S/2); none for the other kinds.
  std::optional<core::Seconds> estimate(const CollectiveRequest& request, hw::CollectiveProtocol protocol,
                                        RouteMeasurements& routes) const override;

 private:
  CollectiveOptions options_;
};

}  // namespace zs::policy
