// Chakra import and export: the round trip of generated traces, traces written as ASTRA-sim's tools
// write them against closed forms, and the errors of bad files.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <map>

#include "chakra/chakra_attributes.hpp"
#include "chakra/chakra_export.hpp"
#include "chakra/chakra_import.hpp"
#include "chakra/et_records.hpp"
#include "core/input_error.hpp"
#include "engine/simulation.hpp"
#include "et_def.pb.h"
#include "policy/collective/ring_collective.hpp"
#include "policy/placement/linear_placement.hpp"
#include "scenario/scenario_loader.hpp"
#include "support/approx.hpp"
#include "support/chakra_files.hpp"
#include "support/temp_dir.hpp"
#include "support/test_machines.hpp"
#include "topology/routing.hpp"
#include "workload/trace_json.hpp"

using namespace zs;
using ChakraProtoMsg::AttributeProto;
using ChakraProtoMsg::Node;

namespace {

scenario::Scenario shipped(const std::string& name) {
  core::DiskFileSource files;
  return scenario::ScenarioLoader(files).load(std::string(ZS_SOURCE_DIR) + "/scenarios/" + name + ".json");
}

/// Exports `trace` into `dir` as <name>.<rank>.et files; returns the prefix.
std::string export_to(const workload::Trace& trace, const test::TempDir& dir) {
  chakra::export_chakra(trace, "job", [&](const std::string& name, const std::string& bytes) {
    std::ofstream(dir.file(name), std::ios::binary) << bytes;
  });
  return dir.file("job");
}

double iteration(const topology::Machine& m, const workload::Trace& t) {
  return engine::simulate(m, t, policy::LinearPlacement(), policy::RingCollective())
      .replay.iteration_time.value();
}

/// A node; shorthand for test::chakra_node.
Node node(uint64_t id, const std::string& name, ChakraProtoMsg::NodeType type,
          std::vector<uint64_t> data_deps, std::vector<AttributeProto> attrs) {
  return test::chakra_node(id, name, type, std::move(data_deps), std::move(attrs));
}

/// Writes one rank's file; shorthand for test::write_chakra_rank.
void write_rank(const test::TempDir& dir, const std::string& name, uint64_t rank,
                const std::vector<Node>& nodes) {
  test::write_chakra_rank(dir, name, rank, nodes);
}

constexpr uint32_t kRanks = 4;
constexpr double kAllReduceBytes = 64.0 * 1024 * 1024;
constexpr double kSendBytes = 100e6;

/// The program of rank r as ASTRA-sim's examples write it (no zettasim attributes): a metadata node and
/// a CPU op to skip, a 1 TFLOP compute, an all-reduce, a compute with only a measured duration (1 ms), a
/// send to the next rank and a receive from the previous one. Nodes are out of dependency order in the file.
std::vector<Node> astra_style_rank(uint32_t r) {
  std::vector<Node> nodes;
  nodes.push_back(node(5, "all_reduce", ChakraProtoMsg::COMM_COLL_NODE, {2},
                       {chakra::bool_attribute("is_cpu_op", false),
                        chakra::int64_attribute("comm_type", ChakraProtoMsg::ALL_REDUCE),
                        chakra::uint64_attribute("comm_size", uint64_t(kAllReduceBytes))}));
  nodes.push_back(node(1, "metadata", ChakraProtoMsg::METADATA_NODE, {}, {}));
  Node cpu =
      node(2, "aten::launch", ChakraProtoMsg::COMP_NODE, {3}, {chakra::bool_attribute("is_cpu_op", true)});
  cpu.set_duration_micros(40);
  nodes.push_back(cpu);
  nodes.push_back(
      node(3, "gemm", ChakraProtoMsg::COMP_NODE, {1},
           {chakra::bool_attribute("is_cpu_op", false), chakra::int64_attribute("num_ops", 1000000000000),
            chakra::uint64_attribute("tensor_size", 0)}));
  Node measured =
      node(6, "measured", ChakraProtoMsg::COMP_NODE, {5}, {chakra::bool_attribute("is_cpu_op", false)});
  measured.set_duration_micros(1000);
  nodes.push_back(measured);
  nodes.push_back(node(
      7, "send", ChakraProtoMsg::COMM_SEND_NODE, {6},
      {chakra::int32_attribute("comm_src", int32_t(r)),
       chakra::int32_attribute("comm_dst", int32_t((r + 1) % kRanks)),
       chakra::int64_attribute("comm_size", int64_t(kSendBytes)), chakra::int32_attribute("comm_tag", 0)}));
  nodes.push_back(node(
      8, "recv", ChakraProtoMsg::COMM_RECV_NODE, {6},
      {chakra::int32_attribute("comm_src", int32_t((r + kRanks - 1) % kRanks)),
       chakra::int32_attribute("comm_dst", int32_t(r)),
       chakra::int64_attribute("comm_size", int64_t(kSendBytes)), chakra::int32_attribute("comm_tag", 0)}));
  return nodes;
}

std::string write_astra_style(const test::TempDir& dir) {
  for (uint32_t r = 0; r < kRanks; ++r) write_rank(dir, "astra", r, astra_style_rank(r));
  return dir.file("astra");
}

std::string import_error(const std::string& prefix) {
  return test::chakra_import_error(prefix);
}

}  // namespace

