// Sets parameters of a scenario by their place in the resolved configuration.
#include "scenario/scenario_patch.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <stdexcept>

#include "core/input_error.hpp"
#include "core/json_object.hpp"

namespace zs::scenario {
namespace {

constexpr const char* kDerived = "derived";  ///< the configuration's part that no file sets

/// The exception a patch throws: its message (which echoes the pointer) as one line, so that a NUL or a
/// newline in the pointer neither cuts it (what() is a C string) nor starts a second line.
std::invalid_argument refusal(const std::string& message) {
  return std::invalid_argument(core::one_line(message));
}

/// What works out the values under "/derived/KEY", for the refusal of a derived pointer.
std::string derived_by(const std::string& key) {
  static const std::map<std::string, std::string> by_key = {
      {"files",
       "the files the scenario names (set the pointer that names one, such as /machine/models/gpu, to "
       "another file)"},
      {"machine", "the loader, counting the parts of the machine (/machine)"},
      {"workload", "the workload's generator or trace, from the workload section (/workload)"},
      {"plugins", "the plugins the scenario lists (/plugins)"},
      {"placement_map", "the placement's map file (/policies/placement/map)"}};
  const auto found = by_key.find(key);
  return found != by_key.end() ? found->second : "the loader (the scenario file's path, zettasim's version)";
}

/// The value at `pointer` of `doc`, or nullptr: a lookup that adds nothing to the document.
const nlohmann::json* find(const nlohmann::json& doc, const std::string& pointer) {
  const auto ptr = nlohmann::json::json_pointer(pointer);
  return doc.contains(ptr) ? &doc.at(ptr) : nullptr;
}

}  // namespace

ScenarioPatch::ScenarioPatch(const core::FileSource& files, std::string scenario_path,
                             const nlohmann::json& resolved)
    : files_(files), scenario_path_(std::move(scenario_path)), resolved_(resolved) {}

nlohmann::json& ScenarioPatch::document(const std::string& path) {
  auto it = documents_.find(path);
  if (it == documents_.end()) it = documents_.emplace(path, files_.read_json(path)).first;
  return it->second;
}

PatchTarget ScenarioPatch::locate(const std::string& pointer) {
  try {
    return follow(pointer);
  } catch (const nlohmann::json::exception& e) {  // a token no document can hold ("01" in an array)
    throw refusal("\"" + pointer + "\" cannot be followed: " + e.what());
  }
}

PatchTarget ScenarioPatch::follow(const std::string& pointer) {
  nlohmann::json::json_pointer ptr;
  try {
    ptr = nlohmann::json::json_pointer(pointer);
  } catch (const nlohmann::json::exception&) {
    throw refusal("\"" + pointer + "\" is not a JSON pointer (one like \"/workload/data_parallel\")");
  }
  std::vector<std::string> tokens;
  for (auto p = ptr; !p.empty(); p = p.parent_pointer()) tokens.insert(tokens.begin(), p.back());
  if (!tokens.empty() && tokens[0] == kDerived)
    throw refusal("\"" + pointer + "\" is derived, not a parameter a file sets: " +
                  derived_by(tokens.size() > 1 ? tokens[1] : "") + " sets it");
  if (!resolved_.contains(ptr))
    throw refusal("\"" + pointer + "\" names nothing in the resolved configuration (config.json)");
  const nlohmann::json empty = nlohmann::json::object();
  const nlohmann::json& included =
      resolved_.contains(kDerived) ? resolved_[kDerived].value("files", empty) : empty;

  PatchTarget at{scenario_path_, "", true, false, false, {}, {}};
  std::string config_at;  // the pointer walked so far, in the configuration
  for (size_t i = 0; i < tokens.size(); ++i) {
    const bool last = i + 1 == tokens.size();
    const nlohmann::json& parent = resolved_.at(nlohmann::json::json_pointer(config_at));
    config_at = core::json_pointer_append(config_at, tokens[i]);
    const std::string step = core::json_pointer_append(at.pointer, tokens[i]);
    const nlohmann::json* node = at.present ? find(document(at.file), at.pointer) : nullptr;
    if (node != nullptr && node->is_string() && parent.is_object() && parent.contains("name") &&
        parent["name"] == *node) {
      at.expand_pointer = at.pointer;  // a policy named alone: becomes {"name": ...} when an option is set
      at.expand_name = node->get<std::string>();
      at.present = false;
      node = nullptr;
    }
    const bool here = node != nullptr && (node->is_object() || node->is_array()) &&
                      node->contains(nlohmann::json::json_pointer(core::json_pointer_append("", tokens[i])));
    if (at.present && !here && !(node != nullptr && node->is_object()))
      throw refusal("\"" + pointer + "\" cannot be set: " + at.file + " has no object at " +
                    (at.pointer.empty() ? "its top" : at.pointer) + " to hold it");
    at.pointer = step;
    at.present = at.present && here;
    if (included.contains(config_at)) {  // the key names a file, whose contents the configuration inlines
      if (last) {
        at.include = true;
      } else {
        if (!at.present)
          throw refusal("\"" + pointer + "\" cannot be followed: " + at.file + " has no file at " + step);
        // The file the document names there now (a value set before may name another one than the
        // configuration read), resolved as the loader resolves it.
        const nlohmann::json* named = find(document(at.file), at.pointer);
        at.file = named != nullptr && named->is_string()
                      ? core::resolve_relative(at.file, named->get<std::string>())
                      : included[config_at].get<std::string>();
        at.pointer = "";
      }
    }
  }
  const nlohmann::json& value = resolved_.at(ptr);
  at.named = !at.include && value.is_object() && value.contains("name") && value["name"].is_string();
  return at;
}

void ScenarioPatch::set(const std::string& pointer, const nlohmann::json& value,
                        const std::string& relative_to, const std::string& origin) {
  const PatchTarget at = locate(pointer);
  nlohmann::json written = value;
  if (at.include && value.is_string()) {  // another file: a path relative to the sweep file, made relative
    namespace fs = std::filesystem;       // to the including file
    const std::string target = core::resolve_relative(relative_to, value.get<std::string>());
    const fs::path from = fs::path(at.file).parent_path();
    written = fs::path(target).is_absolute()
                  ? target
                  : fs::path(target).lexically_relative(from.empty() ? "." : from).generic_string();
  }
  nlohmann::json& doc = document(at.file);
  if (!at.expand_name.empty())
    doc[nlohmann::json::json_pointer(at.expand_pointer)] = {{"name", at.expand_name}};
  doc[nlohmann::json::json_pointer(at.pointer)] = std::move(written);
  if (doc.contains("sources") && doc["sources"].is_object() && !at.include) {  // a model's cited value
    std::string cited = at.pointer.substr(1);
    std::replace(cited.begin(), cited.end(), '/', '.');
    if (doc["sources"].contains(cited) || !at.present)
      doc["sources"][cited] = "what-if: set by " +
                              (origin.empty() ? "a sweep (" + relative_to + ")" : origin) +
                              ", not a published value";
  }
  patched_[at.file] = true;
}

bool ScenarioPatch::names_file(const std::string& pointer, const nlohmann::json& value) {
  if (!value.is_string()) return false;
  try {
    return locate(pointer).include;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

std::map<std::string, std::string> ScenarioPatch::files() const {
  std::map<std::string, std::string> out;
  for (const auto& [path, _] : patched_) out[path] = documents_.at(path).dump(2) + "\n";
  return out;
}

}  // namespace zs::scenario
