// Registries of pluggable families: kebab-case names, no duplicates, unknown names list the known ones.
#include <doctest/doctest.h>

#include <stdexcept>

#include "core/registry.hpp"

using zs::core::Registry;

TEST_CASE("a registry keeps its entries in order and finds them by name") {
  Registry<int> r("widget");
  r.add("first", "one", 1).add("second-one", "two", 2);
  CHECK(r.at("second-one").make == 2);
  CHECK(r.find("third") == nullptr);
  CHECK(r.names() == "first, second-one");
  CHECK(r.entries().size() == 2);
  CHECK_THROWS_WITH_AS(r.at("third"), "unknown widget \"third\" (known: first, second-one)",
                       std::out_of_range);
}

TEST_CASE("a registry refuses a taken name and a name that is not kebab-case") {
  Registry<int> r("widget");
  r.add("a1", "", 1);
  CHECK_THROWS_WITH_AS(r.add("a1", "", 2), "widget \"a1\" is already registered", std::invalid_argument);
  for (const char* bad : {"", "Upper", "snake_case", "-lead", "trail-", "two--dashes", "a b"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(r.add(bad, "", 3), std::invalid_argument);
  }
  CHECK(r.entries().size() == 1);
}
