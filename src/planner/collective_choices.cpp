// Collective algorithms per communicator and size, and their NCCL settings.
#include "planner/collective_choices.hpp"

#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

#include "core/input_error.hpp"
#include "policy/policy_catalog.hpp"

namespace zs::planner {
namespace {

bool has_host_nvswitch(const topology::Machine& machine) {
  for (const auto& n : machine.topology.nodes())
    if (n.kind == topology::NodeKind::kSwitch && n.name.size() > 9 &&
        n.name.compare(n.name.size() - 9, 9, "/nvswitch") == 0)
      return true;
  return false;
}

/// Whether every unit links straight to a fabric switch (one not inside a host: no '/' in its name).
bool nic_per_gpu(const topology::Machine& machine) {
  for (auto unit : machine.topology.units()) {
    bool direct = false;
    for (const auto& [peer, link] : machine.topology.neighbours(unit))
      direct |= machine.topology.node(peer).kind == topology::NodeKind::kSwitch &&
                machine.topology.node(peer).name.find('/') == std::string::npos;
    if (!direct) return false;
  }
  return true;
}

/// The policies of `catalog` that run `request` as an NCCL algorithm, each asked itself ("ring (Ring), ...").
std::string nccl_policies(const policy::CollectiveRegistry& catalog, const policy::CollectiveOptions& options,
                          const policy::CollectiveRequest& request) {
  std::string out;
  for (const auto& entry : catalog.entries()) {
    try {
      const auto candidate = policy::make_collective_policy(catalog, entry.name, options);
      if (const auto nccl = candidate->nccl_algorithm(request))
        out += (out.empty() ? "" : ", ") + entry.name + " (" + *nccl + ")";
    } catch (const std::exception&) {  // a policy that cannot run it is not among them
    }
  }
  return out.empty() ? "none of the catalog's policies" : out;
}

}  // namespace

std::vector<CollectiveChoice> collective_choices(
    const workload::Trace& trace, const topology::Machine& machine, const policy::Placement& placement,
    const policy::CollectivePolicy& policy, const policy::CollectiveRegistry& catalog,
    const policy::CollectiveOptions& options, const std::string& file) {
  std::vector<uint64_t> first_rank_of_role(trace.roles.size(), trace.mesh.size());
  for (uint64_t r = 0; r < trace.mesh.size(); ++r) {
    auto& first = first_rank_of_role[trace.role_of(r)];
    if (first == trace.mesh.size()) first = r;
  }
  std::set<std::tuple<std::string, int, double>> seen;
  std::vector<CollectiveChoice> choices;
  for (size_t role = 0; role < trace.roles.size(); ++role)
    for (const auto& op : trace.roles[role].ops) {
      const auto* c = std::get_if<workload::CollectiveOp>(&op.body);
      if (c == nullptr || !seen.emplace(c->communicator, static_cast<int>(c->kind), c->bytes.value()).second)
        continue;
      const auto groups = trace.groups_of(c->communicator);
      if (!groups) continue;
      const uint64_t rank = first_rank_of_role[role];
      if (!groups->index(rank)) continue;
      policy::CollectiveRequest request{c->kind, c->bytes, {}, &machine};
      for (uint64_t m : groups->members(rank)) request.member_units.push_back(placement.unit_of_rank.at(m));
      CollectiveChoice choice{c->communicator, std::string(workload::to_string(c->kind)), c->bytes.value(),
                              static_cast<uint32_t>(request.member_units.size()), "", ""};
      try {
        choice.algorithm = policy.steps(request).first;
        choice.nccl = policy.nccl_algorithm(request).value_or("");
      } catch (const std::invalid_argument& e) {
        throw core::InputError(file, "/policies/collective",
                               "collective policy \"" + std::string(policy.name()) + "\" cannot run " +
                                   choice.kind + " on " + choice.communicator + ": " + e.what());
      }
      if (choice.nccl.empty() && policy::nccl_algorithm_applies(c->kind))
        throw core::InputError(
            file, "/policies/collective",
            "collective policy \"" + std::string(policy.name()) + "\" runs " + choice.kind + " on " +
                choice.communicator + " as " + choice.algorithm +
                ", which NCCL does not implement: zettasim plan lays out NCCL jobs (there, "
                "NCCL's algorithms are run by " +
                nccl_policies(catalog, options, request) + ")");
      choices.push_back(std::move(choice));
    }
  return choices;
}

std::pair<std::vector<std::pair<std::string, std::string>>, std::string> nccl_environment(
    const std::vector<CollectiveChoice>& choices, const topology::Machine& machine) {
  std::set<std::string> algos;  // what the policy's choices are in NCCL, as NCCL_ALGO names them
  for (const auto& c : choices)
    if (!c.nccl.empty()) algos.insert(c.nccl);
  std::vector<std::pair<std::string, std::string>> env;
  std::string why;
  if (!algos.empty()) {
    std::string list;
    for (const auto& a : algos) list += (list.empty() ? "" : ",") + a;
    env.emplace_back("NCCL_ALGO", list);
    why = "NCCL_ALGO allows the NCCL algorithms the collective policy chose (" + list + ")";
  }
  if (has_host_nvswitch(machine)) {
    env.emplace_back("NCCL_NVLS_ENABLE", algos.count("NVLS") ? "1" : "0");
    why += std::string(why.empty() ? "" : "; ") + "NVLS " +
           (algos.count("NVLS") ? "on: in-network reduction on the NVSwitch chosen"
                                : "off: no in-network reduction on the NVSwitch chosen");
  }
  if (nic_per_gpu(machine)) {
    env.emplace_back("NCCL_CROSS_NIC", "0");
    why += std::string(why.empty() ? "" : "; ") +
           "NCCL_CROSS_NIC=0: every GPU has its own NIC, so rings keep to one NIC index across nodes";
  }
  return {env, why};
}

}  // namespace zs::planner
