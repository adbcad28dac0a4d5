// Validation rows, their scenarios, Megatron-LM's FLOP count and the comparison with the published figures.
#include "scenario/megatron_validation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/file_kind.hpp"
#include "core/input_error.hpp"
#include "core/json_object.hpp"

namespace zs::scenario {
namespace {

const std::vector<std::string> kColumns = {"table",
                                           "params_billion",
                                           "scheme",
                                           "layers",
                                           "hidden",
                                           "heads",
                                           "tensor_parallel",
                                           "pipeline_parallel",
                                           "virtual_stages",
                                           "gpus",
                                           "global_batch",
                                           "micro_batch",
                                           "published_tflops_per_gpu"};

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream ss(line);
  for (std::string cell; std::getline(ss, cell, ',');) cells.push_back(cell);
  if (!line.empty() && line.back() == ',') cells.emplace_back();
  return cells;
}

/// A positive number in a cell; anything else names the line and column.
double number_cell(const std::string& file, size_t line, const std::string& column, const std::string& cell,
                   bool integer) {
  size_t used = 0;
  double value = 0;
  try {
    value = std::stod(cell, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != cell.size() || !(value > 0) || (integer && value != std::floor(value)))
    throw core::InputError(file, "",
                           "line " + std::to_string(line) + ", column " + column + ": expected a positive " +
                               (integer ? "integer" : "number") + ", got \"" + cell + "\"");
  return value;
}

std::vector<ValidationRow> read_rows(const std::string& text, const std::string& path) {
  std::vector<ValidationRow> rows;
  std::stringstream in(text);
  bool header = false;
  size_t number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    const auto cells = split_csv_line(line);
    if (!header) {
      if (cells != kColumns) {
        std::string expected;
        for (const auto& c : kColumns) expected += (expected.empty() ? "" : ",") + c;
        throw core::InputError(
            path, "", "line " + std::to_string(number) + ": expected the header \"" + expected + "\"");
      }
      header = true;
      continue;
    }
    if (cells.size() != kColumns.size())
      throw core::InputError(path, "",
                             "line " + std::to_string(number) + ": expected " +
                                 std::to_string(kColumns.size()) + " columns, got " +
                                 std::to_string(cells.size()));
    auto integer = [&](size_t i) {
      return static_cast<uint32_t>(number_cell(path, number, kColumns[i], cells[i], true));
    };
    ValidationRow r;
    r.table = integer(0);
    r.params_billion = number_cell(path, number, kColumns[1], cells[1], false);
    const auto scheme = validation_schemes().find(cells[2]);
    if (!scheme)
      throw core::InputError(path, "",
                             "line " + std::to_string(number) +
                                 ", column scheme: expected ptd-p or zero-3, got \"" + cells[2] + "\"");
    r.scheme = *scheme;
    r.layers = integer(3);
    r.hidden = integer(4);
    r.heads = integer(5);
    r.tensor_parallel = integer(6);
    r.pipeline_parallel = integer(7);
    r.virtual_stages = integer(8);
    r.gpus = integer(9);
    r.global_batch = integer(10);
    r.micro_batch = integer(11);
    r.published_tflops = number_cell(path, number, kColumns[12], cells[12], false);
    if (r.gpus % (r.tensor_parallel * r.pipeline_parallel) != 0)
      throw core::InputError(path, "",
                             "line " + std::to_string(number) + ": tensor_parallel x pipeline_parallel (" +
                                 std::to_string(r.tensor_parallel * r.pipeline_parallel) +
                                 ") does not divide gpus (" + std::to_string(r.gpus) + ")");
    rows.push_back(r);
  }
  if (rows.empty()) throw core::InputError(path, "", "expected at least one row after the header");
  return rows;
}

std::string format_billion(double b) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", b);
  return buf;
}

}  // namespace

const core::ChoiceNames<ValidationScheme>& validation_schemes() {
  static const core::ChoiceNames<ValidationScheme> names{{ValidationScheme::kPtdP, "ptd-p"},
                                                         {ValidationScheme::kZero3, "zero-3"}};
  return names;
}

