// A value that a what-if sets in every scenario of a validation before it runs.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace zs::scenario {

/// A value set in every run's or row's scenario (`zettasim validate --set POINTER=VALUE`): a what-if over
/// the table.
struct RunOverride {
  std::string pointer;  ///< JSON pointer into a scenario's resolved configuration, as config.json shows it
  nlohmann::json value;
};

}  // namespace zs::scenario
