// Point-to-point matching.
#include "engine/p2p_matcher.hpp"

namespace zs::engine {

std::optional<P2PMatcher::Pair> P2PMatcher::post(uint64_t src, uint64_t dst, int32_t tag, bool send,
                                                 Half half) {
  const uint32_t seq = (send ? sends_posted_ : recvs_posted_)[{src, dst, tag}]++;
  const auto key = std::make_tuple(src, dst, tag, seq);
  Channel& ch = channels_[key];
  (send ? ch.send : ch.recv) = half;
  if (!ch.send || !ch.recv) return std::nullopt;
  const Pair pair{*ch.send, *ch.recv};
  channels_.erase(key);
  return pair;
}

}  // namespace zs::engine