TEST_CASE("a generated trace exported to Chakra and imported back is the same trace and replays the same") {
  test::TempDir dir;
  core::DiskFileSource files;
  for (const char* name : {"hgx-3d-parallel", "default"}) {
    CAPTURE(name);
    const auto s = shipped(name);
    test::TempDir out;
    const auto imported = chakra::import_chakra(export_to(s.trace, out), files);
    CHECK(imported.report.zettasim_metadata);
    CHECK(imported.report.ranks == s.trace.mesh.size());
    CHECK(workload::trace_to_json(imported.trace) == workload::trace_to_json(s.trace));
    const double before = iteration(s.machine, s.trace), after = iteration(s.machine, imported.trace);
    CHECK(before > 0);
    CHECK(after == before);
  }
}

TEST_CASE("the round trip keeps expert routing, pipeline transfers and streams of an MoE plan") {
  const auto s = shipped("moe-ep-64");
  test::TempDir out;
  core::DiskFileSource files;
  const auto imported = chakra::import_chakra(export_to(s.trace, out), files);
  CHECK(workload::trace_to_json(imported.trace) == workload::trace_to_json(s.trace));
  size_t dispatches = 0;
  for (const auto& role : imported.trace.roles)
    for (const auto& op : role.ops)
      if (const auto* c = std::get_if<workload::CollectiveOp>(&op.body); c && c->dispatch) ++dispatches;
  CHECK(dispatches > 0);
}

TEST_CASE("export writes what ASTRA-sim's feeder reads: node types, sizes, peers and process groups") {
  const auto s = shipped("hgx-3d-parallel");
  std::map<std::string, std::string> written;
  const uint64_t n = chakra::export_chakra(
      s.trace, "job", [&](const std::string& name, const std::string& bytes) { written[name] = bytes; });
  REQUIRE(n == 8);
  REQUIRE(written.count("job.7.et") == 1);
  REQUIRE(written.count("job.json") == 1);  // the communicator-group file, ASTRA-sim's format
  const auto groups = nlohmann::json::parse(written["job.json"]);
  // Rank 0 is pipeline stage 0: its sends go to stage 1 (rank 4 in the pp x dp x tp mesh).
  chakra::RecordReader reader(written["job.0.et"], "job.0.et");
  ChakraProtoMsg::GlobalMetadata meta;
  REQUIRE(reader.next(meta, "/metadata"));
  CHECK(meta.version() == "0.0.4");
  Node nd;
  size_t nodes = 0, sends = 0, colls = 0, gathers = 0;
  std::map<uint64_t, int> ids;
  const auto& ops = s.trace.program_of(0).ops;
  while (reader.next(nd, "/nodes")) {
    REQUIRE(nd.id() == nodes);
    const auto& op = ops[nodes];
    if (nd.type() == ChakraProtoMsg::COMM_SEND_NODE) {
      ++sends;
      int64_t dst = -1, size = -1;
      for (const auto& a : nd.attr()) {
        if (a.name() == "comm_dst") dst = a.int32_val();
        if (a.name() == "comm_size") size = a.int64_val();
      }
      CHECK(dst == 4);
      CHECK(size == std::llround(std::get<workload::P2POp>(op.body).bytes.value()));
    }
    if (nd.type() == ChakraProtoMsg::COMM_COLL_NODE) {
      ++colls;
      const auto& c = std::get<workload::CollectiveOp>(op.body);
      const auto members = s.trace.mesh.group_members(0, *s.trace.communicator_axes(c.communicator));
      // Each rank's input: an all-gather's S / n, the others' S.
      const double input = c.bytes.value() / (c.kind == workload::CollectiveKind::kAllGather ? members.size() : 1);
      gathers += c.kind == workload::CollectiveKind::kAllGather;
      for (const auto& a : nd.attr()) {
        if (a.name() == "comm_size") CHECK(a.int64_val() == std::llround(input));
        if (a.name() == "pg_name") {  // a number >= 1 whose members are rank 0's group on the communicator
          CHECK(std::stoi(a.string_val()) >= 1);
          std::vector<uint64_t> members = groups.at(a.string_val());
          CHECK(members == s.trace.mesh.group_members(0, *s.trace.communicator_axes(c.communicator)));
        }
      }
    }
    ++nodes;
    nd.Clear();
  }
  CHECK(nodes == ops.size());
  CHECK(sends > 0);
  CHECK(colls > 0);
  CHECK(gathers > 0);  // the tensor-parallel all-gathers of sequence parallelism
}

