// Scenario loading: machine, models, workload generation, policies, resolved configuration.
#include "scenario/scenario_loader.hpp"

#include <stdexcept>

#include "chakra/chakra_import.hpp"
#include "core/json_object.hpp"
#include "policy/policy_catalog.hpp"
#include "scenario/workload_builder.hpp"
#include "topology/machine_builder.hpp"
#include "topology/optical_circuits.hpp"
#include "workload/trace_json.hpp"
#include "workload/transformer_spec.hpp"

namespace zs::scenario {
namespace {

struct LoadedMachine {
  topology::Machine machine;
  nlohmann::json resolved;
};

LoadedMachine load_machine_object(const core::FileSource& files, core::JsonObject& json,
                                  const topology::TopologyGeneratorRegistry& generators, uint64_t max_nodes) {
  topology::ModelSet models;
  nlohmann::json resolved_models = nlohmann::json::object();
  core::JsonObject bindings = json.object("models");
  for (const auto& name : bindings.keys()) {
    std::string path;
    nlohmann::json doc = files.read_json_named(bindings, name, path);
    core::JsonObject model(doc, path, "");
    std::string kind = model.string("kind");
    if (kind == "compute-unit") {
      auto m = hw::ComputeUnitModel::from_json(model);
      resolved_models[name] = m.to_json();
      models.units.emplace(name, std::move(m));
    } else if (kind == "link") {
      auto m = hw::LinkModel::from_json(model);
      resolved_models[name] = m.to_json();
      models.links.emplace(name, std::move(m));
    } else if (kind == "memory-pool") {
      auto m = hw::MemoryPoolModel::from_json(model);
      resolved_models[name] = m.to_json();
      models.memories.emplace(name, std::move(m));
    } else if (kind == "switch") {
      auto m = hw::SwitchModel::from_json(model);
      resolved_models[name] = m.to_json();
      models.switches.emplace(name, std::move(m));
    } else if (kind == "optical-circuit-switch") {
      auto m = hw::OpticalSwitchModel::from_json(model);
      resolved_models[name] = m.to_json();
      models.optical_switches.emplace(name, std::move(m));
    } else {
      throw model.error("kind",
                        "unknown model kind \"" + kind +
                            "\" (known: compute-unit, link, memory-pool, switch, optical-circuit-switch)");
    }
  }
  bindings.finish();

  std::string topo_path;
  nlohmann::json topo_doc = files.read_json_named(json, "topology", topo_path);
  core::JsonObject topo(topo_doc, topo_path, "");
  nlohmann::json resolved_topology;
  LoadedMachine out{topology::build_machine(topo, models, generators, max_nodes, &resolved_topology), {}};
  json.finish();
  out.resolved = {{"topology", std::move(resolved_topology)},
                  {"topology_file", topo_path},
                  {"models", resolved_models},
                  {"units", out.machine.unit_count()},
                  {"memory_pools", out.machine.topology.memories().size()},
                  {"switches", out.machine.topology.nodes().size() - out.machine.unit_count() -
                                   out.machine.topology.memories().size()},
                  {"links", out.machine.topology.links().size()},
                  {"optical_switches", out.machine.topology.optical_switches().size()}};
  return out;
}

/// The "machine" of a scenario: an inline object, or the path of a machine file.
LoadedMachine load_machine_section(const core::FileSource& files, core::JsonObject& scenario,
                                   const topology::TopologyGeneratorRegistry& generators,
                                   uint64_t max_nodes) {
  const auto& value = scenario.required("machine");
  if (!value.is_string()) {
    core::JsonObject inline_machine = scenario.object("machine");
    return load_machine_object(files, inline_machine, generators, max_nodes);
  }
  std::string path;
  nlohmann::json doc = files.read_json_named(scenario, "machine", path);
  core::JsonObject machine(doc, path, "");
  if (machine.string("kind") != "machine")
    throw machine.error("kind", "expected \"machine\" for a machine file");
  machine.optional_string("description");
  return load_machine_object(files, machine, generators, max_nodes);
}

template <class Check>
std::string policy_name(core::JsonObject& policies, const char* key, Check check) {
  std::string name = policies.string(key);
  try {
    check(name);
  } catch (const std::out_of_range& e) {
    throw policies.error(key, e.what());
  }
  return name;
}

/// The placement map file named at `key`: {"kind": "placement", "units": [unit name of rank 0, ...]}.
policy::PlacementMap read_placement_map(const core::FileSource& files, core::JsonObject& referrer,
                                        std::string_view key) {
  std::string path;
  const nlohmann::json doc = files.read_json_named(referrer, key, path);
  if (!doc.is_object()) throw core::InputError(path, "", "expected a JSON object (a placement map)");
  core::JsonObject o(doc, path, "");
  if (o.string("kind") != "placement") throw o.error("kind", "expected \"placement\"");
  policy::PlacementMap map{path, o.strings("units", "an array of unit names, one per rank", "a unit name")};
  o.optional_string("description");
  o.finish();
  return map;
}

struct RecordedWorkload {
  workload::Trace trace;
  std::string summary;
  nlohmann::json resolved;
};

/// A workload replayed from a recorded trace: {"trace": FILE} (zettasim's JSON or CBOR format) or
/// {"chakra": PREFIX} (MLCommons Chakra files PREFIX.<rank>.et), relative to the scenario.
RecordedWorkload load_recorded_workload(const core::FileSource& files, core::JsonObject& work) {
  if (work.has("trace") && work.has("chakra"))
    throw work.error("a workload is one of \"generator\", \"trace\" or \"chakra\", not several");
  if (work.has("generator"))
    throw work.error("generator", "a recorded workload (\"trace\" or \"chakra\") takes no generator");
  RecordedWorkload out;
  const bool chakra = work.has("chakra");
  work.required(chakra ? "chakra" : "trace");
  work.finish();  // every key valid before any file is read
  if (!chakra) {
    std::string file;
    const std::string bytes = files.read_named(work, "trace", file);
    out.trace = workload::trace_from_json(workload::parse_trace_document(bytes, file), file);
    out.trace.origin_file = file;
    out.resolved = {{"trace_file", file}};
    out.summary = "trace " + out.trace.name + " from " + file;
  } else {
    const std::string prefix = core::resolve_relative(work.file(), work.string("chakra"));
    chakra::ChakraImport imported = chakra::import_chakra(prefix, files);
    out.trace = std::move(imported.trace);
    out.trace.origin_file = work.file();
    out.trace.origin_pointer = work.pointer() + "/chakra";
    out.resolved = {{"chakra_prefix", prefix},
                    {"chakra_version", imported.report.chakra_version},
                    {"zettasim_metadata", imported.report.zettasim_metadata},
                    {"cpu_nodes_skipped", imported.report.cpu_nodes_skipped},
                    {"assumed_bf16_matrix", imported.report.assumed_bf16_matrix},
                    {"measured_durations", imported.report.measured_durations}};
    out.summary = "Chakra trace " + prefix + " (" + std::to_string(imported.report.ranks) + " ranks" +
                  (imported.report.zettasim_metadata ? ", written by zettasim" : "") + ")";
  }
  out.resolved["roles"] = out.trace.roles.size();
  out.resolved["ranks"] = out.trace.mesh.size();
  return out;
}

/// Each role's stated footprint, for the resolved config (null for roles that state none).
nlohmann::json memory_per_role(const workload::Trace& trace) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& role : trace.roles) {
    if (!role.memory) continue;
    const auto& f = *role.memory;
    out.push_back({{"role", role.name},
                   {"total", core::to_string(f.total())},
                   {"weights", core::to_string(f.weights)},
                   {"gradients", core::to_string(f.gradients)},
                   {"optimizer", core::to_string(f.optimizer)},
                   {"activations", core::to_string(f.activations)},
                   {"buffers", core::to_string(f.buffers)}});
  }
  return out;
}

}  // namespace

