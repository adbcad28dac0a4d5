// The routing draws of expert dispatches, kept so that the four all-to-alls that share one draw route once.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <tuple>
#include <vector>

#include "workload/expert_routing.hpp"

namespace zs::workload {

/// dispatch_sizes, with each distinct draw's token matrix (dispatch_matrix) computed once: a layer's
/// dispatch and combine of one micro-batch, forward and backward (and a recomputed forward), draw with
/// one seed, so without it every draw is routed four to six times. The matrices are kept, oldest dropped
/// first, up to `max_bytes` of them; what is returned is the same whether a draw was kept or not. One
/// object per simulation (not shared between threads).
class DispatchDraws {
 public:
  explicit DispatchDraws(size_t max_bytes = size_t(64) << 20) : max_bytes_(max_bytes) {}
  /// dispatch_sizes(dispatch, members, group).
  DispatchSizes sizes(const ExpertDispatch& dispatch, uint32_t members, uint64_t group);
  /// Draws routed so far (a draw dropped and met again counts twice), for tests and benchmarks.
  uint64_t routed() const { return routed_; }

 private:
  /// (seed, group, members, tokens per member, experts, top_k): with the routing model, what a draw is.
  using Key = std::tuple<uint64_t, uint64_t, uint32_t, uint64_t, uint32_t, uint32_t>;
  struct Draw {
    ExpertRoutingModel routing;
    std::vector<std::vector<uint64_t>> tokens;
  };
  const std::vector<std::vector<uint64_t>>& tokens(const ExpertDispatch& dispatch, uint32_t members,
                                                   uint64_t group);

  size_t max_bytes_;
  size_t bytes_ = 0;
  uint64_t routed_ = 0;
  std::map<Key, Draw> draws_;
  std::deque<Key> order_;  ///< the kept draws, oldest first
};

}  // namespace zs::workload