namespace {

/// One collective on `ranks` ranks as ASTRA-sim's microbenchmarks write it (microbenchmarks/<kind>/
/// <n>npus_<size>): one COMM_COLL_NODE per rank of comm_size `input` bytes, no process group.
std::string write_microbenchmark(const test::TempDir& dir, ChakraProtoMsg::CollectiveCommType type,
                                 uint32_t ranks, int64_t input) {
  for (uint32_t r = 0; r < ranks; ++r)
    write_rank(dir, "micro", r,
               {node(0, "collective", ChakraProtoMsg::COMM_COLL_NODE, {},
                     {chakra::bool_attribute("is_cpu_op", false), chakra::int64_attribute("comm_type", type),
                      chakra::int64_attribute("comm_size", input)})});
  return dir.file("micro");
}

}  // namespace

TEST_CASE("an all-gather's comm_size is each rank's input, as ASTRA-sim's microbenchmarks write it") {
  // all_gather/8npus_1MB: each of 8 ranks contributes 1 MiB and ends with 8 MiB; a ring moves 7 MiB into
  // every rank, 7 MiB / B on 8 units of B per direction (the ring's 7 steps of 1 MiB).
  test::TempDir dir;
  core::DiskFileSource files;
  const auto gather =
      chakra::import_chakra(write_microbenchmark(dir, ChakraProtoMsg::ALL_GATHER, 8, 1 << 20), files);
  const auto& op = std::get<workload::CollectiveOp>(gather.trace.roles.at(0).ops.at(0).body);
  CHECK(op.kind == workload::CollectiveKind::kAllGather);
  CHECK(op.bytes.value() == 8.0 * (1 << 20));
  auto machine = test::single_switch_machine(8, test::unit_model("1PFLOPS", 0.5, "0s"),
                                             test::link_model("100GB/s", "0s"));
  CHECK(iteration(machine, gather.trace) == zs::test::approx(7.0 * (1 << 20) / 100e9).epsilon(1e-6));
  // A reduce-scatter's comm_size is its input too, the whole buffer: reduce_scatter/8npus_1MB reduces 1 MiB.
  test::TempDir rs_dir;
  const auto scatter =
      chakra::import_chakra(write_microbenchmark(rs_dir, ChakraProtoMsg::REDUCE_SCATTER, 8, 1 << 20), files);
  CHECK(std::get<workload::CollectiveOp>(scatter.trace.roles.at(0).ops.at(0).body).bytes.value() == 1 << 20);
}