void ScenarioLoader::read_policies(core::JsonObject& root, Scenario& s) const {
  core::JsonObject policies = root.object("policies");
  if (const auto* placement = policies.optional("placement");
      placement != nullptr && placement->is_object()) {
    auto p = policies.object("placement");
    s.placement_policy = p.string("name");
    if (s.placement_policy != "from-file")
      throw p.error("name", "only the \"from-file\" placement takes an object; write \"placement\": \"" +
                                s.placement_policy + "\"");
    s.placement_map = read_placement_map(files_, p, "map");
    p.finish();
  } else {
    s.placement_policy = policy_name(policies, "placement", [this](const std::string& n) {
      if (n == "from-file")
        throw std::out_of_range(
            "the from-file placement is an object: {\"name\": \"from-file\", \"map\": FILE}");
      catalog_->policies.placement.at(n);
    });
  }
  auto check_collective = [this](const std::string& n) { catalog_->policies.collective.at(n); };
  if (const auto* collective = policies.optional("collective");
      collective != nullptr && collective->is_object()) {
    auto c = policies.object("collective");
    s.collective_policy = policy_name(c, "name", check_collective);
    if (c.has("chunk")) s.collective_options.chunk = c.bytes("chunk");
    if (c.has("max_chunks"))
      s.collective_options.max_chunks = static_cast<uint32_t>(c.integer("max_chunks", 1, 4096));
    c.finish();
  } else {
    s.collective_policy = policy_name(policies, "collective", check_collective);
  }
  policies.finish();
}