std::string ValidationRow::name() const {
  return "table" + std::to_string(table) + "-" + format_billion(params_billion) + "B-" +
         std::string(validation_schemes().name(scheme)) + "-" + std::to_string(gpus) + "gpu";
}

ValidationSpec ValidationSpec::load(const core::FileSource& files, const std::string& path) {
  nlohmann::json doc = files.read_json(path);
  core::JsonObject root(doc, path, "");
  if (core::parse_file_kind(root.string("kind")) != core::FileKind::kValidation)
    throw root.error("kind", "expected \"validation\" or \"published-runs\" (a validation file)");
  ValidationSpec s;
  s.file = path;
  s.name = root.file_name("name");
  s.description = root.string("description");
  root.required("rows");  // read once every key is known to be valid

  auto machine = root.object("machine");
  s.units_per_server = static_cast<uint32_t>(machine.integer("units_per_server", 1, 1 << 16));
  auto models = machine.object("models");
  for (const char* binding : {"gpu", "nvlink", "ib"}) s.models[binding] = models.string(binding);
  models.finish();
  machine.finish();

  auto work = root.object("workload");
  s.seq_len = static_cast<uint32_t>(work.integer("seq_len", 1, 1 << 24));
  s.vocab = static_cast<uint32_t>(work.integer("vocab", 1, 1 << 24));
  s.dtype = work.string("dtype");
  s.recompute = work.string("recompute");
  s.flash_attention = work.boolean_or("flash_attention", true);
  s.batched_exchanges = work.boolean_or("batched_exchanges", false);
  work.finish();

  s.fidelity = root.string("fidelity");
  auto acceptance = root.object("acceptance");
  s.row_tolerance = acceptance.number("row_error", 0.0, 10.0);
  s.mean_tolerance = acceptance.number("mean_absolute_error", 0.0, 10.0);
  acceptance.finish();
  root.finish();
  s.rows = read_rows(files.read_named(root, "rows", s.rows_file), s.rows_file);
  return s;
}

RowScenario row_scenario(const ValidationSpec& spec, const ValidationRow& row) {
  const std::string stem = core::resolve_relative(spec.file, spec.name + "." + row.name());
  const std::string name = spec.name + "-" + row.name();
  const std::string model_file = stem + ".model.json", topology_file = stem + ".topology.json";
  auto leaf = [](const std::string& p) { return p.substr(p.find_last_of('/') + 1); };

  nlohmann::json model = {{"kind", "transformer"},
                          {"name", "gpt-" + format_billion(row.params_billion) + "b"},
                          {"description", "GPT of Megatron-LM SC'21 Table " + std::to_string(row.table)},
                          {"source", spec.rows_file},
                          {"layers", row.layers},
                          {"hidden", row.hidden},
                          {"heads", row.heads},
                          {"ffn_hidden", 4 * row.hidden},
                          {"vocab", spec.vocab},
                          {"seq_len", spec.seq_len},
                          {"dtype", spec.dtype}};
  const uint32_t servers = (row.gpus + spec.units_per_server - 1) / spec.units_per_server;
  nlohmann::json topology = {
      {"kind", "topology"},
      {"name", "dgx-rails-" + std::to_string(servers * spec.units_per_server)},
      {"description", std::to_string(servers) + " servers of " + std::to_string(spec.units_per_server) +
                          " GPUs on NVLink, one InfiniBand rail per GPU position, rails joined by a spine"},
      {"generator", "rail-optimized"},
      {"servers", servers},
      {"units_per_server", spec.units_per_server},
      {"unit_model", "gpu"},
      {"scale_up_link_model", "nvlink"},
      {"nic_link_model", "ib"},
      {"spine", {{"link_model", "ib"}}}};
  nlohmann::json models = nlohmann::json::object();
  for (const auto& [binding, file] : spec.models) models[binding] = file;
  const uint32_t model_parallel = row.tensor_parallel * row.pipeline_parallel;
  nlohmann::json workload = {{"generator", "megatron"},
                             {"model", leaf(model_file)},
                             {"data_parallel", row.gpus / model_parallel},
                             {"tensor_parallel", row.tensor_parallel},
                             {"pipeline_parallel", row.pipeline_parallel},
                             {"micro_batch", row.micro_batch},
                             {"global_batch", row.global_batch},
                             {"recompute", spec.recompute},
                             {"flash_attention", spec.flash_attention},
                             {"batched_exchanges", spec.batched_exchanges},
                             {"zero_stage", row.scheme == ValidationScheme::kZero3 ? 3 : 0}};
  if (row.virtual_stages > 1) {
    workload["schedule"] = "interleaved-1f1b";
    workload["virtual_stages"] = row.virtual_stages;
  }
  nlohmann::json scenario = {{"kind", "scenario"},
                             {"name", name},
                             {"description", "Megatron-LM SC'21 Table " + std::to_string(row.table) + ", " +
                                                 format_billion(row.params_billion) + "B " +
                                                 std::string(validation_schemes().name(row.scheme)) + " on " +
                                                 std::to_string(row.gpus) + " GPUs"},
                             {"seed", 1},
                             {"fidelity", spec.fidelity},
                             {"machine", {{"topology", leaf(topology_file)}, {"models", models}}},
                             {"workload", workload},
                             {"policies", {{"placement", "linear"}, {"collective", "ring"}}}};
  RowScenario out;
  out.scenario_path = stem + ".scenario.json";
  out.files[out.scenario_path] = scenario.dump(2);
  out.files[model_file] = model.dump(2);
  out.files[topology_file] = topology.dump(2);
  return out;
}

