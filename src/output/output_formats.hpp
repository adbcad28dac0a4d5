// The formats of the single files zettasim writes, each with the marker that tells a file zettasim wrote.
#pragma once

#include <string>
#include <vector>

#include "core/output_file.hpp"

namespace zs::output {

/// What a single output file holds.
enum class OutputFormat {
  kTimeline,    ///< trace-event JSON (run and goodput --timeline): otherData.zettasim_version
  kTimeSeries,  ///< HDF5 (--timeseries): a zettasim_version attribute and a time_s dataset
  kTrace,       ///< zettasim's trace JSON or CBOR (trace gen --out): "kind": "trace"
  kGraph,       ///< DOT or GraphML (topo --graph): a first comment "written by zettasim"
  kJunit,       ///< JUnit XML (regress --junit): a first comment "written by zettasim"
  kBaselines,   ///< a regression suite's baselines: "kind": "regression-baselines"
  kSweepHdf5,   ///< a sweep's results: a zettasim_version attribute and a points dataset
  kSweepCsv,    ///< a sweep's table: a header "point,...,status,error,..."
};

/// The words every text output's marker comment holds (a graph's or JUnit file's first comment).
inline constexpr const char* kWrittenByZettasim = "written by zettasim";

/// `path` as an output of `format`, named by `option` in messages: its recogniser, the replace rule
/// (--force given or not) and the command's inputs, which it never replaces (core::OutputFile).
core::OutputFile output_file(OutputFormat format, std::string option, const std::string& path, bool force,
                             std::vector<std::string> inputs = {});

/// Whether `path` is an HDF5 file with a zettasim_version attribute and a link named `link`.
bool is_zettasim_hdf5(const std::string& path, const char* link);

}  // namespace zs::output
