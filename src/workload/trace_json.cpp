// Trace <-> JSON, with every quantity as an exact unit string.
#include "workload/trace_json.hpp"

#include <algorithm>

#include "core/file_kind.hpp"
#include "core/input_error.hpp"
#include "core/json_object.hpp"

namespace zs::workload {
namespace {

nlohmann::json op_to_json(const Op& op) {
  nlohmann::json j = {{"name", op.name}, {"phase", op.phase}, {"stream", op.stream}};
  if (!op.deps.empty()) j["deps"] = op.deps;
  if (const auto* c = std::get_if<ComputeOp>(&op.body)) {
    nlohmann::json b = {{"flops", core::to_string(c->flops)},
                        {"bytes", core::to_string(c->bytes)},
                        {"dtype", core::to_string(c->dtype)},
                        {"work", core::to_string(c->kind)}};
    if (c->kernels != 1) b["kernels"] = c->kernels;
    if (c->memory.value() != 0) b["memory"] = core::to_string(c->memory);
    if (c->scaled_by) b["scaled_by"] = *c->scaled_by;
    if (c->duration) b["duration"] = core::to_string(*c->duration);
    j["compute"] = b;
  } else if (const auto* c = std::get_if<CollectiveOp>(&op.body)) {
    nlohmann::json b = {{"kind", to_string(c->kind)},
                        {"communicator", c->communicator},
                        {"bytes", core::to_string(c->bytes)}};
    if (c->dispatch) b["dispatch"] = dispatch_to_json(*c->dispatch);
    j["collective"] = b;
  } else if (const auto* m = std::get_if<MemoryOp>(&op.body)) {
    j["memory"] = {{"direction", m->direction == MemoryDirection::kRead ? "read" : "write"},
                   {"bytes", core::to_string(m->bytes)}};
  } else {
    const auto& p = std::get<P2POp>(op.body);
    nlohmann::json b = {{"direction", p.direction == P2PDirection::kSend ? "send" : "recv"},
                        {"axis", p.axis},
                        {"offset", p.offset},
                        {"bytes", core::to_string(p.bytes)}};
    if (p.wrap) b["wrap"] = true;
    j["p2p"] = b;
  }
  return j;
}

/// A string-valued key that must be one of `names`; returns its index.
size_t choice(core::JsonObject& o, const char* key, std::initializer_list<const char*> names) {
  const std::string v = o.string(key);
  std::string known;
  size_t i = 0;
  for (const char* n : names) {
    if (v == n) return i;
    known += (known.empty() ? "" : ", ") + std::string(n);
    ++i;
  }
  throw o.error(key, "unknown value \"" + v + "\" (known: " + known + ")");
}

std::vector<uint32_t> index_list(core::JsonObject& o, const char* key) {
  std::vector<uint32_t> out;
  const auto* v = o.optional(key);
  if (v == nullptr) return out;
  if (!v->is_array()) throw o.error(key, "expected an array of op indices");
  for (size_t i = 0; i < v->size(); ++i) {
    if (!(*v)[i].is_number_integer() || (*v)[i].get<int64_t>() < 0 ||
        (*v)[i].get<int64_t>() >= (int64_t(1) << 32))
      throw core::InputError(o.file(), o.element_pointer(key, i),
                             "expected an op index (a whole number >= 0)");
    out.push_back((*v)[i].get<uint32_t>());
  }
  return out;
}

/// A communicator's explicit groups: an array of arrays of ranks (order and ranges are validate()'s).
std::vector<std::vector<uint64_t>> rank_lists(core::JsonObject& o, const char* key) {
  std::vector<std::vector<uint64_t>> out;
  const auto* v = o.optional(key);
  if (v == nullptr) return out;
  if (!v->is_array() || v->empty())
    throw o.error(key, "expected a non-empty array of groups, each an array of ranks");
  for (size_t g = 0; g < v->size(); ++g) {
    const auto& group = (*v)[g];
    const std::string at = o.element_pointer(key, g);
    if (!group.is_array()) throw core::InputError(o.file(), at, "expected an array of ranks");
    auto& ranks = out.emplace_back();
    for (size_t k = 0; k < group.size(); ++k) {
      if (!group[k].is_number_integer() || group[k].get<int64_t>() < 0)
        throw core::InputError(o.file(), at + "/" + std::to_string(k),
                               "expected a rank (a whole number >= 0)");
      ranks.push_back(group[k].get<uint64_t>());
    }
  }
  return out;
}

Op read_op(core::JsonObject o) {
  Op op;
  op.name = o.string("name");
  op.phase = o.string("phase");
  op.stream = static_cast<uint32_t>(o.integer("stream", 0, 1 << 16));
  op.deps = index_list(o, "deps");
  int bodies = 0;
  for (const char* k : {"compute", "collective", "memory", "p2p"}) bodies += o.has(k) ? 1 : 0;
  if (bodies != 1)
    throw o.error("an op has exactly one of \"compute\", \"collective\", \"memory\", \"p2p\" (found " +
                  std::to_string(bodies) + ")");
  if (o.has("compute")) {
    auto b = o.object("compute");
    ComputeOp c{b.flops("flops", core::Bound::kNonNegative), b.bytes("bytes", core::Bound::kNonNegative)};
    auto dtype = core::parse_dtype(b.string("dtype"));
    if (!dtype) throw b.error("dtype", "unknown dtype (known: fp4, fp8, bf16, fp16, tf32, fp32, fp64)");
    c.dtype = *dtype;
    auto work = core::parse_work_kind(b.string("work"));
    if (!work) throw b.error("work", "unknown work kind (known: matrix, vector)");
    c.kind = *work;
    c.kernels = static_cast<uint32_t>(b.integer_or("kernels", 1, 0, 1 << 30));
    if (b.has("memory")) c.memory = b.bytes("memory", core::Bound::kNonNegative);
    if (b.has("scaled_by")) c.scaled_by = static_cast<uint32_t>(b.integer("scaled_by", 0, 1ll << 31));
    if (b.has("duration")) c.duration = b.seconds("duration");
    b.finish();
    op.body = c;
  } else if (o.has("collective")) {
    auto b = o.object("collective");
    CollectiveOp c;
    c.kind = static_cast<CollectiveKind>(choice(
        b, "kind", {"all-reduce", "reduce-scatter", "all-gather", "all-to-all", "broadcast", "reduce"}));
    c.communicator = b.string("communicator");
    c.bytes = b.bytes("bytes", core::Bound::kNonNegative);
    if (b.has("dispatch")) c.dispatch = read_dispatch(b.object("dispatch"));
    b.finish();
    op.body = c;
  } else if (o.has("memory")) {
    auto b = o.object("memory");
    MemoryOp m;
    m.direction =
        choice(b, "direction", {"read", "write"}) == 0 ? MemoryDirection::kRead : MemoryDirection::kWrite;
    m.bytes = b.bytes("bytes", core::Bound::kNonNegative);
    b.finish();
    op.body = m;
  } else {
    auto b = o.object("p2p");
    P2POp p;
    p.direction = choice(b, "direction", {"send", "recv"}) == 0 ? P2PDirection::kSend : P2PDirection::kRecv;
    p.axis = b.string("axis");
    p.offset = static_cast<int32_t>(b.integer("offset", -(1 << 20), 1 << 20));
    p.bytes = b.bytes("bytes", core::Bound::kNonNegative);
    p.wrap = b.boolean_or("wrap", false);
    b.finish();
    op.body = p;
  }
  o.finish();
  return op;
}

nlohmann::json footprint_to_json(const MemoryFootprint& f) {
  nlohmann::json j = {{"weights", core::to_string(f.weights)},
                      {"gradients", core::to_string(f.gradients)},
                      {"optimizer", core::to_string(f.optimizer)},
                      {"activations", core::to_string(f.activations)},
                      {"buffers", core::to_string(f.buffers)}};
  if (f.checkpoint) j["checkpoint"] = core::to_string(*f.checkpoint);
  return j;
}

MemoryFootprint read_footprint(core::JsonObject o) {
  MemoryFootprint f;
  f.weights = o.bytes("weights", core::Bound::kNonNegative);
  f.gradients = o.bytes("gradients", core::Bound::kNonNegative);
  f.optimizer = o.bytes("optimizer", core::Bound::kNonNegative);
  f.activations = o.bytes("activations", core::Bound::kNonNegative);
  f.buffers = o.bytes("buffers", core::Bound::kNonNegative);
  if (o.has("checkpoint")) f.checkpoint = o.bytes("checkpoint", core::Bound::kNonNegative);
  o.finish();
  return f;
}

}  // namespace

nlohmann::json dispatch_to_json(const ExpertDispatch& d) {
  nlohmann::json j = {{"routing", routing_to_json(d.routing)},
                      {"tokens", d.tokens},
                      {"experts", d.experts},
                      {"top_k", d.top_k},
                      {"bytes_per_token", core::to_string(d.bytes_per_token)},
                      {"seed", d.seed}};
  if (d.combine) j["combine"] = true;
  return j;
}

ExpertDispatch read_dispatch(core::JsonObject o) {
  ExpertDispatch d;
  d.experts = static_cast<uint32_t>(o.integer("experts", 1, 1 << 24));
  {
    core::ParamReader r(routing_params(), o.object("routing"));
    d.routing = read_routing(r, d.experts, 0.0);
  }
  d.tokens = static_cast<uint64_t>(o.integer("tokens", 0, int64_t(1) << 40));
  d.top_k = static_cast<uint32_t>(o.integer("top_k", 1, 1 << 24));
  d.bytes_per_token = o.bytes("bytes_per_token");
  d.seed = static_cast<uint64_t>(o.integer("seed", 0, int64_t(1) << 62));
  d.combine = o.boolean_or("combine", false);
  o.finish();
  return d;
}

nlohmann::json trace_to_json(const Trace& trace) {
  nlohmann::json mesh = nlohmann::json::array();
  for (const auto& a : trace.mesh.axes()) mesh.push_back({{"name", a.name}, {"size", a.size}});
  nlohmann::json j = {{"kind", "trace"},
                      {"format_version", Trace::kFormatVersion},
                      {"name", trace.name},
                      {"mesh", mesh},
                      {"streams", trace.streams},
                      {"model_flops", core::to_string(trace.model_flops)},
                      {"model_dtype", core::to_string(trace.model_dtype)},
                      {"tokens_per_iteration", trace.tokens_per_iteration}};
  if (!trace.role_axis.empty()) j["role_axis"] = trace.role_axis;
  if (!trace.communicators.empty()) {
    j["communicators"] = nlohmann::json::array();
    for (const auto& c : trace.communicators)
      j["communicators"].push_back(c.groups.empty() ? nlohmann::json{{"name", c.name}, {"axes", c.axes}}
                                                    : nlohmann::json{{"name", c.name}, {"groups", c.groups}});
  }
  j["roles"] = nlohmann::json::array();
  for (const auto& role : trace.roles) {
    nlohmann::json r = {{"name", role.name}};
    if (role.memory) r["memory"] = footprint_to_json(*role.memory);
    r["ops"] = nlohmann::json::array();
    for (const auto& op : role.ops) r["ops"].push_back(op_to_json(op));
    j["roles"].push_back(std::move(r));
  }
  return j;
}

namespace {
constexpr unsigned char kCborMagic[3] = {0xD9, 0xD9, 0xF7};
}  // namespace

std::string trace_to_cbor(const Trace& trace) {
  std::string out(reinterpret_cast<const char*>(kCborMagic), 3);
  nlohmann::json::to_cbor(trace_to_json(trace), out);
  return out;
}

nlohmann::json parse_trace_document(const std::string& bytes, const std::string& file) {
  if (bytes.size() >= 3 &&
      std::equal(bytes.begin(), bytes.begin() + 3, reinterpret_cast<const char*>(kCborMagic))) {
    return core::parse_cbor(std::string_view(bytes).substr(3), file);
  }
  return core::parse_json(bytes, file);
}

Trace trace_from_json(const nlohmann::json& doc, const std::string& file) {
  if (!doc.is_object()) throw core::InputError(file, "", "expected a JSON object (a trace)");
  core::JsonObject root(doc, file, "");
  if (core::parse_file_kind(root.string("kind")) != core::FileKind::kTrace)
    throw root.error("kind", "expected \"trace\"");
  const auto version = root.integer("format_version", 0, 1 << 20);
  if (version != Trace::kFormatVersion)
    throw root.error("format_version", "this zettasim reads trace format version " +
                                           std::to_string(Trace::kFormatVersion) + ", not " +
                                           std::to_string(version));
  Trace t;
  t.name = root.string("name");
  {
    const auto& axes = root.required("mesh");
    if (!axes.is_array() || axes.empty())
      throw root.error("mesh", "expected a non-empty array of {name, size}");
    std::vector<MeshAxis> mesh;
    for (size_t i = 0; i < axes.size(); ++i) {
      auto a = root.element("mesh", axes[i], i);
      mesh.push_back({a.string("name"), static_cast<uint32_t>(a.integer("size", 1, 1 << 30))});
      a.finish();
    }
    try {
      t.mesh = Mesh(std::move(mesh));
    } catch (const std::invalid_argument& e) {
      throw root.error("mesh", e.what());
    }
  }
  t.streams = root.strings("streams", "an array of stream names", "a stream name");
  t.model_flops = root.flops("model_flops", core::Bound::kNonNegative);
  auto dtype = core::parse_dtype(root.string("model_dtype"));
  if (!dtype)
    throw root.error("model_dtype", "unknown dtype (known: fp4, fp8, bf16, fp16, tf32, fp32, fp64)");
  t.model_dtype = *dtype;
  t.tokens_per_iteration = root.number("tokens_per_iteration", 0.0, 1e30);
  t.role_axis = root.optional_string("role_axis").value_or("");
  if (const auto* comms = root.optional("communicators")) {
    if (!comms->is_array())
      throw root.error("communicators", "expected an array of {name, axes} or {name, groups}");
    for (size_t i = 0; i < comms->size(); ++i) {
      auto c = root.element("communicators", (*comms)[i], i);
      Communicator comm{c.string("name"), {}, rank_lists(c, "groups")};
      if (comm.groups.empty() || c.has("axes"))
        comm.axes = c.strings("axes", "an array of mesh axis names", "an axis name");
      c.finish();
      t.communicators.push_back(std::move(comm));
    }
  }
  const auto& roles = root.required("roles");
  if (!roles.is_array()) throw root.error("roles", "expected an array of role programs");
  for (size_t i = 0; i < roles.size(); ++i) {
    auto r = root.element("roles", roles[i], i);
    RoleProgram role;
    role.name = r.string("name");
    if (r.has("memory")) role.memory = read_footprint(r.object("memory"));
    const auto& ops = r.required("ops");
    if (!ops.is_array()) throw r.error("ops", "expected an array of ops");
    role.ops.reserve(ops.size());
    for (size_t k = 0; k < ops.size(); ++k) role.ops.push_back(read_op(r.element("ops", ops[k], k)));
    r.finish();
    t.roles.push_back(std::move(role));
  }
  root.finish();
  validate(t, file);
  return t;
}

}  // namespace zs::workload
