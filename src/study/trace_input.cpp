// Reading a trace from whatever file stands for one.
#include "study/trace_input.hpp"

#include <memory>
#include <vector>

#include "core/file_kind.hpp"
#include "core/input_error.hpp"
#include "core/json_object.hpp"
#include "engine/op_duration.hpp"
#include "scenario/scenario_loader.hpp"
#include "scenario/workload_builder.hpp"
#include "study/scenario_simulation.hpp"
#include "workload/trace_json.hpp"

namespace zs::study {
namespace {

/// A plan given for an input that carries its own.
void refuse_plan(const TraceGeneration* generation, const std::string& carrier) {
  if (generation != nullptr && !generation->plan.empty())
    throw core::InputError(
        generation->plan_source, "",
        "a " + carrier + " carries its own plan; " + generation->plan_source + " goes with a model file");
}

/// Each compute op's time on the unit the scenario's placement puts its rank on.
chakra::ComputeTime compute_time_on(std::shared_ptr<const scenario::Scenario> s) {
  auto units = std::make_shared<const std::vector<topology::NodeId>>(
      placement_policy_of(*s)->place({s->trace, s->machine, s->seed}).unit_of_rank);
  return [s, units](uint64_t rank, const workload::ComputeOp& op) {
    return engine::op_duration(s->machine.unit_model(units->at(rank)), op);
  };
}

}  // namespace

TraceInput read_trace_input(const core::FileSource& files, const std::string& path,
                            const TraceGeneration* generation, const std::string& comm_groups) {
  const auto bytes = files.read(path);
  if (!bytes && chakra::chakra_trace_exists(path, files)) {
    refuse_plan(generation, "Chakra trace");
    auto imported = chakra::import_chakra(path, files, comm_groups);
    return {std::move(imported.trace), std::move(imported.report)};
  }
  if (!comm_groups.empty())
    throw core::InputError(comm_groups, "",
                           "a communicator-group file goes with a Chakra trace, and " + path +
                               " is not one (a Chakra trace is named by its prefix, without .<rank>.et)");
  chakra::refuse_rank_file_as_prefix(path, files);
  if (!bytes)
    throw core::InputError(path, "",
                           "cannot read file (missing or unreadable; a Chakra trace is named by its prefix, "
                           "without .<rank>.et)");
  const nlohmann::json doc = workload::parse_trace_document(*bytes, path);
  const auto kind = core::kind_of(doc);
  if (kind == core::FileKind::kScenario) {
    refuse_plan(generation, "scenario");
    auto s = std::make_shared<const scenario::Scenario>(scenario::ScenarioLoader(files).load(path));
    return {s->trace, std::nullopt, compute_time_on(s)};
  }
  if (kind == core::FileKind::kTrace) return {workload::trace_from_json(doc, path), std::nullopt};
  if (kind == core::FileKind::kTransformer && generation != nullptr) {
    core::JsonObject model_json(doc, path, "");
    auto model = workload::TransformerSpec::from_json(model_json);
    const core::JsonObject plan_json(generation->plan, generation->plan_source, "");
    const auto generators = scenario::builtin_workload_generators();
    const auto& generator = scenario::find_workload_generator(generation->generator, plan_json, generators);
    core::ParamReader plan(*generator.params, plan_json);
    // No machine here: a generator that sizes itself to the machine needs its size in the plan.
    auto built =
        generator.make(plan, scenario::GeneratorInputs{&model, files, workload::kMaxGeneratedOps, 0});
    return {std::move(built.trace), std::nullopt};
  }
  throw core::InputError(path, "/kind",
                         generation != nullptr ? "expected a model (\"transformer\") or a \"scenario\""
                                               : "expected a \"trace\" or a \"scenario\"");
}

}  // namespace zs::study
