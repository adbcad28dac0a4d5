// Every value config.json shows outside "derived", in every shipped scenario, is set by its pointer through
// the path a sweep uses (slow: it loads each scenario once per value tried).
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/file_source.hpp"
#include "core/input_error.hpp"
#include "core/json_object.hpp"
#include "scenario/scenario_loader.hpp"
#include "scenario/scenario_patch.hpp"
#include "scenario/sweep_value.hpp"
#include "support/shipped_scenarios.hpp"

using namespace zs;

namespace {

/// The leaf pointers of `j` below `at` (scalars; an empty object or array holds nothing to set).
void collect_leaves(const nlohmann::json& j, const std::string& at, std::vector<std::string>& out) {
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) collect_leaves(v, core::json_pointer_append(at, k), out);
  } else if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i) collect_leaves(j[i], at + "/" + std::to_string(i), out);
  } else {
    out.push_back(at);
  }
}

/// Other values a closed set's key can take, tried in order (one of them must be valid where it stands).
const std::map<std::string, std::vector<std::string>>& alternatives() {
  static const std::map<std::string, std::vector<std::string>> names = {
      {"fidelity", {"exact", "collapsed", "auto"}},
      {"placement", {"topology-aware", "linear", "random"}},
      {"name", {"tree", "ring", "recursive", "double-binary-tree"}},  // a collective policy's name
      {"protocol", {"simple", "ll128", "auto"}},
      {"algorithms", {"nccl", "any"}},
      {"dtype", {"fp16", "bf16"}},
      {"ffn_activation", {"gelu", "swiglu", "relu"}},
      {"norm", {"rmsnorm", "layernorm"}},
      {"position_embedding", {"rope", "learned", "none"}},
      {"recompute", {"selective", "full", "none"}},
      {"recompute_method", {"block", "uniform"}},
      {"schedule", {"interleaved-1f1b", "1f1b", "gpipe"}},
      {"fp8", {"delayed", "current", "none"}},
      {"gradient_dtype", {"fp32", "bf16", "auto"}},
      {"mode", {"async", "sync"}},
      {"interval", {"600s", "daly"}},
      {"target", {"memory-pools"}},
      {"source", {"assumption: what-if", "normal"}},
      {"routing", {"uniform", "zipf"}},
      {"per", {"host", "unit", "rack"}},
      {"recovery", {"restart", "replace"}},
  };
  return names;
}

/// Keys whose value selects the file's type or the table its other keys are read by: no other value is
/// valid while the rest of the file stays as it is.
bool selects_the_table(const std::string& key) {
  return key == "kind" || key == "generator";
}

/// Values to try at a leaf holding `v` (under key `key`), each different from it.
std::vector<nlohmann::json> candidates(const std::string& key, const nlohmann::json& v) {
  std::vector<nlohmann::json> out;
  const scenario::SweepValueKind kind = scenario::sweep_value_kind(v);
  if (v.is_boolean()) {
    out.push_back(!v.get<bool>());
  } else if (v.is_number_integer() || v.is_number_unsigned()) {
    const long long n = v.get<long long>();
    for (long long c : {n + 1, 2 * n, n - 1, n / 2, 4 * n, n / 4, n + 2, 1LL})
      if (c >= 0 && c != n) out.push_back(c);
  } else if (v.is_number()) {
    const double x = v.get<double>();
    for (double c : {x * 0.9, x * 1.1, x * 0.5, x + 1, 0.5, 0.1})
      if (c != x) out.push_back(c);
  } else if (scenario::is_quantity(kind)) {
    const double x = *scenario::numeric_value(kind, v);
    for (double f : {2.0, 0.5, 1.5}) out.push_back(scenario::value_of(kind, x > 0 ? x * f : f));
  } else if (v.is_string()) {
    const auto known = alternatives().find(key);
    if (known != alternatives().end())
      for (const auto& a : known->second)
        if (a != v.get<std::string>()) out.push_back(a);
    out.push_back(v.get<std::string>() + "-what-if");  // a free text, a name
  }
  return out;
}

/// `config` without its derived part.
nlohmann::json settable(nlohmann::json config) {
  config.erase("derived");
  return config;
}

/// `j` without the "sources" objects of its models (a set value's citation changes with it).
nlohmann::json without_sources(nlohmann::json j) {
  if (j.is_object()) {
    j.erase("sources");
    for (auto& [_, v] : j.items()) v = without_sources(std::move(v));
  } else if (j.is_array()) {
    for (auto& v : j) v = without_sources(std::move(v));
  }
  return j;
}

