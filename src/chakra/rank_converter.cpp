// One rank's Chakra file -> the ops of a program: node types, attributes, dependencies, process groups.
#include "chakra/rank_converter.hpp"

#include <algorithm>
#include <queue>
#include <unordered_map>

#include "chakra/chakra_attributes.hpp"
#include "chakra/compute_kind.hpp"
#include "chakra/et_records.hpp"
#include "core/file_name.hpp"
#include "core/input_error.hpp"
#include "core/json_object.hpp"

namespace zs::chakra {
namespace {

using ChakraProtoMsg::Node;

std::string collective_name(const RankFile& f, const std::string& at, int64_t type) {
  switch (type) {
    case ChakraProtoMsg::ALL_REDUCE:
      return "all-reduce";
    case ChakraProtoMsg::REDUCE:
      return "reduce";
    case ChakraProtoMsg::ALL_GATHER:
      return "all-gather";
    case ChakraProtoMsg::BROADCAST:
      return "broadcast";
    case ChakraProtoMsg::ALL_TO_ALL:
      return "all-to-all";
    case ChakraProtoMsg::REDUCE_SCATTER:
    case ChakraProtoMsg::REDUCE_SCATTER_BLOCK:
      return "reduce-scatter";
    case ChakraProtoMsg::BARRIER:
      return "all-reduce";  // a zero-byte all-reduce: latency only
    default:
      throw core::InputError(f.path, at + "/attr/comm_type",
                             "collective type " + std::to_string(type) +
                                 " is not replayed (supported: ALL_REDUCE, REDUCE, ALL_GATHER, BROADCAST, "
                                 "ALL_TO_ALL, REDUCE_SCATTER, REDUCE_SCATTER_BLOCK, BARRIER)");
  }
}

int64_t required_size(const RankFile& f, const Node& node, const std::string& at, const char* name) {
  const auto v = integer_attribute(node.attr(), name, f.path, at);
  if (!v)
    throw core::InputError(f.path, at + "/attr", std::string("expected attribute \"") + name + "\" (B)");
  if (*v < 0) throw core::InputError(f.path, at + "/attr/" + name, "a size must be >= 0");
  return *v;
}

std::string byte_string(int64_t bytes) {
  return core::to_string(core::Bytes(static_cast<double>(bytes)));
}

/// One rank's file as a program (the "ops" array of the trace format).
class RankConverter {
 public:
  RankConverter(const RankFile& f, uint64_t rank, const Layout& layout, ChakraImportReport& report)
      : f_(f), rank_(rank), layout_(layout), report_(report) {}

  nlohmann::json convert(double& flops) {
    index_nodes();
    const std::vector<size_t> order = dependency_order();
    std::vector<std::vector<uint32_t>> bridged(f_.nodes.size());  // a skipped node's kept ancestors
    std::vector<int64_t> op_of(f_.nodes.size(), -1);
    std::vector<int64_t> last_on_stream(
        layout_.zettasim ? layout_.zettasim->streams.size() : kGenericStreams.size(), -1);
    nlohmann::json ops = nlohmann::json::array();
    for (size_t pos : order) {
      const Node& node = f_.nodes[pos];
      const std::string at = "/nodes/" + std::to_string(pos);
      auto add = [&](std::vector<uint32_t>& into, uint64_t id) {
        const size_t d = position_.at(id);
        if (op_of[d] >= 0)
          into.push_back(static_cast<uint32_t>(op_of[d]));
        else
          into.insert(into.end(), bridged[d].begin(), bridged[d].end());
      };
      if (skipped(node, at)) {
        for (uint64_t id : node.data_deps()) add(bridged[pos], id);
        for (uint64_t id : node.ctrl_deps()) add(bridged[pos], id);
        tidy(bridged[pos]);
        continue;
      }
      nlohmann::json op = convert_node(node, at, flops);
      const uint32_t stream = op["stream"];
      std::vector<uint32_t> deps, ctrl;
      for (uint64_t id : node.data_deps()) add(deps, id);
      for (uint64_t id : node.ctrl_deps()) add(ctrl, id);
      // zettasim writes stream order as control dependencies; streams restore it, so drop that one.
      if (layout_.zettasim != nullptr && last_on_stream[stream] >= 0)
        std::erase(ctrl, static_cast<uint32_t>(last_on_stream[stream]));
      deps.insert(deps.end(), ctrl.begin(), ctrl.end());
      tidy(deps);
      if (!deps.empty()) op["deps"] = deps;
      op_of[pos] = static_cast<int64_t>(ops.size());
      last_on_stream[stream] = op_of[pos];
      ops.push_back(std::move(op));
      ++report_.nodes;
    }
    return ops;
  }

