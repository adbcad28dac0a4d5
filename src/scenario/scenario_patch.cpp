// Sets parameters of a scenario by their place in the resolved configuration.
#include "scenario/scenario_patch.hpp"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "core/input_error.hpp"
#include "core/json_object.hpp"

namespace zs::scenario {
namespace {

/// The exception a patch throws: its message (which echoes the pointer) as one line, so that a NUL or a
/// newline in the pointer neither cuts it (what() is a C string) nor starts a second line.
std::invalid_argument refusal(const std::string& message) { return std::invalid_argument(core::one_line(message)); }

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
    throw refusal("\"" + pointer +
                                "\" is not a JSON pointer (one like \"/workload/plan/data_parallel\")");
  }
  if (!resolved_.contains(ptr))
    throw refusal("\"" + pointer +
                                "\" names nothing in the resolved configuration (config.json)");
  std::vector<std::string> tokens;
  for (auto p = ptr; !p.empty(); p = p.parent_pointer()) tokens.insert(tokens.begin(), p.back());

  PatchTarget at{scenario_path_, "", true, false};
  const nlohmann::json* resolved = &resolved_;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const auto key = nlohmann::json::json_pointer(core::json_pointer_append("", tokens[i]));
    const nlohmann::json* node = &document(at.file)[nlohmann::json::json_pointer(at.pointer)];
    if (node->is_string() && (resolved->is_object() || resolved->is_array())) {  // an included file
      at.file = core::resolve_relative(at.file, node->get<std::string>());
      at.pointer = "";
      node = &document(at.file);
    }
    const std::string step = core::json_pointer_append(at.pointer, tokens[i]);
    if ((node->is_object() || node->is_array()) && node->contains(key)) {
      at.pointer = step;
    } else if (node->is_object() && i + 1 < tokens.size() && resolved->at(key).is_object()) {
      // a group the resolved configuration adds ("scenario", a generator's "plan"): its keys are the file's
    } else if (node->is_object() && i + 1 == tokens.size()) {  // a default the file leaves out
      at.pointer = step;
      at.present = false;
    } else {
      throw refusal("\"" + pointer +
                                  "\" is a value zettasim derives, not a parameter a file sets (" + at.file +
                                  " has nothing at " + step + ")");
    }
    resolved = &resolved->at(key);
  }
  if (at.present) {
    const nlohmann::json& here = document(at.file)[nlohmann::json::json_pointer(at.pointer)];
    at.include = here.is_string() && (resolved->is_object() || resolved->is_array());
  }
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

std::map<std::string, std::string> ScenarioPatch::files() const {
  std::map<std::string, std::string> out;
  for (const auto& [path, _] : patched_) out[path] = documents_.at(path).dump(2) + "\n";
  return out;
}

}  // namespace zs::scenario
