// Checkpoint costs from the store's bandwidth, a file system model, or a snapshot to peer memory.
#include "study/checkpoint_setup.hpp"

#include "core/input_error.hpp"
#include "study/scenario_simulation.hpp"
#include "workload/peer_checkpoint.hpp"

namespace zs::study {
namespace {

/// Seconds to write and to read back `state` on a store, all ranks at once.
struct StoreTimes {
  core::Seconds write{0}, read{0};
};

StoreTimes store_times(const scenario::Scenario& s, const std::string& file,
                       const scenario::CheckpointStore& store, const std::string& path, double state) {
  using Kind = scenario::CheckpointStore::Kind;
  const uint64_t ranks = s.trace.mesh.size();
  switch (store.kind) {
    case Kind::kBandwidth:
      return {core::Bytes(state) / store.bandwidth, core::Bytes(state) / store.bandwidth};
    case Kind::kMemoryPools: {
      const auto& rates = s.reliability->rates;
      for (const auto& c : rates.components)
        if (c.memory_pool())
          throw core::InputError(
              file, path + "/target",
              "checkpoints held only in memory pools are lost when a pool fails, and component \"" + c.name +
                  "\" of " + rates.file +
                  " fails pools: checkpoint to a file system or a store given by bandwidth, or to peer "
                  "memory with one of those as its persistent tier");
      double bandwidth = 0;
      for (const auto& node : s.machine.topology.nodes())
        if (node.kind == topology::NodeKind::kMemory)
          bandwidth += s.machine.memory_models.at(node.model).bandwidth().value();
      if (bandwidth <= 0)
        throw core::InputError(file, path + "/target",
                               "machine \"" + s.machine.name + "\" has no memory pools to checkpoint to");
      return {core::Seconds(state / bandwidth), core::Seconds(state / bandwidth)};
    }
    case Kind::kFileSystem: {
      const auto& fs = *store.file_system;
      if (2 * state > fs.capacity().value())
        throw core::InputError(file, path + "/file_system",
                               "file system \"" + fs.name() + "\" holds " + core::display(fs.capacity()) +
                                   ", but keeping the last checkpoint while writing the next needs 2 x " +
                                   core::display(core::Bytes(state)));
      return {fs.write_time(core::Bytes(state), ranks), fs.read_time(core::Bytes(state), ranks)};
    }
  }
  return {};
}

/// The peer rule of the job, with the scenario's peer_offset when it gives one.
workload::PeerRule peer_rule_of(const scenario::Scenario& s, const std::string& file) {
  auto rule = workload::peer_rule(s.trace);
  if (!rule)
    throw core::InputError(
        file, "/reliability/checkpoint/target",
        "peer-memory checkpoints copy each rank's snapshot to a data-parallel peer, but the "
        "job's \"dp\" communicator has no axis of 2 or more");
  const uint32_t offset = s.reliability->peer_offset;
  if (offset > 0) {
    const auto& axis = s.trace.mesh.axes()[rule->axis];
    if (offset >= axis.size)
      throw core::InputError(file, "/reliability/checkpoint/peer_offset",
                             "expected 1 to " + std::to_string(axis.size - 1) +
                                 ": the peer is that many ranks round the data-parallel axis \"" + axis.name +
                                 "\" of " + std::to_string(axis.size));
    rule->offset = static_cast<int32_t>(offset);
  }
  return *rule;
}

/// Every rank's HBM must hold its footprint, its own snapshot and its peer's (the same role: the same size).
void check_room_for_snapshots(const scenario::Scenario& s, const std::string& file,
                              const policy::Placement& placement,
                              const std::vector<core::Bytes>& state_of_role) {
  for (uint64_t r = 0; r < s.trace.mesh.size(); ++r) {
    const uint32_t role = s.trace.role_of(r);
    const auto& program = s.trace.roles[role];
    const auto& model = s.machine.unit_model(placement.unit_of_rank[r]);
    const core::Bytes footprint = program.memory->total();
    if (footprint + state_of_role[role] * 2.0 > model.hbm_capacity())
      throw core::InputError(
          file, "/reliability/checkpoint/target",
          "peer memory: rank " + std::to_string(r) + " (role \"" + program.name +
              "\") keeps its snapshot and its peer's, 2 x " + core::display(state_of_role[role]) +
              ", beside its footprint of " + core::display(footprint) + ", but its \"" + model.name() +
              "\" has " + core::display(model.hbm_capacity()) + " of HBM (use a persistent store instead)");
  }
}

}  // namespace

CheckpointSetup checkpoint_setup(const scenario::Scenario& s, const std::string& file,
                                 const policy::Placement& placement, double state,
                                 const policy::PolicyCatalog& policies) {
  const auto& rel = *s.reliability;
  auto sec = [](core::Seconds x) { return core::display(x); };
  CheckpointSetup out;
  CheckpointDescription& d = out.description;
  d.json = {{"state_bytes", state}};
  const std::string path = rel.peer_memory ? "/reliability/checkpoint/persistent" : "/reliability/checkpoint";
  const StoreTimes store = store_times(s, file, rel.store, path, state);
  const std::string size = core::display(core::Bytes(state));
  if (!rel.peer_memory) {
    const std::string where =
        size + " to " + rel.store.describe() + " (" + core::display(core::Bytes(state) / store.write) + ")";
    if (rel.snapshot_bandwidth.value() > 0) {
      out.cost = core::Bytes(state) / rel.snapshot_bandwidth;
      out.drain = store.write;
      d.text = where + ", asynchronous: " + sec(out.cost) + " snapshot then " + sec(out.drain) + " drain";
    } else {
      out.cost = store.write;
      d.text = where + " = " + sec(out.cost);
    }
    d.json["store"] = rel.store.describe();
    return out;
  }

  const workload::PeerRule rule = peer_rule_of(s, file);
  std::vector<core::Bytes> state_of_role;
  for (const auto& role : s.trace.roles)
    state_of_role.push_back(role.memory->weights + role.memory->optimizer);
  check_room_for_snapshots(s, file, placement, state_of_role);
  auto peer = std::make_shared<reliability::PeerCheckpoints>();
  peer->peer_of_rank.resize(s.trace.mesh.size());
  for (uint64_t r = 0; r < s.trace.mesh.size(); ++r) peer->peer_of_rank[r] = rule.peer_of(s.trace.mesh, r);
  scenario::Scenario snapshot = s;
  snapshot.trace = workload::peer_snapshot_trace(s.trace, rule, state_of_role);
  const auto result = simulate_scenario(snapshot, policies);
  out.cost = result.replay.iteration_time;
  peer->persistent_drain = store.write;
  peer->persistent_load = store.read;
  const std::string& axis = s.trace.mesh.axes()[rule.axis].name;
  d.text = size + " to peer memory (each rank's own HBM and the rank " + std::to_string(rule.offset) +
           " along " + axis + "'s) = " + sec(out.cost) + " (" +
           std::string(core::to_string(result.replay.fidelity)) + " replay); drained to " +
           rel.store.describe() + " in " + sec(peer->persistent_drain) + ", loaded back in " +
           sec(peer->persistent_load);
  d.json["peer_memory"] = {{"peer_axis", axis},
                           {"peer_offset", rule.offset},
                           {"snapshot_s", out.cost.value()},
                           {"persistent_store", rel.store.describe()},
                           {"persistent_drain_s", peer->persistent_drain.value()},
                           {"persistent_load_s", peer->persistent_load.value()}};
  d.json["store"] = "peer-memory";
  out.peer = std::move(peer);
  return out;
}

}  // namespace zs::study
