// Slurm's topology.conf for the tree plugin: the switch hierarchy over a cluster's nodes.
#include "inventory/slurm_topology.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "core/input_error.hpp"
#include "core/slurm_values.hpp"
#include "inventory/hostlist.hpp"

namespace zs::inventory {
namespace {

/// The logical lines of the file (continuations joined, comments and blanks dropped), each with the
/// number of its first physical line.
std::vector<std::pair<uint32_t, std::string>> logical_lines(const std::string& text) {
  std::vector<std::pair<uint32_t, std::string>> out;
  std::istringstream in(text);
  std::string physical, joined;
  uint32_t number = 0, first = 0;
  while (std::getline(in, physical)) {
    ++number;
    if (const size_t hash = physical.find('#'); hash != std::string::npos) physical.resize(hash);
    while (!physical.empty() && std::isspace(static_cast<unsigned char>(physical.back())))
      physical.pop_back();
    if (joined.empty()) first = number;
    const bool continues = !physical.empty() && physical.back() == '\\';
    if (continues) physical.pop_back();
    joined += physical + " ";
    if (continues) continue;
    if (joined.find_first_not_of(" \t\r") != std::string::npos) out.push_back({first, joined});
    joined.clear();
  }
  if (!joined.empty() && joined.find_first_not_of(" \t\r") != std::string::npos)
    out.push_back({first, joined});
  return out;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

SlurmSwitch parse_line(uint32_t number, const std::string& line, const std::string& file) {
  auto error = [&](const std::string& what) {
    return core::InputError(file, "", "line " + std::to_string(number) + ": " + what);
  };
  SlurmSwitch s;
  s.line = number;
  std::istringstream words(line);
  std::string word;
  while (words >> word) {
    const size_t equals = word.find('=');
    if (equals == std::string::npos || equals == 0 || equals + 1 == word.size())
      throw error("expected Key=Value, got \"" + word + "\"");
    const std::string key = lower(word.substr(0, equals)), value = word.substr(equals + 1);
    try {
      if (key == "switchname") {
        if (!s.name.empty()) throw error("a second SwitchName on one line");
        if (const auto problem = core::host_name_problem(value))
          throw error("SwitchName: expected " + *problem + ", got \"" + value + "\"");
        s.name = value;
      } else if (key == "nodes") {
        s.nodes = expand_hostlist(value);
      } else if (key == "switches") {
        s.switches = expand_hostlist(value);
      } else if (key == "linkspeed") {
        s.link_speed = value;
      } else {
        throw error("unknown key \"" + word.substr(0, equals) +
                    "\" (known: SwitchName, Nodes, Switches, LinkSpeed)");
      }
    } catch (const std::invalid_argument& e) {
      throw error(word.substr(0, equals) + ": " + e.what());
    }
  }
  if (s.name.empty()) throw error("expected SwitchName=NAME");
  return s;
}

}  // namespace

SlurmTopology SlurmTopology::parse(const std::string& text, const std::string& file) {
  SlurmTopology t;
  t.file = file;
  std::map<std::string, size_t> index;
  uint64_t names = 0;  // nodes and switches listed so far
  for (const auto& [number, line] : logical_lines(text)) {
    SlurmSwitch s = parse_line(number, line, file);
    names += s.nodes.size() + s.switches.size();
    if (names > kMaxHostlistHosts)
      throw core::InputError(file, "",
                             "line " + std::to_string(number) + ": the file lists more than " +
                                 std::to_string(kMaxHostlistHosts) + " nodes and switches");
    if (const auto it = index.find(s.name); it != index.end())
      throw core::InputError(file, "",
                             "line " + std::to_string(number) + ": switch \"" + s.name +
                                 "\" is defined again (first on line " +
                                 std::to_string(t.switches[it->second].line) + ")");
    index[s.name] = t.switches.size();
    t.switches.push_back(std::move(s));
  }
  if (t.switches.empty())
    throw core::InputError(file, "", "no SwitchName line: expected the switches of the cluster");
  std::vector<long> parent(t.switches.size(), -1);
  for (size_t i = 0; i < t.switches.size(); ++i) {
    const SlurmSwitch& s = t.switches[i];
    const std::string at = "line " + std::to_string(s.line) + ": ";
    for (const auto& node : s.nodes)
      if (const auto [it, added] = t.switch_of_node.emplace(node, i); !added)
        throw core::InputError(file, "",
                               at + "node \"" + node + "\" is under switch \"" + s.name + "\" and switch \"" +
                                   t.switches[it->second].name + "\"");
    for (const auto& child : s.switches) {
      const auto it = index.find(child);
      if (it == index.end())
        throw core::InputError(file, "",
                               at + "switch \"" + s.name + "\" lists switch \"" + child +
                                   "\", which no SwitchName line defines");
      if (parent[it->second] >= 0)
        throw core::InputError(file, "",
                               at + "switch \"" + child + "\" is listed by \"" + s.name + "\" and by \"" +
                                   t.switches[size_t(parent[it->second])].name + "\"");
      parent[it->second] = long(i);
    }
  }
  // Levels by an explicit depth-first search (no recursion: a chain of switches as long as the file
  // allows must not exhaust the stack); a switch met again while its own search is open closes a loop.
  t.level.assign(t.switches.size(), 0);
  std::vector<int> state(t.switches.size(), 0);  // 0 new, 1 open, 2 done
  const auto level_of = [&](size_t root) {
    std::vector<std::pair<size_t, size_t>> stack{{root, 0}};  // (switch, next child to visit)
    while (!stack.empty()) {
      auto& [i, next] = stack.back();
      if (next == 0 && state[i] == 2) {
        stack.pop_back();
        continue;
      }
      state[i] = 1;
      const auto& children = t.switches[i].switches;
      if (next < children.size()) {
        const size_t child = index.at(children[next++]);
        if (state[child] == 1)
          throw core::InputError(file, "",
                                 "line " + std::to_string(t.switches[child].line) + ": switch \"" +
                                     t.switches[child].name + "\" is its own ancestor (a loop of switches)");
        if (state[child] == 0) stack.push_back({child, 0});
        continue;
      }
      uint32_t level = 0;
      for (const auto& c : children) level = std::max(level, t.level[index.at(c)] + 1);
      t.level[i] = level;
      state[i] = 2;
      stack.pop_back();
    }
  };
  for (size_t i = 0; i < t.switches.size(); ++i) {
    level_of(i);
    if (parent[i] < 0) t.roots.push_back(i);
  }
  if (t.roots.empty())
    throw core::InputError(file, "", "every switch has a parent: a loop of switches with no root");
  return t;
}

}  // namespace zs::inventory
