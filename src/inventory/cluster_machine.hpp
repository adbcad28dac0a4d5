// A machine built from what a Slurm cluster's operators already describe: topology.conf, the node list and
// nvidia-smi topo -m per GPU type, with zettasim's models for what those files cannot say.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "core/file_source.hpp"
#include "core/json_object.hpp"
#include "core/param_table.hpp"
#include "topology/machine.hpp"
#include "topology/model_binder.hpp"

namespace zs::inventory {

/// The keys of a cluster inventory file (kind "cluster-inventory"), declared once.
const core::ParamTable& cluster_inventory_params();

/// Builds the machine of a cluster inventory file. The usable nodes of the node list (SlurmNode::usable,
/// with a GPU gres) become hosts, in the order of topology.conf's tree (depth first from the top switch,
/// each leaf's Nodes= in order); each host's GPUs are units named "HOST/gpuN" (N: the GPU's index in
/// nvidia-smi), connected inside the host as its type's matrix says (an NVSwitch node when every pair
/// shares NV<n>, direct NVLinks otherwise, and a PCIe switch for pairs without NVLink) and to their leaf
/// switch through their nearest NIC. Switches keep topology.conf's names; a switch's uplink carries what
/// the listed nodes below it can send through their NICs, divided by its level's oversubscription.
/// Left out, and recorded in `resolved` ("left_out": name, state, reason): nodes a job may not use.
/// Throws core::InputError naming the file (and its line) for what the readers refuse and for a node
/// under no switch, a GPU type the file does not map, a node whose GPU count differs from its type's
/// matrix, usable nodes under two separate trees, and a machine of more than `max_nodes` nodes.
topology::Machine build_cluster_machine(core::JsonObject& cluster_json, const core::FileSource& files,
                                        const topology::ModelSet& models,
                                        uint64_t max_nodes = topology::kMaxMachineNodes,
                                        nlohmann::json* resolved = nullptr);

/// A unit of a cluster machine: its host and its GPU index there (nvidia-smi's, CUDA_VISIBLE_DEVICES').
struct ClusterGpu {
  std::string host;
  uint32_t gpu = 0;
};

/// The host and GPU of a unit named "HOST/gpuN"; nullopt-like empty host for any other name.
ClusterGpu cluster_gpu_of(const std::string& unit_name);

}  // namespace zs::inventory
