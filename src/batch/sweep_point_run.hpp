// Runs one point of a sweep in this process and records its result.
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

#include "core/file_source.hpp"
#include "scenario/sweep_plan.hpp"

namespace zs::batch {

/// The record of point `index`: {"point", "status": "ok", "summary", "config"} when it ran, or
/// {"point", "status": "invalid", "error"} when its scenario is refused (the error's one line). `catalog`
/// holds the plan's plugins.
nlohmann::json run_sweep_point(const core::FileSource& files, const scenario::SweepPlan& plan, uint64_t index,
                               const scenario::LoadLimits& limits = {},
                               const scenario::Catalog& catalog = scenario::Catalog());

}  // namespace zs::batch
