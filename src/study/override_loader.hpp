// Loads a validation's scenario with the what-if values `zettasim validate --set` sets in every one.
#pragma once

#include <string>
#include <vector>

#include "core/file_source.hpp"
#include "core/input_error.hpp"
#include "scenario/run_override.hpp"
#include "scenario/scenario.hpp"

namespace zs::study {

/// An override that cannot be set: the command's error, not one run's (a run that fails on its own is
/// reported as a failed row; this stops the whole validation).
class OverrideError : public core::InputError {
 public:
  using core::InputError::InputError;
};

/// The scenario at `path` with every override set where its pointer leads (ScenarioPatch). `label` names
/// the run or row in messages ("run gpt3-175b-h100-1024"). A pointer that leads nowhere, a scenario the
/// overrides make invalid, or a number or switch the loaded scenario does not hold as set, is an
/// OverrideError; a scenario that fails without the overrides throws its own InputError.
scenario::Scenario load_with_overrides(const core::FileSource& files, const std::string& path,
                                       const std::vector<scenario::RunOverride>& overrides,
                                       const std::string& label);

}  // namespace zs::study
