// The mapping between Megatron-LM's arguments and a job's plan and model keys, declared once: each rule
// owns its flags, writes them from a job and reads them back into plan keys.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/input_error.hpp"
#include "workload/megatron_arguments.hpp"

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

/// One flag a rule owns.
struct Flag {
  const char* name;
  bool takes_value;
  /// For a model rule's flag with a value: what its absence means for `model` (Megatron-LM's default);
  /// none: the model's file supplies it, so that it may be left out. A switch left out is off.
  std::function<std::optional<std::string>(const TransformerSpec& model)> absent = nullptr;
  /// The form two values are compared in (nullptr: as numbers where both are, else as written).
  std::string (*canonical)(const std::string& value) = nullptr;
  /// A value that differs from the model's is listed as ignored (with `lenient`'s reason), not refused.
  const char* lenient = nullptr;
};

/// How a job becomes the rule's flags, and the flags plan keys.
struct Rule {
  std::vector<Flag> flags;
  void (*write)(const MegatronJob& job, MegatronCommand& out);
  /// Sets the plan keys the flags stand for (Megatron-LM's default where they are left out); nullptr: a
  /// model rule, whose flags are checked against the model's file by writing it.
  void (*read)(const GivenArguments& given, const TransformerSpec& model, nlohmann::json& plan);
};

/// Every rule, in the order the arguments are written: the plan's, then the model's.
const std::vector<Rule>& rules();

/// A flag accepted and left out of the model, or refused, with why.
struct FlagNote {
  const char* name;
  const char* why;
};

/// Megatron-LM's flags that do not change an iteration's time as zettasim models it (a value follows unless
/// the next word is a flag).
const std::vector<FlagNote>& ignored_flags();
/// Megatron-LM's flags that change the job in ways zettasim does not model: refused by name.
const std::vector<FlagNote>& unmodelled_flags();
/// Older spellings read as the flag and value they stand for: {alias, flag, value}.
struct FlagAlias {
  const char* alias;
  const char* flag;
  const char* value;
};
const std::vector<FlagAlias>& flag_aliases();

}  // namespace zs::workload::megatron
