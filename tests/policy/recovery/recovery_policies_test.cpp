// The built-in recovery policies' choices, case by case, and their registry.
#include <doctest/doctest.h>

#include "policy/policy_catalog.hpp"

using namespace zs;
using policy::RecoveryAction;

namespace {

/// One failure of `ranks` ranks with `spares` in hand and `droppable` replicas a shrink would drop.
policy::RankLoss loss(uint64_t ranks, uint64_t spares, uint64_t droppable) {
  policy::RankLoss l;
  l.ranks = ranks;
  l.spares_in_hand = spares;
  l.replicas_to_drop = droppable;
  l.replicas_running = droppable > 0 ? 4 : 0;
  l.swap = 600;
  l.repair = 86400;
  return l;
}

RecoveryAction choice(const std::string& name, const policy::RankLoss& l) {
  return policy::builtin_recovery_policies().at(name).make()->choose(l);
}

}  // namespace

TEST_CASE("replace swaps spares when enough are in hand, else waits, and never shrinks") {
  CHECK(choice("replace", loss(2, 2, 1)) == RecoveryAction::kReplace);
  CHECK(choice("replace", loss(2, 1, 1)) == RecoveryAction::kWaitForRepair);
  CHECK(choice("replace", loss(1, 0, 0)) == RecoveryAction::kWaitForRepair);
  CHECK_FALSE(policy::builtin_recovery_policies().at("replace").make()->may_shrink());
}

TEST_CASE("shrink takes spares first, then drops replicas, and waits when no replica can go") {
  CHECK(choice("shrink", loss(2, 2, 1)) == RecoveryAction::kReplace);
  CHECK(choice("shrink", loss(2, 1, 1)) == RecoveryAction::kShrink);
  CHECK(choice("shrink", loss(2, 1, 0)) == RecoveryAction::kWaitForRepair);
  CHECK(policy::builtin_recovery_policies().at("shrink").make()->may_shrink());
}

TEST_CASE("wait-for-repair waits whatever is in hand") {
  CHECK(choice("wait-for-repair", loss(1, 100, 3)) == RecoveryAction::kWaitForRepair);
  CHECK_FALSE(policy::builtin_recovery_policies().at("wait-for-repair").make()->may_shrink());
}

TEST_CASE("the recovery family is listed in order, and a catalog starts with it") {
  const policy::PolicyCatalog catalog;
  CHECK(catalog.recovery.names() == "replace, shrink, wait-for-repair");
  CHECK(catalog.recovery.family() == policy::kRecoveryFamily);
  CHECK(policy::PolicyCatalog::empty().recovery.entries().empty());
}
