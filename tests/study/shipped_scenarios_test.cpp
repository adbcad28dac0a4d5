// The shipped scenarios say what they run: every plan fact a description states is the file's, and a
// tensor-parallel job runs on a scale-up fabric unless its description says it has none.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/file_source.hpp"
#include "scenario/scenario_loader.hpp"
#include "study/scenario_simulation.hpp"
#include "support/shipped_scenarios.hpp"
#include "topology/unit_domains.hpp"

using namespace zs;
namespace fs = std::filesystem;

namespace {

/// "16,384" or "one" as a number.
long long number_of(std::string text) {
  if (text == "one") return 1;
  std::erase(text, ',');
  return std::stoll(text);
}

/// Each plan fact the description states that the file contradicts, as "said X, the file has Y".
std::vector<std::string> contradictions(const std::string& description, const nlohmann::json& plan,
                                        uint64_t ranks) {
  std::vector<std::string> found;
  auto check = [&](const std::string& fact, long long said, long long is) {
    if (said != is)
      found.push_back(fact + ": the description says " + std::to_string(said) + ", the file has " +
                      std::to_string(is));
  };
  auto each = [&](const std::string& pattern, auto on_match) {
    const std::regex re(pattern);
    for (std::sregex_iterator m(description.begin(), description.end(), re), end; m != end; ++m) on_match(*m);
  };
  // "data 128 x pipeline 16 x tensor 8", "tensor parallelism 8", "expert parallel 8".
  each(R"(\b(data|pipeline|tensor|expert)(?: parallelism| parallel)? (\d[\d,]*)\b)",
       [&](const std::smatch& m) {
         check(m[1].str() + " parallelism", number_of(m[2]), plan.value(m[1].str() + "_parallel", 1));
       });
  each(R"(\bZeRO-(\d))",
       [&](const std::smatch& m) { check("ZeRO stage", number_of(m[1]), plan.value("zero_stage", 0)); });
  each(R"(\b(selective|full|no)(?: activation)? recomputation)", [&](const std::smatch& m) {
    const std::string is = plan.value("recompute", "none");
    if (m[1].str() != (is == "none" ? "no" : is))
      found.push_back("recomputation: the description says " + m[1].str() + ", the file has " + is);
  });
  each(R"(\bsequence parallelism)", [&](const std::smatch&) {
    if (!plan.value("sequence_parallel", false)) found.push_back("the description says sequence parallelism");
  });
  each(R"(\b(\d[\d,]*|one) micro-batch(?:es)?\b)", [&](const std::smatch& m) {
    const long long replicas = plan.value("data_parallel", 1);
    check("micro-batches per replica", number_of(m[1]),
          plan.value("global_batch", 0LL) / (plan.value("micro_batch", 1LL) * replicas));
  });
  // "16,384 of the H100s", "512 H100s", "the 524,288 B200-class units", "14,336 GPUs".
  each(R"(\b(\d[\d,]*) (?:of the )?(?:[A-Z][\w-]* )?(?:H100s|GPUs|units)\b)",
       [&](const std::smatch& m) { check("ranks", number_of(m[1]), static_cast<long long>(ranks)); });
  return found;
}

/// Whether every tensor-parallel group of the placed job shares one scale-up switch: the switch over its
/// units' widest links, with nothing but endpoints (units, memory pools) on its other ports.
bool tensor_groups_on_scale_up(const scenario::Scenario& s) {
  const auto tp = s.trace.mesh.axis_index("tp");
  if (!tp || s.trace.mesh.axes()[*tp].size < 2) return true;
  const auto placement = study::placement_policy_of(s)->place({s.trace, s.machine, s.seed});
  const auto& topo = s.machine.topology;
  for (uint64_t rank = 0; rank < s.trace.mesh.size(); rank += s.trace.mesh.axes()[*tp].size) {
    std::set<topology::NodeId> switches;
    for (uint64_t member : s.trace.mesh.group_members(rank, *tp)) {
      const auto sw = topology::domain_switch(s.machine, placement.unit_of_rank[member]);
      if (!sw) return false;
      switches.insert(*sw);
    }
    if (switches.size() != 1) return false;
    for (const auto& [neighbour, link] : topo.neighbours(*switches.begin()))
      if (topo.node(neighbour).kind == topology::NodeKind::kSwitch) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("every shipped scenario's description states its file's plan, and tensor groups sit on NVLink") {
  core::DiskFileSource disk;
  int seen = 0;
  for (const fs::path file : test::shipped_scenario_paths()) {
    // The seed design's headline job builds a machine of 524,288 units and its trace: the benchmark runs it.
    if (file.stem() == "moe-10t-512k") continue;
    CAPTURE(file.string());
    const auto doc = nlohmann::json::parse(*disk.read(file.string()));
    const auto s = scenario::ScenarioLoader(disk).load(file.string());
    const std::string description = doc.at("description");
    for (const std::string& contradiction :
         contradictions(description, s.resolved.at("workload"), s.trace.mesh.size()))
      FAIL_CHECK(contradiction);
    const bool says_none = description.find("without NVLink") != std::string::npos;
    CHECK(tensor_groups_on_scale_up(s) == !says_none);
    ++seen;
  }
  CHECK(seen >= 9);
}

TEST_CASE("the description check finds a stated plan fact the file contradicts") {
  const nlohmann::json plan = {{"data_parallel", 128},
                               {"tensor_parallel", 8},
                               {"recompute", "full"},
                               {"global_batch", 8192},
                               {"micro_batch", 1}};
  CHECK(contradictions("16,384 of the H100s, data 128 x tensor 8, full recomputation, 64 micro-batches", plan,
                       16384)
            .empty());
  CHECK(contradictions("data 128 x tensor 4, selective recomputation, ZeRO-1, sequence parallelism, "
                       "32 micro-batches, 1,024 GPUs",
                       plan, 16384) ==
        std::vector<std::string>{"tensor parallelism: the description says 4, the file has 8",
                                 "ZeRO stage: the description says 1, the file has 0",
                                 "recomputation: the description says selective, the file has full",
                                 "the description says sequence parallelism",
                                 "micro-batches per replica: the description says 32, the file has 64",
                                 "ranks: the description says 1024, the file has 16384"});
}
