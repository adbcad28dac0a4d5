// Expert dispatch draws kept for the all-to-alls that share them: the same sizes, routed once.
#include <doctest/doctest.h>

#include "workload/dispatch_draws.hpp"

using namespace zs;

namespace {

workload::ExpertDispatch zipf_dispatch(uint64_t seed, bool combine) {
  workload::ExpertDispatch d;
  d.routing.distribution = workload::ExpertRoutingModel::Distribution::kZipf;
  d.routing.zipf_exponent = 1.2;
  d.tokens = 512;
  d.experts = 16;
  d.top_k = 2;
  d.bytes_per_token = core::Bytes(combine ? 8192.0 : 4096.0);
  d.seed = seed;
  d.combine = combine;
  return d;
}

void check_same(const workload::DispatchSizes& a, const workload::DispatchSizes& b) {
  CHECK(a.peer_bytes == b.peer_bytes);
  CHECK(a.load_of_member == b.load_of_member);
}

}  // namespace

TEST_CASE("a layer's dispatch and combine, forward and backward, are routed once and sized as drawn alone") {
  workload::DispatchDraws draws;
  for (int pass = 0; pass < 2; ++pass)  // forward, then backward: the same four draws
    for (bool combine : {false, true}) {
      const auto d = zipf_dispatch(7, combine);
      check_same(draws.sizes(d, 8, 3), workload::dispatch_sizes(d, 8, 3));
    }
  CHECK(draws.routed() == 1);
  // Another group, seed or routing model is another draw.
  (void)draws.sizes(zipf_dispatch(7, false), 8, 4);
  (void)draws.sizes(zipf_dispatch(8, false), 8, 3);
  auto uniform = zipf_dispatch(7, false);
  uniform.routing.distribution = workload::ExpertRoutingModel::Distribution::kUniform;
  check_same(draws.sizes(uniform, 8, 3), workload::dispatch_sizes(uniform, 8, 3));
  CHECK(draws.routed() == 4);
}

TEST_CASE("draws beyond the kept bytes are dropped oldest first and routed again, to the same sizes") {
  workload::DispatchDraws draws(2 * 8 * 8 * sizeof(uint64_t));  // two 8-member draws
  for (uint64_t group : {0, 1, 2}) (void)draws.sizes(zipf_dispatch(1, false), 8, group);
  CHECK(draws.routed() == 3);
  (void)draws.sizes(zipf_dispatch(1, true), 8, 2);  // kept
  CHECK(draws.routed() == 3);
  const auto d = zipf_dispatch(1, true);
  check_same(draws.sizes(d, 8, 0), workload::dispatch_sizes(d, 8, 0));  // dropped: routed again
  CHECK(draws.routed() == 4);
  workload::DispatchDraws none(0);  // nothing kept
  for (int i = 0; i < 2; ++i) check_same(none.sizes(d, 8, 0), workload::dispatch_sizes(d, 8, 0));
  CHECK(none.routed() == 2);
}
