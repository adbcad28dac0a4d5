// File kinds: one name each, read back from a document's "kind", nothing else taken for one.
#include <doctest/doctest.h>

#include <set>

#include "core/file_kind.hpp"

using namespace zs::core;

TEST_CASE("every file kind has one name, and a document's kind is read back only when it names one") {
  std::set<std::string> names;
  for (const auto& name : file_kinds().names()) {
    CHECK(names.insert(name).second);
    const auto kind = parse_file_kind(name);
    REQUIRE(kind);
    CHECK(to_string(*kind) == name);
  }
  CHECK(names.size() == 21);
  CHECK(kind_of({{"kind", "cluster-inventory"}}) == FileKind::kClusterInventory);
  CHECK(kind_of({{"kind", "Scenario"}}) == std::nullopt);  // names are exact
  CHECK(kind_of({{"kind", 3}}) == std::nullopt);
  CHECK(kind_of({{"name", "x"}}) == std::nullopt);
  CHECK(kind_of(nlohmann::json::array({"scenario"})) == std::nullopt);
}
