// Scenario loading: machine, models, workload generation, policies, resolved configuration.
#include "scenario/scenario_loader.hpp"

#include <stdexcept>

#include "chakra/chakra_import.hpp"
#include "core/file_kind.hpp"
#include "core/json_object.hpp"
#include "core/param_reader.hpp"
#include "policy/policy_catalog.hpp"
#include "scenario/machine_loader.hpp"
#include "scenario/scenario_params.hpp"
#include "scenario/search_section.hpp"
#include "scenario/workload_builder.hpp"
#include "topology/machine_builder.hpp"
#include "topology/optical_circuits.hpp"
#include "workload/trace_json.hpp"
#include "workload/transformer_spec.hpp"

namespace zs::scenario {
namespace {

/// The placement named `name`, or nullptr when the registry has none.
const policy::PlacementRegistry::Entry* placement_entry(const policy::PlacementRegistry& r,
                                                        const std::string& name) {
  try {
    return &r.at(name);
  } catch (const std::out_of_range&) {
    return nullptr;
  }
}

struct LoadedMachine {
  topology::Machine machine;
  nlohmann::json resolved;  ///< the machine as its files say it: {"topology", "models"}, each inlined
  nlohmann::json derived;   ///< what the loader counts or finds: parts, files, inventory nodes left out
};

LoadedMachine load_machine_object(const core::FileSource& files, core::ParamReader& json,
                                  const topology::TopologyGeneratorRegistry& generators, uint64_t max_nodes) {
  core::JsonObject bindings = json.object("models");
  BoundModels bound = load_models(files, bindings);
  json.get<std::string>("topology");
  std::string topo_path;
  nlohmann::json topo_doc = files.read_json_named(json.json(), "topology", topo_path);
  nlohmann::json resolved_topology;
  LoadedMachine out{build_topology_file(files, topo_doc, topo_path, bound.models, generators, max_nodes,
                                        &resolved_topology),
                    {},
                    {}};
  json.finish();
  nlohmann::json included = {{"topology", topo_path}};
  for (const auto& [name, path] : bound.files) included[core::json_pointer_append("models", name)] = path;
  out.derived = {{"files", std::move(included)},
                 {"units", out.machine.unit_count()},
                 {"memory_pools", out.machine.topology.memories().size()},
                 {"switches", out.machine.topology.nodes().size() - out.machine.unit_count() -
                                  out.machine.topology.memories().size()},
                 {"links", out.machine.topology.links().size()},
                 {"optical_switches", out.machine.topology.optical_switches().size()}};
  if (resolved_topology.contains("left_out")) {  // a cluster inventory's nodes the job may not use
    out.derived["left_out"] = std::move(resolved_topology["left_out"]);
    resolved_topology.erase("left_out");
  }
  out.resolved = {{"topology", std::move(resolved_topology)}, {"models", std::move(bound.resolved)}};
  return out;
}

/// A machine file ({"kind": "machine", "description", "topology", "models"}) at `path`, read by `machine`:
/// its description shown with the machine, as a scenario naming the file shows it, and the file derived.
LoadedMachine load_machine_file(const core::FileSource& files, core::ParamReader& machine,
                                const std::string& path,
                                const topology::TopologyGeneratorRegistry& generators, uint64_t max_nodes) {
  machine.get<std::string>("kind");  // the table's constant
  const std::string description = machine.get<std::string>("description");
  LoadedMachine out = load_machine_object(files, machine, generators, max_nodes);
  out.resolved["description"] = description;
  out.derived["file"] = path;
  return out;
}

/// The "machine" of a scenario: an inline object, or the path of a machine file.
LoadedMachine load_machine_section(const core::FileSource& files, core::ParamReader& scenario,
                                   const topology::TopologyGeneratorRegistry& generators,
                                   uint64_t max_nodes) {
  if (!scenario.value("machine").is_string()) {
    core::ParamReader inline_machine = scenario.part("machine");
    return load_machine_object(files, inline_machine, generators, max_nodes);
  }
  std::string path;
  nlohmann::json doc = files.read_json_named(scenario.json(), "machine", path);
  core::ParamReader machine(machine_file_params(), core::JsonObject(doc, path, ""));
  return load_machine_file(files, machine, path, generators, max_nodes);
}

/// The policy name at `key` of `in`, checked by `check` (which throws std::out_of_range naming the known
/// ones).
template <class Check>
std::string policy_name(core::ParamReader& in, const char* key, Check check) {
  std::string name;
  if (in.table().find(key)->kind == core::ParamKind::kText) {
    name = in.get<std::string>(key);
  } else {  // a name, or the object read by its part table
    const nlohmann::json& v = in.value(key);
    if (!v.is_string()) throw in.error(key, "expected a policy name or an object");
    name = v.get<std::string>();
    in.record(key, name);
  }
  try {
    check(name);
  } catch (const std::out_of_range& e) {
    throw in.error(key, e.what());
  }
  return name;
}

/// The placement map file named at "map": {"kind": "placement", "units": [unit name of rank 0, ...]}.
policy::PlacementMap read_placement_map(const core::FileSource& files, core::ParamReader& referrer) {
  referrer.get<std::string>("map");
  std::string path;
  const nlohmann::json doc = files.read_json_named(referrer.json(), "map", path);
  if (!doc.is_object()) throw core::InputError(path, "", "expected a JSON object (a placement map)");
  core::ParamReader o(placement_map_params(), core::JsonObject(doc, path, ""));
  o.get<std::string>("kind");  // the table's constant
  policy::PlacementMap map{path,
                           o.json().strings("units", "an array of unit names, one per rank", "a unit name")};
  o.list("units");
  o.get<std::string>("description");
  o.finish();
  return map;
}

struct RecordedWorkload {
  workload::Trace trace;
  std::string summary;
  nlohmann::json resolved;  ///< the section as the file says it
  nlohmann::json derived;   ///< the files read and what the import found
};

/// A workload replayed from a recorded trace: {"trace": FILE} (zettasim's JSON or CBOR format) or
/// {"chakra": PREFIX} (MLCommons Chakra files PREFIX.<rank>.et), relative to the scenario.
RecordedWorkload load_recorded_workload(const core::FileSource& files, core::JsonObject section) {
  core::ParamReader work(recorded_workload_params(), std::move(section));
  if (work.has("trace") && work.has("chakra"))
    throw work.error("a workload is one of \"generator\", \"trace\" or \"chakra\", not several");
  RecordedWorkload out;
  const bool chakra = work.has("chakra");
  const std::string given = work.need<std::string>(chakra ? "chakra" : "trace", "(a recorded workload)");
  const auto comm_groups = work.find<std::string>("comm_groups");
  if (comm_groups && !chakra)
    throw work.error("comm_groups", "goes with \"chakra\": a zettasim trace names its communicators");
  work.finish();  // every key valid before any file is read
  if (!chakra) {
    std::string file;
    const std::string bytes = files.read_named(work.json(), "trace", file);
    out.trace = workload::trace_from_json(workload::parse_trace_document(bytes, file), file);
    out.trace.origin_file = file;
    out.resolved = {{"trace", given}};
    out.derived = {{"trace_file", file}};
    out.summary = "trace " + out.trace.name + " from " + file;
  } else {
    const std::string prefix = core::resolve_relative(work.file(), given);
    const std::string groups = comm_groups ? core::resolve_relative(work.file(), *comm_groups) : "";
    chakra::ChakraImport imported = chakra::import_chakra(prefix, files, groups);
    out.trace = std::move(imported.trace);
    out.trace.origin_file = work.file();
    out.trace.origin_pointer = work.pointer() + "/chakra";
    out.resolved = {{"chakra", given}};
    if (comm_groups) out.resolved["comm_groups"] = *comm_groups;
    out.derived = {{"chakra_prefix", prefix},
                   {"chakra_version", imported.report.chakra_version},
                   {"zettasim_metadata", imported.report.zettasim_metadata},
                   {"cpu_nodes_skipped", imported.report.cpu_nodes_skipped},
                   {"assumed_bf16", imported.report.assumed_bf16},
                   {"assumed_matrix", imported.report.assumed_matrix},
                   {"measured_durations", imported.report.measured_durations}};
    if (!groups.empty()) out.derived["comm_groups_file"] = groups;
    out.summary = "Chakra trace " + prefix + " (" + std::to_string(imported.report.ranks) + " ranks" +
                  (imported.report.zettasim_metadata ? ", written by zettasim" : "") + ")";
  }
  out.derived["roles"] = out.trace.roles.size();
  out.derived["ranks"] = out.trace.mesh.size();
  return out;
}

/// Each role's stated footprint, for the resolved config (null for roles that state none).
nlohmann::json memory_per_role(const workload::Trace& trace) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& role : trace.roles) {
    if (!role.memory) continue;
    const auto& f = *role.memory;
    // Whole bytes as numbers, one unit for every term, so that a row's terms add up to its total.
    nlohmann::json row = {{"role", role.name},
                          {"total_bytes", f.total().value()},
                          {"weights_bytes", f.weights.value()},
                          {"gradients_bytes", f.gradients.value()},
                          {"optimizer_bytes", f.optimizer.value()},
                          {"activations_bytes", f.activations.value()},
                          {"buffers_bytes", f.buffers.value()}};
    if (f.checkpoint) row["checkpoint_bytes"] = f.checkpoint->value();
    out.push_back(std::move(row));
  }
  return out;
}

