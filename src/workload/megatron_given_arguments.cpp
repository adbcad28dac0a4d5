// The flags a Megatron-LM argument list gives: each once, read as whole numbers or numbers.
#include "workload/megatron_given_arguments.hpp"

#include <charconv>
#include <cmath>
#include <stdexcept>

namespace zs::workload::megatron {

void GivenArguments::add(const std::string& flag, const std::string& value) {
  if (!values_.emplace(flag, value).second) throw error(flag, "is given twice");
}

const std::string& GivenArguments::value(std::string_view flag) const {
  return values_.find(flag)->second;
}

uint32_t GivenArguments::count(std::string_view flag, uint32_t min) const {
  const std::string& v = value(flag);
  uint32_t n = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (ec != std::errc() || end != v.data() + v.size() || n < min)
    throw error(flag, "expects a whole number of at least " + std::to_string(min) + ", got \"" + v + "\"");
  return n;
}

double GivenArguments::number(std::string_view flag) const {
  const std::string& v = value(flag);
  size_t used = 0;
  double x = 0;
  try {
    x = std::stod(v, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != v.size() || !std::isfinite(x))
    throw error(flag, "expects a number, got \"" + v + "\"");
  return x;
}

core::InputError GivenArguments::error(std::string_view flag, const std::string& message) const {
  return error(std::string(flag) + " " + message);
}

core::InputError GivenArguments::error(const std::string& message) const {
  return core::InputError(file_, pointer_, message);
}

}  // namespace zs::workload::megatron
