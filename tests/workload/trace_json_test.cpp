// The trace file format: exact round trips and strict reading with paths in every error.
#include <doctest/doctest.h>

#include "core/input_error.hpp"
#include "support/test_models.hpp"
#include "workload/megatron_generator.hpp"
#include "workload/trace_json.hpp"

using namespace zs;

namespace {
workload::Trace moe_trace() {
  auto m = test::gpt("moe", 4, 512, 8, 2048, 1000, 256);
  m.moe = workload::MoeSpec{8, 2, 1, 512, 0, 1.25};
  workload::ParallelPlan p;
  p.data_parallel = 4;
  p.tensor_parallel = 2;
  p.pipeline_parallel = 2;
  p.expert_parallel = 2;
  p.sequence_parallel = true;
  p.zero_stage = 1;
  p.offload_optimizer = true;
  p.global_batch = 8;
  p.routing.distribution = workload::ExpertRoutingModel::Distribution::kZipf;
  p.routing.zipf_exponent = 1.1;
  return workload::generate_megatron_trace(m, p);
}

std::string error_of(nlohmann::json doc) {
  try {
    workload::trace_from_json(doc, "t.json");
  } catch (const core::InputError& e) {
    return e.what();
  }
  return "(no error)";
}
}  // namespace

TEST_CASE("a generated trace survives JSON and back unchanged, to the bit") {
  auto trace = moe_trace();
  auto doc = workload::trace_to_json(trace);
  auto back = workload::trace_from_json(nlohmann::json::parse(doc.dump()), "t.json");
  CHECK(workload::trace_to_json(back) == doc);
  REQUIRE(back.roles.size() == trace.roles.size());
  CHECK(back.roles[0].memory->total() == trace.roles[0].memory->total());
  CHECK(back.communicators.size() == 3);  // dp, expert-dp, gradient-norm
  size_t dispatches = 0, memory_moves = 0;
  for (const auto& op : back.roles[1].ops) {
    if (const auto* c = std::get_if<workload::CollectiveOp>(&op.body); c && c->dispatch) ++dispatches;
    if (std::holds_alternative<workload::MemoryOp>(op.body)) ++memory_moves;
  }
  CHECK(dispatches > 0);
  CHECK(memory_moves == 2);  // optimizer state loaded and stored
}

TEST_CASE("malformed traces: one line with the file, the JSON path and what was expected") {
  auto doc = workload::trace_to_json(moe_trace());
  size_t c = 0;  // the first compute op of role 0
  while (!doc["roles"][0]["ops"][c].contains("compute")) ++c;
  const std::string at = "t.json: /roles/0/ops/" + std::to_string(c);
  auto with = [&](auto edit) {
    auto d = doc;
    edit(d);
    return error_of(d);
  };
  CHECK(with([](auto& d) { d["format_version"] = 2; }) ==
        "t.json: /format_version: this zettasim reads trace format version 1, not 2");
  CHECK(with([&](auto& d) {
          d["roles"][0]["ops"][c]["compute"]["flops"] = "12 GB";
        }).find(at + "/compute/flops: ") == 0);
  CHECK(with([](auto& d) {
          d["roles"][0]["ops"][0]["colour"] = "red";
        }).find("t.json: /roles/0/ops/0/colour: ") == 0);
  CHECK(with([](auto& d) { d["roles"][0]["ops"][3]["deps"] = {7}; }) ==
        "t.json: /roles/0/ops/3/deps/0: a dependency must name an earlier op of the same program");
  CHECK(with([](auto& d) { d["roles"].erase(1); }) ==
        "t.json: /roles: expected one role program per coordinate of axis \"pp\" (2), got 1");
  CHECK(with([](auto& d) {
          d["communicators"][0]["axes"] = {"ep", "zz"};
        }) == "t.json: /communicators/0/axes/1: \"zz\" is not a mesh axis");
  CHECK(with([&](auto& d) { d["roles"][0]["ops"][c].erase("compute"); }) ==
        at + ": an op has exactly one of \"compute\", \"collective\", \"memory\", \"p2p\" (found 0)");
  CHECK(error_of(nlohmann::json::array()) == "t.json: expected a JSON object (a trace)");
}