/// The files the configuration inlines, by their configuration pointer: the machine's (whose "files" are
/// relative to "/machine"), the workload's model, the reliability section's rates and file system.
nlohmann::json included_files(const Scenario& s, const nlohmann::json& machine_derived,
                              const nlohmann::json& workload_derived) {
  nlohmann::json files = nlohmann::json::object();
  if (machine_derived.contains("file")) files["/machine"] = machine_derived["file"];
  for (const auto& [at, path] : machine_derived.at("files").items()) files["/machine/" + at] = path;
  if (workload_derived.contains("model_file")) files["/workload/model"] = workload_derived["model_file"];
  if (s.reliability) {
    files["/reliability/failure_rates"] = s.reliability->failure_rates_file;
    if (s.reliability->store.file_system)
      files["/reliability/checkpoint/file_system"] = s.reliability->store.file_system_path;
  }
  return files;
}

}  // namespace

nlohmann::json ScenarioLoader::resolved_configuration(const Scenario& s, nlohmann::json machine,
                                                      nlohmann::json machine_derived, nlohmann::json workload,
                                                      nlohmann::json workload_derived,
                                                      nlohmann::json policies) {
  nlohmann::json derived = {{"file", s.file},
                            {"files", included_files(s, machine_derived, workload_derived)}};
  machine_derived.erase("files");
  machine_derived.erase("file");
  derived["machine"] = std::move(machine_derived);
  derived["workload"] = std::move(workload_derived);
  nlohmann::json out = {{"name", s.name},
                        {"description", s.description},
                        {"seed", s.seed},
                        {"fidelity", core::to_string(s.fidelity)}};
  if (!s.plugins.empty()) {
    derived["plugins"] = nlohmann::json::array();
    for (const auto& p : s.plugins) derived["plugins"].push_back({{"name", p.name}, {"file", p.file}});
  }
  out["machine"] = std::move(machine);
  if (s.unit_speed_variation_given)  // recorded even at cv 0, so that a sweep can name its pointer
    out["unit_speed_variation"] = {{"cv", s.unit_speed_variation.cv},
                                   {"op_cv", s.unit_speed_variation.op_cv},
                                   {"source", s.unit_speed_variation.source}};
  if (!s.circuit_reconfigurations.empty()) {
    nlohmann::json events = nlohmann::json::array();
    for (const auto& r : s.circuit_reconfigurations)
      events.push_back({{"at", core::to_string(r.at)},
                        {"optical_switch", s.machine.topology.optical_switches()[r.optical_switch].name},
                        {"circuits", r.circuits}});
    out["circuit_reconfigurations"] = events;
  }
  out["workload"] = std::move(workload);
  if (s.reliability) out["reliability"] = s.reliability->resolved;
  if (s.cost) {
    out["cost"] = s.cost->resolved;
    derived["cost"] = {{"capital_usd_per_hour", s.cost->capital_usd_per_second * 3600.0}};
  }
  out["policies"] = std::move(policies);
  if (s.placement_map) derived["placement_map"] = s.placement_map->file;
  out["derived"] = std::move(derived);
  return out;
}

