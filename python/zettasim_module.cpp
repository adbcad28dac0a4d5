// The C++ half of `import zettasim`: scenarios, runs, placement costs and plans through the same library
// calls as the CLI. JSON crosses the boundary as text (the Python half parses it); InputError becomes
// zettasim.InputError.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "core/fidelity.hpp"
#include "core/file_source.hpp"
#include "core/input_error.hpp"
#include "core/version.hpp"
#include "output/run_record.hpp"
#include "planner/job_plan.hpp"
#include "planner/plan_folder.hpp"
#include "plugin/scenario_with_plugins.hpp"
#include "scenario/scenario_patch.hpp"
#include "study/scenario_simulation.hpp"

namespace py = pybind11;
using namespace zs;

namespace {

/// A scenario file (on disk, or held in `overlay` with the files changed by with_) and what it loads to.
struct LoadedScenario {
  std::string path;
  std::map<std::string, std::string> overlay;  ///< path → text, in front of the disk
  std::shared_ptr<const scenario::Scenario> scenario;
};

LoadedScenario load(std::string path, std::map<std::string, std::string> overlay) {
  core::DiskFileSource disk;
  core::OverlayFileSource files(disk, overlay);
  scenario::Catalog catalog;
  auto s = std::make_shared<scenario::Scenario>(plugin::load_scenario(files, path, catalog, {}));
  return {std::move(path), std::move(overlay), std::move(s)};
}

/// A scenario given as JSON text, as if it were the file `path` (relative paths in it resolve from there).
LoadedScenario load_text(const std::string& json_text, const std::string& path) {
  return load(path, {{std::filesystem::path(path).lexically_normal().generic_string(), json_text}});
}

/// A copy with each (JSON pointer, JSON value) set where the user would edit it (scenario::ScenarioPatch,
/// as a sweep point does); file names in values resolve from the folder `relative_to`.
LoadedScenario with_values(const LoadedScenario& base, const std::map<std::string, std::string>& changes,
                           const std::string& relative_to) {
  core::DiskFileSource disk;
  core::OverlayFileSource files(disk, base.overlay);
  scenario::ScenarioPatch patch(files, base.path, base.scenario->resolved);
  const std::string referrer =
      (std::filesystem::path(relative_to) / "with_").string();  // a file in that folder
  for (const auto& [pointer, value] : changes) patch.set(pointer, nlohmann::json::parse(value), referrer);
  auto overlay = base.overlay;
  for (auto& [file, text] : patch.files()) overlay[file] = std::move(text);
  return load(base.path, std::move(overlay));
}

/// One iteration: summary.json, config.json and report.txt as `zettasim run` writes them.
std::map<std::string, std::string> run(const LoadedScenario& loaded, const std::string& fidelity) {
  scenario::Scenario s = *loaded.scenario;
  if (!fidelity.empty()) {
    const auto f = core::parse_fidelity(fidelity);
    if (!f)
      throw core::InputError("fidelity", "", "expected auto, exact or collapsed, got \"" + fidelity + "\"");
    s.fidelity = *f;
  }
  s.resolved["scenario"]["fidelity"] = core::to_string(s.fidelity);
  std::map<std::string, std::string> out;
  {
    py::gil_scoped_release unlocked;
    const engine::SimulationResult result = study::simulate_scenario(s);
    out["summary.json"] = output::summary_json(s, result).dump(2) + "\n";
    out["config.json"] = output::config_json(s).dump(2) + "\n";
    out["report.txt"] = output::report_text(s, result);
  }
  return out;
}

/// The planner's four files, without prediction.
std::map<std::string, std::string> plan(const LoadedScenario& loaded) {
  const auto p = planner::make_job_plan(*loaded.scenario, {});
  std::map<std::string, std::string> out;
  for (auto& [name, text] : planner::plan_files(p, planner::plan_json(p))) out[name] = std::move(text);
  return out;
}

}  // namespace

PYBIND11_MODULE(_zettasim, m) {
  m.doc() = "zettasim's C++ libraries; use the zettasim package, which wraps them";
  m.attr("__version__") = core::kVersion;
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const core::InputError& e) {
      py::object error = py::module_::import("zettasim._errors").attr("InputError");
      py::object instance = error(e.what(), e.file(), e.json_path(), e.message());
      PyErr_SetObject(error.ptr(), instance.ptr());
    }
  });
  py::class_<LoadedScenario>(m, "LoadedScenario")
      .def_property_readonly("path", [](const LoadedScenario& s) { return s.path; })
      .def_property_readonly("name", [](const LoadedScenario& s) { return s.scenario->name; })
      .def_property_readonly("overlay", [](const LoadedScenario& s) { return s.overlay; })
      .def("config_json", [](const LoadedScenario& s) { return output::config_json(*s.scenario).dump(); });
  m.def(
      "load", [](const std::string& path) { return load(path, {}); }, py::arg("path"));
  m.def("load_text", &load_text, py::arg("json_text"), py::arg("path"));
  m.def("with_values", &with_values, py::arg("base"), py::arg("changes"), py::arg("relative_to"));
  m.def("run", &run, py::arg("scenario"), py::arg("fidelity") = "");
  m.def("plan", &plan, py::arg("scenario"));
}
