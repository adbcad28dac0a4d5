// The from-file placement: an explicit rank-to-unit map, as a user gives for a real cluster.
#pragma once

#include <string>
#include <vector>

#include "core/param_table.hpp"
#include "policy/placement/placement_policy.hpp"

namespace zs::policy {

/// Rank r runs on the unit named unit_names[r]. `file` names the map in errors (a name that is not a
/// unit of the machine, a unit given twice, a map whose length is not the number of ranks).
class FilePlacement final : public PlacementPolicy {
 public:
  FilePlacement(std::vector<std::string> unit_names, std::string file)
      : unit_names_(std::move(unit_names)), file_(std::move(file)) {}
  std::string_view name() const override { return "from-file"; }
  /// Its key, declared once (type "placement.from-file"): "map", the placement map file.
  static const core::ParamTable& params();
  Placement place(const PlacementRequest& request) const override;

 private:
  std::vector<std::string> unit_names_;
  std::string file_;
};

}  // namespace zs::policy