nlohmann::json ScenarioLoader::read_policies(core::ParamReader& root, Scenario& s) const {
  core::ParamReader policies = root.part("policies");
  nlohmann::json resolved;
  if (policies.value("placement").is_object()) {
    auto p = policies.part("placement");
    s.placement_policy = p.get<std::string>("name");
    const auto* entry = placement_entry(catalog_->policies.placement, s.placement_policy);
    if (entry == nullptr || entry->params == nullptr)
      throw p.error("name",
                    "only a placement that takes options (from-file) is an object; write "
                    "\"placement\": \"" +
                        s.placement_policy + "\"");
    s.placement_map = read_placement_map(files_, p);
    p.finish();
    resolved["placement"] = p.resolved();
  } else {
    s.placement_policy = policy_name(policies, "placement", [this](const std::string& n) {
      const auto& entry = catalog_->policies.placement.at(n);
      if (entry.params != nullptr)  // its options are required: the map of from-file
        throw std::out_of_range("the " + n +
                                " placement is an object with its options: " + entry.description);
    });
    resolved["placement"] = s.placement_policy;
  }
  auto check_collective = [this](const std::string& n) { catalog_->policies.collective.at(n); };
  if (policies.value("collective").is_object()) {
    auto c = policies.part("collective");
    s.collective_policy = policy_name(c, "name", check_collective);
    read_collective_options(c, s);
    c.finish();
    resolved["collective"] = c.resolved();
  } else {
    s.collective_policy = policy_name(policies, "collective", check_collective);
    // A policy given by name alone has every option's declared default, as the object form does.
    const nlohmann::json named = {{"name", s.collective_policy}};
    core::ParamReader c(
        collective_options_params(),
        core::JsonObject(named, s.file, core::json_pointer_append("/policies", "collective")));
    read_collective_options(c, s);
    resolved["collective"] = c.resolved();  // a name alone is the object with every option's default
    resolved["collective"]["name"] = s.collective_policy;
  }
  policies.finish();
  return resolved;
}

