// A scenario's "reliability" section: failure rates, checkpointing, recovery and the horizon to simulate.
#pragma once

#include <cstdint>
#include <memory>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/file_source.hpp"
#include "core/json_object.hpp"
#include "core/param_reader.hpp"
#include "core/registry.hpp"
#include "hw/file_system_model.hpp"
#include "policy/policy_catalog.hpp"
#include "policy/recovery/checkpoint_policy.hpp"
#include "reliability/failure_rates.hpp"

namespace zs::scenario {

/// A named thing of the scenario with the JSON path it was given at, resolved against the job later.
struct NamedAt {
  std::string name;
  std::string path;  ///< JSON path, for errors
};

/// "at t, this instance of this component fails".
struct ScriptedFailureSpec {
  core::Seconds at{0};
  uint32_t component = 0;  ///< index in the rate table
  NamedAt instance;
};

/// "from t, for d, this unit is slower / this link carries less".
struct DegradationSpec {
  core::Seconds at{0}, duration{0};
  std::optional<NamedAt> unit;                      ///< a straggling unit (by topology name)...
  std::optional<std::pair<NamedAt, NamedAt>> link;  ///< ...or a link, by the names of its two ends
  double factor = 1;  ///< slowdown (>= 1) of the unit, or fraction of bandwidth (0, 1] left on the link
};

/// Where checkpoints are written: a store given by its bandwidth, the machine's memory pools (at the sum of
/// their ports' bandwidth) or a parallel file system model.
struct CheckpointStore {
  enum class Kind { kBandwidth, kMemoryPools, kFileSystem };
  Kind kind = Kind::kBandwidth;
  core::ByteRate bandwidth{0};                     ///< kBandwidth: all ranks together
  std::optional<hw::FileSystemModel> file_system;  ///< kFileSystem
  std::string file_system_path;                    ///< kFileSystem: the model file, resolved
  /// "2 TB/s", "memory-pools" or "file system tectonic-240pb".
  std::string describe() const;
};

/// Detection when a scenario gives none: PyTorch's ProcessGroupNCCL watchdog timeout, 10 min (its default
/// since pytorch/pytorch#110947), after which a collective hung on a failed peer aborts the job; a crash is
/// noticed sooner, so this is the slow end. s
inline constexpr double kDefaultDetection = 600;
/// Restart when a scenario gives none: Daly 2006's R = 10 min (FGCS 22(3)). s
inline constexpr double kDefaultRestart = 600;

struct ReliabilitySetup {
  reliability::FailureRates rates;
  core::Seconds horizon{0};  ///< wall-clock time simulated
  uint32_t seeds = 1;        ///< Monte Carlo seeds
  policy::CheckpointPolicy checkpoint;
  /// The checkpoint store; with peer_memory, the persistent tier the peer copies drain to.
  CheckpointStore store;
  /// "target": "peer-memory": every checkpoint is a snapshot kept in the rank's own HBM and copied to its
  /// peer's (two-tier checkpointing, as Gemini, SOSP'23, does in host memory); `store` is the second tier.
  bool peer_memory = false;
  /// Peer memory: the peer is this many ranks round the data-parallel ring ("peer_offset"); 0: half of it.
  uint32_t peer_offset = 0;
  core::Seconds detection{kDefaultDetection};  ///< from the failure to the job knowing
  core::Seconds restart{kDefaultRestart};      ///< re-initialization and loading the checkpoint
  uint32_t spares = 0;                         ///< 0: no spare pool (replaced parts are waited for)
  /// Spares are the machine's units the job leaves idle; failed ranks are re-placed onto them
  /// ("spares": {"from": "idle-units"}).
  bool re_place = false;
  core::Seconds swap{0};
  core::Seconds repair{0};
  std::string recovery_name;  ///< the recovery policy's name ("recovery", default "replace")
  /// What replaces the ranks a failed part stops (the catalog's recovery policy of that name).
  std::shared_ptr<const policy::RecoveryPolicy> recovery;
  /// Asynchronous checkpoints: the blocking snapshot to memory goes at this bandwidth (all ranks together),
  /// then the drain to the store in the background. 0: synchronous.
  core::ByteRate snapshot_bandwidth{0};
  std::vector<ScriptedFailureSpec> events;
  std::vector<DegradationSpec> degradations;
  double straggler_rate_per_unit_hour = 0;  ///< 1/h
  double straggler_slowdown = 2;
  core::Seconds straggler_duration{0};
  nlohmann::json resolved;  ///< the section as read, defaults filled in, its files inlined (config.json)
  std::string failure_rates_file;  ///< the failure-rates file, resolved
};

/// Reads the section; rates are read from the file it names, relative to the scenario. A spare pool of
/// zero units, a non-positive time or bandwidth and an unknown interval rule or recovery policy are
/// core::InputError with the JSON path.
ReliabilitySetup read_reliability(core::ParamReader& section, const core::FileSource& files,
                                  const policy::PolicyCatalog& policies);

}  // namespace zs::scenario