 private:
  static void tidy(std::vector<uint32_t>& v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
  }

  void index_nodes() {
    for (size_t i = 0; i < f_.nodes.size(); ++i)
      if (!position_.emplace(f_.nodes[i].id(), i).second)
        throw core::InputError(f_.path, "/nodes/" + std::to_string(i) + "/id",
                               "node id " + std::to_string(f_.nodes[i].id()) + " appears twice");
  }

  /// Positions in an order where every node follows its dependencies; ties keep file order.
  std::vector<size_t> dependency_order() const {
    const size_t n = f_.nodes.size();
    std::vector<uint32_t> waiting(n, 0);
    std::vector<std::vector<size_t>> children(n);
    for (size_t i = 0; i < n; ++i) {
      auto link = [&](uint64_t id, const char* field, int j) {
        auto it = position_.find(id);
        if (it == position_.end())
          throw core::InputError(
              f_.path, "/nodes/" + std::to_string(i) + "/" + field + "/" + std::to_string(j),
              "depends on node id " + std::to_string(id) + ", which the file does not have");
        children[it->second].push_back(i);
        ++waiting[i];
      };
      for (int j = 0; j < f_.nodes[i].data_deps_size(); ++j) link(f_.nodes[i].data_deps(j), "data_deps", j);
      for (int j = 0; j < f_.nodes[i].ctrl_deps_size(); ++j) link(f_.nodes[i].ctrl_deps(j), "ctrl_deps", j);
    }
    std::priority_queue<size_t, std::vector<size_t>, std::greater<>> ready;
    for (size_t i = 0; i < n; ++i)
      if (waiting[i] == 0) ready.push(i);
    std::vector<size_t> order;
    order.reserve(n);
    while (!ready.empty()) {
      const size_t i = ready.top();
      ready.pop();
      order.push_back(i);
      for (size_t c : children[i])
        if (--waiting[c] == 0) ready.push(c);
    }
    if (order.size() != n)
      for (size_t i = 0; i < n; ++i)
        if (waiting[i] != 0)
          throw core::InputError(f_.path, "/nodes/" + std::to_string(i),
                                 "dependency cycle: node id " + std::to_string(f_.nodes[i].id()) +
                                     " is on a cycle of dependencies or waits on one");
    return order;
  }

  /// Host-side and metadata nodes are not replayed (counted in the report).
  bool skipped(const Node& node, const std::string& at) {
    if (node.type() == ChakraProtoMsg::METADATA_NODE) {
      ++report_.metadata_nodes_skipped;
      return true;
    }
    if (bool_attribute(node.attr(), "is_cpu_op", f_.path, at).value_or(false)) {
      ++report_.cpu_nodes_skipped;
      report_.cpu_skipped_seconds += static_cast<double>(node.duration_micros()) * 1e-6;
      return true;
    }
    return false;
  }

