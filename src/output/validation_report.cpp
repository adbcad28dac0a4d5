// validation.json, validation.csv and the validation report.
#include "output/validation_report.hpp"

#include <cmath>
#include <sstream>

#include "core/version.hpp"
#include "output/text_columns.hpp"

namespace zs::output {
std::string validation_report(const scenario::ValidationSpec& spec,
                              const study::ValidationStudy& validation) {
  const auto& results = validation.rows;
  const auto& sum = validation.summary;
  std::ostringstream out;
  out << "validation \"" << spec.name << "\" (" << spec.file << ", rows " << spec.rows_file << ")\n"
      << spec.description << "\n"
      << overrides_lines(spec.overrides, "row") << "\n";
  out << column("row", 34) << column("gpus", 6) << column("plan", 26) << column("iteration", 12)
      << column("predicted", 11) << column("published", 11) << "error\n";
  for (const auto& r : results) {
    const auto& w = r.row;
    std::string plan = w.scheme == scenario::ValidationScheme::kZero3
                           ? "ZeRO-3, dp " + std::to_string(w.gpus)
                           : "tp " + std::to_string(w.tensor_parallel) + " pp " +
                                 std::to_string(w.pipeline_parallel) +
                                 (w.virtual_stages > 1 ? " v " + std::to_string(w.virtual_stages) : "");
    plan += ", mb " + std::to_string(w.micro_batch);
    out << column(w.name(), 34) << column(std::to_string(w.gpus), 6) << column(plan, 26);
    if (r.predicted_tflops) {
      out << column(format_number(r.iteration_s, "%.2f s"), 12)
          << column(format_number(*r.predicted_tflops, "%.1f"), 11)
          << column(format_number(w.published_tflops, "%.0f"), 11) << signed_percent(r.error())
          << (std::abs(r.error()) > spec.row_tolerance ? "  (outside)" : "") << "\n";
    } else {
      out << column("-", 12) << column("-", 11) << column(format_number(w.published_tflops, "%.0f"), 11)
          << "no prediction: " << r.failure << "\n";
    }
  }
  out << "\n(TFLOP/s per GPU, Megatron-LM's count 96 B s l h^2 (1 + s/6h + V/16lh) over the simulated "
         "iteration; "
         "error = predicted / published - 1)\n\n";
  out << "rows within " << format_number(100 * spec.row_tolerance, "%.0f") << "%: " << sum.within << " of "
      << sum.rows << " (" << sum.predicted << " predicted)\n";
  out << "mean absolute error: " << format_number(100 * sum.mean_abs_error, "%.1f") << "% (acceptance "
      << format_number(100 * spec.mean_tolerance, "%.0f") << "%), largest "
      << format_number(100 * sum.max_abs_error, "%.1f") << "%\n";
  for (const auto& t : sum.trends) {
    out << "Table 2 trend, " << format_number(t.params_billion, "%g") << "B: ";
    if (t.scales < 2) {
      out << "not checked (fewer than two GPU counts with both schemes predicted)\n";
      continue;
    }
    out << (t.holds ? "holds" : "does not hold") << " over " << t.scales
        << " GPU counts (PTD-P ahead at each required; from the fewest GPUs to the most PTD-P keeps "
        << format_number(100 * t.ptdp_retained, "%.0f") << "% of its TFLOP/s per GPU, ZeRO-3 "
        << format_number(100 * t.zero3_retained, "%.0f") << "%)\n";
  }
  out << (sum.passed ? "acceptance: met\n" : "acceptance: not met\n");
  out << "\napproximate: every row runs at the scenario path's collapsed fidelity with the approximations "
         "that "
         "`zettasim run` prints (roofline compute without tile or wave quantization; fluid network)\n";
  return out.str();
}

nlohmann::json validation_json(const scenario::ValidationSpec& spec,
                               const study::ValidationStudy& validation) {
  const auto& results = validation.rows;
  const auto& sum = validation.summary;
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& r : results) {
    nlohmann::json j = {{"name", r.row.name()},
                        {"table", r.row.table},
                        {"params_billion", r.row.params_billion},
                        {"scheme", std::string(scenario::validation_schemes().name(r.row.scheme))},
                        {"gpus", r.row.gpus},
                        {"published_tflops_per_gpu", r.row.published_tflops}};
    if (r.predicted_tflops) {
      j["iteration_time_s"] = r.iteration_s;
      j["predicted_tflops_per_gpu"] = *r.predicted_tflops;
      j["error"] = r.error();
    } else {
      j["failure"] = r.failure;
    }
    rows.push_back(j);
  }
  nlohmann::json trends = nlohmann::json::array();
  for (const auto& t : sum.trends)
    trends.push_back({{"params_billion", t.params_billion},
                      {"gpu_counts_compared", t.scales},
                      {"holds", t.holds},
                      {"ptdp_retained", t.ptdp_retained},
                      {"zero3_retained", t.zero3_retained}});
  nlohmann::json summary = error_summary_json(sum, spec.row_tolerance, spec.mean_tolerance);
  summary["table2_trends"] = trends;
  summary["passed"] = sum.passed;
  return {{"validation", spec.name},
          {"file", spec.file},
          {"rows_file", spec.rows_file},
          {"overrides", overrides_json(spec.overrides)},
          {"zettasim_version", core::kVersion},
          {"rows", rows},
          {"summary", summary}};
}

std::string overrides_lines(const std::vector<scenario::RunOverride>& overrides, const std::string& what) {
  std::string lines;
  for (const auto& o : overrides)
    lines +=
        "set in every " + what + " (what-if, not as published): " + o.pointer + " = " + o.value.dump() + "\n";
  return lines;
}

nlohmann::json overrides_json(const std::vector<scenario::RunOverride>& overrides) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& o : overrides) out.push_back({{"pointer", o.pointer}, {"value", o.value}});
  return out;
}

nlohmann::json error_summary_json(const scenario::ErrorSummary& s, double row_tolerance,
                                  double mean_tolerance) {
  return {{"rows", s.rows},
          {"predicted", s.predicted},
          {"within_row_tolerance", s.within},
          {"row_tolerance", row_tolerance},
          {"mean_absolute_error", s.mean_abs_error},
          {"mean_tolerance", mean_tolerance},
          {"max_absolute_error", s.max_abs_error}};
}

std::string validation_csv(const study::ValidationStudy& validation) {
  const auto& results = validation.rows;
  std::string csv = "name,gpus,published_tflops_per_gpu,predicted_tflops_per_gpu,iteration_time_s,error\n";
  for (const auto& r : results) {
    csv += r.row.name() + "," + std::to_string(r.row.gpus) + "," +
           format_number(r.row.published_tflops, "%g") + ",";
    if (r.predicted_tflops)
      csv += format_number(*r.predicted_tflops, "%.6g") + "," + format_number(r.iteration_s, "%.6g") + "," +
             format_number(r.error(), "%.6g");
    else
      csv += ",,";
    csv += "\n";
  }
  return csv;
}

}  // namespace zs::output