/// The pointers at which `a` and `b` differ (an added or removed key counts at its own pointer).
std::vector<std::string> differences(const nlohmann::json& a, const nlohmann::json& b) {
  std::vector<std::string> out;
  for (const auto& op : nlohmann::json::diff(a, b)) out.push_back(op.at("path").get<std::string>());
  return out;
}

struct Attempt {
  bool valid = false;    ///< a different value loaded, config.json holds it, and nothing a file sets changed
  bool coupled = false;  ///< no candidate is valid with the other values as they are, and the loader
                         ///< refused one at the place the pointer leads to (its file, the same object)
  std::string why;       ///< the last refusal or difference, for the failure message
};

/// Sets the leaf at `pointer` of the scenario at `path` to each candidate until one loads.
Attempt try_leaf(const core::FileSource& disk, const std::string& path, const scenario::Scenario& s,
                 const std::string& pointer) {
  const nlohmann::json::json_pointer ptr(pointer);
  const nlohmann::json& old_value = s.resolved.at(ptr);
  scenario::ScenarioPatch locator(disk, path, s.resolved);
  const scenario::PatchTarget target = locator.locate(pointer);
  const std::string parent = target.pointer.substr(0, target.pointer.rfind('/'));
  Attempt a;
  for (const auto& value : candidates(ptr.back(), old_value)) {
    scenario::ScenarioPatch patch(disk, path, s.resolved);
    patch.set(pointer, value, path, "a test");
    core::OverlayFileSource patched(disk, patch.files());
    scenario::Scenario changed;
    try {
      changed = scenario::ScenarioLoader(patched).load(path);
    } catch (const core::InputError& e) {
      a.why = "set to " + value.dump() + ": " + e.what();
      const bool at_the_object = e.file() == target.file && e.json_path().rfind(parent, 0) == 0;
      const bool names_the_file = std::string(e.what()).find(target.file) != std::string::npos;
      if (at_the_object || names_the_file) a.coupled = true;
      continue;  // not valid with the other values: try another
    }
    const nlohmann::json& got = changed.resolved.at(ptr);
    if (!scenario::same_value(scenario::sweep_value_kind(value), got, value)) {
      a.why = "set to " + value.dump() + ", config.json holds " + got.dump();
      continue;
    }
    // Besides the value set, only defaults that follow from it may change (a model's head_dim from its
    // heads), and a changed model value's citation ("what-if: set by ...").
    a.valid = true;
    for (const auto& at :
         differences(without_sources(settable(s.resolved)), without_sources(settable(changed.resolved)))) {
      if (at == pointer) continue;
      scenario::ScenarioPatch other(disk, path, s.resolved);
      if (other.locate(at).present) {
        a.valid = false;
        a.why = "set to " + value.dump() + ", " + at + " changed too, which a file sets";
      }
    }
    if (a.valid) return a;
  }
  return a;
}

}  // namespace

TEST_CASE("every leaf of every shipped scenario's config.json outside derived is set by its pointer") {
  core::DiskFileSource disk;
  size_t leaves = 0, valid = 0;
  std::set<std::string> checked;  // FILE#POINTER of the included files' keys set so far
  for (const auto& path : test::shipped_scenario_paths()) {
    CAPTURE(path);
    const scenario::Scenario s = scenario::ScenarioLoader(disk).load(path);
    std::vector<std::string> pointers;
    collect_leaves(settable(s.resolved), "", pointers);
    for (const auto& pointer : pointers) {
      CAPTURE(pointer);
      const std::string key = nlohmann::json::json_pointer(pointer).back();
      if (selects_the_table(key)) {  // it can still be located where the file holds it
        scenario::ScenarioPatch patch(disk, path, s.resolved);
        CHECK_NOTHROW(patch.locate(pointer));
        continue;
      }
      // A key of an included file that an earlier scenario set already (a shared model) is not set again.
      const scenario::PatchTarget target = scenario::ScenarioPatch(disk, path, s.resolved).locate(pointer);
      if (target.file != path && !checked.insert(target.file + "#" + target.pointer).second) continue;
      const Attempt a = try_leaf(disk, path, s, pointer);
      INFO(a.why);
      CHECK((a.valid || a.coupled));
      ++leaves;
      if (a.valid) ++valid;
    }
  }
  MESSAGE(valid << " of " << leaves << " leaves set to a valid different value; the others refused where "
                << "they lead, no other value being valid with the rest as it is");
  CHECK(leaves > 900);  // distinct keys: a shared model file's are counted once
  CHECK(valid > leaves * 3 / 4);
}
