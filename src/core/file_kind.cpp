// The file kinds' names.
#include "core/file_kind.hpp"

namespace zs::core {

const ChoiceNames<FileKind>& file_kinds() {
  static const ChoiceNames<FileKind> names{{FileKind::kScenario, "scenario"},
                                           {FileKind::kMachine, "machine"},
                                           {FileKind::kTopology, "topology"},
                                           {FileKind::kClusterInventory, "cluster-inventory"},
                                           {FileKind::kTransformer, "transformer"},
                                           {FileKind::kTrace, "trace"},
                                           {FileKind::kComputeUnit, "compute-unit"},
                                           {FileKind::kLink, "link"},
                                           {FileKind::kSwitch, "switch"},
                                           {FileKind::kMemoryPool, "memory-pool"},
                                           {FileKind::kOpticalCircuitSwitch, "optical-circuit-switch"},
                                           {FileKind::kFileSystem, "file-system"},
                                           {FileKind::kSoftwareStack, "software-stack"},
                                           {FileKind::kPlacement, "placement"},
                                           {FileKind::kSweep, "sweep"},
                                           {FileKind::kFailureRates, "failure-rates"},
                                           {FileKind::kExpertHistogram, "expert-histogram"},
                                           {FileKind::kValidation, "validation"},
                                           {FileKind::kPublishedRuns, "published-runs"},
                                           {FileKind::kRegressionSuite, "regression-suite"},
                                           {FileKind::kRegressionBaselines, "regression-baselines"}};
  return names;
}

std::string to_string(FileKind kind) {
  return std::string(file_kinds().name(kind));
}

std::optional<FileKind> parse_file_kind(std::string_view name) {
  return file_kinds().find(name);
}

std::optional<FileKind> kind_of(const nlohmann::json& doc) {
  if (!doc.is_object()) return std::nullopt;
  const auto kind = doc.find("kind");
  if (kind == doc.end() || !kind->is_string()) return std::nullopt;
  return parse_file_kind(kind->get_ref<const std::string&>());
}

}  // namespace zs::core
