// A unit running slower, a link carrying less, a failed part of a link or a failed memory pool, for a while.
#pragma once

#include <cstdint>
#include <string>

namespace zs::reliability {

/// A unit that runs slower (a straggler) or a link that carries less, for a while.
struct Degradation {
  /// kOutage: a failed part of a link (a cable of a bundle, an optical port): `factor` is the share of the
  /// link's bandwidth it takes away; the outages of one link add up, and at 1 the link is down.
  /// kPool: a failed memory pool (`id` its node): its ranks keep their data in other pools meanwhile
  /// (JobComponents::pools_without).
  enum class Kind : uint8_t { kUnit, kLink, kOutage, kPool };
  double at = 0;        ///< s
  double duration = 0;  ///< s
  Kind kind = Kind::kUnit;
  uint64_t id = 0;    ///< the rank whose unit straggles, the link's id, or the pool's node
  double factor = 1;  ///< unit: compute takes this many times as long; link: fraction of bandwidth left
  std::string name;   ///< for the timeline
};

}  // namespace zs::reliability
