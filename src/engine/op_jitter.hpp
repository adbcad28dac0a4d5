// Per-op jitter of compute time: the factor one op's time is drawn to, on one rank or as the slowest of
// several.
#pragma once

#include <cstdint>

namespace zs::engine {

/// The standard normal quantile: the z with P(Z <= z) = p, for p in (0, 1).
double standard_normal_quantile(double p);

/// How many times as long op `op` of `rank` takes under jitter of coefficient `cv` drawn from `seed`:
/// 1 + cv * max(z, 0). When the rank stands for `members` ranks (collapsed fidelity), z is the largest
/// of `members` independent standard normals (drawn as the quantile of U^(1/members)), since the ranks
/// it stands for synchronize with its groups and the slowest sets the pace. The same inputs give the
/// same factor on every platform.
double op_jitter_factor(double cv, uint64_t seed, uint64_t rank, uint32_t op, uint64_t members);

}  // namespace zs::engine
