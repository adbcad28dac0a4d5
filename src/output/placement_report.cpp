// Placement cost report.
#include "output/placement_report.hpp"

#include <sstream>

#include "output/text_columns.hpp"

namespace zs::output {
namespace {

void write_max_link_load(const scenario::Scenario& s, const policy::PlacementCost& cost, std::ostream& out) {
  const auto& load = *cost.max_link_load;
  const auto& link = s.machine.topology.link(load.link);
  const auto& nodes = s.machine.topology.nodes();
  const auto& from = nodes[load.forward ? link.a : link.b].name;
  const auto& to = nodes[load.forward ? link.b : link.a].name;
  out << "  max link load: " << from << " -> " << to << ", " << core::display(core::Bytes(load.bytes))
      << " per iteration = " << core::display(core::Seconds(load.seconds)) << " at "
      << core::display(s.machine.link_bandwidth(load.link))
      << (cost.ranks_evaluated < cost.ranks ? " (from the sampled ranks' traffic only: a lower bound)" : "")
      << "\n";
}

}  // namespace

std::string placement_report(const scenario::Scenario& s, const std::vector<study::PlacementStudy>& studies) {
  std::ostringstream out;
  out << "scenario \"" << s.name << "\": " << s.trace.mesh.size() << " ranks on machine \"" << s.machine.name
      << "\" (" << s.machine.unit_count() << " units)\n";
  for (const auto& placed : studies) {
    const auto& cost = placed.cost;
    out << "\nplacement " << placed.policy;
    if (cost.ranks_evaluated < cost.ranks)
      out << " (sampled: " << cost.ranks_evaluated << " of " << cost.ranks << " ranks, scaled up)";
    if (!placed.layout.empty()) out << "\n  layout: " << placed.layout;
    out << "\n  " << column("traffic", 14) << column("sent per iteration", 20) << column("mean hops", 11)
        << "hop-bytes\n";
    for (const auto& c : cost.communicators)
      out << "  " << column(c.name, 14) << column(core::display(core::Bytes(c.bytes)), 20)
          << column(format_number(c.mean_hops(), "%.2f"), 11) << core::display(core::Bytes(c.hop_bytes))
          << "\n";
    out << "  " << column("total", 45) << core::display(core::Bytes(cost.total_hop_bytes())) << "\n";
    if (cost.max_link_load) write_max_link_load(s, cost, out);
  }
  out << "\n(hops: links on the fewest-hop route to the ring neighbour, to up to 16 group members for "
         "all-to-all,"
         " to the peer for point-to-point; bytes: what each rank sends, algorithm-independent)\n";
  return out.str();
}

}  // namespace zs::output
