// The folder where a sweep keeps its plan and one record per finished point.
#include "batch/sweep_journal.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "core/atomic_file.hpp"
#include "core/fingerprint.hpp"
#include "core/staged_directory.hpp"
#include "core/version.hpp"

namespace zs::batch {

const core::ChoiceNames<PointStatus>& point_statuses() {
  static const core::ChoiceNames<PointStatus> names{
      {PointStatus::kOk, "ok"}, {PointStatus::kInvalid, "invalid"}, {PointStatus::kFailed, "failed"}};
  return names;
}

PointStatus status_of(const nlohmann::json& record) {
  const auto it = record.find("status");
  if (it != record.end() && it->is_string())
    if (const auto status = point_statuses().find(it->get<std::string>())) return *status;
  throw std::runtime_error("a sweep point's record states no outcome (ok, invalid or failed): " +
                           record.dump().substr(0, 200));
}
namespace fs = std::filesystem;
namespace {

std::optional<nlohmann::json> read_json_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  try {
    return nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;  // never written by us: a record is renamed into place complete
  }
}

nlohmann::json plan_document(const scenario::SweepPlan& plan) {
  return {{"zettasim_version", core::kVersion}, {"plan", plan.to_json()}};
}

/// Removes the temporary files that writers killed mid-write left (names with ".tmp-").
void remove_stale_temporaries(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.path().filename().string().find(".tmp-") != std::string::npos) fs::remove(entry.path(), ec);
}

}  // namespace

fs::path journal_dir(const fs::path& out) {
  fs::path dir = out;
  dir += ".journal";
  return dir;
}

SweepJournal::SweepJournal(fs::path dir, const scenario::SweepPlan& plan)
    : dir_(std::move(dir)), plan_(plan) {
  const nlohmann::json wanted = plan_document(plan);
  const auto existing = read_json_file(dir_ / "plan.json");
  if (existing && *existing != wanted) {
    restarted_ = true;
    fs::remove_all(dir_ / "points");
    fs::remove_all(dir_ / "logs");
    fs::remove_all(dir_ / "slurm");
  }
  fs::create_directories(dir_);
  if (!fs::exists(dir_ / core::kOutputMarker))  // first, so that the folder is known as a journal
    core::write_file_atomically(dir_ / core::kOutputMarker, "a zettasim sweep's journal\n");
  fs::create_directories(dir_ / "points");
  fs::create_directories(dir_ / "logs");
  remove_stale_temporaries(dir_);
  remove_stale_temporaries(dir_ / "points");
  if (!existing || restarted_) core::write_file_atomically(dir_ / "plan.json", wanted.dump() + "\n");
}

bool SweepJournal::holds_another(const fs::path& dir, const scenario::SweepPlan& plan) {
  const auto existing = read_json_file(dir / "plan.json");
  return existing && *existing != plan_document(plan);
}

SweepJournal::SweepJournal(fs::path dir) : dir_(std::move(dir)) {
  const auto doc = read_json_file(dir_ / "plan.json");
  if (!doc) throw std::runtime_error("no sweep plan in " + dir_.string());
  if (doc->at("zettasim_version") != core::kVersion)
    throw std::runtime_error("the sweep in " + dir_.string() + " was planned by another zettasim version");
  plan_ = scenario::SweepPlan::from_json(doc->at("plan"));
}

fs::path SweepJournal::point_file(uint64_t index) const {
  return dir_ / "points" / (std::to_string(index) + ".json");
}

fs::path SweepJournal::log(uint64_t index) const {
  return dir_ / "logs" / (std::to_string(index) + ".log");
}

std::optional<nlohmann::json> SweepJournal::record(uint64_t index) const {
  return read_json_file(point_file(index));
}

bool SweepJournal::finished(uint64_t index) const {
  const auto r = record(index);
  return r && !r->value("retry", false) && inputs_unchanged(*r);
}

bool SweepJournal::inputs_unchanged(const nlohmann::json& record) const {
  const auto inputs = record.find("inputs");
  if (inputs == record.end() || !inputs->is_object()) return true;  // a record the sweep wrote itself
  for (const auto& [path, recorded] : inputs->items()) {
    auto known = fingerprints_.find(path);
    if (known == fingerprints_.end())
      known = fingerprints_.emplace(path, core::file_fingerprint(path).value_or("unreadable")).first;
    if (recorded != known->second) return false;
  }
  return true;
}

std::vector<uint64_t> SweepJournal::pending() const {
  std::vector<uint64_t> out;
  for (const auto& p : plan_.points)
    if (!finished(p.index)) out.push_back(p.index);
  return out;
}

void SweepJournal::clear(uint64_t index) const {
  std::error_code ec;
  fs::remove(point_file(index), ec);
}

void SweepJournal::write(uint64_t index, const nlohmann::json& record) const {
  core::write_file_atomically(point_file(index), record.dump() + "\n");
}

}  // namespace zs::batch
