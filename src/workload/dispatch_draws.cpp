// Expert dispatch draws routed once per distinct draw.
#include "workload/dispatch_draws.hpp"

namespace zs::workload {
namespace {

/// What one draw's token matrix over `members` ranks holds, B.
size_t draw_bytes(size_t members) {
  return members * members * sizeof(uint64_t);
}

}  // namespace

const std::vector<std::vector<uint64_t>>& DispatchDraws::tokens(const ExpertDispatch& d, uint32_t n,
                                                                uint64_t group) {
  const Key key{d.seed, group, n, d.tokens, d.experts, d.top_k};
  auto found = draws_.find(key);
  if (found != draws_.end() && found->second.routing == d.routing) return found->second.tokens;
  ++routed_;
  auto drawn = dispatch_tokens(d, n, group);
  const size_t bytes = draw_bytes(n);
  if (found != draws_.end()) {  // the same key under another routing model: this one replaces it
    found->second = {d.routing, std::move(drawn)};
    return found->second.tokens;
  }
  while (!order_.empty() && bytes_ + bytes > max_bytes_) {
    const auto& oldest = draws_.at(order_.front()).tokens;
    bytes_ -= draw_bytes(oldest.size());
    draws_.erase(order_.front());
    order_.pop_front();
  }
  order_.push_back(key);
  bytes_ += bytes;
  return draws_.emplace(key, Draw{d.routing, std::move(drawn)}).first->second.tokens;
}

DispatchSizes DispatchDraws::sizes(const ExpertDispatch& dispatch, uint32_t members, uint64_t group) {
  if (draw_bytes(members) > max_bytes_) {  // too large to keep
    ++routed_;
    return dispatch_sizes(dispatch, members, group);
  }
  return dispatch_sizes_of(tokens(dispatch, members, group), dispatch, members);
}

}  // namespace zs::workload
