// The report of `zettasim place`: each placement's traffic, hops and hop-bytes per communicator.
#pragma once

#include <string>
#include <vector>

#include "scenario/scenario.hpp"
#include "study/placement_study.hpp"

namespace zs::output {

std::string placement_report(const scenario::Scenario& s, const std::vector<study::PlacementStudy>& studies);

}  // namespace zs::output
