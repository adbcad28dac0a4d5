// Runs a sweep's points as processes of this machine, a few at a time.
#include "batch/local_backend.hpp"

#include <csignal>
#include <cstring>
#include <fstream>
#include <map>
#include <stdexcept>
#include <thread>

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/input_error.hpp"

namespace zs::batch {
namespace {

/// Starts one point's process: `executable ARGS... JOURNAL_DIR INDEX`.
pid_t start(const PointCommand& command, const std::string& journal, uint64_t index, const std::string& log) {
  std::vector<std::string> words{command.executable};
  words.insert(words.end(), command.args.begin(), command.args.end());
  words.push_back(journal);
  words.push_back(std::to_string(index));
  return start_process(words, log);
}

bool killed_from_outside(int status) {
  if (!WIFSIGNALED(status)) return false;
  const int sig = WTERMSIG(status);
  return sig == SIGKILL || sig == SIGTERM || sig == SIGINT || sig == SIGHUP;
}

}  // namespace

pid_t start_process(const std::vector<std::string>& words, const std::string& log) {
  std::vector<std::string> copy = words;
  std::vector<char*> argv;
  for (auto& w : copy) argv.push_back(w.data());
  argv.push_back(nullptr);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("cannot start a process: ") + std::strerror(errno));
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);  // the coordinator died before prctl
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      ::dup2(fd, 1);
      ::dup2(fd, 2);
      ::close(fd);
    }
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  return pid;
}

std::string last_line_of(const std::string& path) {
  std::ifstream in(path);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  last = core::one_line(last);
  return last.size() > 300 ? last.substr(0, 297) + "..." : last;
}

nlohmann::json failed_record(uint64_t index, int status, const std::string& last_line) {
  std::string why;
  if (WIFSIGNALED(status)) {
    const char* name = ::sigdescr_np(WTERMSIG(status));
    why = "the point's process was killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
          (name ? name : "unknown") + ")";
  } else {
    why =
        "the point's process exited with status " + std::to_string(WEXITSTATUS(status)) + " without a result";
  }
  nlohmann::json record = {{"point", index},
                           {"status", point_statuses().name(PointStatus::kFailed)},
                           {"error", why + (last_line.empty() ? "" : ": " + last_line)}};
  if (killed_from_outside(status)) record["retry"] = true;
  return record;
}

void run_points_locally(const SweepJournal& journal, const std::vector<uint64_t>& pending,
                        const PointCommand& command, unsigned jobs, SweepProgress& progress) {
  std::map<pid_t, uint64_t> running;
  size_t next = 0;
  while (next < pending.size() || !running.empty()) {
    while (next < pending.size() && running.size() < std::max(1u, jobs)) {
      const uint64_t index = pending[next++];
      journal.clear(index);
      running[start(command, journal.dir().string(), index, journal.log(index).string())] = index;
    }
    progress.running(running.size());
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, WNOHANG);
    if (pid < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("waiting for the points' processes: ") + std::strerror(errno));
    }
    if (pid == 0) {  // none ended: look again shortly, keeping the progress line current
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      progress.tick();
      continue;
    }
    const auto it = running.find(pid);
    if (it == running.end()) continue;
    const uint64_t index = it->second;
    running.erase(it);
    auto record = journal.record(index);
    if (!record) {
      record = failed_record(index, status, last_line_of(journal.log(index).string()));
      journal.write(index, *record);
    }
    progress.finished(status_of(*record) != PointStatus::kOk);
  }
  progress.running(0);
}

}  // namespace zs::batch