void ScenarioLoader::read_collective_options(core::ParamReader& c, Scenario& s) {
  s.collective_options = policy::CollectiveOptions::from_params(c);
  s.machine.step_latency = c.get<bool>("step_latency");
  s.collective_options.protocol = policy::protocol_setting(c.get<std::string>("protocol"));
  s.collective_options.algorithms = policy::algorithm_set(c.get<std::string>("algorithms"));
  const bool low_latency_protocol = s.collective_options.protocol == policy::ProtocolSetting::kLl128 ||
                                    s.collective_options.protocol == policy::ProtocolSetting::kLl;
  if (low_latency_protocol && !s.machine.step_latency)
    throw c.error("protocol",
                  "the LL128 and LL protocols are costed by their links' step latencies; "
                  "set \"step_latency\": true");
}

namespace {

/// The "plugins" list's files, resolved against the scenario's folder.
std::vector<std::string> listed_plugin_files(core::JsonObject& root, const std::string& path) {
  std::vector<std::string> out;
  if (!root.has("plugins")) return out;
  for (const auto& name : root.strings("plugins", "an array of plugin files (PATH.so)", "a plugin file"))
    out.push_back(core::resolve_relative(path, name));
  return out;
}

}  // namespace

std::vector<std::string> scenario_plugin_files(const core::FileSource& files, const std::string& path) {
  nlohmann::json doc = files.read_json(path);
  if (!doc.is_object()) return {};  // the loader says what is wrong with it
  core::JsonObject root(doc, path, "");
  return listed_plugin_files(root, path);
}

void ScenarioLoader::require_listed_plugins(core::ParamReader& root, Scenario& s) const {
  if (!root.has("plugins")) return;
  root.list("plugins");
  const auto listed = listed_plugin_files(root.json(), s.file);
  for (size_t i = 0; i < listed.size(); ++i) {
    const policy::LoadedPlugin* plugin = catalog_->policies.plugin_from(core::absolute_path(listed[i]));
    if (plugin == nullptr)
      throw core::InputError(s.file, root.element_pointer("plugins", i),
                             "plugin \"" + listed[i] +
                                 "\" is not loaded: the front end loads a scenario's plugins before "
                                 "reading it (scenario_plugin_files)");
    s.plugins.push_back(*plugin);
  }
}

