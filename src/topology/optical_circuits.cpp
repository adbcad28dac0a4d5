// Optical circuit switches: reading them, reading reconfigurations, and circuit state over time.
#include "topology/optical_circuits.hpp"

#include "core/file_name.hpp"

#include <algorithm>
#include <stdexcept>

namespace zs::topology {
namespace {

/// Reads the [[a, b], ...] port pairs of array "circuits" of `o`: each port cabled (below
/// port_nodes.size()), used at most once, and the two ports of a pair cabled to two different nodes.
std::vector<std::pair<uint32_t, uint32_t>> read_port_pairs(core::ParamReader& o, const Topology& topo,
                                                           const std::vector<NodeId>& port_nodes) {
  const auto ports = static_cast<uint32_t>(port_nodes.size());
  const auto& a = o.list("circuits");
  auto fail = [&](size_t i, const std::string& msg) {
    return core::InputError(o.file(), o.element_pointer("circuits", i), msg);
  };
  std::vector<char> used(ports, 0);
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  for (size_t i = 0; i < a.size(); ++i) {
    const auto& p = a[i];
    auto is_port = [](const nlohmann::json& v) { return v.is_number_integer() && v.get<int64_t>() >= 0; };
    if (!p.is_array() || p.size() != 2 || !is_port(p[0]) || !is_port(p[1]))
      throw fail(i, "expected a pair of port numbers, got " + p.dump());
    auto x = p[0].get<uint64_t>(), y = p[1].get<uint64_t>();
    if (x >= ports || y >= ports)
      throw fail(i, "port out of range: the switch has ports 0.." + std::to_string(ports - 1));
    if (x == y) throw fail(i, "a circuit joins two different ports");
    if (port_nodes[x] == port_nodes[y])
      throw fail(i, "ports " + std::to_string(x) + " and " + std::to_string(y) + " are both cabled to node " +
                        core::quoted_for_message(topo.node(port_nodes[x]).name) +
                        ": a circuit joins two different nodes");
    if (used[x] || used[y])
      throw fail(i, "port " + std::to_string(used[x] ? x : y) + " already carries a circuit");
    used[x] = used[y] = 1;
    pairs.emplace_back(static_cast<uint32_t>(std::min(x, y)), static_cast<uint32_t>(std::max(x, y)));
  }
  return pairs;
}

/// The circuit link joining the two ports, if the machine declares one.
std::optional<LinkId> find_circuit(const Topology& topo, uint32_t ocs, std::pair<uint32_t, uint32_t> ports) {
  for (const auto& c : topo.circuits())
    if (c.optical_switch == ocs && std::minmax(c.port_a, c.port_b) == std::minmax(ports.first, ports.second))
      return c.link;
  return std::nullopt;
}

}  // namespace

const core::ParamTable& optical_switch_params() {
  static const core::ParamTable table(
      "topology.optical-switch", "one optical circuit switch of an explicit graph",
      {core::Param::text("name", "the switch's name, unique"),
       core::Param::text("model", "an optical-circuit-switch model bound in the machine's models"),
       core::Param::list("ports", "node names, one per cabled port", "what port p is cabled to"),
       core::Param::list("circuits", "[port, port] pairs", "the circuits active at the start")});
  return table;
}

void read_optical_switches(core::ParamReader& params, const char* key, ModelBinder& binder, Machine& machine,
                           const std::map<std::string, NodeId>& node_by_name) {
  if (!params.has(key)) return;
  for (core::ParamReader& o : params.parts(key)) {
    std::string name = o.get<std::string>("name");
    for (const auto& other : machine.topology.optical_switches())
      if (other.name == name) throw o.error("name", "duplicate optical switch name \"" + name + "\"");
    uint32_t model = binder.optical_switch_model(o, "model");
    const auto& ports = o.list("ports");
    if (ports.empty()) throw o.error("ports", "expected an array of node names, one per port");
    const uint32_t capacity = machine.optical_switch_models[model].ports();
    if (ports.size() > capacity)
      throw o.error("ports", std::to_string(ports.size()) + " ports cabled, but model \"" +
                                 machine.optical_switch_models[model].name() + "\" has " +
                                 std::to_string(capacity));
    std::vector<NodeId> port_nodes;
    for (size_t p = 0; p < ports.size(); ++p) {
      std::string where = o.element_pointer("ports", p);
      if (!ports[p].is_string()) throw core::InputError(o.file(), where, "expected a node name");
      auto it = node_by_name.find(ports[p].get<std::string>());
      if (it == node_by_name.end())
        throw core::InputError(o.file(), where, "no node named \"" + ports[p].get<std::string>() + "\"");
      if (machine.topology.node(it->second).kind == NodeKind::kMemory)
        throw core::InputError(o.file(), where, "memory pools connect through \"attach\", not optical ports");
      port_nodes.push_back(it->second);
    }
    auto pairs = read_port_pairs(o, machine.topology, port_nodes);
    o.finish();
    uint32_t id = machine.topology.add_optical_switch(name, model, std::move(port_nodes));
    uint32_t link_model = binder.circuit_link_model(model);
    for (auto [a, b] : pairs) machine.topology.add_circuit(id, a, b, link_model, true);
  }
}

const core::ParamTable& circuit_reconfiguration_params() {
  static const core::ParamTable table(
      "circuit-reconfiguration", "from a time on, one optical switch holds exactly the given circuits",
      {core::Param::seconds("at", "when, from the start of the iteration"),
       core::Param::text("optical_switch", "the optical switch's name"),
       core::Param::list("circuits", "[port, port] pairs", "the circuits it holds from then on")});
  return table;
}

std::vector<CircuitReconfiguration> read_circuit_reconfigurations(core::JsonObject& scenario, const char* key,
                                                                  Machine& machine) {
  std::vector<CircuitReconfiguration> out;
  const auto* list = scenario.optional(key);
  if (list == nullptr) return out;
  if (!list->is_array()) throw scenario.error(key, "expected an array of reconfigurations");
  auto& topo = machine.topology;
  for (size_t i = 0; i < list->size(); ++i) {
    core::ParamReader o(circuit_reconfiguration_params(), scenario.element(key, (*list)[i], i));
    CircuitReconfiguration r;
    r.at = o.get<core::Seconds>("at");
    std::string name = o.get<std::string>("optical_switch");
    const auto& switches = topo.optical_switches();
    auto it = std::find_if(switches.begin(), switches.end(), [&](const auto& s) { return s.name == name; });
    if (it == switches.end()) {
      std::string known;
      for (const auto& s : switches) known += (known.empty() ? "" : ", ") + s.name;
      throw o.error("optical_switch", "machine \"" + machine.name + "\" has no optical switch \"" + name +
                                          "\" (it has: " + (known.empty() ? "none" : known) + ")");
    }
    r.optical_switch = static_cast<uint32_t>(it - switches.begin());
    r.circuits = read_port_pairs(o, topo, it->port_nodes);
    o.finish();
    uint32_t model = it->model;
    for (auto ports : r.circuits) {
      if (find_circuit(topo, r.optical_switch, ports)) continue;
      // The circuit link model of this optical switch model: the one its existing circuits use,
      // else a new one.
      // A switch whose circuits are bundles (the disaggregated core) gets bundles of the same width.
      uint32_t link_model = kNoModel;
      double width = 1.0;
      for (const auto& c : topo.circuits()) {
        if (topo.optical_switches()[c.optical_switch].model == model) link_model = topo.link(c.link).model;
        if (c.optical_switch == r.optical_switch) width = topo.link(c.link).width;
      }
      if (link_model == kNoModel) {
        link_model = static_cast<uint32_t>(machine.link_models.size());
        machine.link_models.push_back(machine.optical_switch_models.at(model).circuit_link());
      }
      topo.add_circuit(r.optical_switch, ports.first, ports.second, link_model, false, width);
    }
    out.push_back(std::move(r));
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.at < b.at; });
  return out;
}

