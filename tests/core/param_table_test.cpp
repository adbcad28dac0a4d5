// Parameter declarations: the unit, range and default each prints for the reference.
#include <doctest/doctest.h>

#include "core/param_table.hpp"

using namespace zs::core;

TEST_CASE("a parameter states its unit, range and default in words") {
  const Param efficiency = Param::number("efficiency", 0.01, 1.0, "achieved fraction").or_default(1.0);
  CHECK(efficiency.unit() == "number");
  CHECK(efficiency.range() == "[0.01, 1.0]");
  CHECK(efficiency.default_text() == "1.0");
  const Param ports = Param::integer("ports", 1, 65536, "ports");
  CHECK(ports.range() == "[1, 65536]");
  CHECK(ports.default_text() == "required");
  CHECK(Param::seconds("latency", "one hop").range() == "0 or 1e-15s to 1e+18s");
  CHECK(Param::byte_rate("bandwidth", "per direction").range() == "0.125B/s to 10PB/s");
  CHECK(Param::byte_rate("bandwidth", "per direction").unit() == "B/s (\"400Gb/s\", \"3.35TB/s\")");
  CHECK(Param::seconds("setup", "time").or_default("2us").default_text() == "\"2us\"");
  CHECK(Param::flops("w", "work").optional().default_text() == "optional");
}

TEST_CASE("a model table starts with kind, name and description and ends with sources when it cites") {
  const ParamTable cited =
      model_table(core::FileKind::kLink, "a link", {Param::byte_rate("bandwidth", "x").cite()});
  REQUIRE(cited.params().size() == 5);
  CHECK(cited.params()[0].name == "kind");
  CHECK(cited.params()[3].name == "bandwidth");
  CHECK(cited.params()[4].name == "sources");
  CHECK(cited.cites());
  const ParamTable plain =
      model_table(core::FileKind::kPlacement, "a plan", {Param::integer("tp", 1, 8, "x")});
  CHECK(plain.params().size() == 4);
  CHECK_FALSE(plain.cites());
  CHECK(plain.find("tp") != nullptr);
  CHECK(plain.find("sources") == nullptr);
}

TEST_CASE("a table joined to another keeps both parameter lists and takes the other's type") {
  const ParamTable common("topology", "a topology file", {Param::text("generator", "which")});
  const ParamTable torus("topology torus", "a torus", {Param::integer("units", 1, 64, "units")});
  const ParamTable both = common.with(torus);
  CHECK(both.type() == "topology torus");
  CHECK(both.params().size() == 2);
  CHECK(both.find("generator") != nullptr);
}