Scenario ScenarioLoader::load(const std::string& path) const {
  nlohmann::json doc = files_.read_json(path);
  core::ParamReader root(scenario_params(), core::JsonObject(doc, path, ""));
  root.get<std::string>("kind");  // the table's constant
  Scenario s;
  s.file = path;
  root.get<std::string>("name");
  s.name = root.json().file_name("name");
  s.description = root.get<std::string>("description");
  s.seed = static_cast<uint64_t>(root.get<int64_t>("seed"));
  const std::string fidelity = root.get<std::string>("fidelity");
  const auto parsed = core::parse_fidelity(fidelity);
  if (!parsed)
    throw root.error("fidelity", "expected \"auto\", \"exact\" or \"collapsed\", got \"" + fidelity + "\"");
  s.fidelity = *parsed;
  require_listed_plugins(root, s);

  LoadedMachine machine =
      load_machine_section(files_, root, catalog_->topology_generators, limits_.max_machine_nodes);
  s.machine = std::move(machine.machine);
  s.unit_speed_variation_given = root.has("unit_speed_variation");
  if (s.unit_speed_variation_given) {
    auto section = root.part("unit_speed_variation");
    s.unit_speed_variation = {section.get<double>("cv"), section.get<double>("op_cv"),
                              section.get<std::string>("source")};
    section.finish();
    topology::apply_unit_speed_variation(s.machine, s.unit_speed_variation, s.seed);
  }
  if (root.has("cost")) {
    auto section = root.part("cost");
    s.cost = topology::read_cost_setting(section, s.machine);
    section.finish();
    s.cost->resolved = section.resolved();
  }
  if (root.has("circuit_reconfigurations")) {
    root.list("circuit_reconfigurations");
    s.circuit_reconfigurations =
        topology::read_circuit_reconfigurations(root.json(), "circuit_reconfigurations", s.machine);
  }

  core::JsonObject work = root.object("workload");
  nlohmann::json resolved_workload;
  nlohmann::json derived_workload;
  if (work.has("trace") || work.has("chakra")) {
    RecordedWorkload recorded = load_recorded_workload(files_, work);
    s.trace = std::move(recorded.trace);
    s.workload_summary = recorded.summary;
    resolved_workload = std::move(recorded.resolved);
    derived_workload = std::move(recorded.derived);
  } else {
    GeneratedWorkload generated = load_generated_workload(work, s.machine);
    s.trace = std::move(generated.trace);
    s.workload_summary = generated.summary;
    s.workload_notes = std::move(generated.notes);
    s.megatron = std::move(generated.megatron);
    s.software_stack = std::move(generated.software_stack);
    s.collective_benchmark = generated.benchmark;
    resolved_workload = std::move(generated.resolved);
    derived_workload = std::move(generated.derived);
  }
  const uint64_t ranks = s.trace.mesh.size();
  if (ranks > s.machine.unit_count()) {
    std::string left_out;  // a cluster inventory's nodes a job may not use
    if (machine.derived.contains("left_out") && !machine.derived["left_out"].empty())
      left_out = " usable (" + std::to_string(machine.derived["left_out"].size()) +
                 " nodes of the inventory are left out: drained, down or without GPUs)";
    throw root.error("workload", "the job needs " + std::to_string(ranks) + " units but machine \"" +
                                     s.machine.name + "\" has " + std::to_string(s.machine.unit_count()) +
                                     left_out);
  }
  derived_workload["memory_per_rank"] = memory_per_role(s.trace);
  derived_workload["model_flops_per_iteration"] = core::to_string(s.trace.model_flops);
  derived_workload["tokens_per_iteration"] = s.trace.tokens_per_iteration;

  if (root.has("reliability")) {
    auto section = root.part("reliability");
    s.reliability = read_reliability(section, files_, catalog_->policies);
  }

  const nlohmann::json resolved_policies = read_policies(root, s);
  if (root.has("search")) {
    auto section = root.part("search");
    s.search = search_space(s, catalog_->policies, &section);
    section.finish();
    s.search->resolved = section.resolved();
  }
  root.finish();
  s.resolved =
      resolved_configuration(s, std::move(machine.resolved), std::move(machine.derived),
                             std::move(resolved_workload), std::move(derived_workload), resolved_policies);
  if (root.has("plugins")) s.resolved["plugins"] = root.value("plugins");  // as the file lists them
  if (s.search) s.resolved["search"] = s.search->resolved;
  return s;
}