  nlohmann::json convert_node(const Node& node, const std::string& at, double& flops) {
    nlohmann::json extra_doc;
    std::optional<core::JsonObject> extra;
    if (layout_.zettasim != nullptr) {
      extra_doc = zettasim_attribute(node.attr(), f_.path, at);
      if (extra_doc.is_null())
        throw core::InputError(
            f_.path, at + "/attr",
            "expected a \"zettasim\" attribute (the trace's metadata says zettasim wrote it)");
      if (!extra_doc.is_object())
        throw core::InputError(f_.path, at + "/attr/zettasim", "expected a JSON object");
      extra.emplace(extra_doc, f_.path, at + "/attr/zettasim");
    }
    nlohmann::json op = {{"name", node.name().empty() ? "node" + std::to_string(node.id()) : node.name()}};
    if (extra) {
      op["phase"] = extra->string("phase");
      op["stream"] = extra->integer("stream", 0, static_cast<int64_t>(layout_.zettasim->streams.size()) - 1);
    } else {
      op["phase"] = "imported";
    }
    uint32_t generic_stream = kComputeStream;  // where the op goes without zettasim attributes
    switch (node.type()) {
      case ChakraProtoMsg::COMP_NODE:
        op["compute"] = compute(node, at, extra, flops);
        break;
      case ChakraProtoMsg::COMM_COLL_NODE:
        op["collective"] = collective(node, at, extra);
        generic_stream = kCommStream;
        break;
      case ChakraProtoMsg::MEM_LOAD_NODE:
      case ChakraProtoMsg::MEM_STORE_NODE:
        op["memory"] = {{"direction", node.type() == ChakraProtoMsg::MEM_LOAD_NODE ? "read" : "write"},
                        {"bytes", byte_string(required_size(f_, node, at, "tensor_size"))}};
        generic_stream = kMemoryStream;
        break;
      case ChakraProtoMsg::COMM_SEND_NODE:
      case ChakraProtoMsg::COMM_RECV_NODE:
        op["p2p"] = transfer(node, at, extra);
        generic_stream = node.type() == ChakraProtoMsg::COMM_SEND_NODE ? kSendStream : kRecvStream;
        break;
      default:
        throw core::InputError(
            f_.path, at + "/type",
            "node type " + ChakraProtoMsg::NodeType_Name(node.type()) +
                " is not replayed (supported: COMP, COMM_COLL, COMM_SEND, COMM_RECV, MEM_LOAD, "
                "MEM_STORE; METADATA and CPU nodes are skipped)");
    }
    if (extra)
      extra->finish();
    else
      op["stream"] = generic_stream;
    return op;
  }

  nlohmann::json compute(const Node& node, const std::string& at, std::optional<core::JsonObject>& extra,
                         double& flops) {
    const auto num_ops = integer_attribute(node.attr(), "num_ops", f_.path, at);
    const auto tensor = integer_attribute(node.attr(), "tensor_size", f_.path, at);
    if (num_ops && *num_ops < 0) throw core::InputError(f_.path, at + "/attr/num_ops", "must be >= 0");
    if (tensor && *tensor < 0) throw core::InputError(f_.path, at + "/attr/tensor_size", "must be >= 0");
    const double n = static_cast<double>(num_ops.value_or(0));
    nlohmann::json c = {{"flops", core::to_string(core::Flops(n))},
                        {"bytes", byte_string(tensor.value_or(0))}};
    flops += n;
    if (extra) {
      c["dtype"] = extra->string("dtype");
      c["work"] = extra->string("work");
      if (extra->has("kernels")) c["kernels"] = extra->integer("kernels", 0, 1 << 30);
      if (extra->has("memory")) c["memory"] = extra->string("memory");
      if (extra->has("scaled_by")) c["scaled_by"] = extra->integer("scaled_by", 0, 1ll << 31);
      if (extra->has("duration")) c["duration"] = extra->string("duration");
      return c;
    }
    const ComputeKind kind = compute_kind_of(node, f_.path, at);
    c["dtype"] = core::to_string(kind.dtype.value_or(core::Dtype::kBf16));
    c["work"] = kind.work.value_or(core::WorkKind::kMatrix) == core::WorkKind::kMatrix ? "matrix" : "vector";
    if (n == 0 && node.duration_micros() > 0) {
      c["duration"] = core::to_string(core::Seconds(static_cast<double>(node.duration_micros()) * 1e-6));
      ++report_.measured_durations;
    } else {
      report_.assumed_bf16 += kind.dtype ? 0 : 1;
      report_.assumed_matrix += kind.work ? 0 : 1;
    }
    return c;
  }

