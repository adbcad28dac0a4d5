// Pairs point-to-point sends with receives in posting order, per (sender, receiver, direction).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <tuple>

namespace zs::engine {

/// The two halves of a point-to-point transfer meet here: the k-th send from `src` to `dst` with a tag
/// pairs with the k-th receive posted for the same (src, dst, tag), whichever is posted first. The tag
/// tells directions apart: with a wrapped axis of two ranks, activations and gradients travel between
/// the same pair.
class P2PMatcher {
 public:
  /// One half: the rank that posted it and its op.
  struct Half {
    uint64_t rank = 0;
    uint32_t op = 0;
  };
  struct Pair {
    Half send, recv;
  };

  /// Posts a send (`send` true) or a receive of the transfer from `src` to `dst`; returns both halves
  /// when this post completes a pair, else nothing (the half waits for its partner).
  std::optional<Pair> post(uint64_t src, uint64_t dst, int32_t tag, bool send, Half half);

 private:
  struct Channel {
    std::optional<Half> send, recv;
  };
  std::map<std::tuple<uint64_t, uint64_t, int32_t, uint32_t>, Channel> channels_;  ///< (src, dst, tag, k)
  std::map<std::tuple<uint64_t, uint64_t, int32_t>, uint32_t> sends_posted_, recvs_posted_;
};

}  // namespace zs::engine
