// The `run --timeline*` options checked and turned into what the timeline writer takes.
#pragma once

#include "cli/commands.hpp"
#include "output/timeline_json.hpp"
#include "workload/mesh.hpp"

namespace zs::cli {

/// Throws core::InputError naming the option for a bad selection, window or size.
output::TimelineOptions timeline_options(const TimelineRequest& request, const workload::Mesh& mesh);

}  // namespace zs::cli
