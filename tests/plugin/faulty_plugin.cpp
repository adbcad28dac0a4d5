// Plugins that break the plugin contract in one way each (FAULT selects which), for the loader's tests.
#include <memory>
#include <optional>
#include <stdexcept>

#include "policy/collective/ring_collective.hpp"
#include "policy/placement/linear_placement.hpp"
#include "policy/plugin_api.hpp"

#define FAULT_NO_ENTRY_POINT 1
#define FAULT_OTHER_VERSION 2
#define FAULT_DUPLICATE_NAME 3
#define FAULT_ADD_THROWS 4
#define FAULT_POLICY_THROWS 5
#define FAULT_ADDS_NOTHING 6

namespace {

/// A placement whose place() throws a plain std::runtime_error.
class ThrowingPlacement : public zs::policy::PlacementPolicy {
 public:
  std::string_view name() const override { return "throwing-placement"; }
  zs::policy::Placement place(const zs::policy::PlacementRequest&) const override {
    throw std::runtime_error("deliberate failure in place()");
  }
};

/// A collective whose schedule() throws and whose estimate is a negative time.
class ThrowingCollective : public zs::policy::CollectivePolicy {
 public:
  std::string_view name() const override { return "throwing-collective"; }
  zs::policy::CollectiveSchedule schedule(const zs::policy::CollectiveRequest&) const override {
    throw std::logic_error("deliberate failure in schedule()");
  }
  std::optional<zs::core::Seconds> estimate(const zs::policy::CollectiveRequest&, zs::hw::CollectiveProtocol,
                                            zs::policy::RouteMeasurements&) const override {
    return zs::core::Seconds(-1.0);
  }
};

/// A recovery policy that always shrinks but says it never does, and one whose choice is no action.
class DishonestRecovery : public zs::policy::RecoveryPolicy {
 public:
  explicit DishonestRecovery(int action) : action_(action) {}
  zs::policy::RecoveryAction choose(const zs::policy::RankLoss&) const override {
    return static_cast<zs::policy::RecoveryAction>(action_);
  }

 private:
  int action_;
};

[[maybe_unused]] void add_policies(zs::policy::PolicyCatalog& catalog) {
#if FAULT == FAULT_DUPLICATE_NAME
  catalog.collective.add("ring", "a second ring",
                         [](const zs::policy::CollectiveOptions&, const zs::policy::CollectiveRegistry&) {
                           return std::make_unique<zs::policy::RingCollective>();
                         });
#elif FAULT == FAULT_ADD_THROWS
  (void)catalog;
  throw std::runtime_error("deliberate failure while adding policies");
#elif FAULT == FAULT_POLICY_THROWS
  catalog.placement.add("throwing-placement", "throws from place()", [](const zs::policy::PlacementMap*) {
    return std::make_unique<ThrowingPlacement>();
  });
  catalog.collective.add("throwing-collective", "throws from schedule()",
                         [](const zs::policy::CollectiveOptions&, const zs::policy::CollectiveRegistry&) {
                           return std::make_unique<ThrowingCollective>();
                         });
  catalog.checkpoint_rule.add("negative-interval", "gives -1 s", [](double, double) { return -1.0; });
  catalog.recovery.add("secret-shrink", "shrinks though may_shrink() says it never does", [] {
    return std::make_unique<DishonestRecovery>(static_cast<int>(zs::policy::RecoveryAction::kShrink));
  });
  catalog.recovery.add("no-action", "chooses a value that is no action",
                       [] { return std::make_unique<DishonestRecovery>(7); });
#else
  (void)catalog;
#endif
}

}  // namespace

#if FAULT == FAULT_OTHER_VERSION
extern "C" __attribute__((visibility("default"))) ZettasimPlugin zettasim_plugin() {
  return ZettasimPlugin{ZETTASIM_PLUGIN_ABI, "0.0.0-other", "other-version",
                        &zs::policy::call_plugin_adder<&add_policies>};
}
#elif FAULT != FAULT_NO_ENTRY_POINT
ZETTASIM_PLUGIN("faulty", add_policies)
#endif