double megatron_flops_per_iteration(const ValidationRow& row, uint32_t seq_len, uint32_t vocab) {
  const double B = double(row.global_batch), s = seq_len, l = row.layers, h = row.hidden, V = vocab;
  return 96.0 * B * s * l * h * h * (1.0 + s / (6.0 * h) + V / (16.0 * l * h));
}

std::vector<TrendCheck> table2_trends(const std::vector<RowResult>& results, bool use_published) {
  // model -> GPU count -> (PTD-P, ZeRO-3) throughput per GPU
  std::map<double, std::map<uint32_t, std::pair<std::optional<double>, std::optional<double>>>> by_model;
  for (const auto& r : results) {
    if (r.row.table != 2) continue;
    const std::optional<double> v =
        use_published ? std::optional<double>(r.row.published_tflops) : r.predicted_tflops;
    auto& cell = by_model[r.row.params_billion][r.row.gpus];
    (r.row.scheme == ValidationScheme::kPtdP ? cell.first : cell.second) = v;
  }
  std::vector<TrendCheck> out;
  for (const auto& [params, scales] : by_model) {
    TrendCheck t;
    t.params_billion = params;
    std::vector<std::pair<double, double>> both;  // in order of GPUs
    for (const auto& [gpus, cell] : scales)
      if (cell.first && cell.second) both.emplace_back(*cell.first, *cell.second);
    t.scales = both.size();
    if (both.size() >= 2) {
      t.holds = true;
      for (const auto& [ptdp, zero3] : both) t.holds = t.holds && ptdp > zero3;
      t.ptdp_retained = both.back().first / both.front().first;
      t.zero3_retained = both.back().second / both.front().second;
      t.holds = t.holds && t.zero3_retained < t.ptdp_retained;
    }
    out.push_back(t);
  }
  return out;
}

ValidationSummary summarize(const ValidationSpec& spec, const std::vector<RowResult>& results) {
  std::vector<std::optional<double>> errors;
  for (const auto& r : results)
    errors.push_back(r.predicted_tflops ? std::optional<double>(r.error()) : std::nullopt);
  ValidationSummary s;
  static_cast<ErrorSummary&>(s) = summarize_errors(errors, spec.row_tolerance);
  s.trends = table2_trends(results, false);
  s.passed = s.holds(spec.mean_tolerance);
  for (const auto& t : s.trends) s.passed = s.passed && t.holds;
  return s;
}

}  // namespace zs::scenario
