// The kinds of file zettasim reads and writes ("kind": NAME at the top of each), a closed set declared once.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/choice_names.hpp"

namespace zs::core {

enum class FileKind {
  kScenario,
  kMachine,
  kTopology,
  kClusterInventory,
  kTransformer,
  kTrace,
  kComputeUnit,
  kLink,
  kSwitch,
  kMemoryPool,
  kOpticalCircuitSwitch,
  kFileSystem,
  kSoftwareStack,
  kPlacement,
  kSweep,
  kFailureRates,
  kExpertHistogram,
  kValidation,
  kPublishedRuns,
  kRegressionSuite,
  kRegressionBaselines,
};

/// Every kind with its name as files write it ("cluster-inventory").
const ChoiceNames<FileKind>& file_kinds();
std::string to_string(FileKind kind);
/// The kind `doc` declares: its "kind" string when that names a kind; none for anything else (no object,
/// no "kind", not a string, an unknown name).
std::optional<FileKind> kind_of(const nlohmann::json& doc);
/// The kind named `name`, or none.
std::optional<FileKind> parse_file_kind(std::string_view name);

}  // namespace zs::core