TEST_CASE("export: all-gathers at each rank's input, a group of every rank as pg 0, compute times in us") {
  // A ZeRO-3 style all-gather of 1 GiB (the gathered buffer) on 8 ranks is written as 128 MiB per rank,
  // which ASTRA-sim's ring gathers back to 1 GiB; the group of all 8 ranks is "0", which ASTRA-sim reads
  // without a group file; and each compute node carries the time the unit takes for it.
  workload::Trace t;
  t.name = "gather";
  t.mesh = workload::Mesh({{"dp", 8}});
  t.streams = {"compute", "dp"};
  workload::ComputeOp gemm{core::Flops(1e12), core::Bytes(0.0), core::Dtype::kBf16, core::WorkKind::kMatrix, 1};
  t.roles = {{"rank",
              {{"gemm", "forward", 0, {}, gemm},
               {"gather", "forward", 1, {0}, workload::CollectiveOp{workload::CollectiveKind::kAllGather, "dp",
                                                                    core::Bytes(1024.0 * 1024 * 1024)}}}}};
  t.model_flops = core::Flops(8e12);
  std::map<std::string, std::string> written;
  chakra::export_chakra(
      t, "job", [&](const std::string& name, const std::string& bytes) { written[name] = bytes; },
      [](uint64_t, const workload::ComputeOp& op) { return core::Seconds(op.flops.value() / 0.5e15); });
  CHECK(nlohmann::json::parse(written.at("job.json")) == nlohmann::json::object());
  chakra::RecordReader reader(written.at("job.3.et"), "job.3.et");
  ChakraProtoMsg::GlobalMetadata meta;
  REQUIRE(reader.next(meta, "/metadata"));
  Node compute, gather;
  REQUIRE(reader.next(compute, "/nodes"));
  REQUIRE(reader.next(gather, "/nodes"));
  CHECK(compute.duration_micros() == 2000);  // 1 TFLOP at 0.5 PFLOP/s
  std::map<std::string, std::string> attrs;
  for (const auto& a : gather.attr())
    attrs[a.name()] = a.has_int64_val() ? std::to_string(a.int64_val()) : a.string_val();
  CHECK(attrs.at("comm_size") == std::to_string(128 << 20));
  CHECK(attrs.at("pg_name") == "0");
  // zettasim reads its own export back whole: the gathered buffer and no measured compute durations.
  test::TempDir dir;
  for (const auto& [name, bytes] : written) std::ofstream(dir.file(name), std::ios::binary) << bytes;
  core::DiskFileSource files;
  const auto back = chakra::import_chakra(dir.file("job"), files);
  CHECK(workload::trace_to_json(back.trace) == workload::trace_to_json(t));
}

TEST_CASE("a Chakra trace in ASTRA-sim's style replays to the closed form of its operations") {
  test::TempDir dir;
  core::DiskFileSource files;
  const auto imported = chakra::import_chakra(write_astra_style(dir), files);
  const auto& r = imported.report;
  CHECK_FALSE(r.zettasim_metadata);
  CHECK(r.ranks == kRanks);
  CHECK(r.nodes == 5 * kRanks);
  CHECK(r.cpu_nodes_skipped == kRanks);
  CHECK(r.cpu_skipped_seconds == zs::test::approx(40e-6 * kRanks));
  CHECK(r.metadata_nodes_skipped == kRanks);
  CHECK(r.assumed_bf16 == kRanks);  // the gemm states no tensor type
  CHECK(r.assumed_matrix == 0);     // and its name says matrix work
  CHECK(r.measured_durations == kRanks);
  const auto& t = imported.trace;
  CHECK(t.mesh.size() == kRanks);
  CHECK(t.roles.size() == kRanks);
  CHECK(t.model_flops.value() == zs::test::approx(1e12 * kRanks));
  // Dependency order: the gemm (file position 3) first, then the all-reduce it reaches through the skipped
  // CPU node.
  const auto& ops = t.roles[1].ops;
  REQUIRE(ops.size() == 5);
  CHECK(ops[0].name == "gemm");
  CHECK(ops[1].name == "all_reduce");
  CHECK(ops[1].deps == std::vector<uint32_t>{0});
  CHECK(std::get<workload::P2POp>(ops[3].body).offset == 1);
  CHECK(std::get<workload::P2POp>(ops[4].body).offset == -1);

  // 1 PFLOP/s units at full efficiency, 100 GB/s links and 1 us per link on one switch.
  const test::SwitchRing net{int(kRanks)};
  const auto& machine = net.machine;
  const double alpha = net.alpha, bw = net.bw;
  const double expected = 1e12 / 1e15                                // gemm
                          + net.all_reduce(kRanks, kAllReduceBytes)  // ring all-reduce
                          + 1e-3                                     // measured compute
                          + alpha + kSendBytes / bw;                 // ring of sends
  CHECK(iteration(machine, t) == zs::test::approx(expected).epsilon(0.01));
}