  nlohmann::json collective(const Node& node, const std::string& at, std::optional<core::JsonObject>& extra) {
    const auto type = integer_attribute(node.attr(), "comm_type", f_.path, at);
    if (!type)
      throw core::InputError(f_.path, at + "/attr", "expected attribute \"comm_type\" on a COMM_COLL node");
    const bool barrier = *type == ChakraProtoMsg::BARRIER;
    nlohmann::json c = {{"kind", collective_name(f_, at, *type)},
                        {"bytes", byte_string(barrier ? 0 : required_size(f_, node, at, "comm_size"))}};
    const auto group = string_attribute(node.attr(), "pg_name", f_.path, at).value_or("");
    const bool gather = *type == ChakraProtoMsg::ALL_GATHER;
    if (extra) {
      // zettasim's own all-gather states its whole buffer S beside the per-rank comm_size.
      if (gather && extra->has("bytes")) c["bytes"] = extra->string("bytes");
      // The communicator's name; exports before numeric process groups carried it as the pg_name.
      if (extra->has("communicator"))
        c["communicator"] = extra->string("communicator");
      else if (!group.empty())
        c["communicator"] = group;
      else
        throw core::InputError(f_.path, at + "/attr", "expected attribute \"pg_name\" (the communicator)");
      if (extra->has("dispatch")) c["dispatch"] = extra->required("dispatch");
      return c;
    }
    // An all-gather's comm_size is each rank's input (PyTorch's observer, ASTRA-sim): S is n times it.
    auto gathered = [&](uint64_t members) {
      if (gather)
        c["bytes"] = core::to_string(core::Bytes(static_cast<double>(required_size(f_, node, at, "comm_size")) *
                                                 static_cast<double>(members)));
    };
    if (!group.empty()) {
      c["communicator"] = process_group(group, at);
      gathered(group_size(group));
      return c;
    }
    if (const auto* dims = find_attribute(node.attr(), "involved_dim"); dims != nullptr) {
      if (dims->value_case() != ChakraProtoMsg::AttributeProto::kBoolList)
        throw core::InputError(f_.path, at + "/attr/involved_dim", "expected a list of booleans");
      for (bool d : dims->bool_list().values())
        if (!d)
          throw core::InputError(f_.path, at + "/attr/involved_dim",
                                 "a collective over some network dimensions only: its members are not "
                                 "known to zettasim (all dimensions, or none given, mean all ranks)");
    }
    c["communicator"] = layout_.every_rank;
    gathered(layout_.ranks);
    return c;
  }

  /// The number of members of process group `id`, which process_group has checked.
  uint64_t group_size(const std::string& id) const {
    const auto* members = layout_.groups == nullptr ? nullptr : layout_.groups->find(id);
    return members == nullptr ? layout_.ranks : members->size();  // "0" without a listing: every rank
  }

  /// The communicator of process group `id` (a node's pg_name), which this rank must be a member of.
  std::string process_group(const std::string& id, const std::string& at) const {
    const std::string quoted = core::quoted_for_message(id, 24);
    // As in ASTRA-sim, group "0" is all ranks unless the group file lists it.
    if (id == "0" && (layout_.groups == nullptr || layout_.groups->find(id) == nullptr))
      return layout_.every_rank;
    if (layout_.groups == nullptr)
      throw core::InputError(
          f_.path, at + "/attr/pg_name",
          "process group " + quoted +
              ": its members are not known; give the communicator-group file that lists "
              "them (trace gen --comm-groups FILE, or \"comm_groups\" beside \"chakra\" in "
              "a scenario; it is not looked for beside the traces)");
    const auto* members = layout_.groups->find(id);
    if (members == nullptr)
      throw core::InputError(f_.path, at + "/attr/pg_name",
                             "process group " + quoted + " is not in " + layout_.groups->file +
                                 " (its groups: " + layout_.groups->ids() + ")");
    if (!std::binary_search(members->begin(), members->end(), rank_)) {
      std::string listed;
      for (uint64_t m : *members) listed += (listed.empty() ? "" : ", ") + std::to_string(m);
      throw core::InputError(f_.path, at + "/attr/pg_name",
                             "rank " + std::to_string(rank_) + " is not a member of process group " + quoted +
                                 " (" + layout_.groups->file + " lists " + listed + ")");
    }
    return layout_.mesh->communicator_of.at(id);
  }

