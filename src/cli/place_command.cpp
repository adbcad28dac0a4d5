// Placement cost report.
#include "cli/place_command.hpp"

#include "cli/text_columns.hpp"

#include "core/file_source.hpp"
#include "core/input_error.hpp"
#include "policy/placement/placement_cost.hpp"
#include "policy/policy_catalog.hpp"
#include "scenario/scenario_loader.hpp"

namespace zs::cli {
int print_placement_cost(const PlaceOptions& opt, std::ostream& out) {
  core::DiskFileSource files;
  const scenario::Scenario s = scenario::ScenarioLoader(files, opt.limits).load(opt.scenario);
  std::vector<std::string> names = opt.policies;
  if (names.empty()) names.push_back(s.placement_policy);
  out << "scenario \"" << s.name << "\": " << s.trace.mesh.size() << " ranks on machine \"" << s.machine.name
      << "\" (" << s.machine.unit_count() << " units)\n";
  for (const auto& name : names) {
    std::unique_ptr<policy::PlacementPolicy> p;
    try {
      p = policy::make_placement_policy(name, s.placement_map ? &*s.placement_map : nullptr);
    } catch (const std::exception& e) {
      throw core::InputError("--policy", "", e.what());
    }
    const auto placement = p->place({s.trace, s.machine, s.seed});
    const auto cost = policy::placement_cost(s.trace, s.machine, placement, opt.sample);
    out << "\nplacement " << name;
    if (cost.ranks_evaluated < cost.ranks)
      out << " (sampled: " << cost.ranks_evaluated << " of " << cost.ranks << " ranks, scaled up)";
    if (!placement.layout.empty()) out << "\n  layout: " << placement.layout;
    out << "\n  " << column("traffic", 14) << column("sent per iteration", 20) << column("mean hops", 11)
        << "hop-bytes\n";
    for (const auto& c : cost.communicators)
      out << "  " << column(c.name, 14) << column(core::display(core::Bytes(c.bytes)), 20)
          << column(format_number(c.mean_hops(), "%.2f"), 11) << core::display(core::Bytes(c.hop_bytes))
          << "\n";
    out << "  " << column("total", 45) << core::display(core::Bytes(cost.total_hop_bytes())) << "\n";
    if (cost.max_link_load) {
      const auto& load = *cost.max_link_load;
      const auto& link = s.machine.topology.link(load.link);
      const auto& nodes = s.machine.topology.nodes();
      const auto& from = nodes[load.forward ? link.a : link.b].name;
      const auto& to = nodes[load.forward ? link.b : link.a].name;
      out << "  max link load: " << from << " -> " << to << ", " << core::display(core::Bytes(load.bytes))
          << " per iteration = " << core::display(core::Seconds(load.seconds)) << " at "
          << core::display(s.machine.link_bandwidth(load.link))
          << (cost.ranks_evaluated < cost.ranks ? " (from the sampled ranks' traffic only: a lower bound)"
                                                : "")
          << "\n";
    }
  }
  out << "\n(hops: links on the fewest-hop route to the ring neighbour, to up to 16 group members for "
         "all-to-all,"
         " to the peer for point-to-point; bytes: what each rank sends, algorithm-independent)\n";
  return 0;
}

}  // namespace zs::cli
