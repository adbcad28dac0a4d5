// DOT and GraphML writers.
#include "output/graph_writer.hpp"

#include <sstream>
#include <stdexcept>

#include "core/input_error.hpp"
#include "core/version.hpp"
#include "output/output_formats.hpp"
#include "output/xml_text.hpp"

namespace zs::output {
namespace {

std::string model_of(const topology::Machine& m, topology::NodeId n) {
  switch (m.topology.node(n).kind) {
    case topology::NodeKind::kUnit:
      return m.unit_model(n).name();
    case topology::NodeKind::kMemory:
      return m.memory_model(n).name();
    default:
      return "";
  }
}

/// The node's kind in words, as graph topology files write it.
std::string kind_of(const topology::Machine& m, topology::NodeId n) {
  return std::string(topology::node_kinds().name(m.topology.node(n).kind));
}

/// DOT's shape for a node of `kind`.
const char* dot_shape(topology::NodeKind kind) {
  switch (kind) {
    case topology::NodeKind::kUnit:
      return "box";
    case topology::NodeKind::kMemory:
      return "cylinder";
    case topology::NodeKind::kSwitch:
      break;
  }
  return "ellipse";
}

}  // namespace

std::string to_dot(const topology::Machine& m) {
  std::ostringstream out;
  out << "// " << kWrittenByZettasim << " " << core::kVersion << " (zettasim topo, DOT)\n";
  out << "graph \"" << m.name << "\" {\n";
  const auto& topo = m.topology;
  for (topology::NodeId n = 0; n < topo.nodes().size(); ++n) {
    const topology::NodeKind kind = topo.node(n).kind;
    out << "  n" << n << " [label=\"" << topo.node(n).name << "\", shape=" << dot_shape(kind);
    if (kind != topology::NodeKind::kSwitch) out << ", model=\"" << model_of(m, n) << "\"";
    out << "];\n";
  }
  for (topology::LinkId l = 0; l < topo.links().size(); ++l) {
    const auto& link = topo.link(l);
    out << "  n" << link.a << " -- n" << link.b << " [bandwidth=" << m.link_bandwidth(l).value()
        << ", latency=" << m.link_model(l).latency().value() << ", label=\""
        << core::display(m.link_bandwidth(l)) << "\"];\n";
  }
  out << "}\n";
  return out.str();
}

std::string to_graphml(const topology::Machine& m) {
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<!-- " << kWrittenByZettasim << " " << core::kVersion << " (zettasim topo, GraphML) -->\n"
      << "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
      << "  <key id=\"name\" for=\"node\" attr.name=\"name\" attr.type=\"string\"/>\n"
      << "  <key id=\"kind\" for=\"node\" attr.name=\"kind\" attr.type=\"string\"/>\n"
      << "  <key id=\"model\" for=\"node\" attr.name=\"model\" attr.type=\"string\"/>\n"
      << "  <key id=\"bandwidth\" for=\"edge\" attr.name=\"bandwidth_B_per_s\" attr.type=\"double\"/>\n"
      << "  <key id=\"latency\" for=\"edge\" attr.name=\"latency_s\" attr.type=\"double\"/>\n"
      << "  <key id=\"width\" for=\"edge\" attr.name=\"width\" attr.type=\"double\"/>\n"
      << "  <graph id=\"" << xml_escaped(m.name) << "\" edgedefault=\"undirected\">\n";
  const auto& topo = m.topology;
  for (topology::NodeId n = 0; n < topo.nodes().size(); ++n) {
    const topology::NodeKind kind = topo.node(n).kind;
    out << "    <node id=\"n" << n << "\"><data key=\"name\">" << xml_escaped(topo.node(n).name)
        << "</data><data key=\"kind\">" << kind_of(m, n) << "</data>";
    if (kind != topology::NodeKind::kSwitch)
      out << "<data key=\"model\">" << xml_escaped(model_of(m, n)) << "</data>";
    out << "</node>\n";
  }
  for (topology::LinkId l = 0; l < topo.links().size(); ++l) {
    const auto& link = topo.link(l);
    out << "    <edge source=\"n" << link.a << "\" target=\"n" << link.b << "\"><data key=\"bandwidth\">"
        << m.link_bandwidth(l).value() << "</data><data key=\"latency\">" << m.link_model(l).latency().value()
        << "</data><data key=\"width\">" << link.width << "</data></edge>\n";
  }
  out << "  </graph>\n</graphml>\n";
  return out.str();
}

void write_graph_file(const topology::Machine& machine, const core::OutputFile& file) {
  const auto extension = file.path.extension();
  if (extension != ".graphml" && extension != ".dot")
    throw core::InputError(file.option, "",
                           "the graph file must end in .dot or .graphml, got \"" + file.path.string() + "\"");
  core::write_output_file(file, extension == ".graphml" ? to_graphml(machine) : to_dot(machine));
}

}  // namespace zs::output
