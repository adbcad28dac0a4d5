// The nodes of a Slurm cluster as `scontrol show nodes --oneliner` prints them: name, GPUs, state.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace zs::inventory {

/// One node line.
struct SlurmNode {
  std::string name;      ///< NodeName=
  std::string gpu_type;  ///< the type of its GPU gres ("h100" of Gres=gpu:h100:8), empty when untyped
  uint32_t gpus = 0;     ///< GPUs the gres counts; 0 without a GPU gres
  std::string state;     ///< State= as printed ("IDLE", "IDLE+DRAIN", "DOWN+NOT_RESPONDING")
  std::string reason;    ///< Reason= as printed, or empty
  uint32_t line = 0;

  /// Whether a job may be planned on it: every word of its state is one of IDLE, ALLOCATED, MIXED,
  /// COMPLETING, RESERVED, PLANNED, CLOUD. Anything else (DOWN, DRAIN, FAIL, NOT_RESPONDING, MAINTENANCE,
  /// POWERED_DOWN, REBOOT_REQUESTED, a state this list does not know) leaves it out.
  bool usable() const;
};

/// The node lines of a file in file order. Blank lines are skipped; every other line is `Key=value`
/// fields separated by spaces, where a word without '=' continues the previous value (OS= holds spaces)
/// and Reason= takes the rest of the line. Throws core::InputError naming the file and line for a line
/// without NodeName= or State=, a node named twice, and a Gres= GPU entry whose count is not a number or
/// that has two GPU types.
std::vector<SlurmNode> parse_slurm_node_list(const std::string& text, const std::string& file);

}  // namespace zs::inventory
