// A sweep's results as one table: a row per point, a column per axis and per scalar of summary.json.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scenario/sweep_plan.hpp"

namespace zs::output {

/// One column: all its cells are of one type.
struct SweepColumn {
  enum class Type { kInteger, kReal, kText };
  std::string name;  ///< with its unit as a suffix, as summary.json writes it ("iteration_time_s")
  Type type = Type::kReal;
  std::string doc;                 ///< where the values come from, with the unit
  std::vector<int64_t> integers;   ///< kInteger
  std::vector<double> reals;       ///< kReal (NaN where a point has no value)
  std::vector<std::string> texts;  ///< kText ("" where a point has no value)
};

/// The table, the resolved configuration and summary of each point (JSON text, "" when it has none).
struct SweepTable {
  std::vector<SweepColumn> columns;
  std::vector<std::string> configs;
  std::vector<std::string> summaries;
  size_t rows() const { return configs.size(); }
};

/// The table of `records` (one per point of `plan`, in point order): "point", the axes (quantities as
/// numbers in SI units, the unit in the name), "status", "error", then every scalar of summary.json
/// that any point has, nested keys joined with '.', in the order summary.json lists them.
SweepTable sweep_table(const scenario::SweepPlan& plan, const std::vector<nlohmann::json>& records);

/// The table as CSV (RFC 4180), a header line then one line per point.
std::string sweep_csv(const SweepTable& table);

/// Writes the table as HDF5 at `path`, atomically (a temporary file renamed over it): the compound
/// dataset "points", the string datasets "configs" and "summaries", and the attributes "schema" (the
/// columns with their types and docs, JSON), "spec", "sweep_file", "base_scenario", "name" and
/// "zettasim_version". Throws std::runtime_error when it cannot be written.
void write_sweep_hdf5(const std::string& path, const scenario::SweepPlan& plan, const SweepTable& table);

}  // namespace zs::output
