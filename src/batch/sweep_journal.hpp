// The folder where a sweep keeps its plan and one record per finished point, so that a killed sweep
// resumes where it stopped.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/choice_names.hpp"
#include "scenario/sweep_plan.hpp"

namespace zs::batch {

/// A point record's outcome: its result (ok), an input error (invalid), or its process failed.
enum class PointStatus { kOk, kInvalid, kFailed };

/// The outcomes' names as records and the results file write them: "ok", "invalid", "failed".
const core::ChoiceNames<PointStatus>& point_statuses();
/// The outcome a point's record states; throws std::runtime_error for a record that states none.
PointStatus status_of(const nlohmann::json& record);

/// DIR/plan.json holds the plan (with the zettasim version); DIR/points/N.json the record of point N,
/// each written atomically (complete or absent, whenever the sweep is killed); DIR/logs/N.log what the
/// point's process printed.
class SweepJournal {
 public:
  /// Opens the journal at `dir` for `plan`: creates it, or keeps the records of an earlier run of the same
  /// plan (another plan's records are removed, and `restarted()` says so). Stale temporary files of
  /// killed writers are removed.
  SweepJournal(std::filesystem::path dir, const scenario::SweepPlan& plan);
  /// Opens an existing journal to run points of it (a point's process); its plan is read back.
  explicit SweepJournal(std::filesystem::path dir);

  /// Whether `dir` holds the journal of a sweep other than `plan`.
  static bool holds_another(const std::filesystem::path& dir, const scenario::SweepPlan& plan);

  const std::filesystem::path& dir() const { return dir_; }
  const scenario::SweepPlan& plan() const { return plan_; }
  bool restarted() const { return restarted_; }

  /// Whether point `index` has a final record (a point killed from outside has none to keep) whose
  /// inputs are still as it read them: a record lists the fingerprint of every file its point read
  /// ("inputs": path -> core::file_fingerprint), and a point whose files changed since runs again.
  bool finished(uint64_t index) const;
  /// The points without a final record, in order.
  std::vector<uint64_t> pending() const;
  /// The record of point `index`, if written.
  std::optional<nlohmann::json> record(uint64_t index) const;
  /// Writes the record of point `index` atomically.
  void write(uint64_t index, const nlohmann::json& record) const;
  /// Removes the record of point `index` (one marked to run again), before it runs again.
  void clear(uint64_t index) const;
  /// The log file of point `index`'s process.
  std::filesystem::path log(uint64_t index) const;

 private:
  std::filesystem::path point_file(uint64_t index) const;

  /// Whether every file `record` lists under "inputs" still has the fingerprint it lists.
  bool inputs_unchanged(const nlohmann::json& record) const;

  std::filesystem::path dir_;
  scenario::SweepPlan plan_;
  bool restarted_ = false;
  /// The fingerprints of the files records list, as this process first read them.
  mutable std::map<std::string, std::string> fingerprints_;
};

/// The journal folder of results file `out`: "OUT.journal" beside it.
std::filesystem::path journal_dir(const std::filesystem::path& out);

}  // namespace zs::batch
