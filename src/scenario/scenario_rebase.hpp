// A scenario file moved to another folder: the paths it names rewritten to lead to the same files.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace zs::scenario {

/// `scenario` (a scenario file's JSON as read from `from_file`) with every relative path it names (the
/// machine file, or an inline machine's topology and model files; the workload's model, software stack,
/// routing histogram, trace or Chakra prefix; the reliability section's failure rates and file-system
/// models; plugins; a placement map) rewritten relative to folder `to_folder`, so that the same files load
/// from a copy written there. Absolute paths stay as written.
nlohmann::json rebased_scenario(nlohmann::json scenario, const std::string& from_file,
                                const std::string& to_folder);

}  // namespace zs::scenario
