// Documents nlohmann/json would accept but we refuse, each with the file and JSON path: duplicate keys,
// deep nesting, numbers out of range, a NUL byte; the same checks for CBOR.
#include <doctest/doctest.h>

#include <functional>
#include <string>

#include "core/checked_dom_builder.hpp"
#include "core/json_object.hpp"
#include "support/input_error_of.hpp"

using namespace zs::core;
using zs::test::input_error_of;

namespace {

std::string nested_arrays(size_t depth) {
  return std::string(depth, '[') + std::string(depth, ']');
}

}  // namespace

TEST_CASE("a duplicate key is refused at its JSON path, wherever it is") {
  CHECK(
      input_error_of([] { parse_json(R"({"plan": {"data_parallel": 8, "data_parallel": 4}})", "s.json"); }) ==
      "s.json: /plan/data_parallel: duplicate key \"data_parallel\" (each key may appear once in an object)");
  CHECK(input_error_of([] { parse_json(R"({"a": [{"x": 1}, {"x": 1, "x": 2}]})", "s.json"); }) ==
        "s.json: /a/1/x: duplicate key \"x\" (each key may appear once in an object)");
  CHECK(parse_json(R"({"a": {"x": 1}, "b": {"x": 1}})", "s.json")["b"]["x"] == 1);  // same key, other objects
}

TEST_CASE("nesting deeper than the bound is refused without recursion, in JSON and CBOR") {
  CHECK_NOTHROW(parse_json(nested_arrays(kMaxJsonDepth), "ok.json"));
  const std::string deep =
      input_error_of([] { parse_json("{\"name\": " + nested_arrays(100000) + "}", "d.json"); });
  CHECK(deep == "d.json: /name/0/0/0/...: nested deeper than 256 levels of arrays and objects");
  const std::string cbor(100000, '\x81');  // CBOR: an array of one element, 100,000 times
  CHECK(input_error_of([&] { parse_cbor(cbor, "d.cbor"); }).find("nested deeper than 256 levels") !=
        std::string::npos);
}

TEST_CASE("a CBOR length the input cannot hold is refused before anything is built") {
  // 0x9B: an array whose length follows in 8 bytes; 0xBB: the same for a map.
  const std::string huge_array("\x9B\x65\x62\x79\x74\x65\x73\x68\x31", 9);
  CHECK(input_error_of([&] { parse_cbor(huge_array, "t.cbor"); }) ==
        "t.cbor: an array declared with 7305535086373595185 elements, more than the 9 bytes of input hold");
  const std::string huge_map =
      "\xA1\x61"
      "a"
      "\xBA\x7F\xFF\xFF\xFF";
  CHECK(input_error_of([&] { parse_cbor(huge_map, "t.cbor"); }) ==
        "t.cbor: /a: an object declared with 2147483647 members, more than the 8 bytes of input hold");
  CHECK(parse_cbor(std::string("\x82\x01\x02", 3), "t.cbor") == nlohmann::json::array({1, 2}));
}

TEST_CASE("a number beyond double's range is an input error at its path") {
  CHECK(input_error_of([] { parse_json(R"({"seed": 1e400})", "s.json"); }) ==
        "s.json: /seed: a number out of range (a double holds up to about 1.8e308)");
  CHECK(input_error_of([] { parse_json(R"({"a": [1, -1e999]})", "s.json"); }) ==
        "s.json: /a/1: a number out of range (a double holds up to about 1.8e308)");
}

TEST_CASE("a NUL byte, which would end the text early, is refused with its line and column") {
  CHECK(input_error_of([] { parse_json(std::string("{\"a\": 1}\n\0garbage", 18), "n.json"); }) ==
        "n.json: malformed JSON at line 2, column 1: a NUL byte (JSON text holds none)");
  CHECK(input_error_of([] {
          parse_json("{\"a\": 1} trailing", "t.json");
        }).find("t.json: malformed JSON at line 1") == 0);
}

TEST_CASE("a value quoted in an error stays on one line and is cut") {
  nlohmann::json j = {{"name", std::string("evil\nzettasim: error: forged") + std::string(200, 'x')}};
  JsonObject o(j, "f.json", "");
  const std::string e = input_error_of([&] { o.number("name", 0, 1); });
  CHECK(e.find('\n') == std::string::npos);
  CHECK(e.find("\"evil\\nzettasim: error: forged") != std::string::npos);
  CHECK(e.find("(228 bytes)") != std::string::npos);
  nlohmann::json big = {{"list", nlohmann::json::array({1, 2, 3})}};
  JsonObject b(big, "f.json", "");
  CHECK(input_error_of([&] { b.string("list"); }) ==
        "f.json: /list: expected a string, got array [...] (3 elements)");
}
