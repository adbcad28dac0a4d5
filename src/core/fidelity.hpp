// How closely a simulation follows the job: every rank and flow, or one rank per class of symmetric ranks.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace zs::core {

/// Which ranks and flows are simulated (a scenario's "fidelity", the engine's mode).
enum class Fidelity : uint8_t {
  kAuto,       ///< exact up to the engine's rank-op limit, collapsed beyond
  kExact,      ///< every rank, op and flow
  kCollapsed,  ///< one representative per class of symmetric ranks; communication costed analytically
};

/// "auto", "exact" or "collapsed".
std::string_view to_string(Fidelity f);
std::optional<Fidelity> parse_fidelity(std::string_view name);

}  // namespace zs::core
