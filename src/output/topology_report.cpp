// Machine summary report.
#include "output/topology_report.hpp"

#include <algorithm>
#include <sstream>

namespace zs::output {

std::string topology_report(const topology::Machine& m, const std::string& file,
                            const topology::TopologySummary& s) {
  std::ostringstream out;
  std::string models;
  for (const auto& [name, count] : s.units_by_model)
    models += (models.empty() ? "" : ", ") + name + ": " + std::to_string(count);
  out << "machine \"" << m.name << "\" (generator " << m.generator << ", " << file << ")\n";
  out << "  units                 " << s.units << " (" << models << ")\n";
  out << "  switches              " << s.switches << "\n";
  if (s.memory_pools > 0) out << "  memory pools          " << s.memory_pools << "\n";
  if (!m.topology.optical_switches().empty()) {
    size_t active = 0;
    for (const auto& c : m.topology.circuits()) active += c.active_at_start ? 1 : 0;
    out << "  optical switches      " << m.topology.optical_switches().size() << " (" << active
        << " circuits set up at the start)\n";
  }
  if (!m.power_domains.empty()) {
    size_t most = 0;
    for (const auto& d : m.power_domains) most = std::max(most, d.units.size());
    out << "  power domains         " << m.power_domains.size() << " (up to " << most << " units each)\n";
  }
  out << "  links                 " << s.links << "\n";
  out << "  injection per unit    " << core::display(s.min_injection);
  if (s.max_injection != s.min_injection) out << " to " << core::display(s.max_injection);
  out << " per direction\n";
  out << "  diameter              " << s.diameter.hops << " links between units ("
      << (s.diameter.exact ? "exact, " : "lower bound, ") << "breadth-first from " << s.diameter.sources
      << " units)\n";
  out << "  bisection bandwidth   " << core::display(s.bisection)
      << " per direction (max-flow between the two halves of the units in topology order)\n";
  return out.str();
}

}  // namespace zs::output
