// Chakra traces whose collectives run on process groups, with ASTRA-sim's communicator-group file.
#include <doctest/doctest.h>

#include <fstream>

#include "chakra/chakra_import.hpp"
#include "chakra/comm_groups.hpp"
#include "core/input_error.hpp"
#include "engine/simulation.hpp"
#include "policy/collective/ring_collective.hpp"
#include "policy/placement/linear_placement.hpp"
#include "support/approx.hpp"
#include "support/chakra_files.hpp"
#include "support/temp_dir.hpp"
#include "support/test_machines.hpp"
#include "topology/routing.hpp"

using namespace zs;

namespace {

constexpr uint32_t kRanks = 8;
constexpr double kTensorBytes = 32.0 * 1024 * 1024;
constexpr double kDataBytes = 256.0 * 1024 * 1024;
/// Tensor-parallel pairs, then data-parallel groups of four, with numeric ids as ASTRA-sim's files have.
constexpr const char* kGroups =
    R"({"0": [0, 1], "1": [2, 3], "2": [4, 5], "3": [6, 7], "4": [0, 2, 4, 6], "5": [1, 3, 5, 7]})";

/// Rank r: an all-reduce on its tensor-parallel pair, then one on its data-parallel group.
std::string write_tp_dp(const test::TempDir& dir, const std::string& name = "tpdp") {
  for (uint32_t r = 0; r < kRanks; ++r)
    test::write_chakra_rank(dir, name, r,
                            {test::chakra_all_reduce(1, std::to_string(r / 2), uint64_t(kTensorBytes), 0),
                             test::chakra_all_reduce(2, std::to_string(4 + r % 2), uint64_t(kDataBytes), 1)});
  return dir.file(name);
}

std::string write_groups(const test::TempDir& dir, const std::string& name, const std::string& text) {
  std::ofstream(dir.file(name)) << text;
  return dir.file(name);
}

std::string import_error(const std::string& prefix, const std::string& groups) {
  return test::chakra_import_error(prefix, groups);
}

std::string mesh_error(const std::string& text, uint64_t ranks) {
  test::TempDir dir;
  core::DiskFileSource files;
  try {
    chakra::mesh_of_groups(chakra::read_comm_groups(write_groups(dir, "g.json", text), files, ranks), ranks);
  } catch (const core::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("tensor- and data-parallel groups form a mesh, and each all-reduce takes its group's ring time") {
  test::TempDir dir;
  core::DiskFileSource files;
  const auto imported =
      chakra::import_chakra(write_tp_dp(dir), files, write_groups(dir, "groups.json", kGroups));
  const auto& t = imported.trace;
  CHECK(imported.report.comm_groups == dir.file("groups.json"));
  REQUIRE(t.mesh.axes().size() == 2);
  CHECK(t.mesh.axes()[0].name == "pg4");  // the data-parallel groups: stride 2
  CHECK(t.mesh.axes()[0].size == 4);
  CHECK(t.mesh.axes()[1].name == "pg0");  // the tensor-parallel pairs: stride 1
  CHECK(t.mesh.axes()[1].size == 2);
  CHECK(t.role_axis == "rank");
  CHECK(t.roles.size() == kRanks);
  CHECK(t.role_of(5) == 5);
  CHECK(std::get<workload::CollectiveOp>(t.roles[3].ops[0].body).communicator == "pg0");
  CHECK(std::get<workload::CollectiveOp>(t.roles[3].ops[1].body).communicator == "pg4");

  const test::SwitchRing net{int(kRanks)};
  const auto& machine = net.machine;
  auto ring = [&](double n, double bytes) { return net.all_reduce(n, bytes); };
  const auto result = engine::simulate(machine, t, policy::LinearPlacement(), policy::RingCollective());
  CHECK(result.replay.iteration_time.value() ==
        zs::test::approx(ring(2, kTensorBytes) + ring(4, kDataBytes)).epsilon(0.01));
  CHECK(result.replay.collectives == 4 + 2);  // one per group
  const auto& split = result.replay.ranks[0].exposed_by_communicator;
  REQUIRE(split.size() == 2);
  CHECK(split[0].first == "pg0");
  CHECK(split[0].second.value() == zs::test::approx(ring(2, kTensorBytes)).epsilon(0.01));
}

TEST_CASE("process groups refused with one line naming the file and the record") {
  test::TempDir dir;
  const std::string prefix = write_tp_dp(dir);
  SUBCASE("no group file") {
    CHECK(import_error(prefix, "") ==
          prefix +
              ".0.et: /nodes/1/attr/pg_name: process group \"4\": its members are not known; give the "
              "communicator-group file that lists them (trace gen --comm-groups FILE, or \"comm_groups\" "
              "beside \"chakra\" in a scenario; it is not looked for beside the traces)");
  }
  SUBCASE("a group file that cannot be read") {
    CHECK(import_error(prefix, dir.file("none.json")) ==
          dir.file("none.json") + ": cannot read the communicator-group file (missing or unreadable)");
  }
  SUBCASE("a pg_name the file does not list") {
    const auto groups =
        write_groups(dir, "g.json", R"({"0": [0, 1], "1": [2, 3], "2": [4, 5], "3": [6, 7]})");
    CHECK(import_error(prefix, groups) == prefix +
                                              ".0.et: /nodes/1/attr/pg_name: process group \"4\" is not in " +
                                              groups + " (its groups: \"0\", \"1\", \"2\", \"3\")");
  }
  SUBCASE("a rank that is not a member of its node's group") {
    const auto groups = write_groups(
        dir, "g.json",
        R"({"0": [2, 3], "1": [0, 1], "2": [4, 5], "3": [6, 7], "4": [0, 2, 4, 6], "5": [1, 3, 5, 7]})");
    CHECK(import_error(prefix, groups) == prefix +
                                              ".0.et: /nodes/0/attr/pg_name: rank 0 is not a member of "
                                              "process group \"0\" (" +
                                              groups + " lists 2, 3)");
  }
  SUBCASE("a group listing a rank the trace does not have") {
    const auto groups = write_groups(dir, "g.json", R"({"0": [0, 9]})");
    CHECK(import_error(prefix, groups) ==
          groups + ": /0/1: expected a rank of this 8-rank trace (0 to 7), got 9");
  }
  SUBCASE("members whose nodes disagree on a collective's size") {
    auto nodes =
        std::vector<ChakraProtoMsg::Node>{test::chakra_all_reduce(1, "0", uint64_t(kTensorBytes) + 1, 0),
                                          test::chakra_all_reduce(2, "5", uint64_t(kDataBytes), 1)};
    test::write_chakra_rank(dir, "tpdp", 1, nodes);
    core::DiskFileSource files;
    const auto t = chakra::import_chakra(prefix, files, write_groups(dir, "g.json", kGroups)).trace;
    const auto machine = test::single_switch_machine(int(kRanks), test::unit_model("1PFLOPS", 1, "0s"),
                                                     test::link_model("100GB/s", "1us"));
    std::string error;
    try {
      engine::simulate(machine, t, policy::LinearPlacement(), policy::RingCollective());
    } catch (const core::InputError& e) {
      error = e.what();
    }
    CHECK(error.find("/roles/1/ops/0") != std::string::npos);
    CHECK(error.find("rank 1 issues all-reduce of") != std::string::npos);
    CHECK(error.find("as call 0 on \"pg0\", but its group issued all-reduce of 32MiB") != std::string::npos);
  }
}

TEST_CASE("groups that are not the axes of one mesh run as listed groups, saying why") {
  auto mesh = [](const std::string& text, uint64_t ranks) {
    test::TempDir dir;
    core::DiskFileSource files;
    return chakra::mesh_of_groups(chakra::read_comm_groups(write_groups(dir, "g.json", text), files, ranks),
                                  ranks);
  };
  auto names = [](const chakra::GroupMesh& m) {
    std::string out;
    for (const auto& c : m.communicators) out += (out.empty() ? "" : " ") + c.name;
    return out;
  };
  SUBCASE("groups that leave ranks out: one axis over every rank, the groups listed") {
    const auto m = mesh(R"({"a": [0, 1, 2], "b": [3, 4, 5]})", 8);
    REQUIRE(m.axes.size() == 1);
    CHECK(m.axes[0].size == 8);
    CHECK(m.every_rank == m.axes[0].name);
    REQUIRE(m.communicators.size() == 1);
    CHECK(m.communicators[0].name == "pga");
    CHECK(m.communicators[0].groups == std::vector<std::vector<uint64_t>>{{0, 1, 2}, {3, 4, 5}});
    CHECK(m.communicator_of.at("b") == "pga");
    CHECK(m.listed ==
          std::vector<std::string>{"\"a\", \"b\" (the groups shaped like \"a\" leave rank 6 out)"});
  }
  SUBCASE("overlapping groups of one shape: one communicator per group") {
    const auto m = mesh(R"({"a": [0, 1], "b": [1, 2], "c": [3, 4], "d": [5, 6]})", 8);
    CHECK(names(m) == "pga pgb pgc pgd");
    CHECK(m.listed.at(0).find("(rank 1 is in two groups of the same shape, \"a\" and \"b\")") !=
          std::string::npos);
  }
  SUBCASE("a kind that does not nest with the mesh before it") {
    const auto m =
        mesh(R"({"a": [0, 3], "b": [1, 4], "c": [2, 5], "d": [0, 1], "e": [2, 3], "f": [4, 5]})", 6);
    REQUIRE(m.axes.size() == 2);
    CHECK(m.axes[0].name == "pga");
    CHECK(m.axes[0].size == 2);
    CHECK(m.axes[1].size == 3);
    CHECK(names(m) == "pgd rank");
    CHECK(m.listed ==
          std::vector<std::string>{"\"d\", \"e\", \"f\" (not an axis of the mesh the groups before "
                                   "it form: strides 2 and 3 do not nest)"});
  }
  SUBCASE("a mesh kind, then kinds that each leave ranks out") {
    const auto m = mesh(R"({"a": [0, 2], "b": [1, 3], "c": [4, 6], "d": [5, 7], "e": [0, 3], "f": [1, 4],)"
                        R"( "g": [2, 5], "h": [6, 7]})",
                        8);
    REQUIRE(m.listed.size() == 2);
    CHECK(m.listed[0] == "\"e\", \"f\", \"g\" (the groups shaped like \"e\" leave rank 6 out)");
    CHECK(m.listed[1] == "\"h\" (the groups shaped like \"h\" leave rank 0 out)");
    CHECK(m.communicator_of.at("a") == m.axes[1].name);
  }
  CHECK(mesh_error(R"([[0, 1]])", 2).find("expected an object from each process group's id") !=
        std::string::npos);
}

TEST_CASE("listed groups replay on exactly their members, at their ring time, in exact fidelity only") {
  // Tensor-parallel pairs form the mesh; the "embedding" groups join the first and last pair's ranks
  // (0 with 6, 1 with 7), as Megatron's embedding group joins the first and last pipeline stages.
  test::TempDir dir;
  const std::string groups = write_groups(
      dir, "g.json", R"({"0": [0, 1], "1": [2, 3], "2": [4, 5], "3": [6, 7], "8": [0, 6], "9": [1, 7]})");
  for (uint32_t r = 0; r < kRanks; ++r) {
    std::vector<ChakraProtoMsg::Node> nodes{
        test::chakra_all_reduce(1, std::to_string(r / 2), uint64_t(kTensorBytes), 0)};
    if (r == 0 || r == 6) nodes.push_back(test::chakra_all_reduce(2, "8", uint64_t(kDataBytes), 1));
    if (r == 1 || r == 7) nodes.push_back(test::chakra_all_reduce(2, "9", uint64_t(kDataBytes), 1));
    test::write_chakra_rank(dir, "emb", r, nodes);
  }
  core::DiskFileSource files;
  const auto imported = chakra::import_chakra(dir.file("emb"), files, groups);
  const auto& t = imported.trace;
  REQUIRE(imported.report.listed_groups.size() == 1);
  CHECK(imported.report.listed_groups[0] == "\"8\", \"9\" (the groups shaped like \"8\" leave rank 2 out)");
  CHECK(std::get<workload::CollectiveOp>(t.roles[7].ops[1].body).communicator == "pg8");
  CHECK(t.has_explicit_groups());

  const test::SwitchRing net{int(kRanks)};
  const auto& machine = net.machine;
  auto ring = [&](double n, double bytes) { return net.all_reduce(n, bytes); };
  const auto result = engine::simulate(machine, t, policy::LinearPlacement(), policy::RingCollective());
  CHECK(result.replay.iteration_time.value() ==
        zs::test::approx(ring(2, kTensorBytes) + ring(2, kDataBytes)).epsilon(0.01));
  CHECK(result.replay.collectives == 4 + 2);
  CHECK(result.fidelity_reason.find("communicators \"pg8\" list their groups") != std::string::npos);
  std::string refused;
  try {
    engine::simulate(machine, t, policy::LinearPlacement(), policy::RingCollective(), {},
                     engine::Fidelity::kCollapsed);
  } catch (const core::InputError& e) {
    refused = e.what();
  }
  CHECK(
      refused.find("collapsed fidelity needs communicators over mesh axes, and \"pg8\" list their groups") !=
      std::string::npos);
  // Exported with its group file, and re-imported with and without zettasim's attributes: the same time.
  test::TempDir out;
  const std::string prefix = test::export_chakra_job(t, out);
  for (bool stripped : {false, true}) {
    CAPTURE(stripped);
    if (stripped) test::strip_zettasim_attributes(prefix, kRanks);
    const auto back = chakra::import_chakra(prefix, files, prefix + ".json");
    CHECK(back.report.zettasim_metadata == !stripped);
    CHECK(back.trace.has_explicit_groups());
    const auto again =
        engine::simulate(machine, back.trace, policy::LinearPlacement(), policy::RingCollective());
    CHECK(again.replay.iteration_time.value() == result.replay.iteration_time.value());
  }
}

TEST_CASE("every group kind over the same axes, and single-rank groups, still form a mesh") {
  test::TempDir dir;
  core::DiskFileSource files;
  const auto groups = chakra::read_comm_groups(
      write_groups(dir, "g.json", R"({"all": [0, 1, 2, 3], "s0": [0], "s1": [1], "s2": [2], "s3": [3]})"),
      files, 4);
  const auto mesh = chakra::mesh_of_groups(groups, 4);
  REQUIRE(mesh.axes.size() == 2);
  CHECK(mesh.axes[0].name == "pgall");
  CHECK(mesh.axes[0].size == 4);
  CHECK(mesh.axes[1].name == "single");
  CHECK(mesh.axes[1].size == 1);
  CHECK(mesh.communicator_of.at("s2") == "single");
  CHECK(mesh.every_rank == "rank");
}

TEST_CASE("pg_name \"0\" is all ranks, as in ASTRA-sim, unless the group file lists it") {
  test::TempDir dir;
  for (uint32_t r = 0; r < 4; ++r)
    test::write_chakra_rank(dir, "zero", r, {test::chakra_all_reduce(1, "0", 1024, 0)});
  core::DiskFileSource files;
  const auto all = chakra::import_chakra(dir.file("zero"), files).trace;
  CHECK(std::get<workload::CollectiveOp>(all.roles[2].ops[0].body).communicator == "rank");
  CHECK(all.mesh.group_size(*all.communicator_axes("rank")) == 4);
  for (uint32_t r = 0; r < 4; ++r)
    test::write_chakra_rank(dir, "pairs", r, {test::chakra_all_reduce(1, std::to_string(r / 2), 1024, 0)});
  const auto pairs = chakra::import_chakra(dir.file("pairs"), files,
                                           write_groups(dir, "g.json", R"({"0": [0, 1], "1": [2, 3]})"))
                         .trace;
  CHECK(pairs.mesh.group_size(*pairs.communicator_axes("pg0")) == 2);
}