  nlohmann::json transfer(const Node& node, const std::string& at, std::optional<core::JsonObject>& extra) {
    const bool send = node.type() == ChakraProtoMsg::COMM_SEND_NODE;
    const char* peer_key = send ? "comm_dst" : "comm_src";
    const auto peer = integer_attribute(node.attr(), peer_key, f_.path, at);
    if (!peer)
      throw core::InputError(f_.path, at + "/attr", std::string("expected attribute \"") + peer_key + "\"");
    if (*peer < 0 || static_cast<uint64_t>(*peer) >= layout_.ranks || static_cast<uint64_t>(*peer) == rank_)
      throw core::InputError(f_.path, at + "/attr/" + peer_key,
                             "peer rank " + std::to_string(*peer) + " is not another rank of this " +
                                 std::to_string(layout_.ranks) + "-rank job");
    nlohmann::json p = {{"direction", send ? "send" : "recv"},
                        {"bytes", byte_string(required_size(f_, node, at, "comm_size"))}};
    if (!extra) {
      p["axis"] = layout_.every_rank;
      p["offset"] = *peer - static_cast<int64_t>(rank_);
      return p;
    }
    const workload::Mesh& mesh = layout_.zettasim->mesh;
    const std::string axis = extra->string("axis");
    const auto axis_index = mesh.axis_index(axis);
    if (!axis_index) throw extra->error("axis", "\"" + axis + "\" is not a mesh axis");
    const int64_t offset = extra->integer("offset", -(1 << 20), 1 << 20);
    const bool wrap = extra->boolean_or("wrap", false);
    const auto expected = mesh.neighbour(rank_, *axis_index, offset, wrap);
    if (!expected || *expected != static_cast<uint64_t>(*peer))
      throw core::InputError(f_.path, at + "/attr/" + peer_key,
                             "peer rank " + std::to_string(*peer) + " is not the rank " +
                                 std::to_string(offset) + " steps along \"" + axis + "\" from rank " +
                                 std::to_string(rank_));
    p["axis"] = axis;
    p["offset"] = offset;
    if (wrap) p["wrap"] = true;
    return p;
  }

  const RankFile& f_;
  uint64_t rank_;
  const Layout& layout_;
  ChakraImportReport& report_;
  std::unordered_map<uint64_t, size_t> position_;
};

}  // namespace

RankFile read_rank_file(const std::string& path, const std::string& bytes) {
  RankFile f;
  f.path = path;
  RecordReader reader(bytes, path);
  if (!reader.next(f.meta, "/metadata"))
    throw core::InputError(path, "", "empty file: a Chakra trace starts with a GlobalMetadata record");
  Node node;
  while (reader.next(node, "/nodes/" + std::to_string(f.nodes.size()))) {
    f.nodes.push_back(std::move(node));
    node.Clear();
  }
  return f;
}

/// The "zettasim" attribute of a record (at JSON-style `path`) parsed as JSON, or null when absent.
nlohmann::json zettasim_attribute(
    const google::protobuf::RepeatedPtrField<ChakraProtoMsg::AttributeProto>& attrs, const std::string& file,
    const std::string& path) {
  const auto text = string_attribute(attrs, kZettasimAttribute, file, path);
  if (!text) return nullptr;
  try {
    return core::parse_json(*text, "");
  } catch (const core::InputError& e) {
    throw core::InputError(file, path + "/attr/zettasim" + e.json_path(), "malformed JSON: " + e.message());
  }
}

nlohmann::json convert_rank(const RankFile& f, uint64_t rank, const Layout& layout,
                            ChakraImportReport& report, double& flops) {
  return RankConverter(f, rank, layout, report).convert(flops);
}

}  // namespace zs::chakra
