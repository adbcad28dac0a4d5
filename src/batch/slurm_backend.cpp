// Runs a sweep's points as a Slurm job array.
#include "batch/slurm_backend.hpp"

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <sys/wait.h>

#include "core/atomic_file.hpp"
#include "core/input_error.hpp"
#include "core/shell_words.hpp"

namespace zs::batch {
namespace fs = std::filesystem;
namespace {

using core::shell_quoted;

struct CommandResult {
  int status = -1;
  std::string output;  ///< stdout and stderr
};

CommandResult run_command(const std::vector<std::string>& words) {
  std::string line;
  for (const auto& w : words) line += (line.empty() ? "" : " ") + shell_quoted(w);
  line += " 2>&1";
  CommandResult r;
  FILE* pipe = ::popen(line.c_str(), "r");
  if (pipe == nullptr) return r;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) r.output.append(buf.data(), n);
  r.status = ::pclose(pipe);
  return r;
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

/// Whether Slurm still holds job `id` (queued or running).
bool job_active(const std::string& id) {
  const CommandResult r = run_command({"squeue", "-h", "-j", id, "-o", "%i"});
  return r.status == 0 && !trimmed(r.output).empty();
}

/// Waits for job `id` to leave the queue, reporting the points of `points` as their records appear.
void wait_for(const std::string& id, const SweepJournal& journal, const std::vector<uint64_t>& points,
              SweepProgress& progress) {
  std::vector<bool> reported(points.size(), false);
  uint64_t done = 0;
  for (;;) {
    const bool active = job_active(id);
    for (size_t i = 0; i < points.size(); ++i) {
      if (reported[i] || !journal.finished(points[i])) continue;
      reported[i] = true;
      ++done;
      progress.finished(status_of(*journal.record(points[i])) != PointStatus::kOk);
    }
    progress.running(active ? points.size() - done : 0);
    if (!active) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
}

std::string array_script(const SweepJournal& journal, const PointCommand& command, uint64_t tasks) {
  std::string script = "#!/bin/sh\n# A zettasim sweep's array task: runs its share of the points.\ncd " +
                       shell_quoted(fs::current_path().string()) + " || exit 1\nexec " +
                       shell_quoted(command.executable) + " sweep-chunk " +
                       shell_quoted(fs::absolute(journal.dir()).string()) + " \"$SLURM_ARRAY_TASK_ID\" " +
                       std::to_string(tasks) + "\n";
  return script;
}

}  // namespace

void run_points_on_slurm(const SweepJournal& journal, const std::vector<uint64_t>& pending,
                         const PointCommand& command, const SlurmOptions& slurm, SweepProgress& progress) {
  const fs::path dir = journal.dir() / "slurm";
  fs::create_directories(dir);
  const fs::path job_file = dir / "job_id";
  if (fs::exists(job_file)) {  // an earlier run's job: let it finish rather than run its points twice
    std::ifstream in(job_file);
    std::string id;
    std::getline(in, id);
    if (!id.empty() && job_active(id)) wait_for(id, journal, pending, progress);
  }
  std::vector<uint64_t> left;
  for (uint64_t p : pending)
    if (!journal.finished(p)) left.push_back(p);
  if (left.empty()) return;
  const uint64_t tasks = std::min<uint64_t>(slurm.tasks > 0 ? slurm.tasks : 1000, left.size());
  core::write_file_atomically(dir / "points.json", nlohmann::json(left).dump() + "\n");
  core::write_file_atomically(dir / "task.sh", array_script(journal, command, tasks));
  std::vector<std::string> sbatch{"sbatch", "--parsable", "--array=0-" + std::to_string(tasks - 1),
                                  "--job-name=zettasim-" + journal.plan().spec.name,
                                  "--output=" + fs::absolute(dir / "task-%a.log").string()};
  if (!slurm.partition.empty()) sbatch.push_back("--partition=" + slurm.partition);
  if (!slurm.time_limit.empty()) sbatch.push_back("--time=" + slurm.time_limit);
  if (!slurm.account.empty()) sbatch.push_back("--account=" + slurm.account);
  sbatch.insert(sbatch.end(), slurm.extra.begin(), slurm.extra.end());
  sbatch.push_back((dir / "task.sh").string());
  const CommandResult submitted = run_command(sbatch);
  const std::string id = trimmed(submitted.output).substr(0, trimmed(submitted.output).find(';'));
  if (submitted.status != 0 || id.empty() || id.find_first_not_of("0123456789") != std::string::npos)
    throw core::InputError(
        "--backend", "",
        "sbatch refused the sweep's job array: " + core::one_line(trimmed(submitted.output)));
  core::write_file_atomically(job_file, id + "\n");
  wait_for(id, journal, left, progress);
  for (uint64_t p : left)
    if (!journal.record(p)) {
      journal.write(p, {{"point", p},
                        {"status", point_statuses().name(PointStatus::kFailed)},
                        {"error", "Slurm job " + id + " ended without running this point (see " +
                                      (dir / "task-N.log").string() + ")"},
                        {"retry", true}});
      progress.finished(true);
    }
}

void run_slurm_task(const std::string& journal_dir, uint64_t task, uint64_t tasks,
                    const PointCommand& command, unsigned jobs) {
  const SweepJournal journal(journal_dir);
  std::ifstream in(journal.dir() / "slurm" / "points.json");
  const auto submitted =
      nlohmann::json::parse(in).get<std::vector<uint64_t>>();  // the job's points, in order
  std::vector<uint64_t> mine;
  for (size_t k = task; k < submitted.size(); k += tasks)
    if (!journal.finished(submitted[k])) mine.push_back(submitted[k]);
  std::ostringstream quiet;
  SweepProgress progress(quiet, mine.size(), 0, false, true);
  run_points_locally(journal, mine, command, jobs, progress);
}

}  // namespace zs::batch
