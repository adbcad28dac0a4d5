// SplitMix64: a well-mixed, platform-independent 64-bit hash, and the random stream built on it.
#pragma once

#include <cmath>
#include <cstdint>

namespace zs::core {

/// Mixes x into a well-distributed 64-bit value (Steele, Lea and Flood 2014); the same on every platform.
inline uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/// A seeded random stream that gives the same numbers on every platform (std's distributions do not).
class SplitMixStream {
 public:
  explicit SplitMixStream(uint64_t seed) : state_(seed) {}
  uint64_t next() { return splitmix64(state_ += 0x9e3779b97f4a7c15ull); }
  /// Uniform in (0, 1), 53 bits.
  double uniform() { return (static_cast<double>(next() >> 11) + 0.5) * 0x1.0p-53; }
  /// -ln(U): an exponential of mean 1.
  double exponential() { return -std::log(uniform()); }

 private:
  uint64_t state_;
};

}  // namespace zs::core
