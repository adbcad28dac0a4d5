// Slurm's topology.conf for the tree plugin: the switch hierarchy over a cluster's nodes.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace zs::inventory {

/// One SwitchName line: the nodes and switches under it.
struct SlurmSwitch {
  std::string name;
  std::vector<std::string> nodes;     ///< expanded from Nodes=
  std::vector<std::string> switches;  ///< expanded from Switches=
  std::string link_speed;             ///< LinkSpeed= as written (Slurm ignores it), or empty
  uint32_t line = 0;                  ///< where it is defined
};

/// A topology.conf as read: its switches in file order, each node's leaf switch and each switch's level
/// (0 for a switch with only nodes below it; one more than its highest child switch otherwise).
struct SlurmTopology {
  std::string file;
  std::vector<SlurmSwitch> switches;
  std::map<std::string, size_t> switch_of_node;  ///< node name → index in `switches`
  std::vector<uint32_t> level;                   ///< per switch
  std::vector<size_t> roots;                     ///< switches no other switch lists

  /// Reads topology.conf text (`file` names it in errors). Keys are Slurm's, case-insensitive: SwitchName,
  /// Nodes, Switches, LinkSpeed; '#' starts a comment; a line ending in '\' continues on the next. Throws
  /// core::InputError naming the file and line for an unknown key, a line without SwitchName, a switch
  /// defined twice, a bad hostlist, a node under two switches, a switch listed by two parents, a child
  /// switch never defined, and a loop of switches.
  static SlurmTopology parse(const std::string& text, const std::string& file);
};

}  // namespace zs::inventory
