// An input error is one line of bounded length, whatever the input it echoes.
#include <doctest/doctest.h>

#include <string>

#include "core/input_error.hpp"

using namespace zs;

TEST_CASE("control characters, a NUL among them, are written out: the line is neither cut nor split") {
  const core::InputError e("a.json", std::string("/x\0y", 4), std::string("bad \"v\0\nw\"", 10));
  CHECK(std::string(e.what()) == "a.json: /x\\x00y: bad \"v\\x00\\nw\"");
  CHECK(e.message() == "bad \"v\\x00\\nw\"");
}

TEST_CASE("a long echoed value, key or path is shortened, saying how much was left out") {
  const std::string value(100000, 'x');
  const core::InputError e("a.json", "/workload/" + value, "unknown key \"" + value + "\": expected one of a, b");
  const std::string line = e.what();
  CHECK(line.size() < 1000);
  CHECK(line.rfind("a.json: /workload/xxx", 0) == 0);
  // The path's run "/workload/x...x:" (100,011 characters) and the quoted value's (100,003) keep 220 each.
  CHECK(line.find("...(99791 characters left out)...") != std::string::npos);
  CHECK(line.find("...(99783 characters left out)...") != std::string::npos);
  CHECK(line.ends_with(": expected one of a, b"));
  // Runs of ordinary length are kept whole; a long message of short words is cut in the middle.
  const core::InputError shortish("a.json", "/p", "expected one of " + std::string(200, 'y'));
  CHECK(std::string(shortish.what()) == "a.json: /p: expected one of " + std::string(200, 'y'));
  std::string words;
  for (int i = 0; i < 2000; ++i) words += "w ";
  const std::string cut = core::InputError("a.json", "", words + "end").what();
  CHECK(cut.size() < 2100);
  CHECK(cut.ends_with("w end"));
  CHECK(cut.find("characters left out") != std::string::npos);
}
