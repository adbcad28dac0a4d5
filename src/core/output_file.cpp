// The output-file rule: what may be at a path zettasim writes, and the atomic write itself.
#include "core/output_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>

#include <stdlib.h>
#include <unistd.h>

#include "core/atomic_file.hpp"
#include "core/file_source.hpp"
#include "core/input_error.hpp"

namespace zs::core {
namespace fs = std::filesystem;
namespace {

std::string quoted(const fs::path& p) {
  return "\"" + p.string() + "\"";
}

/// `path` made absolute and normalized, links resolved where they exist: two names of one place compare
/// equal.
fs::path canonical_place(const fs::path& path) {
  std::error_code ec;
  const fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
  return ec ? fs::absolute(path).lexically_normal() : p;
}

bool inside(const fs::path& file, const fs::path& folder) {
  auto f = file.begin();
  for (auto d = folder.begin(); d != folder.end(); ++d, ++f)
    if (f == file.end() || *f != *d) return false;
  return f != file.end();
}

/// The last `n` bytes of a file (all of it when shorter).
std::string tail(const fs::path& path, std::streamoff n) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return {};
  const std::streamoff size = in.tellg();
  const std::streamoff from = size > n ? size - n : 0;
  in.seekg(from);
  std::string out(static_cast<size_t>(size - from), '\0');
  in.read(out.data(), static_cast<std::streamsize>(out.size()));
  return out;
}

/// Why no file can be created in `folder`, or "" when one can: an empty probe is created there and removed,
/// as the atomic write will create its temporary file. (access() answers yes for root in /proc, where
/// creating a file fails.)
std::string creation_problem(const fs::path& folder) {
  std::string probe = (folder / ".zettasim-probe-XXXXXX").string();
  const int fd = ::mkstemp(probe.data());
  if (fd < 0) return std::strerror(errno);
  ::close(fd);
  ::unlink(probe.c_str());
  return {};
}

}  // namespace

void check_output_file(const OutputFile& f) {
  if (f.path.empty()) throw InputError(f.option, "", "expected a file's path");
  const fs::path parent = f.path.parent_path().empty() ? fs::path(".") : f.path.parent_path();
  std::error_code ec;
  if (!fs::is_directory(parent, ec))
    throw InputError(f.option, "",
                     "no folder " + quoted(parent) + " to write " + quoted(f.path.filename()) + " in");
  if (const std::string problem = creation_problem(parent); !problem.empty())
    throw InputError(f.option, "", "cannot write in folder " + quoted(parent) + " (" + problem + ")");
  const fs::file_status status = fs::symlink_status(f.path, ec);
  if (ec || !fs::exists(status)) return;
  if (fs::is_symlink(status))
    throw InputError(f.option, "",
                     quoted(f.path) +
                         " is a symbolic link: zettasim never writes through or over a link; "
                         "give the path of a file");
  if (!fs::is_regular_file(status))
    throw InputError(f.option, "",
                     quoted(f.path) + " is a " + (fs::is_directory(status) ? "folder" : "special file") +
                         ", expected a file's path (it is never replaced)");
  const std::string here = absolute_path(f.path.string());
  for (const auto& input : f.inputs)
    if (input == here)
      throw InputError(f.option, "",
                       quoted(f.path) +
                           " is an input of this command: it is never replaced; choose another "
                           "path");
  if (f.replace != Replace::kForce && !(f.ours && f.ours(f.path)))
    throw InputError(f.option, "",
                     quoted(f.path) + " exists and is not " + f.format +
                         " zettasim wrote: choose another path, or --force to replace it");
}

void write_output_file(const OutputFile& f, const std::string& content) {
  check_output_file(f);
  try {
    write_file_atomically(f.path, content);
  } catch (const std::runtime_error& e) {
    throw InputError(f.option, "", e.what());
  }
}

CommandOutputs::CommandOutputs(std::vector<std::string> inputs) {
  for (const auto& input : inputs) inputs_.emplace_back(input);
}

void CommandOutputs::add_folder(std::string option, const fs::path& dir) {
  CommandOutputs with = *this;  // checked as a whole before it is kept: a refused folder is not added
  with.folders_.emplace_back(std::move(option), canonical_place(dir));
  with.check_distinct();
  *this = std::move(with);
}

void CommandOutputs::add_file(const OutputFile& f) {
  CommandOutputs with = *this;
  with.files_.emplace_back(f.option, canonical_place(f.path));
  with.check_distinct();
  check_output_file(f);
  *this = std::move(with);
}

void CommandOutputs::check_distinct() const {
  for (size_t i = 0; i < files_.size(); ++i) {
    for (size_t j = 0; j < i; ++j)
      if (files_[i].second == files_[j].second)
        throw InputError(files_[i].first, "",
                         files_[i].first + " and " + files_[j].first + " name one file, " +
                             quoted(files_[i].second) + ": give each output its own path");
    for (const auto& [option, folder] : folders_)
      if (files_[i].second == folder || inside(files_[i].second, folder))
        throw InputError(files_[i].first, "",
                         quoted(files_[i].second) + " is inside " + quoted(folder) + ", the folder " +
                             option + " writes whole: choose a path outside it");
  }
  for (const auto& [option, folder] : folders_)
    for (const auto& input : inputs_)
      if (input == folder || inside(input, folder))
        throw InputError(
            option, "",
            quoted(folder) + " holds " + quoted(input) +
                ", an input of this command, and would be replaced whole: choose another folder");
  for (size_t i = 0; i < folders_.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (folders_[i].second == folders_[j].second || inside(folders_[i].second, folders_[j].second) ||
          inside(folders_[j].second, folders_[i].second))
        throw InputError(folders_[i].first, "",
                         folders_[i].first + " and " + folders_[j].first +
                             " name one folder or one inside the "
                             "other: give each its own place");
}

bool is_zettasim_trace_events(const fs::path& path) {
  if (!starts_with_text(path, "{\"traceEvents\":[")) return false;
  return tail(path, 4096).find("\"zettasim_version\":\"") != std::string::npos;
}

bool starts_with_text(const fs::path& path, const std::string& prefix) {
  std::ifstream in(path, std::ios::binary);
  std::string head(prefix.size(), '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  return in && head == prefix;
}

}  // namespace zs::core
