// Cluster inventories to machines.
#include "inventory/cluster_machine.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "core/file_kind.hpp"
#include "core/input_error.hpp"
#include "core/param_reader.hpp"
#include "inventory/gpu_topology_matrix.hpp"
#include "inventory/slurm_node_list.hpp"
#include "inventory/slurm_topology.hpp"

namespace zs::inventory {
namespace {

const core::ParamTable& gpu_type_params() {
  static const core::ParamTable table(
      "cluster-inventory.gpu_type", "one GPU type of the node list",
      {core::Param::text("gres_type", "the type in the nodes' Gres=gpu:TYPE:N (\"\" for an untyped gpu:N)"),
       core::Param::text("unit_model", "the compute-unit model bound in the machine's models for this GPU"),
       core::Param::text("node_topology",
                         "nvidia-smi topo -m output of a node with this GPU, relative to this file; applied "
                         "to every node of the type")});
  return table;
}

/// Model indices and the links each host's parts use.
struct LinkModels {
  uint32_t nvlink = 0, pcie = 0, nic = 0, uplink = 0;
  uint32_t nvswitch = topology::kNoModel;       ///< switch model of a host's NVSwitch fabric
  uint32_t fabric_switch = topology::kNoModel;  ///< switch model of topology.conf's switches
  double nvlinks_per_model = 1;
};

struct GpuType {
  uint32_t unit_model = 0;
  GpuTopologyMatrix matrix;
  std::vector<uint32_t> nic_of_gpu;  ///< nearest NIC
  bool nic_per_gpu = false;          ///< every GPU has its own nearest NIC: GPUs link to the leaf directly
  uint32_t nics_used = 0;
};

std::string line_prefix(uint32_t line) {
  return "line " + std::to_string(line) + ": ";
}

/// Switches in depth-first order from `root`, each followed by its subtree.
void depth_first(const SlurmTopology& t, size_t s, const std::map<std::string, size_t>& index,
                 std::vector<size_t>& out) {
  out.push_back(s);
  for (const auto& child : t.switches[s].switches) depth_first(t, index.at(child), index, out);
}

void add_host(topology::Machine& m, const std::string& host, const GpuType& type, const LinkModels& links,
              topology::NodeId leaf) {
  auto& topo = m.topology;
  std::vector<topology::NodeId> gpus;
  for (uint32_t g = 0; g < type.matrix.gpus(); ++g)
    gpus.push_back(topo.add_unit(host + "/gpu" + std::to_string(g), type.unit_model));
  if (const uint32_t nv = type.matrix.uniform_nvlinks(); nv > 0) {
    const auto sw = topo.add_switch(host + "/nvswitch", links.nvswitch);
    for (auto g : gpus) topo.add_link(g, sw, links.nvlink, nv / links.nvlinks_per_model);
  } else {
    bool pcie_pairs = false;
    for (uint32_t a = 0; a < gpus.size(); ++a)
      for (uint32_t b = a + 1; b < gpus.size(); ++b) {
        const auto& p = type.matrix.gpu_to_gpu[a][b];
        if (p.kind == GpuPath::Kind::kNvlink)
          topo.add_link(gpus[a], gpus[b], links.nvlink, p.nvlinks / links.nvlinks_per_model);
        else
          pcie_pairs = true;
      }
    if (pcie_pairs) {
      const auto sw = topo.add_switch(host + "/pcie");
      for (auto g : gpus) topo.add_link(g, sw, links.pcie);
    }
  }
  if (type.nic_per_gpu) {
    for (auto g : gpus) topo.add_link(g, leaf, links.nic);
    return;
  }
  std::map<uint32_t, topology::NodeId> nic_nodes;
  for (uint32_t g = 0; g < gpus.size(); ++g) {
    const uint32_t n = type.nic_of_gpu[g];
    auto it = nic_nodes.find(n);
    if (it == nic_nodes.end()) {
      it = nic_nodes.emplace(n, topo.add_switch(host + "/" + type.matrix.nics[n])).first;
      topo.add_link(it->second, leaf, links.nic);
    }
    topo.add_link(gpus[g], it->second, links.pcie);
  }
}

}  // namespace

const core::ParamTable& cluster_inventory_params() {
  static const core::ParamTable table(
      "cluster-inventory", "a Slurm cluster as its operators describe it, read by the planner and run",
      {core::Param::file_kind(core::FileKind::kClusterInventory, "a cluster inventory"),
       core::Param::text("name", "the cluster's name"),
       core::Param::text("description", "what the cluster is and where its files come from"),
       core::Param::text("topology_conf", "Slurm's topology.conf (tree plugin), relative to this file"),
       core::Param::text("nodes", "scontrol show nodes --oneliner output, relative to this file"),
       core::Param::list("gpu_types", gpu_type_params(), "each GPU type of the node list"),
       core::Param::text("nvlink_model", "the link model of NVLink between GPUs of a host"),
       core::Param::number("nvlinks_per_model", 1, 1e3,
                           "how many NVLinks the NVLink model stands for (NV18 over a model of 18 links: "
                           "width 1)")
           .or_default(18.0),
       core::Param::text(
           "nvswitch_model",
           "the switch model of a host's NVSwitch fabric (hosts whose GPU pairs all show the same "
           "NV<n>); left out, an ideal switch without in-network reduction")
           .optional(),
       core::Param::text("switch_model",
                         "the switch model of topology.conf's switches; left out, ideal switches")
           .optional(),
       core::Param::text("pcie_model",
                         "the link model of PCIe between a GPU and a shared NIC or PCIe switch"),
       core::Param::text("nic_model", "the link model from a NIC to its leaf switch"),
       core::Param::text("switch_link_model", "the link model between switches; its width is derived"),
       core::Param::list("oversubscription", "number",
                         "per switch level from the leaves (0): what the switch's listed nodes can send over "
                         "its uplink's bandwidth; left out, 1 (full bisection)")
           .optional()});
  return table;
}

ClusterGpu cluster_gpu_of(const std::string& unit_name) {
  const auto slash = unit_name.rfind('/');
  if (slash == std::string::npos || unit_name.compare(slash + 1, 3, "gpu") != 0) return {};
  const std::string digits = unit_name.substr(slash + 4);
  if (digits.empty() || digits.size() > 6 ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return {};
  return {unit_name.substr(0, slash), static_cast<uint32_t>(std::stoul(digits))};
}

topology::Machine build_cluster_machine(core::JsonObject& cluster_json, const core::FileSource& files,
                                        const topology::ModelSet& models, uint64_t max_nodes,
                                        nlohmann::json* resolved) {
  core::ParamReader r(cluster_inventory_params(), cluster_json);
  r.get<std::string>("kind");  // the table's constant
  topology::Machine m;
  m.name = r.get<std::string>("name");
  m.generator = "cluster-inventory";
  r.get<std::string>("description");
  topology::ModelBinder binder(models, m);
  std::string path;
  r.get<std::string>("topology_conf");
  const SlurmTopology tree = SlurmTopology::parse(files.read_named(r.json(), "topology_conf", path), path);
  const std::string topology_file = path;
  r.get<std::string>("nodes");
  const std::string nodes_text = files.read_named(r.json(), "nodes", path);
  const std::string nodes_file = path;
  const std::vector<SlurmNode> nodes = parse_slurm_node_list(nodes_text, nodes_file);

  LinkModels links;
  links.nvlink = binder.link_model(r, "nvlink_model");
  links.nvlinks_per_model = r.get<double>("nvlinks_per_model");
  links.pcie = binder.link_model(r, "pcie_model");
  links.nic = binder.link_model(r, "nic_model");
  links.uplink = binder.link_model(r, "switch_link_model");
  links.nvswitch = binder.optional_switch_model(r, "nvswitch_model");
  links.fabric_switch = binder.optional_switch_model(r, "switch_model");
  std::map<std::string, GpuType> types;
  auto type_readers = r.parts("gpu_types");
  for (auto& t : type_readers) {
    const std::string gres = t.get<std::string>("gres_type");
    GpuType type;
    type.unit_model = binder.unit_model(t, "unit_model");
    t.get<std::string>("node_topology");
    type.matrix = GpuTopologyMatrix::parse(files.read_named(t.json(), "node_topology", path), path);
    type.nic_of_gpu = type.matrix.nearest_nic();
    std::set<uint32_t> used(type.nic_of_gpu.begin(), type.nic_of_gpu.end());
    type.nics_used = static_cast<uint32_t>(used.size());
    type.nic_per_gpu = used.size() == type.nic_of_gpu.size();
    t.finish();
    if (!types.emplace(gres, std::move(type)).second)
      throw t.error("gres_type", "GPU type \"" + gres + "\" is listed twice");
  }
  std::vector<double> oversubscription;
  if (r.has("oversubscription"))
    for (const auto& v : r.list("oversubscription"))
      oversubscription.push_back(v.is_number() ? v.get<double>() : 0.0);
  for (size_t i = 0; i < oversubscription.size(); ++i)
    if (!(oversubscription[i] >= 1 && oversubscription[i] <= 1e3))
      throw core::InputError(r.file(), r.element_pointer("oversubscription", i),
                             "expected an oversubscription between 1 and 1000");

  // Every node of the list: its type, its leaf, whether a job may use it.
  std::map<std::string, const SlurmNode*> listed;
  nlohmann::json left_out = nlohmann::json::array();
  for (const auto& n : nodes) {
    if (!tree.switch_of_node.count(n.name))
      throw core::InputError(
          nodes_file, "", line_prefix(n.line) + "node " + n.name + " is under no switch of " + topology_file);
    if (n.gpus == 0) {
      left_out.push_back({{"name", n.name}, {"state", n.state}, {"reason", "no GPU in its Gres"}});
      continue;
    }
    auto type = types.find(n.gpu_type);
    if (type == types.end()) {
      std::string known;
      for (const auto& [k, v] : types) known += (known.empty() ? "\"" : ", \"") + k + "\"";
      throw core::InputError(nodes_file, "",
                             line_prefix(n.line) + "node " + n.name + ": GPU type \"" + n.gpu_type +
                                 "\" is not in " + r.file() + "'s gpu_types (known: " + known + ")");
    }
    if (type->second.matrix.gpus() != n.gpus)
      throw core::InputError(nodes_file, "",
                             line_prefix(n.line) + "node " + n.name + " has " + std::to_string(n.gpus) +
                                 " GPUs but " + type->second.matrix.file + " shows " +
                                 std::to_string(type->second.matrix.gpus()));
    listed.emplace(n.name, &n);
    if (!n.usable()) left_out.push_back({{"name", n.name}, {"state", n.state}, {"reason", n.reason}});
  }

  std::map<std::string, size_t> index;
  for (size_t s = 0; s < tree.switches.size(); ++s) index.emplace(tree.switches[s].name, s);
  // What each switch's listed nodes can send through their NICs (B/s), summed up the tree.
  const double nic_bandwidth = m.link_models[links.nic].bandwidth().value();
  std::vector<double> capacity(tree.switches.size(), 0.0);
  std::vector<uint32_t> usable_below(tree.switches.size(), 0);
  std::vector<size_t> order;
  for (size_t root : tree.roots) depth_first(tree, root, index, order);
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const auto& sw = tree.switches[*it];
    for (const auto& name : sw.nodes)
      if (auto n = listed.find(name); n != listed.end()) {
        capacity[*it] += types.at(n->second->gpu_type).nics_used * nic_bandwidth;
        usable_below[*it] += n->second->usable() ? 1 : 0;
      }
    for (const auto& child : sw.switches) {
      capacity[*it] += capacity[index.at(child)];
      usable_below[*it] += usable_below[index.at(child)];
    }
  }
  std::vector<size_t> used_roots;
  for (size_t root : tree.roots)
    if (usable_below[root] > 0) used_roots.push_back(root);
  if (used_roots.empty())
    throw core::InputError(nodes_file, "", "no usable GPU node: every node is drained, down or without GPUs");
  if (used_roots.size() > 1)
    throw core::InputError(topology_file, "",
                           line_prefix(tree.switches[used_roots[1]].line) + "switches " +
                               tree.switches[used_roots[0]].name + " and " +
                               tree.switches[used_roots[1]].name +
                               " are both top switches over usable nodes: a job spans one tree (add a "
                               "SwitchName line above them)");
  const uint32_t top_level = tree.level[used_roots[0]];
  if (oversubscription.size() > top_level)
    throw r.error("oversubscription", "expected at most " + std::to_string(top_level) +
                                          " levels: the top switch (level " + std::to_string(top_level) +
                                          ") has no uplink");

  m.topology.set_node_limit(max_nodes);
  const double uplink_bandwidth = m.link_models[links.uplink].bandwidth().value();
  std::vector<topology::NodeId> node_of(tree.switches.size(), topology::NodeId(-1));
  std::vector<size_t> parent(tree.switches.size(), size_t(-1));
  for (size_t s = 0; s < tree.switches.size(); ++s)
    for (const auto& child : tree.switches[s].switches) parent[index.at(child)] = s;
  uint64_t hosts = 0;
  try {
    order.clear();
    depth_first(tree, used_roots[0], index, order);
    for (size_t s : order) {
      if (usable_below[s] == 0) continue;
      node_of[s] = m.topology.add_switch(tree.switches[s].name, links.fabric_switch);
      if (parent[s] != size_t(-1)) {
        const uint32_t level = tree.level[s];
        const double over = level < oversubscription.size() ? oversubscription[level] : 1.0;
        m.topology.add_link(node_of[s], node_of[parent[s]], links.uplink,
                            capacity[s] / over / uplink_bandwidth);
      }
      for (const auto& name : tree.switches[s].nodes) {
        auto n = listed.find(name);
        if (n == listed.end() || !n->second->usable()) continue;
        add_host(m, name, types.at(n->second->gpu_type), links, node_of[s]);
        ++hosts;
      }
    }
  } catch (const topology::MachineTooLarge& e) {
    throw core::InputError(r.file(), "", e.what());
  }
  r.finish();
  if (resolved) {
    *resolved = r.resolved();
    (*resolved)["hosts"] = hosts;
    (*resolved)["left_out"] = std::move(left_out);
  }
  return m;
}

}  // namespace zs::inventory