TEST_CASE("foreign compute nodes run as the data type and kind of work their inputs and op state") {
  // As PyTorch's execution-trace observer and Chakra's converter write them: the op's name, its schema
  // and its inputs' tensor types; num_ops from a cost model. Each node: 10^12 FLOPs.
  auto compute = [](uint64_t id, const std::string& name, const std::string& schema,
                    const std::string& types) {
    auto n = test::chakra_node(id, name, ChakraProtoMsg::COMP_NODE, {},
                               {chakra::int64_attribute("num_ops", 1000000000000)});
    if (!schema.empty()) *n.add_attr() = chakra::string_attribute("op_schema", schema);
    n.mutable_inputs()->set_types(types);
    return n;
  };
  test::TempDir dir;
  for (uint64_t r = 0; r < 2; ++r)
    test::write_chakra_rank(
        dir, "typed", r,
        {compute(1, "aten::add_",
                 "aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)",
                 "['Tensor(c10::Float)', 'Tensor(c10::Float)', 'Int']"),
         compute(2, "aten::mm", "aten::mm(Tensor self, Tensor mat2) -> Tensor",
                 "['Tensor(c10::Long)', 'Tensor(c10::BFloat16)']"),
         compute(3, "fused_kernel_7", "", "")});
  core::DiskFileSource files;
  const auto imported = chakra::import_chakra(dir.file("typed"), files);
  CHECK(imported.report.assumed_bf16 == 2);    // the third node of each rank states no tensor type
  CHECK(imported.report.assumed_matrix == 2);  // nor an op known as matrix or vector work
  const auto& ops = imported.trace.roles[0].ops;
  REQUIRE(ops.size() == 3);
  const auto& add = std::get<workload::ComputeOp>(ops[0].body);
  CHECK(add.dtype == core::Dtype::kFp32);
  CHECK(add.kind == core::WorkKind::kVector);
  const auto& mm = std::get<workload::ComputeOp>(ops[1].body);
  CHECK(mm.dtype == core::Dtype::kBf16);  // the first floating-point input
  CHECK(mm.kind == core::WorkKind::kMatrix);
  const auto& fused = std::get<workload::ComputeOp>(ops[2].body);
  CHECK(fused.dtype == core::Dtype::kBf16);
  CHECK(fused.kind == core::WorkKind::kMatrix);
  // Vector work at 50 TFLOP/s x 0.5, matrix work at 1 PFLOP/s: 40 ms + 1 ms + 1 ms, one after another.
  CHECK(iteration(test::SwitchRing(2).machine, imported.trace) ==
        zs::test::approx(0.040 + 0.001 + 0.001).epsilon(1e-6));
}

