// The flags a Megatron-LM argument list gives, read by the rules with errors that name the list's place.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "core/input_error.hpp"

namespace zs::workload::megatron {

/// The flags an argument list gives, by name, and where the list is (for its errors).
class GivenArguments {
 public:
  GivenArguments(std::string file, std::string pointer)
      : file_(std::move(file)), pointer_(std::move(pointer)) {}

  /// Records `flag` (its value empty for a switch); a flag given twice is an input error.
  void add(const std::string& flag, const std::string& value);
  bool has(std::string_view flag) const { return values_.count(flag) != 0; }
  /// The flag's value ("" for a switch); the flag must be given.
  const std::string& value(std::string_view flag) const;
  /// The flag's value as a whole number of at least `min`, else an input error naming it.
  uint32_t count(std::string_view flag, uint32_t min = 1) const;
  /// The flag's value as a number, else an input error naming it.
  double number(std::string_view flag) const;
  core::InputError error(std::string_view flag, const std::string& message) const;
  core::InputError error(const std::string& message) const;

 private:
  std::map<std::string, std::string, std::less<>> values_;
  std::string file_;
  std::string pointer_;
};

}  // namespace zs::workload::megatron
