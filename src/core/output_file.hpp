// The one rule for every single file zettasim writes (timelines, time series, traces, graphs, JUnit XML,
// baselines, sweep tables): checked before the command's work, written atomically.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/staged_directory.hpp"

namespace zs::core {

/// Whether the existing regular file at a path is one zettasim wrote in a given format, told by the
/// format's own marker (a timeline's otherData.zettasim_version, an HDF5 file's zettasim_version
/// attribute, a comment line, a kind).
using OwnOutputTest = std::function<bool(const std::filesystem::path&)>;

/// One file a command writes, and everything its rule needs.
struct OutputFile {
  std::string option;  ///< what named it, for messages ("--timeline", "run(timeline=...)")
  std::filesystem::path path;
  std::string format;  ///< what zettasim writes there, for messages ("a timeline")
  OwnOutputTest ours;  ///< recognises a file of this format that zettasim wrote
  Replace replace = Replace::kOwnOutput;
  std::vector<std::string> inputs;  ///< files the command reads (core::absolute_path): never replaced
};

/// The rule for one file. Throws core::InputError naming `f.option` when
///  - the path is empty, or its folder does not exist or cannot be written in;
///  - something is at the path that is not a regular file: a symbolic link (never written through or
///    replaced), a folder, a device;
///  - the file is one of the command's inputs (never replaced, not even with --force);
///  - the file exists and `f.ours` does not recognise it, unless `f.replace` is kForce.
void check_output_file(const OutputFile& f);

/// check_output_file again (the disk may have changed during the work), then writes `content` through a
/// temporary file and a rename; an I/O failure is an InputError naming `f.option`.
void write_output_file(const OutputFile& f, const std::string& content);

/// Every output of one command: files and whole folders (results, plans, Chakra exports).
class CommandOutputs {
 public:
  /// The files the command reads (core::absolute_path): no output folder may hold one, since replacing the
  /// folder would remove it.
  explicit CommandOutputs(std::vector<std::string> inputs = {});
  /// Adds a folder the command replaces as a whole (its own rule is core::StagedDirectory's).
  void add_folder(std::string option, const std::filesystem::path& dir);
  /// Adds a file; throws core::InputError when it names the same path as an output added before or lies
  /// inside a folder added before (check_distinct()), then as check_output_file does.
  void add_file(const OutputFile& f);
  /// Throws core::InputError when two outputs name one path, a file lies inside an output folder, or an
  /// output folder holds an input.
  void check_distinct() const;

 private:
  std::vector<std::filesystem::path> inputs_;
  std::vector<std::pair<std::string, std::filesystem::path>> folders_;  ///< (option, canonical path)
  std::vector<std::pair<std::string, std::filesystem::path>> files_;
};

/// The test for a JSON trace-event file (a timeline) zettasim wrote: it starts with {"traceEvents":[ and
/// its last bytes hold otherData's "zettasim_version".
bool is_zettasim_trace_events(const std::filesystem::path& path);

/// The test for a text file whose first `prefix.size()` bytes are `prefix` (a comment line zettasim writes
/// first, as "// written by zettasim").
bool starts_with_text(const std::filesystem::path& path, const std::string& prefix);

}  // namespace zs::core
