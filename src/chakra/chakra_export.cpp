// Trace -> Chakra .et files.
#include "chakra/chakra_export.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "chakra/chakra_attributes.hpp"
#include "chakra/et_records.hpp"
#include "core/input_error.hpp"
#include "workload/trace_json.hpp"

namespace zs::chakra {
namespace {

using workload::CollectiveKind;

ChakraProtoMsg::CollectiveCommType comm_type(CollectiveKind kind) {
  switch (kind) {
    case CollectiveKind::kAllReduce:
      return ChakraProtoMsg::ALL_REDUCE;
    case CollectiveKind::kReduceScatter:
      return ChakraProtoMsg::REDUCE_SCATTER;
    case CollectiveKind::kAllGather:
      return ChakraProtoMsg::ALL_GATHER;
    case CollectiveKind::kAllToAll:
      return ChakraProtoMsg::ALL_TO_ALL;
    case CollectiveKind::kBroadcast:
      return ChakraProtoMsg::BROADCAST;
    case CollectiveKind::kReduce:
      return ChakraProtoMsg::REDUCE;
  }
  return ChakraProtoMsg::ALL_REDUCE;
}

int64_t whole_bytes(core::Bytes b) {
  return std::llround(b.value());
}

/// A compute time as Chakra's whole microseconds: the nearest, and at least 1 for any time above 0 (a
/// duration of 0 tells ASTRA-sim to cost the node by its roofline instead).
uint64_t whole_micros(core::Seconds t) {
  if (!(t.value() > 0)) return 0;
  return std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(t.value() * 1e6)));
}

/// The trace without its ops: what every file's GlobalMetadata carries.
nlohmann::json trace_header(const workload::Trace& trace) {
  nlohmann::json header = workload::trace_to_json(trace);
  for (auto& role : header["roles"]) role.erase("ops");
  return header;
}

/// The numeric process group of every (communicator, group) of the trace's collectives: one id per
/// distinct member set, from 1 (ASTRA-sim takes pg_name "0", like an empty one, for all ranks).
class ProcessGroups {
 public:
  explicit ProcessGroups(const workload::Trace& trace) : trace_(trace) {
    for (const auto& role : trace.roles)
      for (const auto& op : role.ops)
        if (const auto* c = std::get_if<workload::CollectiveOp>(&op.body)) add_communicator(c->communicator);
  }

  /// The pg_name of `rank`'s group on `communicator`: "0" for a group of every rank.
  std::string id(const std::string& communicator, uint64_t rank) const {
    const auto& [groups, ids] = by_communicator_.at(communicator);
    return std::to_string(ids.at(*groups.index(rank)));
  }
  /// The number of members of `rank`'s group on `communicator`.
  uint64_t size(const std::string& communicator, uint64_t rank) const {
    return by_communicator_.at(communicator).first.size(rank);
  }

  /// The communicator-group file: {"id": [member ranks], ...}, ids in increasing order.
  std::string file() const {
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    for (size_t i = 0; i < members_.size(); ++i) out[std::to_string(i + 1)] = members_[i];
    return out.dump() + "\n";
  }

 private:
  void add_communicator(const std::string& name) {
    if (by_communicator_.count(name) != 0) return;
    const workload::CommunicatorGroups groups = *trace_.groups_of(name);
    constexpr uint64_t kUnassigned = UINT64_MAX;
    std::vector<uint64_t> ids(groups.count(), kUnassigned);
    for (uint64_t rank = 0, found = 0; rank < trace_.mesh.size() && found < ids.size(); ++rank) {
      const auto group = groups.index(rank);
      if (!group || ids[*group] != kUnassigned) continue;
      uint64_t& id = ids[*group];
      std::vector<uint64_t> members = groups.members(rank);
      ++found;
      if (members.size() == trace_.mesh.size()) {  // every rank: "0", which needs no group file
        id = 0;
        continue;
      }
      std::sort(members.begin(), members.end());
      auto known = id_of_members_.find(members);
      if (known == id_of_members_.end()) {
        members_.push_back(members);
        known = id_of_members_.emplace(std::move(members), members_.size()).first;
      }
      id = known->second;
    }
    by_communicator_.emplace(name, std::make_pair(groups, std::move(ids)));
  }

  const workload::Trace& trace_;
  std::map<std::string, std::pair<workload::CommunicatorGroups, std::vector<uint64_t>>> by_communicator_;
  std::map<std::vector<uint64_t>, uint64_t> id_of_members_;
  std::vector<std::vector<uint64_t>> members_;  ///< of id i + 1
};

