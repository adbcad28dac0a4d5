// A goodput study's first seed as a timeline: its failures and what each did to the job, over the horizon.
#pragma once

#include <string>

#include "scenario/scenario.hpp"
#include "study/goodput_study.hpp"

namespace zs::output {

/// Trace Event Format JSON: one process for the job over the horizon (simulated µs), one track per failing
/// component kind, an instant event per interruption of the first seed (component, instance, action).
std::string goodput_timeline_json(const scenario::Scenario& s, const study::GoodputStudy& g);

}  // namespace zs::output
