// Degraded machine states: simulated on first use, then shared.
#include "reliability/degraded_iterations.hpp"

namespace zs::reliability {

const DegradedIterations::State& DegradedIterations::state(const Key& key,
                                                           const std::vector<const Degradation*>& active,
                                                           const std::function<std::string()>& describe) {
  auto [it, fresh] = states_.try_emplace(key);
  if (fresh) {
    it->second.simulated = simulate_(active);
    it->second.description = describe();
  }
  return it->second;
}

}  // namespace zs::reliability
