// Per-op jitter draws: Box-Muller for one rank, the quantile of the maximum for several.
#include "engine/op_jitter.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/splitmix.hpp"

namespace zs::engine {

double standard_normal_quantile(double p) {
  // Bisection on the normal CDF, 0.5 erfc(-z / sqrt 2): 64 halvings of [-40, 40] reach double precision.
  double low = -40.0, high = 40.0;
  for (int i = 0; i < 64; ++i) {
    const double mid = 0.5 * (low + high);
    (0.5 * std::erfc(-mid / std::numbers::sqrt2) < p ? low : high) = mid;
  }
  return 0.5 * (low + high);
}

double op_jitter_factor(double cv, uint64_t seed, uint64_t rank, uint32_t op, uint64_t members) {
  if (cv <= 0) return 1.0;
  core::SplitMixStream draws(core::splitmix64(seed ^ 0x6f702d6a69747472ull) ^  // "op-jittr"
                             core::splitmix64(rank * 0x100000001ull + op));
  const double u1 = draws.uniform();
  double z = 0;
  if (members <= 1) {
    z = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * draws.uniform());
  } else {
    z = standard_normal_quantile(std::pow(u1, 1.0 / double(members)));
  }
  return 1.0 + cv * std::max(0.0, z);
}

}  // namespace zs::engine
