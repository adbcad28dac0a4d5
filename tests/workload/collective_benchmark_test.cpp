// The collective benchmark: nccl-tests' bus factors, its one-op trace, and its plan's errors.
#include "workload/collective_benchmark.hpp"

#include <doctest/doctest.h>

#include <string>

#include "support/input_error_of.hpp"

using namespace zs;
using workload::CollectiveBenchmark;
using workload::CollectiveKind;

namespace {

CollectiveBenchmark read(const nlohmann::json& plan, uint64_t machine_units) {
  core::ParamReader reader(CollectiveBenchmark::params(), core::JsonObject(plan, "s.json", "/workload"));
  auto b = CollectiveBenchmark::from_params(reader, machine_units);
  reader.finish();
  return b;
}

}  // namespace

TEST_CASE("nccl-tests' bus factors: all-reduce 2(n-1)/n, gathers and scatters (n-1)/n, rooted ones 1") {
  auto factor = [](CollectiveKind kind, uint64_t n) {
    return CollectiveBenchmark{kind, core::Bytes(1.0), n}.bus_factor();
  };
  CHECK(factor(CollectiveKind::kAllReduce, 8) == doctest::Approx(1.75));
  CHECK(factor(CollectiveKind::kAllReduce, 2) == doctest::Approx(1.0));
  CHECK(factor(CollectiveKind::kAllGather, 16) == doctest::Approx(15.0 / 16));
  CHECK(factor(CollectiveKind::kReduceScatter, 4) == doctest::Approx(0.75));
  CHECK(factor(CollectiveKind::kAllToAll, 32) == doctest::Approx(31.0 / 32));
  CHECK(factor(CollectiveKind::kBroadcast, 8) == 1.0);
  CHECK(factor(CollectiveKind::kReduce, 8) == 1.0);
  // 1 GiB all-reduce over 8 ranks in 5 ms: algbw 214.7 GB/s, busbw 1.75 times that.
  const CollectiveBenchmark b{CollectiveKind::kAllReduce, core::Bytes(1073741824.0), 8};
  CHECK(b.algorithm_bandwidth(core::Seconds(5e-3)) == doctest::Approx(214.748e9).epsilon(1e-5));
  CHECK(b.bus_bandwidth(core::Seconds(5e-3)) == doctest::Approx(1.75 * 214.748e9).epsilon(1e-5));
}

TEST_CASE("the trace is the one collective over a world axis of every rank, with its buffers stated") {
  const auto b = read({{"collective", "all-gather"}, {"size", "64MiB"}}, 16);
  CHECK(b.ranks == 16);
  const auto t = workload::generate_collective_trace(b);
  REQUIRE(t.roles.size() == 1);
  REQUIRE(t.roles[0].ops.size() == 1);
  CHECK(t.mesh.size() == 16);
  const auto& op = std::get<workload::CollectiveOp>(t.roles[0].ops[0].body);
  CHECK(op.kind == CollectiveKind::kAllGather);
  CHECK(op.communicator == "world");
  CHECK(op.bytes.value() == 64.0 * 1024 * 1024);
  CHECK(t.model_flops.value() == 0.0);
  CHECK(t.tokens_per_iteration == 0.0);
  // Out of place: the 1/16 input and the whole output.
  CHECK(t.roles[0].memory->buffers.value() == doctest::Approx(64.0 * 1024 * 1024 * 17 / 16));
  CHECK(read({{"collective", "all-reduce"}, {"size", "1MiB"}, {"ranks", 4}}, 16).ranks == 4);
}

TEST_CASE("a collective benchmark's plan errors name the key") {
  CHECK(test::input_error_of([] {
          read({{"collective", "all-sum"}, {"size", "1MiB"}}, 8);
        }).find("/workload/collective") != std::string::npos);
  CHECK(test::input_error_of([] {
          read({{"collective", "all-reduce"}, {"size", "1MiB"}, {"ranks", 1}}, 8);
        }).find("/workload/ranks") != std::string::npos);
  CHECK(test::input_error_of([] {
          read({{"collective", "all-reduce"}, {"size", "1MiB"}}, 1);
        }).find("at least 2 ranks") != std::string::npos);
  CHECK(test::input_error_of([] {
          read({{"collective", "all-reduce"}, {"size", "1MiB"}}, 0);
        }).find("no machine") != std::string::npos);
  CHECK(test::input_error_of([] {
          read({{"collective", "all-reduce"}, {"size", "1Mb/s"}}, 8);
        }).find("/workload/size") != std::string::npos);
}
