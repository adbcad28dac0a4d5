// Recognising each output format zettasim writes by its own marker.
#include "output/output_formats.hpp"

#include <fstream>

#include <hdf5.h>

#include "core/file_kind.hpp"
#include "core/file_source.hpp"
#include "core/input_error.hpp"
#include "workload/trace_json.hpp"

namespace zs::output {
namespace fs = std::filesystem;
namespace {

/// A JSON (or CBOR trace) document's top-level "kind", or none when it is not such a document. Reads the
/// whole file: only called on a file that already lies where an output goes.
std::optional<core::FileKind> document_kind(const fs::path& path) {
  const auto text = core::DiskFileSource().read(path.string());
  if (!text) return std::nullopt;
  try {
    return core::kind_of(workload::parse_trace_document(*text, path.string()));
  } catch (const core::InputError&) {
    return std::nullopt;
  }
}

bool is_sweep_csv(const fs::path& path) {
  std::ifstream in(path);
  std::string header;
  std::getline(in, header);
  return header.rfind("point,", 0) == 0 && header.find(",status,error") != std::string::npos;
}

bool has_marker_comment(const fs::path& path) {
  const std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- ";
  return core::starts_with_text(path, std::string("// ") + kWrittenByZettasim) ||
         core::starts_with_text(path, xml + kWrittenByZettasim);
}

struct FormatInfo {
  const char* name;
  core::OwnOutputTest ours;
};

FormatInfo info(OutputFormat format) {
  switch (format) {
    case OutputFormat::kTimeline:
      return {"a timeline", &core::is_zettasim_trace_events};
    case OutputFormat::kTimeSeries:
      return {"a time series", [](const fs::path& p) { return is_zettasim_hdf5(p.string(), "time_s"); }};
    case OutputFormat::kTrace:
      return {"a trace", [](const fs::path& p) { return document_kind(p) == core::FileKind::kTrace; }};
    case OutputFormat::kGraph:
      return {"a graph", &has_marker_comment};
    case OutputFormat::kJunit:
      return {"a JUnit report", &has_marker_comment};
    case OutputFormat::kBaselines:
      return {"a baselines file",
              [](const fs::path& p) { return document_kind(p) == core::FileKind::kRegressionBaselines; }};
    case OutputFormat::kSweepHdf5:
      return {"a sweep's results", [](const fs::path& p) { return is_zettasim_hdf5(p.string(), "points"); }};
    case OutputFormat::kSweepCsv:
      return {"a sweep table", &is_sweep_csv};
  }
  throw std::logic_error("output_file: unknown format");
}

}  // namespace

core::OutputFile output_file(OutputFormat format, std::string option, const std::string& path, bool force,
                             std::vector<std::string> inputs) {
  FormatInfo i = info(format);
  return {std::move(option),
          path,
          i.name,
          std::move(i.ours),
          force ? core::Replace::kForce : core::Replace::kOwnOutput,
          std::move(inputs)};
}

bool is_zettasim_hdf5(const std::string& path, const char* link) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  if (H5Fis_hdf5(path.c_str()) <= 0) return false;
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) return false;
  const bool ours = H5Aexists(file, "zettasim_version") > 0 && H5Lexists(file, link, H5P_DEFAULT) > 0;
  H5Fclose(file);
  return ours;
}

}  // namespace zs::output