/// Writes one rank's file.
std::string rank_file(const workload::Trace& trace, const nlohmann::json& header, const ProcessGroups& groups,
                      uint64_t rank, const ComputeTime& compute_time) {
  std::string out;
  ChakraProtoMsg::GlobalMetadata meta;
  meta.set_version(kChakraVersion);
  *meta.add_attr() =
      string_attribute(kZettasimAttribute, nlohmann::json{{"trace", header}, {"rank", rank}}.dump());
  append_record(meta, out);

  const auto& ops = trace.program_of(rank).ops;
  std::vector<int64_t> last_on_stream(trace.streams.size(), -1);
  // comm_tag: the k-th transfer between the same two ranks along the same axis and direction.
  std::map<std::tuple<uint64_t, uint64_t, size_t, bool>, int32_t> transfers;
  for (size_t i = 0; i < ops.size(); ++i) {
    const workload::Op& op = ops[i];
    ChakraProtoMsg::Node node;
    node.set_id(i);
    node.set_name(op.name);
    for (uint32_t d : op.deps) node.add_data_deps(d);
    const int64_t prev = last_on_stream[op.stream];
    bool prev_is_dep = false;
    for (uint32_t d : op.deps) prev_is_dep |= static_cast<int64_t>(d) == prev;
    if (prev >= 0 && !prev_is_dep) node.add_ctrl_deps(static_cast<uint64_t>(prev));
    last_on_stream[op.stream] = static_cast<int64_t>(i);
    *node.add_attr() = bool_attribute("is_cpu_op", false);
    nlohmann::json extra = {{"stream", op.stream}, {"phase", op.phase}};

    if (const auto* c = std::get_if<workload::ComputeOp>(&op.body)) {
      node.set_type(ChakraProtoMsg::COMP_NODE);
      *node.add_attr() = int64_attribute("num_ops", std::llround(c->flops.value()));
      *node.add_attr() = uint64_attribute("tensor_size", static_cast<uint64_t>(whole_bytes(c->bytes)));
      extra["dtype"] = core::to_string(c->dtype);
      extra["work"] = core::to_string(c->kind);
      if (c->kernels != 1) extra["kernels"] = c->kernels;
      if (c->memory.value() != 0) extra["memory"] = core::to_string(c->memory);
      if (c->scaled_by) extra["scaled_by"] = *c->scaled_by;
      if (c->duration) {
        node.set_duration_micros(static_cast<uint64_t>(std::llround(c->duration->value() * 1e6)));
        extra["duration"] = core::to_string(*c->duration);
      } else if (compute_time) {  // zettasim's time on the unit: what ASTRA-sim charges the node
        node.set_duration_micros(whole_micros(compute_time(rank, *c)));
      }
    } else if (const auto* c = std::get_if<workload::CollectiveOp>(&op.body)) {
      node.set_type(ChakraProtoMsg::COMM_COLL_NODE);
      *node.add_attr() = int64_attribute("comm_type", comm_type(c->kind));
      // An all-gather's comm_size is each rank's input, S / n, as PyTorch's execution-trace observer
      // records it (the input tensor's bytes) and ASTRA-sim reads it; the others' the buffer S.
      const bool gather = c->kind == CollectiveKind::kAllGather;
      const core::Bytes size = gather ? c->bytes / double(groups.size(c->communicator, rank)) : c->bytes;
      *node.add_attr() = int64_attribute("comm_size", whole_bytes(size));
      *node.add_attr() = string_attribute("pg_name", groups.id(c->communicator, rank));
      if (gather) extra["bytes"] = core::to_string(c->bytes);
      extra["communicator"] = c->communicator;
      if (c->dispatch) extra["dispatch"] = workload::dispatch_to_json(*c->dispatch);
    } else if (const auto* m = std::get_if<workload::MemoryOp>(&op.body)) {
      node.set_type(m->direction == workload::MemoryDirection::kRead ? ChakraProtoMsg::MEM_LOAD_NODE
                                                                     : ChakraProtoMsg::MEM_STORE_NODE);
      *node.add_attr() = uint64_attribute("tensor_size", static_cast<uint64_t>(whole_bytes(m->bytes)));
    } else {
      const auto& p = std::get<workload::P2POp>(op.body);
      const auto peer = trace.peer_of(rank, p);
      // The axis in the tag: its index, or past the axes for a communicator over several.
      const size_t axis = trace.mesh.axis_index(p.axis).value_or(trace.mesh.axes().size());
      if (!peer)
        throw core::InputError(
            trace.name,
            "/roles/" + std::to_string(trace.role_of(rank)) + "/ops/" + std::to_string(i) + "/p2p/offset",
            "rank " + std::to_string(rank) + " has no peer " + std::to_string(p.offset) + " steps along \"" +
                p.axis + "\"");
      const bool send = p.direction == workload::P2PDirection::kSend;
      node.set_type(send ? ChakraProtoMsg::COMM_SEND_NODE : ChakraProtoMsg::COMM_RECV_NODE);
      const uint64_t src = send ? rank : *peer, dst = send ? *peer : rank;
      const bool forward = send ? p.offset > 0 : p.offset < 0;  // direction of travel along the axis
      const int32_t k = transfers[{src, dst, axis, forward}]++;
      *node.add_attr() = int32_attribute("comm_src", static_cast<int32_t>(src));
      *node.add_attr() = int32_attribute("comm_dst", static_cast<int32_t>(dst));
      *node.add_attr() = int64_attribute("comm_size", whole_bytes(p.bytes));
      *node.add_attr() = int32_attribute("comm_tag", (k << 8) | static_cast<int32_t>((axis << 1) | forward));
      extra["axis"] = p.axis;
      extra["offset"] = p.offset;
      if (p.wrap) extra["wrap"] = true;
    }
    *node.add_attr() = string_attribute(kZettasimAttribute, extra.dump());
    append_record(node, out);
  }
  return out;
}

}  // namespace

uint64_t export_chakra(const workload::Trace& trace, const std::string& base_name, const FileSink& sink,
                       const ComputeTime& compute_time) {
  const uint64_t ranks = trace.mesh.size();
  if (ranks > kMaxExportRanks)
    throw workload::trace_error(trace, "/mesh",
                                "Chakra traces hold one file per rank; " + std::to_string(ranks) +
                                    " ranks is over the export limit of " + std::to_string(kMaxExportRanks));
  if (trace.mesh.axes().size() > 127)
    throw workload::trace_error(trace, "/mesh", "more than 127 mesh axes cannot be tagged in Chakra");
  const nlohmann::json header = trace_header(trace);
  const ProcessGroups groups(trace);
  for (uint64_t r = 0; r < ranks; ++r)
    sink(base_name + "." + std::to_string(r) + ".et", rank_file(trace, header, groups, r, compute_time));
  sink(base_name + ".json", groups.file());
  return ranks;
}

}  // namespace zs::chakra