Scenario ScenarioLoader::load(const std::string& path) const {
  nlohmann::json doc = files_.read_json(path);
  core::JsonObject root(doc, path, "");
  if (root.string("kind") != "scenario")
    throw root.error("kind", "expected \"scenario\" for a scenario file");
  Scenario s;
  s.file = path;
  s.name = root.file_name("name");
  s.description = root.optional_string("description").value_or("");
  s.seed = static_cast<uint64_t>(root.integer_or("seed", 1, 0, INT64_MAX));
  const std::string fidelity = root.optional_string("fidelity").value_or("auto");
  const auto parsed = core::parse_fidelity(fidelity);
  if (!parsed)
    throw root.error("fidelity", "expected \"auto\", \"exact\" or \"collapsed\", got \"" + fidelity + "\"");
  s.fidelity = *parsed;

  LoadedMachine machine =
      load_machine_section(files_, root, catalog_->topology_generators, limits_.max_machine_nodes);
  s.machine = std::move(machine.machine);
  s.circuit_reconfigurations =
      topology::read_circuit_reconfigurations(root, "circuit_reconfigurations", s.machine);

  core::JsonObject work = root.object("workload");
  nlohmann::json resolved_workload;
  if (work.has("trace") || work.has("chakra")) {
    RecordedWorkload recorded = load_recorded_workload(files_, work);
    s.trace = std::move(recorded.trace);
    s.workload_summary = recorded.summary;
    resolved_workload = std::move(recorded.resolved);
  } else {
    std::string generator = work.string("generator");
    std::string model_path;
    nlohmann::json model_doc = files_.read_json_named(work, "model", model_path);
    core::JsonObject model_json(model_doc, model_path, "");
    auto model = workload::TransformerSpec::from_json(model_json);
    BuiltWorkload built =
        build_workload(generator, work, model, files_, catalog_->workload_generators, limits_.max_trace_ops);
    work.finish();
    const auto& first_unit = s.machine.unit_model(s.machine.topology.units().front());
    if (built.state_per_rank > first_unit.hbm_capacity())
      throw root.error("workload", "model state of " + model.name +
                                       " (16 B/param: " + core::display(built.state_per_rank) +
                                       " on the most loaded rank) does not fit in the " +
                                       core::display(first_unit.hbm_capacity()) + " HBM of a \"" +
                                       first_unit.name() + "\"");
    s.trace = std::move(built.trace);
    workload::validate(s.trace, model_path);
    s.trace.origin_file = path;
    s.trace.origin_pointer = work.pointer();
    s.workload_summary = built.summary;
    resolved_workload = {
        {"generator", generator},         {"model", model.to_json()},
        {"model_file", model_path},       {"plan", built.plan},
        {"params", model.total_params()}, {"model_state_per_rank", core::to_string(built.state_per_rank)}};
  }
  const uint64_t ranks = s.trace.mesh.size();
  if (ranks > s.machine.unit_count())
    throw root.error("workload", "the job needs " + std::to_string(ranks) + " units but machine \"" +
                                     s.machine.name + "\" has " + std::to_string(s.machine.unit_count()));
  resolved_workload["memory_per_rank"] = memory_per_role(s.trace);
  resolved_workload["model_flops_per_iteration"] = core::to_string(s.trace.model_flops);
  resolved_workload["tokens_per_iteration"] = s.trace.tokens_per_iteration;

  if (root.has("reliability")) {
    auto section = root.object("reliability");
    s.reliability = read_reliability(section, files_, catalog_->policies.checkpoint_rule);
  }

  read_policies(root, s);
  root.finish();

  s.resolved = {{"scenario",
                 {{"name", s.name},
                  {"description", s.description},
                  {"file", s.file},
                  {"seed", s.seed},
                  {"fidelity", core::to_string(s.fidelity)}}},
                {"machine", machine.resolved},
                {"workload", resolved_workload},
                {"policies",
                 {{"placement", s.placement_policy},
                  {"collective", s.collective_policy},
                  {"collective_chunk", core::to_string(s.collective_options.chunk)},
                  {"collective_max_chunks", s.collective_options.max_chunks}}}};
  if (s.placement_map) s.resolved["policies"]["placement_map"] = s.placement_map->file;
  if (s.reliability) s.resolved["reliability"] = s.reliability->resolved;
  if (!s.circuit_reconfigurations.empty()) {
    nlohmann::json events = nlohmann::json::array();
    for (const auto& r : s.circuit_reconfigurations)
      events.push_back({{"at", core::to_string(r.at)},
                        {"optical_switch", s.machine.topology.optical_switches()[r.optical_switch].name},
                        {"circuits", r.circuits}});
    s.resolved["circuit_reconfigurations"] = events;
  }
  return s;
}

topology::Machine ScenarioLoader::load_machine(const std::string& path, nlohmann::json* resolved) const {
  nlohmann::json doc = files_.read_json(path);
  core::JsonObject root(doc, path, "");
  std::string kind = root.string("kind");
  LoadedMachine machine;
  if (kind == "machine") {
    root.optional_string("description");
    machine = load_machine_object(files_, root, catalog_->topology_generators, limits_.max_machine_nodes);
  } else if (kind == "scenario") {
    // The rest of the scenario is not checked here.
    machine = load_machine_section(files_, root, catalog_->topology_generators, limits_.max_machine_nodes);
  } else {
    throw root.error("kind", "expected a machine or a scenario file, got kind \"" + kind + "\"");
  }
  if (resolved) *resolved = machine.resolved;
  return std::move(machine.machine);
}

}  // namespace zs::scenario
