// Machines of pods joined by a data-centre network: one pod generated, copied, tagged and wired.
#include "topology/pods_generator.hpp"

#include <string>
#include <utility>

#include "topology/machine_builder.hpp"

namespace zs::topology {
namespace {

const core::ParamTable& dcn_params() {
  static const core::ParamTable table(
      "topology.pods.dcn", "the data-centre network joining the pods",
      {core::Param::text("nic_link", "the link model of one NIC on the data-centre network"),
       core::Param::integer("units_per_nic", 1, 1 << 16, "units sharing one NIC (a host's accelerators)")
           .or_default(1),
       core::Param::text("switch", "the model of the pods' DCN switches and the core; left out, ideal")
           .optional(),
       core::Param::number("oversubscription", 1.0, 1e6,
                           "a pod's NIC bandwidth over its uplink to the core (1: non-blocking)")
           .or_default(1.0)});
  return table;
}

/// Builds one pod into `machine` by the generator its object names; records what it read.
void generate_pod(core::ParamReader& params, ModelBinder& binder, Machine& machine) {
  core::JsonObject pod_json = params.object("pod");
  const std::string generator = core::JsonObject(pod_json).string("generator");
  const auto generators = builtin_topology_generators();
  const TopologyGeneratorRegistry::Entry* entry = nullptr;
  try {
    entry = &generators.at(generator);
  } catch (const std::out_of_range& e) {
    throw pod_json.error("generator", e.what());
  }
  if (entry->params == &pods_params())  // the generator this one is
    throw pod_json.error("generator", "a pod cannot itself be made of pods");
  static const core::ParamTable named(
      "topology.pods.pod", "one pod: a topology of a built-in generator",
      {core::Param::text("generator", "the generator that builds each pod (not \"pods\")")});
  const core::ParamTable table = named.with(*entry->params);
  core::ParamReader pod(table, pod_json);
  pod.get<std::string>("generator");
  entry->make(pod, binder, machine);
  pod.finish();
  params.record("pod", pod.resolved());
}

/// `from`'s nodes, links and optical switches as pod `k` of `to`, names prefixed "pod<k>/".
void copy_pod(const Topology& from, uint32_t k, Topology& to) {
  const std::string prefix = "pod" + std::to_string(k) + "/";
  const NodeId offset = static_cast<NodeId>(to.nodes().size());
  for (const Node& n : from.nodes()) {
    NodeId id = n.kind == NodeKind::kUnit     ? to.add_unit(prefix + n.name, n.model)
                : n.kind == NodeKind::kMemory ? to.add_memory(prefix + n.name, n.model)
                                              : to.add_switch(prefix + n.name, n.model);
    to.set_pod(id, k);
  }
  for (const Link& l : from.links())
    if (l.circuit == kNoCircuit) to.add_link(l.a + offset, l.b + offset, l.model, l.width);
  const auto ocs_offset = static_cast<uint32_t>(to.optical_switches().size());
  for (const OpticalSwitch& o : from.optical_switches()) {
    std::vector<NodeId> ports;
    for (NodeId n : o.port_nodes) ports.push_back(n + offset);
    to.add_optical_switch(prefix + o.name, o.model, std::move(ports));
  }
  for (const Circuit& c : from.circuits()) {
    const Link& l = from.link(c.link);
    to.add_circuit(c.optical_switch + ocs_offset, c.port_a, c.port_b, l.model, c.active_at_start, l.width);
  }
}

}  // namespace

const core::ParamTable& pods_params() {
  static const core::ParamTable table(
      "topology.pods", "pods (any built-in generator) joined by a data-centre network",
      {core::Param::integer("pods", 1, 1 << 16, "pods"),
       core::Param::object("pod", "a topology object",
                           "one pod: \"generator\" (any built-in but pods) and that generator's keys"),
       core::Param::object("dcn", dcn_params(), "the data-centre network joining the pods")});
  return table;
}

void generate_pods(core::ParamReader& params, ModelBinder& binder, Machine& machine) {
  const auto pods = static_cast<uint32_t>(params.get<int64_t>("pods"));
  generate_pod(params, binder, machine);
  const Topology one = std::move(machine.topology);
  const uint64_t units = one.units().size();
  if (uint64_t(pods) * one.nodes().size() + pods + 1 > one.node_limit())
    throw params.error("pods", std::to_string(pods) + " pods of " + std::to_string(one.nodes().size()) +
                                   " nodes exceed the machine's limit of " +
                                   std::to_string(one.node_limit()) + " nodes");
  core::ParamReader dcn = params.part("dcn");
  const uint32_t nic = binder.link_model(dcn, "nic_link");
  const auto units_per_nic = static_cast<double>(dcn.get<int64_t>("units_per_nic"));
  const uint32_t dcn_switch = binder.optional_switch_model(dcn, "switch");
  const double oversubscription = dcn.get<double>("oversubscription");
  dcn.finish();

  Topology& topo = machine.topology = Topology();
  topo.set_node_limit(one.node_limit());
  const NodeId core_switch = topo.add_switch("dcn-core", dcn_switch);
  for (uint32_t k = 0; k < pods; ++k) {
    const uint64_t units_before = topo.units().size();  // the pod's units follow, in topology order
    copy_pod(one, k, topo);
    const NodeId pod_switch = topo.add_switch("pod" + std::to_string(k) + "/dcn", dcn_switch);
    for (uint64_t u = units_before; u < topo.units().size(); ++u)
      topo.add_link(topo.units()[u], pod_switch, nic, 1.0 / units_per_nic);
    topo.add_link(pod_switch, core_switch, nic, double(units) / units_per_nic / oversubscription);
  }
}

}  // namespace zs::topology
