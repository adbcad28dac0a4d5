// Sets parameters of a scenario by their place in the resolved configuration: each pointer is followed
// through the scenario file and the files it includes (config.json's "/derived/files") to the key a user
// would edit there.
#pragma once

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "core/file_source.hpp"

namespace zs::scenario {

/// Where a resolved-configuration pointer is read from.
struct PatchTarget {
  std::string file;      ///< the input file that holds (or would hold) the value
  std::string pointer;   ///< its JSON path in that file
  bool present = false;  ///< whether the file sets it (otherwise a default, or a value zettasim derives)
  /// Whether the file holds there the path of an included file (a model's file): a string value then
  /// names another file instead of setting the included file's contents.
  bool include = false;
  /// Whether the value there is a policy's object ({"name", options...}), which a name alone also sets.
  bool named = false;
  /// A policy the file names alone ("collective": "ring") whose option is set: the name's pointer and the
  /// name, written first as {"name": NAME} (empty when the file has the object already).
  std::string expand_pointer;
  std::string expand_name;
};

/// The input files of one scenario, to be patched in memory. Thrown std::invalid_argument says, in one
/// line, why a pointer cannot be set (the caller adds the sweep file and path).
class ScenarioPatch {
 public:
  /// `resolved` is the scenario's resolved configuration (what config.json holds).
  ScenarioPatch(const core::FileSource& files, std::string scenario_path, const nlohmann::json& resolved);

  /// Follows `pointer` to the input file and key it is read from.
  PatchTarget locate(const std::string& pointer);
  /// Sets `value` at `pointer`'s target. An include's target given a string names the file to include
  /// instead, resolved against `relative_to` (the sweep file); later pointers through it set that file. A
  /// model value that cites a source gets "what-if: set by `origin`" instead; empty `origin`: "a sweep
  /// (`relative_to`)".
  void set(const std::string& pointer, const nlohmann::json& value, const std::string& relative_to,
           const std::string& origin = "");
  /// Whether setting `value` at `pointer` names another file to include (false when the pointer cannot be
  /// set; set() says why). Callers set those first, so that the other values land in the files named.
  bool names_file(const std::string& pointer, const nlohmann::json& value);
  /// The patched files' texts by path, to lay over the unpatched ones.
  std::map<std::string, std::string> files() const;

 private:
  nlohmann::json& document(const std::string& path);
  PatchTarget follow(const std::string& pointer);

  const core::FileSource& files_;
  std::string scenario_path_;
  const nlohmann::json& resolved_;
  std::map<std::string, nlohmann::json> documents_;  ///< read so far, by path
  std::map<std::string, bool> patched_;
};

}  // namespace zs::scenario
