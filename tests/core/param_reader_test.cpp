// Reading by a parameter table: defaults recorded, ranges from the table, unknown and unused keys refused.
#include <doctest/doctest.h>

#include <stdexcept>

#include "core/param_reader.hpp"
#include "support/input_error_of.hpp"

using namespace zs::core;
using nlohmann::json;
using zs::test::input_error_of;

namespace {

const ParamTable& level_table() {
  static const ParamTable table("test level", "one level",
                                {Param::integer("size", 1, 64, "units per switch")});
  return table;
}

const ParamTable& test_table() {
  static const ParamTable table =
      model_table(core::FileKind::kLink, "a test model",
                  {Param::byte_rate("bandwidth", "per direction").cite(),
                   Param::number("efficiency", 0.01, 1.0, "achieved fraction").or_default(1.0).cite(),
                   Param::seconds("setup", "one-off time").or_default("2us"),
                   Param::boolean("reduces", "in-network reduction").or_default(false),
                   Param::flops("half_work", "half-efficiency work").optional().cite(),
                   Param::list("levels", level_table(), "switch levels, bottom first").optional()});
  return table;
}

json model_file() {
  return {
      {"kind", "link"}, {"name", "t"}, {"bandwidth", "400Gb/s"}, {"sources", {{"bandwidth", "a datasheet"}}}};
}

}  // namespace

TEST_CASE("a reader fills defaults from the table and records them as a file writes them") {
  const json doc = model_file();
  ParamReader r(test_table(), JsonObject(doc, "m.json", ""));
  CHECK(r.get<std::string>("kind") == "link");
  CHECK(r.get<std::string>("description").empty());
  CHECK(r.get<ByteRate>("bandwidth").value() == 50e9);
  CHECK(r.get<double>("efficiency") == 1.0);
  CHECK(r.get<Seconds>("setup").value() == doctest::Approx(2e-6));
  CHECK_FALSE(r.get<bool>("reduces"));
  CHECK_FALSE(r.find<Flops>("half_work").has_value());
  r.get<std::string>("name");
  r.finish();
  CHECK(r.resolved() == json{{"kind", "link"},
                             {"name", "t"},
                             {"description", ""},
                             {"bandwidth", "50GB/s"},
                             {"efficiency", 1.0},
                             {"setup", "2us"},
                             {"reduces", false},
                             {"sources", {{"bandwidth", "a datasheet"}}}});
  CHECK(r.sources().at("bandwidth") == "a datasheet");
}

TEST_CASE("ranges and requirements come from the table, errors name the file and the path") {
  json doc = model_file();
  doc["efficiency"] = 1.5;
  ParamReader r(test_table(), JsonObject(doc, "m.json", ""));
  CHECK(input_error_of([&] { r.get<double>("efficiency"); }) ==
        "m.json: /efficiency: expected a number in [0.01, 1.0], got 1.5");
  doc.erase("bandwidth");
  ParamReader missing(test_table(), JsonObject(doc, "m.json", ""));
  CHECK(input_error_of([&] { missing.get<ByteRate>("bandwidth"); }) ==
        "m.json: /: missing required key \"bandwidth\": per direction (B/s (\"400Gb/s\", \"3.35TB/s\"))");
}

TEST_CASE("a value set needs its source, and a source needs its value") {
  json doc = model_file();
  doc["efficiency"] = 0.5;
  ParamReader r(test_table(), JsonObject(doc, "m.json", ""));
  for (const char* name : {"kind", "name", "description"}) r.get<std::string>(name);
  r.get<ByteRate>("bandwidth");
  r.get<double>("efficiency");
  CHECK(input_error_of([&] { r.finish(); }) ==
        "m.json: /sources: missing the source of parameter \"efficiency\" (every value needs one)");

  json extra = model_file();
  extra["sources"]["setup"] = "a paper";
  ParamReader e(test_table(), JsonObject(extra, "m.json", ""));
  for (const char* name : {"kind", "name", "description"}) e.get<std::string>(name);
  e.get<ByteRate>("bandwidth");
  CHECK(input_error_of([&] { e.finish(); }) ==
        "m.json: /sources/setup: cites a source for a parameter this model does not set");
}

TEST_CASE("unknown keys list the declared ones, and declared keys left unread are refused too") {
  json doc = model_file();
  doc["bandwith"] = "1GB/s";
  ParamReader r(test_table(), JsonObject(doc, "m.json", ""));
  for (const char* name : {"kind", "name", "description"}) r.get<std::string>(name);
  r.get<ByteRate>("bandwidth");
  CHECK(input_error_of([&] { r.finish(); }) ==
        "m.json: /bandwith: unknown key (known keys here: kind, name, description, bandwidth, efficiency, "
        "setup, reduces, half_work, levels, sources)");

  json unused = model_file();
  unused["half_work"] = "1GFLOP";
  unused["sources"]["half_work"] = "a paper";
  ParamReader u(test_table(), JsonObject(unused, "m.json", ""));
  for (const char* name : {"kind", "name", "description"}) u.get<std::string>(name);
  u.get<ByteRate>("bandwidth");
  CHECK(input_error_of([&] {
          u.finish();
        }).find("/half_work: unknown key here: the other values leave it unused") != std::string::npos);
}

