// Policies from a plugin, wrapped so that what they throw is reported as that plugin's error.
#include "plugin/guarded_policies.hpp"

#include <cmath>

#include "core/input_error.hpp"

namespace zs::plugin {

namespace {

/// The plugin's input error about one of its policies: "FILE: FAMILY "NAME" of this plugin WHAT".
core::InputError plugin_error(const PolicyOrigin& origin, const std::string& what) {
  return core::InputError(origin.plugin_file, "",
                          origin.family + " \"" + origin.name + "\" of this plugin " + what);
}

/// Runs `call`; what it throws becomes the plugin's error (see guarded_placement_factory).
template <class Call>
auto guarded(const PolicyOrigin& origin, Call&& call) -> decltype(call()) {
  auto fail = [&](const std::string& what) { return plugin_error(origin, "failed: " + what); };
  try {
    return call();
  } catch (const core::InputError&) {
    throw;
  } catch (const std::exception& e) {
    throw fail(e.what());
  } catch (...) {
    throw fail("it threw something that is not a std::exception");
  }
}

class GuardedPlacementPolicy : public policy::PlacementPolicy {
 public:
  GuardedPlacementPolicy(std::unique_ptr<policy::PlacementPolicy> inner, PolicyOrigin origin)
      : inner_(std::move(inner)), origin_(std::move(origin)) {}
  std::string_view name() const override { return origin_.name; }
  policy::Placement place(const policy::PlacementRequest& request) const override {
    return guarded(origin_, [&] { return inner_->place(request); });
  }
  std::vector<topology::NodeId> re_place(const topology::Machine& machine,
                                         const std::vector<topology::NodeId>& unit_of_rank,
                                         const std::vector<uint64_t>& ranks,
                                         const std::vector<topology::NodeId>& idle) const override {
    return guarded(origin_, [&] { return inner_->re_place(machine, unit_of_rank, ranks, idle); });
  }

 private:
  std::unique_ptr<policy::PlacementPolicy> inner_;
  PolicyOrigin origin_;
};

class GuardedCollectivePolicy : public policy::CollectivePolicy {
 public:
  GuardedCollectivePolicy(std::unique_ptr<policy::CollectivePolicy> inner, PolicyOrigin origin)
      : inner_(std::move(inner)), origin_(std::move(origin)) {}
  std::string_view name() const override { return origin_.name; }
  policy::CollectiveSchedule schedule(const policy::CollectiveRequest& request) const override {
    return guarded(origin_, [&] { return inner_->schedule(request); });
  }
  std::pair<std::string, std::vector<policy::RepeatedStep>> steps(
      const policy::CollectiveRequest& request) const override {
    return guarded(origin_, [&] { return inner_->steps(request); });
  }
  bool members_advance_independently(const policy::CollectiveRequest& request) const override {
    return guarded(origin_, [&] { return inner_->members_advance_independently(request); });
  }
  std::optional<hw::LibraryAlgorithm> library_algorithm(
      const policy::CollectiveRequest& request) const override {
    return guarded(origin_, [&] { return inner_->library_algorithm(request); });
  }
  std::optional<std::string> nccl_algorithm(const policy::CollectiveRequest& request) const override {
    return guarded(origin_, [&] { return inner_->nccl_algorithm(request); });
  }
  /// The plugin's estimate, refused unless it is a finite time of at least zero.
  std::optional<core::Seconds> estimate(const policy::CollectiveRequest& request,
                                        hw::CollectiveProtocol protocol,
                                        policy::RouteMeasurements& routes) const override {
    const auto seconds = guarded(origin_, [&] { return inner_->estimate(request, protocol, routes); });
    if (seconds && !(std::isfinite(seconds->value()) && seconds->value() >= 0))
      throw plugin_error(origin_, "gave an estimate of " + std::to_string(seconds->value()) +
                                      " s (expected a finite time of at least zero)");
    return seconds;
  }

 private:
  std::unique_ptr<policy::CollectivePolicy> inner_;
  PolicyOrigin origin_;
};

class GuardedRecoveryPolicy : public policy::RecoveryPolicy {
 public:
  GuardedRecoveryPolicy(std::unique_ptr<policy::RecoveryPolicy> inner, PolicyOrigin origin)
      : inner_(std::move(inner)),
        origin_(std::move(origin)),
        may_shrink_(guarded(origin_, [&] { return inner_->may_shrink(); })) {}
  /// The plugin's choice, refused unless it is one of the actions, and a shrink only where replicas can be
  /// dropped.
  policy::RecoveryAction choose(const policy::RankLoss& loss) const override {
    const auto action = guarded(origin_, [&] { return inner_->choose(loss); });
    switch (action) {
      case policy::RecoveryAction::kReplace:
      case policy::RecoveryAction::kWaitForRepair:
        return action;
      case policy::RecoveryAction::kShrink:
        if (loss.replicas_to_drop > 0) return action;
        throw plugin_error(origin_, may_shrink_ ? "chose to shrink where no replica can be dropped"
                                                : "chose to shrink, but its may_shrink() says it never does");
    }
    throw plugin_error(origin_, "chose recovery action " + std::to_string(static_cast<int>(action)) +
                                    ", which is none of replace, shrink, wait for repair");
  }
  bool may_shrink() const override { return may_shrink_; }

 private:
  std::unique_ptr<policy::RecoveryPolicy> inner_;
  PolicyOrigin origin_;
  bool may_shrink_;  ///< asked once
};

/// `made`, or a core::InputError when the plugin's factory returned none.
template <class Policy>
std::unique_ptr<Policy> require_made(std::unique_ptr<Policy> made, const PolicyOrigin& origin) {
  if (made == nullptr) throw plugin_error(origin, "made no policy");
  return made;
}

}  // namespace

policy::PlacementFactory guarded_placement_factory(policy::PlacementFactory make, PolicyOrigin origin) {
  return [make = std::move(make), origin = std::move(origin)](const policy::PlacementMap* map) {
    auto made = require_made(guarded(origin, [&] { return make(map); }), origin);
    return std::unique_ptr<policy::PlacementPolicy>(new GuardedPlacementPolicy(std::move(made), origin));
  };
}

policy::CollectiveFactory guarded_collective_factory(policy::CollectiveFactory make, PolicyOrigin origin) {
  return [make = std::move(make), origin = std::move(origin)](const policy::CollectiveOptions& options,
                                                              const policy::CollectiveRegistry& catalog) {
    auto made = require_made(guarded(origin, [&] { return make(options, catalog); }), origin);
    return std::unique_ptr<policy::CollectivePolicy>(new GuardedCollectivePolicy(std::move(made), origin));
  };
}

policy::CheckpointRule guarded_checkpoint_rule(policy::CheckpointRule rule, PolicyOrigin origin) {
  return [rule = std::move(rule), origin = std::move(origin)](double mtbf, double cost) {
    const double interval = guarded(origin, [&] { return rule(mtbf, cost); });
    if (!std::isfinite(interval) || interval <= 0)
      throw plugin_error(
          origin, "gave an interval of " + std::to_string(interval) + " s (expected a finite positive time)");
    return interval;
  };
}

policy::RecoveryFactory guarded_recovery_factory(policy::RecoveryFactory make, PolicyOrigin origin) {
  return [make = std::move(make), origin = std::move(origin)]() {
    auto made = require_made(guarded(origin, [&] { return make(); }), origin);
    return std::unique_ptr<policy::RecoveryPolicy>(new GuardedRecoveryPolicy(std::move(made), origin));
  };
}

}  // namespace zs::plugin
