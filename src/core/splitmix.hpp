// SplitMix64's finalizer: a well-mixed, platform-independent 64-bit hash for deterministic choices.
#pragma once

#include <cstdint>

namespace zs::core {

/// Mixes x into a well-distributed 64-bit value (Steele, Lea and Flood 2014); the same on every platform.
inline uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace zs::core
