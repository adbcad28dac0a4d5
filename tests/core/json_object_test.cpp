// Strict JSON reading: typed getters, ranges, unknown keys, file and JSON path in every error.
#include <doctest/doctest.h>

#include "core/json_object.hpp"
#include "support/input_error_of.hpp"

using namespace zs::core;
using nlohmann::json;
using zs::test::input_error_of;

TEST_CASE("typed getters read units and ranges") {
  json j = {{"size", "80GiB"}, {"n", 8}, {"f", 0.5}, {"lat", "1us"}, {"inner", {{"bw", "400Gb/s"}}}};
  JsonObject o(j, "m.json", "");
  CHECK(o.bytes("size").value() == 80.0 * (1 << 30));
  CHECK(o.integer("n", 1, 16) == 8);
  CHECK(o.number("f", 0, 1) == 0.5);
  CHECK(o.seconds("lat").value() == 1e-6);
  auto inner = o.object("inner");
  CHECK(inner.byte_rate("bw").value() == 50e9);
  inner.finish();
  o.finish();
}

TEST_CASE("errors name the file and the JSON path") {
  json j = {{"machine", {{"models", {{"gpu", {{"hbm", "80G"}}}}}}}};
  JsonObject root(j, "s.json", "");
  auto gpu = root.object("machine").object("models").object("gpu");
  CHECK(input_error_of([&] { gpu.bytes("hbm"); }) ==
        "s.json: /machine/models/gpu/hbm: \"80G\": unknown unit \"G\" for a size, such as \"80GiB\", "
        "\"1.5TB\" or "
        "\"512B\" (k M G T P E: powers of 1000; Ki Mi Gi Ti Pi Ei: powers of 1024; b: bit)");
}

TEST_CASE("unknown keys are rejected and the known ones listed") {
  json j = {{"name", "x"}, {"bandwith", "1GB/s"}};
  JsonObject o(j, "l.json", "");
  o.string("name");
  o.optional("bandwidth");
  CHECK(input_error_of([&] { o.finish(); }) ==
        "l.json: /bandwith: unknown key (known keys here: bandwidth, name)");
}

TEST_CASE("wrong types, bare numbers, zero and negative sizes are errors") {
  json j = {{"a", 80}, {"b", "0B"}, {"c", "-1GB"}, {"d", "x"}, {"e", 2.5}, {"f", 99}, {"g", "-1s"}};
  JsonObject o(j, "f.json", "");
  CHECK(input_error_of([&] { o.bytes("a"); }).find("/a: expected a string with a unit, got number 80") !=
        std::string::npos);
  CHECK(input_error_of([&] { o.bytes("b"); }).find("/b: expected a value > 0") != std::string::npos);
  CHECK(input_error_of([&] { o.bytes("c"); }).find("/c: expected a value > 0") != std::string::npos);
  CHECK(input_error_of([&] { o.integer("d", 0, 9); }).find("/d: expected a whole number, got string") !=
        std::string::npos);
  CHECK(input_error_of([&] { o.integer("e", 0, 9); }).find("/e: expected a whole number") !=
        std::string::npos);
  CHECK(input_error_of([&] { o.integer("f", 0, 9); }).find("/f: expected a whole number in [0, 9], got 99") !=
        std::string::npos);
  CHECK(input_error_of([&] { o.seconds("g"); }).find("/g: expected a value >= 0") != std::string::npos);
  CHECK(input_error_of([&] { o.string("missing"); }).find("f.json: /: missing required key \"missing\"") !=
        std::string::npos);
}

TEST_CASE("a quantity outside its physical range is refused, its ends and a zero that may be 0 are not") {
  json j = {{"slow", "1e-300B/s"},  {"fast", "1e307B/s"}, {"bit", "1b/s"}, {"top", "10PB/s"},
            {"long", "1e307s"},     {"tiny", "1e-320s"},  {"zero", "0s"},  {"fs", "0.001ps"},
            {"peak", "1e22FLOP/s"}, {"big", "2e24B"},     {"power", "2GW"}};
  JsonObject o(j, "m.json", "");
  CHECK(input_error_of([&] { o.byte_rate("slow"); }) ==
        "m.json: /slow: expected a value from 0.125B/s to 10PB/s (a physical one), got \"1e-300B/s\"");
  CHECK(input_error_of([&] { o.byte_rate("fast"); }).find("expected a value from 0.125B/s") !=
        std::string::npos);
  CHECK(o.byte_rate("bit").value() == 0.125);
  CHECK(o.byte_rate("top").value() == 1e16);
  CHECK(input_error_of([&] {
          o.seconds("long");
        }).find("/long: expected 0 or a value from 1e-15s to 1e+18s") != std::string::npos);
  CHECK(input_error_of([&] { o.seconds("tiny"); }).find("a physical one") != std::string::npos);
  CHECK(o.seconds("zero").value() == 0.0);
  CHECK(o.seconds("fs").value() == doctest::Approx(1e-15));
  CHECK(input_error_of([&] { o.flop_rate("peak"); }).find("/peak: expected a value from") !=
        std::string::npos);
  CHECK(input_error_of([&] { o.bytes("big"); }).find("/big: expected a value from") != std::string::npos);
  CHECK(input_error_of([&] { o.watts("power"); }).find("/power: expected a value from") != std::string::npos);
}

TEST_CASE("malformed JSON reports line and column") {
  std::string text = "{\n  \"a\": 1,\n  \"b\": ,\n}";
  std::string e = input_error_of([&] { parse_json(text, "bad.json"); });
  CHECK(e.find("bad.json: malformed JSON at line 3, column 8") == 0);
}

TEST_CASE("json pointer escaping") {
  CHECK(json_pointer_append("/a", "b/c~d") == "/a/b~1c~0d");
}

TEST_CASE("arrays of strings: the array and each entry are checked, entries named by path") {
  nlohmann::json j = {{"ok", {"a", "b"}}, {"bad", {"a", 3}}, {"flat", "a"}};
  JsonObject o(j, "s.json", "/x");
  CHECK(o.strings("ok", "an array of names", "a name") == std::vector<std::string>{"a", "b"});
  CHECK(input_error_of([&] { o.strings("bad", "an array of names", "a name"); }) ==
        "s.json: /x/bad/1: expected a name");
  CHECK(input_error_of([&] { o.strings("flat", "an array of names", "a name"); }) ==
        "s.json: /x/flat: expected an array of names");
}
