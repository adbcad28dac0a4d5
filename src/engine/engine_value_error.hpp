// The error for a quantity the engine derives that no double, or no SimGrid activity, can represent.
#pragma once

#include <stdexcept>
#include <string>

namespace zs::engine {

/// Raised when in-range inputs combine into a quantity the engine cannot simulate (an infinite or NaN
/// duration, a payload beyond 2^63 bytes): the front ends report it in one line, exit code 2, instead of
/// letting SimGrid abort or a NaN reach the results.
class EngineValueError : public std::range_error {
 public:
  using std::range_error::range_error;
};

/// `value` when it is finite, at least 0 and at most `limit`; otherwise throws EngineValueError saying
/// which quantity (`what`, with its unit) it was.
double checked_engine_value(double value, const std::string& what, double limit = 1e300);

}  // namespace zs::engine