TEST_CASE("communicators of listed groups: read and written back, each group checked against the mesh") {
  // Four ranks, one role: an all-reduce on the listed pairs {0, 1} and {2, 3}.
  const nlohmann::json doc = {
      {"kind", "trace"},
      {"format_version", 1},
      {"name", "pairs"},
      {"mesh", {{{"name", "r"}, {"size", 4}}}},
      {"streams", {"comm"}},
      {"model_flops", "0FLOP"},
      {"model_dtype", "bf16"},
      {"tokens_per_iteration", 0},
      {"communicators", {{{"name", "pair"}, {"groups", {{0, 1}, {2, 3}}}}}},
      {"roles",
       {{{"name", "all"},
         {"ops",
          {{{"name", "ar"},
            {"phase", "x"},
            {"stream", 0},
            {"collective", {{"kind", "all-reduce"}, {"communicator", "pair"}, {"bytes", "1MB"}}}}}}}}}};
  const auto t = workload::trace_from_json(doc, "t.json");
  REQUIRE(t.has_explicit_groups());
  const auto groups = t.groups_of("pair");
  REQUIRE(groups.has_value());
  CHECK_FALSE(groups->on_mesh());
  CHECK(groups->members(3) == std::vector<uint64_t>{2, 3});
  CHECK(groups->position(3) == 1);
  CHECK(groups->count() == 2);
  CHECK_FALSE(t.communicator_axes("pair").has_value());
  CHECK(workload::trace_to_json(t) == doc);
  auto with = [&](auto edit) {
    auto d = doc;
    edit(d);
    return error_of(d);
  };
  CHECK(with([](auto& d) {
          d["communicators"][0]["groups"] = {{0, 1}, {1, 2}};
        }) == "t.json: /communicators/0/groups/1/0: rank 1 is in two groups of \"pair\"");
  CHECK(with([](auto& d) {
          d["communicators"][0]["groups"] = {{1, 0}};
        }) == "t.json: /communicators/0/groups/0/1: expected ascending ranks");
  CHECK(with([](auto& d) {
          d["communicators"][0]["groups"] = {{0, 9}};
        }) == "t.json: /communicators/0/groups/0/1: rank 9 is not in the 4-rank mesh");
  CHECK(with([](auto& d) { d["communicators"][0]["groups"] = nlohmann::json::array(); }) ==
        "t.json: /communicators/0/groups: expected a non-empty array of groups, each an array of ranks");
  CHECK(with([](auto& d) { d["communicators"][0]["axes"] = {"r"}; }) ==
        "t.json: /communicators/0: a communicator has mesh axes or explicit groups, not both");
  CHECK(with([](auto& d) {
          d["communicators"][0]["groups"] = {{0, 1}};
        }) ==
        "t.json: /roles/0/ops/0/communicator: rank 2 issues a collective on \"pair\", whose listed groups do "
        "not hold it");
  CHECK(with([](auto& d) { d["role_axis"] = "pair"; }) ==
        "t.json: /role_axis: \"pair\" is neither a mesh axis nor a communicator over mesh axes");
}

TEST_CASE("expert routing in a trace is read with the plan's rules: histogram length, known names") {
  auto doc = workload::trace_to_json(moe_trace());
  size_t r = 0, k = 0;  // the first expert dispatch
  for (; r < doc["roles"].size(); ++r) {
    for (k = 0; k < doc["roles"][r]["ops"].size(); ++k)
      if (doc["roles"][r]["ops"][k].contains("collective") &&
          doc["roles"][r]["ops"][k]["collective"].contains("dispatch"))
        break;
    if (k < doc["roles"][r]["ops"].size()) break;
  }
  REQUIRE(r < doc["roles"].size());
  const std::string at =
      "t.json: /roles/" + std::to_string(r) + "/ops/" + std::to_string(k) + "/collective/dispatch/routing/";
  auto routing = [&](nlohmann::json value) {
    auto d = doc;
    d["roles"][r]["ops"][k]["collective"]["dispatch"]["routing"] = value;
    return error_of(d);
  };
  CHECK(routing({{"distribution", "histogram"}, {"histogram", {1, 2}}}) ==
        at + "histogram: expected an array of 8 non-negative weights, one per routed expert");
  CHECK(routing({{"distribution", "pareto"}}) ==
        at + "distribution: unknown distribution \"pareto\" (known: uniform, zipf, histogram)");
  CHECK(routing({{"distribution", "zipf"}, {"exponent", 1.0}, {"overflow", "spill"}}) ==
        at + "overflow: unknown overflow policy \"spill\" (known: drop, reroute)");
  CHECK(routing({{"distribution", "uniform"}}) == "(no error)");
}

TEST_CASE("the CBOR form carries the same document, is smaller, and malformed bytes are one error line") {
  const auto trace = moe_trace();
  const std::string cbor = workload::trace_to_cbor(trace);
  const std::string json = workload::trace_to_json(trace).dump();
  CHECK(cbor.size() < json.size());
  CHECK(static_cast<unsigned char>(cbor[0]) == 0xD9);
  auto doc = workload::parse_trace_document(cbor, "t.cbor");
  CHECK(doc == workload::trace_to_json(trace));
  CHECK(workload::parse_trace_document(json, "t.json") == doc);  // JSON still reads
  std::string broken = cbor.substr(0, cbor.size() / 2);
  try {
    workload::parse_trace_document(broken, "t.cbor");
    FAIL("no error");
  } catch (const core::InputError& e) {
    CHECK(std::string(e.what()).rfind("t.cbor: malformed CBOR trace: ", 0) == 0);
  }
}
