// Parameter tables of scenario files, machine files, recorded workloads, policies and placement maps.
#include "scenario/scenario_params.hpp"

#include "core/file_kind.hpp"
#include "policy/collective/collective_policy.hpp"
#include "policy/placement/file_placement.hpp"
#include "scenario/reliability_params.hpp"
#include "search/search_space.hpp"
#include "topology/machine_cost.hpp"
#include "topology/optical_circuits.hpp"
#include "topology/unit_speed_variation.hpp"

namespace zs::scenario {

using core::Param;

const core::ParamTable& scenario_params() {
  static const core::ParamTable table(
      "scenario", "one what-if: a machine, a workload, policies and (for goodput) a reliability section",
      {Param::file_kind(core::FileKind::kScenario, "a scenario file"),
       Param::text("name", "the run's name; results go to results/NAME (one safe path component)"),
       Param::text("description", "one line: what is asked").or_default(""),
       Param::integer("seed", 0, INT64_MAX, "seed of every random draw of the run").or_default(1),
       Param::text("fidelity", "\"auto\", \"exact\" (every rank) or \"collapsed\" (one rank per role)")
           .or_default("auto"),
       Param::object("machine", machine_section_params(), "a machine file's path, or the machine inline"),
       Param::object("workload", "a generated workload (workload, workload.GENERATOR) or a recorded-workload",
                     "what the machine runs"),
       Param::object("policies", policies_params(), "placement and collective policies"),
       Param::list("plugins", "plugin files (PATH.so), relative to this file",
                   "policy plugins whose policies the scenario names; loaded before it is read")
           .optional(),
       Param::object("reliability", reliability_params(), "failures, checkpoints and recovery (goodput)")
           .optional(),
       Param::object(
           "cost", topology::cost_setting_params(),
           "facility overhead (PUE), electricity price, and capital from part prices or a rented rate; "
           "left out, the machine's energy only")
           .optional(),
       Param::list("circuit_reconfigurations", topology::circuit_reconfiguration_params(),
                   "optical circuits set up at given times; left out, none")
           .optional(),
       Param::object("unit_speed_variation", topology::unit_speed_variation_params(),
                     "unit-to-unit compute speed variation, drawn from the seed; left out, none")
           .optional(),
       Param::object("search", search::SearchSpace::params(),
                     "what `zettasim search` may vary of the plan and policies; left out, its defaults")
           .optional()});
  return table;
}

namespace {

std::vector<Param> machine_keys() {
  return {
      Param::object("models", "model name → model file path",
                    "the hardware models the topology binds by name"),
      Param::text("topology",
                  "a topology file's path, or a cluster-inventory file's (a Slurm cluster as its operators "
                  "describe it), relative to this file")};
}

}  // namespace

const core::ParamTable& machine_section_params() {
  static const core::ParamTable table("machine", "the hardware: models and a topology", machine_keys());
  return table;
}

const core::ParamTable& machine_file_params() {
  static const core::ParamTable table = [] {
    std::vector<Param> keys{Param::file_kind(core::FileKind::kMachine, "a machine file"),
                            Param::text("description", "one line: what is modelled").or_default("")};
    for (auto& p : machine_keys()) keys.push_back(std::move(p));
    return core::ParamTable("machine-file", "a machine in a file of its own", std::move(keys));
  }();
  return table;
}

const core::ParamTable& recorded_workload_params() {
  static const core::ParamTable table(
      "recorded-workload", "a workload replayed from a recorded trace (one of trace or chakra)",
      {Param::text("trace", "a zettasim trace file (JSON or CBOR), relative to this file").optional(),
       Param::text("chakra", "the prefix of Chakra files PREFIX.<rank>.et, relative to this file").optional(),
       Param::text("comm_groups",
                   "with chakra: the communicator-group file giving each pg_name's member ranks (ASTRA-sim's "
                   "format), relative to this file")
           .optional()});
  return table;
}

const core::ParamTable& policies_params() {
  static const core::ParamTable table(
      "policies", "how ranks are placed and collectives run",
      {Param::object("placement", placement_from_file_params(),
                     "a placement policy's name (zettasim list), or the from-file object"),
       Param::object("collective", collective_options_params(),
                     "a collective policy's name (zettasim list), or an object with its options")});
  return table;
}

namespace {

/// A policy object of a scenario: its "name", then the keys of the policy's own table.
std::vector<Param> named_policy(Param name, const core::ParamTable& policy) {
  std::vector<Param> params{std::move(name)};
  params.insert(params.end(), policy.params().begin(), policy.params().end());
  return params;
}

/// The collective policy object's keys: its name, the chunking options and the step-latency switch.
std::vector<Param> collective_policy_params() {
  auto params = named_policy(Param::text("name", "the collective policy (zettasim list)"),
                             policy::CollectiveOptions::params());
  params.push_back(
      Param::boolean("step_latency",
                     "charge every transfer at least the step_latency of its links' models (a "
                     "collective library's cost per algorithm step: NCCL's latency model; a "
                     "pipelined schedule's first chunk only, and its ring's, tree's or "
                     "NVLS's base latency once per collective: NCCL's tuner's values, in the link "
                     "models); false: the links' and switches' latencies only, for closed-form "
                     "checks")
          .or_default(true));
  params.push_back(Param::choice("protocol", {"simple", "ll128", "ll", "auto"},
                                 "the collective library's protocol for reductions and gathers (NCCL's): "
                                 "simple, ll128 (payload at 0.92 of the bandwidth) or ll (at 1/4), each "
                                 "paying its links' step latency for that protocol, or auto: per "
                                 "collective the one with the least estimate (as NCCL's tuner picks; "
                                 "with step_latency false, always simple); ll128 and ll need "
                                 "step_latency true")
                       .noun("collective protocol")
                       .or_default("auto"));
  params.push_back(
      Param::choice("algorithms",
                    {std::string(policy::to_string(policy::AlgorithmSet::kAny)),
                     std::string(policy::to_string(policy::AlgorithmSet::kNccl))},
                    "what auto chooses among: every policy of the catalog that offers an estimate "
                    "(any), or only those that name an NCCL algorithm for the collective (nccl: "
                    "among the built-ins ring, NCCL's double binary tree, NVLS and CollNet "
                    "in-network reduction, channel rings), what an NCCL job can run; zettasim "
                    "plan sets nccl")
          .noun("algorithm set")
          .or_default(std::string(policy::to_string(policy::AlgorithmSet::kAny))));
  return params;
}

}  // namespace

const core::ParamTable& collective_options_params() {
  static const core::ParamTable table("policies.collective",
                                      "a collective policy with its chunking options (collective-chunking), "
                                      "the step-latency switch and the protocol",
                                      collective_policy_params());
  return table;
}

const core::ParamTable& placement_from_file_params() {
  static const core::ParamTable table(
      "policies.placement", "the placement read from a map file (placement.from-file)",
      named_policy(Param::text("name", "\"from-file\""), policy::FilePlacement::params()));
  return table;
}

const core::ParamTable& placement_map_params() {
  static const core::ParamTable table(
      "placement-map", "a file giving each rank's unit",
      {Param::file_kind(core::FileKind::kPlacement, "a placement map"),
       Param::text("description", "one line: how the map was made").or_default(""),
       Param::list("units", "unit names, one per rank", "the unit of rank 0, 1, ...")});
  return table;
}

}  // namespace zs::scenario