TEST_CASE("nested tables record under their own JSON path") {
  json doc = model_file();
  doc["levels"] = {{{"size", 8}}, {{"size", 80}}};
  ParamReader r(test_table(), JsonObject(doc, "m.json", ""));
  auto levels = r.parts("levels");
  REQUIRE(levels.size() == 2);
  CHECK(levels[0].get<int64_t>("size") == 8);
  levels[0].finish();
  CHECK(input_error_of([&] { levels[1].get<int64_t>("size"); }) ==
        "m.json: /levels/1/size: expected a whole number in [1, 64], got 80");
  CHECK(r.resolved()["levels"] == json::array({{{"size", 8}}, json::object()}));
}

TEST_CASE("reading what the table does not declare, or as another kind, is a programming error") {
  const json doc = model_file();
  ParamReader r(test_table(), JsonObject(doc, "m.json", ""));
  CHECK_THROWS_AS(r.get<double>("bandwidth"), std::logic_error);
  CHECK_THROWS_AS(r.get<std::string>("colour"), std::logic_error);
  CHECK_THROWS_AS(r.get<Flops>("half_work"), std::logic_error);  // optional: find it
  CHECK_THROWS_AS(ParamTable("t", "d", {Param::text("a", "x"), Param::text("a", "y")}), std::logic_error);
}

TEST_CASE(
    "a choice accepts only its values, naming them, and a needed optional value says why it is needed") {
  static const ParamTable table(
      "test plan", "a plan",
      {Param::choice("schedule", {"gpipe", "1f1b"}, "the schedule").or_default("1f1b"),
       Param::choice("overflow", {"drop", "reroute"}, "over capacity").noun("overflow policy").optional(),
       Param::number("exponent", 0.0, 10.0, "the zipf exponent").optional(),
       Param::integer("seed", 0, INT64_MAX, "draws").or_default(1),
       Param::integer("kv_heads", 1, 1024, "key/value heads (left out, the heads)").optional(),
       Param::object("machine", "a path or an object", "the machine")});
  CHECK(table.find("schedule")->unit() == "one of \"gpipe\", \"1f1b\"");
  CHECK(table.find("seed")->range() == "[0, 9223372036854775807]");
  const json doc = {{"schedule", "zb"}, {"overflow", "spill"}, {"seed", INT64_MAX}, {"machine", "m.json"}};
  ParamReader r(table, JsonObject(doc, "p.json", "/workload"));
  CHECK(input_error_of([&] { r.get<std::string>("schedule"); }) ==
        "p.json: /workload/schedule: unknown schedule \"zb\" (known: gpipe, 1f1b)");
  CHECK(input_error_of([&] { r.find<std::string>("overflow"); }) ==
        "p.json: /workload/overflow: unknown overflow policy \"spill\" (known: drop, reroute)");
  CHECK(input_error_of([&] { r.need<double>("exponent", "for the zipf distribution"); }) ==
        "p.json: /workload: missing key \"exponent\" for the zipf distribution: the zipf exponent (number)");
  CHECK(r.get<int64_t>("seed") == INT64_MAX);
  // A default that follows from other values is recorded; its bounds are checked as the table's are.
  CHECK(r.integer_within("kv_heads", 8, 1, 8) == 8);
  CHECK(r.resolved()["kv_heads"] == 8);
  // A value with several forms is read as written and counts as read.
  CHECK(r.value("machine") == "m.json");
  r.record("machine", "/abs/m.json");
  CHECK(r.resolved()["machine"] == "/abs/m.json");
}

namespace {

enum class Shade : uint8_t { kLight, kDark };

const ChoiceNames<Shade>& shades() {
  static const ChoiceNames<Shade> names{{Shade::kLight, "light"}, {Shade::kDark, "dark"}};
  return names;
}

const ParamTable& shade_table() {
  static const ParamTable table("test shade", "a closed set",
                                {Param::choice("shade", shades().names(), "how dark").or_default("light")});
  return table;
}

}  // namespace

TEST_CASE("a choice is declared by its names once and read into its enum, default included") {
  CHECK(shades().names() == std::vector<std::string>{"light", "dark"});
  CHECK(shades().name(Shade::kDark) == "dark");
  CHECK_FALSE(shades().find("grey"));
  json given = {{"shade", "dark"}}, left_out = json::object();
  ParamReader a(shade_table(), JsonObject(given, "a.json", ""));
  CHECK(a.get_choice("shade", shades()) == Shade::kDark);
  ParamReader b(shade_table(), JsonObject(left_out, "b.json", ""));
  CHECK(b.get_choice("shade", shades()) == Shade::kLight);
  CHECK(b.resolved()["shade"] == "light");
  json wrong = {{"shade", "grey"}};
  ParamReader c(shade_table(), JsonObject(wrong, "c.json", ""));
  CHECK(input_error_of([&] { (void)c.get_choice("shade", shades()); }).find("c.json: /shade: ") == 0);
}