CircuitTimeline::CircuitTimeline(const Machine& machine, std::vector<CircuitReconfiguration> reconfigurations)
    : machine_(machine), reconfigurations_(std::move(reconfigurations)) {
  const auto& topo = machine.topology;
  ready_.assign(topo.circuits().size(), 0.0);
  circuit_on_port_.resize(topo.optical_switches().size());
  for (size_t s = 0; s < topo.optical_switches().size(); ++s)
    circuit_on_port_[s].assign(topo.optical_switches()[s].port_nodes.size(), kNoCircuit);
  for (uint32_t c = 0; c < topo.circuits().size(); ++c) {
    const auto& circuit = topo.circuits()[c];
    if (!circuit.active_at_start) continue;
    circuit_on_port_[circuit.optical_switch][circuit.port_a] = c;
    circuit_on_port_[circuit.optical_switch][circuit.port_b] = c;
  }
  for (const auto& r : reconfigurations_) {
    if (r.optical_switch >= circuit_on_port_.size())
      throw std::invalid_argument("reconfiguration of no switch");
    for (auto ports : r.circuits)
      if (!find_circuit(topo, r.optical_switch, ports))
        throw std::invalid_argument("reconfiguration to a circuit the machine does not declare");
  }
}

void CircuitTimeline::initialize(Router& router) const {
  for (const auto& c : machine_.topology.circuits())
    if (!c.active_at_start) router.set_link_enabled(c.link, false);
}

void CircuitTimeline::advance(core::Seconds now, Router& router) {
  const auto& topo = machine_.topology;
  for (; next_ < reconfigurations_.size() && reconfigurations_[next_].at <= now; ++next_) {
    const auto& r = reconfigurations_[next_];
    auto& on_port = circuit_on_port_[r.optical_switch];
    std::vector<uint32_t> wanted;
    for (auto ports : r.circuits)
      wanted.push_back(topo.link(*find_circuit(topo, r.optical_switch, ports)).circuit);
    // Tear down every circuit that is not wanted any more.
    for (uint32_t& c : on_port) {
      if (c == kNoCircuit || std::find(wanted.begin(), wanted.end(), c) != wanted.end()) continue;
      router.set_link_enabled(topo.circuits()[c].link, false);
      uint32_t gone = c;
      for (uint32_t& other : on_port)
        if (other == gone) other = kNoCircuit;
    }
    // Set up the new ones: usable once the switch has moved its mirrors.
    const double up = (r.at + machine_.optical_switch_models[topo.optical_switches()[r.optical_switch].model]
                                  .reconfiguration_time())
                          .value();
    for (uint32_t c : wanted) {
      const auto& circuit = topo.circuits()[c];
      if (on_port[circuit.port_a] == c) continue;  // unchanged: its ports are not touched
      on_port[circuit.port_a] = on_port[circuit.port_b] = c;
      ready_[c] = up;
      if (!machine_.links_down.contains(circuit.link)) router.set_link_enabled(circuit.link, true);
    }
  }
}

core::Seconds CircuitTimeline::ready_at(const std::vector<LinkId>& route) const {
  double t = 0;
  for (LinkId l : route) {
    uint32_t c = machine_.topology.link(l).circuit;
    if (c != kNoCircuit) t = std::max(t, ready_[c]);
  }
  return core::Seconds(t);
}

}  // namespace zs::topology
