// Gradient compression: the bytes each scheme puts on the wire against its closed form, PowerSGD's two
// all-reduces, and the sections a plan refuses.
#include <doctest/doctest.h>

#include <string>

#include "core/param_reader.hpp"
#include "support/approx.hpp"
#include "support/input_error_of.hpp"
#include "workload/gradient_compression.hpp"

using namespace zs;
using workload::CollectiveKind;
using workload::CollectiveOp;
using workload::CompressionScheme;
using workload::GradientCompression;

namespace {

GradientCompression read(const nlohmann::json& section) {
  core::ParamReader r(GradientCompression::params(), core::JsonObject(section, "plan.json", "/gc"));
  auto c = GradientCompression::from_params(r);
  r.finish();
  return c;
}

/// n = 10^6 fp32 gradients over a group of 8 ranks on "dp": 4 weight matrices of 1,000 rows.
workload::GradientReduction reduction(CollectiveKind kind = CollectiveKind::kAllReduce) {
  return {kind, "dp", 1e6, 4.0, 8, 4.0, 1000.0};
}

/// Bytes one rank sends over a ring (or pairwise) collective of S bytes among d ranks: an all-reduce
/// 2 (d - 1) / d S, a reduce-scatter or an all-gather (d - 1) / d S.
double wire_bytes(const std::vector<workload::CompressionStep>& steps, double d) {
  double sent = 0;
  for (const auto& s : steps)
    if (const auto* c = std::get_if<CollectiveOp>(&s.body))
      sent += (c->kind == CollectiveKind::kAllReduce ? 2.0 : 1.0) * (d - 1) / d * c->bytes.value();
  return sent;
}

std::vector<const CollectiveOp*> collectives(const std::vector<workload::CompressionStep>& steps) {
  std::vector<const CollectiveOp*> out;
  for (const auto& s : steps)
    if (const auto* c = std::get_if<CollectiveOp>(&s.body)) out.push_back(c);
  return out;
}

}  // namespace

TEST_CASE("each scheme's bytes on the wire equal its closed form for 10^6 fp32 gradients over 8 ranks") {
  const double n = 1e6, d = 8;
  CHECK(wire_bytes(workload::compressed_reduction(read({{"scheme", "none"}}), reduction()), d) ==
        test::approx(2 * 7 / 8.0 * 4 * n));
  CHECK(wire_bytes(workload::compressed_reduction(read({{"scheme", "bf16"}}), reduction()), d) ==
        test::approx(2 * 7 / 8.0 * 2 * n));
  // int8 with a 4-byte scale per 256 elements: reduce-scatter and all-gather of n (1 + 4/256) B.
  CHECK(wire_bytes(workload::compressed_reduction(read({{"scheme", "int8"}, {"block", 256}}), reduction()),
                   d) == test::approx(2 * 7 / 8.0 * n * (1 + 4 / 256.0)));
  // top-k 1%: every rank receives the other 7 ranks' 10^4 (value, index) pairs of 8 B.
  CHECK(
      wire_bytes(workload::compressed_reduction(read({{"scheme", "top-k"}, {"fraction", 0.01}}), reduction()),
                 d) == test::approx(7 * 0.01 * n * 8));
  // PowerSGD rank 4: P of (4 x 1000) rows x 4, Q of (10^6 / 1000) columns x 4, fp32.
  CHECK(wire_bytes(workload::compressed_reduction(read({{"scheme", "powersgd"}, {"rank", 4}}), reduction()),
                   d) == test::approx(2 * 7 / 8.0 * 4 * 4 * (4000 + 1000)));
}

TEST_CASE("PowerSGD's two all-reduces carry the P and Q factors, with the products between them") {
  const auto steps = workload::compressed_reduction(read({{"scheme", "powersgd"}, {"rank", 2}}), reduction());
  const auto c = collectives(steps);
  REQUIRE(c.size() == 2);
  CHECK(c[0]->kind == CollectiveKind::kAllReduce);
  CHECK(c[0]->bytes.value() == test::approx(4.0 * 4000 * 2));  // P: 4 matrices x 1000 rows x rank 2
  CHECK(c[1]->kind == CollectiveKind::kAllReduce);
  CHECK(c[1]->bytes.value() == test::approx(4.0 * 1000 * 2));  // Q: 10^6 / 1000 columns x rank 2
  double product_flops = 0;
  for (const auto& s : steps)
    if (const auto* op = std::get_if<workload::ComputeOp>(&s.body);
        op && s.name.starts_with("powersgd-") && s.name != "powersgd-orthogonalize-p")
      product_flops += op->flops.value();
  CHECK(product_flops == test::approx(3 * 2 * 1e6 * 2));  // P = G Q, Q = G^T P, G ~ P Q^T
}

TEST_CASE("a reduce-scatter stays one under the casts and int8, each rank decompressing its shard") {
  const auto cast =
      workload::compressed_reduction(read({{"scheme", "fp16"}}), reduction(CollectiveKind::kReduceScatter));
  REQUIRE(collectives(cast).size() == 1);
  CHECK(collectives(cast)[0]->kind == CollectiveKind::kReduceScatter);
  CHECK(collectives(cast)[0]->bytes.value() == test::approx(2e6));
  const auto& back = std::get<workload::ComputeOp>(cast.back().body);
  CHECK(back.bytes.value() == test::approx(1e6 / 8 * (2 + 4)));
  const auto q = workload::compressed_reduction(read({{"scheme", "int8"}, {"block", 128}}),
                                                reduction(CollectiveKind::kReduceScatter));
  REQUIRE(collectives(q).size() == 1);
  CHECK(collectives(q)[0]->kind == CollectiveKind::kReduceScatter);
}

TEST_CASE("none is the one collective of the gradients as held") {
  const auto steps = workload::compressed_reduction(GradientCompression{}, reduction());
  REQUIRE(steps.size() == 1);
  CHECK(std::get<CollectiveOp>(steps[0].body).bytes.value() == test::approx(4e6));
}

TEST_CASE("a compression section names each scheme's own key and refuses the others'") {
  CHECK(test::input_error_of([] {
          read({{"scheme", "top-k"}});
        }).find("/gc: missing key \"fraction\"") != std::string::npos);
  CHECK(test::input_error_of([] {
          read({{"scheme", "powersgd"}});
        }).find("missing key \"rank\"") != std::string::npos);
  CHECK(test::input_error_of([] {
          read({{"scheme", "int8"}});
        }).find("missing key \"block\"") != std::string::npos);
  CHECK(test::input_error_of([] {
          read({{"scheme", "bf16"}, {"rank", 4}});
        }) == "plan.json: /gc/rank: rank does not apply to scheme \"bf16\"");
  CHECK(test::input_error_of([] {
          read({{"scheme", "1-bit"}});
        }).find("unknown gradient compression scheme \"1-bit\"") != std::string::npos);
  CHECK(read({{"scheme", "top-k"}, {"fraction", 0.001}}).describe() == "top-k 0.1%");
}