ScenarioLoader::GeneratedWorkload ScenarioLoader::load_generated_workload(
    core::JsonObject section, const topology::Machine& machine) const {
  core::JsonObject peek(section);  // the generator's table is needed before the section can be read by it
  const std::string generator = peek.string("generator");
  const auto& gen = find_workload_generator(generator, section, catalog_->workload_generators);
  if (gen.params == nullptr)
    throw std::logic_error("workload generator \"" + generator + "\" declares no parameter table");
  const core::ParamTable table = workload_section_params().with(*gen.params);
  core::ParamReader work(table, std::move(section));
  work.get<std::string>("generator");
  std::string model_path;
  std::optional<workload::TransformerSpec> model;
  if (work.find<std::string>("model")) {
    nlohmann::json model_doc = files_.read_json_named(work.json(), "model", model_path);
    core::JsonObject model_json(model_doc, model_path, "");
    model = workload::TransformerSpec::from_json(model_json);
  }
  std::string stack_path;
  std::optional<hw::SoftwareStackModel> stack;
  std::optional<workload::StackCosts> stack_costs;
  if (work.find<std::string>("software_stack")) {
    nlohmann::json stack_doc = files_.read_json_named(work.json(), "software_stack", stack_path);
    core::JsonObject stack_json(stack_doc, stack_path, "");
    stack = hw::SoftwareStackModel::from_json(stack_json);
    stack_costs = workload::StackCosts{stack->per_layer_pass(), stack->per_moe_layer_forward(),
                                       stack->per_step(), stack->per_iteration()};
  }
  BuiltWorkload built =
      gen.make(work, GeneratorInputs{model ? &*model : nullptr, files_, limits_.max_trace_ops,
                                     machine.unit_count(), stack_costs ? &*stack_costs : nullptr});
  const auto& first_unit = machine.unit_model(machine.topology.units().front());
  if (built.state_per_rank > first_unit.hbm_capacity())
    throw core::InputError(
        work.file(), work.pointer(),
        (model ? "model state of " + model->name + " (weights, gradients and optimizer state: "
               : std::string("collective buffers (")) +
            core::display(built.state_per_rank) + " on the most loaded rank) does not fit in the " +
            core::display(first_unit.hbm_capacity()) + " HBM of a \"" + first_unit.name() + "\"");
  GeneratedWorkload out;
  out.trace = std::move(built.trace);
  out.benchmark = built.benchmark;
  workload::validate(out.trace, model ? model_path : work.file());
  out.trace.origin_file = work.file();
  out.trace.origin_pointer = work.pointer();
  out.summary = built.summary;
  out.megatron = std::move(built.megatron);
  out.notes = std::move(built.notes);
  out.resolved = {{"generator", generator}};
  if (model) out.resolved["model"] = model->to_json();
  if (stack) {
    out.resolved["software_stack"] = stack->to_json();  // inlined, as the model is
    out.derived["software_stack_file"] = stack_path;
    out.software_stack = std::move(stack);
  }
  for (const auto& p : gen.params->params())
    if (work.resolved().contains(p.name)) out.resolved[p.name] = work.resolved()[p.name];
  out.derived = built.derived;
  if (model) {
    out.derived["model_file"] = model_path;
    out.derived["params"] = model->total_params();
    out.derived["model_state_per_rank"] = core::to_string(built.state_per_rank);
  } else {
    out.derived["buffers_per_rank"] = core::to_string(built.state_per_rank);
  }
  return out;
}

topology::Machine ScenarioLoader::load_machine(const std::string& path, nlohmann::json* resolved) const {
  nlohmann::json doc = files_.read_json(path);
  core::JsonObject peek(doc, path, "");
  const std::string named = peek.string("kind");
  const auto kind = core::parse_file_kind(named);
  LoadedMachine machine;
  if (kind == core::FileKind::kMachine) {
    core::ParamReader root(machine_file_params(), core::JsonObject(doc, path, ""));
    machine = load_machine_file(files_, root, path, catalog_->topology_generators, limits_.max_machine_nodes);
  } else if (kind == core::FileKind::kScenario) {
    // The rest of the scenario is not checked here.
    core::ParamReader root(scenario_params(), core::JsonObject(doc, path, ""));
    machine = load_machine_section(files_, root, catalog_->topology_generators, limits_.max_machine_nodes);
  } else {
    throw peek.error("kind", "expected a machine or a scenario file, got kind \"" + named + "\"");
  }
  if (resolved) {
    *resolved = machine.resolved;
    (*resolved)["derived"] = machine.derived;
  }
  return std::move(machine.machine);
}

}  // namespace zs::scenario
