// The mapping between Megatron-LM's arguments and a job's plan and model keys, declared once: each rule
// owns its flags, writes them from a job and reads them back into plan keys.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "workload/megatron_arguments.hpp"
#include "workload/megatron_given_arguments.hpp"

namespace zs::workload::megatron {

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

}  // namespace zs::workload::megatron