TEST_CASE("bad Chakra files are one clear error naming the file and the record") {
  test::TempDir dir;
  auto with_rank0 = [&](const std::string& name, std::vector<Node> nodes) {
    for (uint32_t r = 1; r < kRanks; ++r) write_rank(dir, name, r, astra_style_rank(r));
    write_rank(dir, name, 0, std::move(nodes));
    return dir.file(name);
  };
  SUBCASE("dependency on a missing node") {
    auto nodes = astra_style_rank(0);
    nodes[0].add_data_deps(99);
    CHECK(import_error(with_rank0("missing", nodes))
              .find("missing.0.et: /nodes/0/data_deps/1: depends on node id 99") != std::string::npos);
  }
  SUBCASE("cycle") {
    auto nodes = astra_style_rank(0);
    nodes[3].add_ctrl_deps(6);  // gemm after the measured compute, which follows it
    CHECK(import_error(with_rank0("cycle", nodes)).find("dependency cycle") != std::string::npos);
  }
  SUBCASE("unsupported collective") {
    auto nodes = astra_style_rank(0);
    nodes[0].mutable_attr(1)->set_int64_val(ChakraProtoMsg::GATHER);
    CHECK(import_error(with_rank0("gather", nodes))
              .find("/nodes/0/attr/comm_type: collective type 3 is not replayed") != std::string::npos);
  }
  SUBCASE("process group with unknown members") {
    auto nodes = astra_style_rank(0);
    *nodes[0].add_attr() = chakra::string_attribute("pg_name", "tp_group_3");
    CHECK(import_error(with_rank0("pg", nodes)).find("/nodes/0/attr/pg_name: process group \"tp_group_3\"") !=
          std::string::npos);
  }
  SUBCASE("peer outside the job") {
    auto nodes = astra_style_rank(0);
    nodes[5].mutable_attr(1)->set_int32_val(9);
    CHECK(import_error(with_rank0("peer", nodes)).find("/nodes/5/attr/comm_dst: peer rank 9") !=
          std::string::npos);
  }
  SUBCASE("wrong attribute type") {
    auto nodes = astra_style_rank(0);
    nodes[3].mutable_attr(1)->set_string_val("many");
    CHECK(import_error(with_rank0("type", nodes)).find("/nodes/3/attr/num_ops: expected an integer value") !=
          std::string::npos);
  }
  SUBCASE("truncated file") {
    write_astra_style(dir);
    const std::string full = test::read_text(dir.file("astra.2.et"));
    std::ofstream(dir.file("astra.2.et"), std::ios::binary) << full.substr(0, full.size() - 3);
    CHECK(import_error(dir.file("astra")).find("astra.2.et: /nodes/6: a record of") != std::string::npos);
  }
  SUBCASE("a rank file missing in the middle of the sequence") {
    write_astra_style(dir);
    std::filesystem::remove(dir.file("astra.1.et"));
    CHECK(import_error(dir.file("astra")) ==
          dir.file("astra.1.et") + ": missing, but " + dir.file("astra.2.et") +
              " exists: a trace's rank files are numbered from 0 without gaps");
  }
  SUBCASE("one rank's file instead of the prefix") {
    write_astra_style(dir);
    const std::string prefix = dir.file("astra");
    CHECK(import_error(prefix + ".2.et") == prefix +
                                                ".2.et: this is one rank's file of a Chakra trace: name the "
                                                "trace by its prefix \"" +
                                                prefix + "\" (" + prefix + ".0.et to .3.et found)");
  }
  SUBCASE("no such trace") {
    CHECK(import_error(dir.file("nothing")).find("nothing.0.et: cannot read") != std::string::npos);
  }
  SUBCASE("a zettasim export whose ranks disagree with their role") {
    const auto s = shipped("hgx-3d-parallel");
    std::map<std::string, std::string> written;
    chakra::export_chakra(s.trace, "job",
                          [&](const std::string& n, const std::string& b) { written[n] = b; });
    for (auto& [name, bytes] : written) std::ofstream(dir.file(name), std::ios::binary) << bytes;
    // Rewrite rank 1 (same role as rank 0) with one collective's size changed.
    std::string edited;
    chakra::RecordReader reader(written["job.1.et"], "job.1.et");
    ChakraProtoMsg::GlobalMetadata meta;
    reader.next(meta, "/metadata");
    chakra::append_record(meta, edited);
    Node nd;
    bool changed = false;
    while (reader.next(nd, "/nodes")) {
      if (!changed && nd.type() == ChakraProtoMsg::COMM_COLL_NODE)
        for (auto& a : *nd.mutable_attr())
          if (a.name() == "comm_size") {
            a.set_int64_val(a.int64_val() + 1);
            changed = true;
          }
      chakra::append_record(nd, edited);
      nd.Clear();
    }
    std::ofstream(dir.file("job.1.et"), std::ios::binary) << edited;
    CHECK(import_error(dir.file("job")).find("job.1.et: /nodes: op") != std::string::npos);
    CHECK(import_error(dir.file("job")).find("which runs the same role") != std::string::npos);
  }
}
