// validation.json, validation.csv and the report of a published-runs validation.
#include "output/published_runs_report.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/version.hpp"
#include "output/text_columns.hpp"
#include "output/validation_report.hpp"

namespace zs::output {
namespace {

void write_scaling(std::ostream& out, const scenario::PublishedRunsSpec& spec,
                   const scenario::ScalingResult& s) {
  out << "scaling, " << s.series.name << " (" << s.series.runs.front() << " to " << s.series.runs.back()
      << "): ";
  if (!s.published || !s.predicted) {
    out << "not checked (a run of the series has no prediction)\n";
    return;
  }
  out << "efficiency published " << format_number(100 * *s.published, "%.1f") << "%, predicted "
      << format_number(100 * *s.predicted, "%.1f") << "% ("
      << format_number(100 * (*s.predicted - *s.published), "%+.1f") << " points; "
      << (s.holds ? "within " : "outside ") << format_number(100 * spec.scaling_tolerance, "%.0f") << ")\n";
}

/// The predicted iteration's parts and the unaccounted time, a row per predicted run.
void write_breakdowns(std::ostream& out, const study::PublishedRunsStudy& study, std::size_t name_width) {
  out << "where the predicted time goes, s per iteration on the critical rank (the one that finished last; "
         "unaccounted = published - predicted):\n";
  out << column("run", name_width) << column("compute", 10) << column("exposed comm.", 15)
      << column("bubble", 10) << column("memory", 10) << column("waiting", 10) << column("idle", 10)
      << "unaccounted\n";
  for (const auto& r : study.runs) {
    if (!r.predicted_iteration_s) continue;
    const auto& b = r.breakdown;
    out << column(r.run.name, name_width);
    for (const auto& [part, width] : {std::pair{b.compute_s, 10},
                                      {b.exposed_communication_s, 15},
                                      {b.pipeline_bubble_s, 10},
                                      {b.memory_stall_s, 10},
                                      {b.collective_wait_s, 10},
                                      {b.idle_s, 10}})
      out << column(format_number(part, "%.4g"), std::size_t(width));
    out << format_number(r.unaccounted_s(), "%+.4g") << "\n";
  }
  out << "\n";
}

/// The compute and unaccounted times per layer and micro-batch of every predicted Megatron-plan run: a
/// cost that does not grow with a layer's work shows as a constant column here.
void write_per_layer(std::ostream& out, const study::PublishedRunsStudy& study, std::size_t name_width) {
  const auto planned = [](const scenario::PublishedRunResult& r) {
    return r.predicted_iteration_s && r.micro_batches > 0 && r.layers_per_stage > 0;
  };
  if (std::none_of(study.runs.begin(), study.runs.end(), planned)) return;
  out << "per layer and micro-batch on the critical rank, ms (seconds above over the model's layers per "
         "pipeline stage times the micro-batches per replica):\n";
  out << column("run", name_width) << column("layers", 8) << column("micro-batches", 15)
      << column("compute", 10) << "unaccounted\n";
  for (const auto& r : study.runs) {
    if (!planned(r)) continue;
    const double per = 1e3 / (r.layers_per_stage * r.micro_batches);  // s per iteration -> ms per layer-mb
    out << column(r.run.name, name_width) << column(format_number(r.layers_per_stage, "%.4g"), 8)
        << column(std::to_string(r.micro_batches), 15)
        << column(format_number(r.breakdown.compute_s * per, "%.3g"), 10)
        << format_number(r.unaccounted_s() * per, "%+.3g") << "\n";
  }
  out << "\n";
}

/// The model FLOP rate per GPU of every predicted run: over the published and the predicted iteration, and
/// over the critical rank's compute alone (the rate the unit model sustains while it computes).
void write_flop_rates(std::ostream& out, const study::PublishedRunsStudy& study, std::size_t name_width) {
  const auto rated = [](const scenario::PublishedRunResult& r) {
    return r.predicted_iteration_s && r.model_flops > 0;
  };
  if (std::none_of(study.runs.begin(), study.runs.end(), rated)) return;
  out << "model TFLOP/s per GPU (the model's FLOPs per iteration over the GPUs and the seconds; while "
         "computing: "
         "over the critical rank's compute seconds):\n";
  out << column("run", name_width) << column("published", 11) << column("predicted", 11)
      << "while computing\n";
  for (const auto& r : study.runs) {
    if (!rated(r)) continue;
    out << column(r.run.name, name_width)
        << column(format_number(1e-12 * r.model_flop_rate(r.run.published_iteration_s), "%.0f"), 11)
        << column(format_number(1e-12 * r.model_flop_rate(*r.predicted_iteration_s), "%.0f"), 11)
        << format_number(1e-12 * r.model_flop_rate(r.breakdown.compute_s), "%.0f") << "\n";
  }
  out << "\n";
}

}  // namespace

std::string published_runs_report(const scenario::PublishedRunsSpec& spec,
                                  const study::PublishedRunsStudy& study) {
  const auto& sum = study.summary;
  std::ostringstream out;
  out << "validation \"" << spec.name << "\" (" << spec.file << ")\n" << spec.description << "\n";
  out << "mechanisms: " << spec.mechanisms << "\n";
  out << overrides_lines(spec.overrides, "run") << "\n";
  std::size_t name_width = 30;
  for (const auto& r : study.runs) name_width = std::max(name_width, r.run.name.size() + 2);
  out << column("run", name_width) << column("hardware", 16) << column("gpus", 6) << column("published", 11)
      << column("predicted", 11) << "error\n";
  for (const auto& r : study.runs) {
    out << column(r.run.name, name_width) << column(r.run.hardware, 16)
        << column(r.gpus > 0 ? std::to_string(r.gpus) : "-", 6)
        << column(format_number(r.run.published_iteration_s, "%.4g s"), 11);
    if (r.predicted_iteration_s)
      out << column(format_number(*r.predicted_iteration_s, "%.4g s"), 11) << signed_percent(r.error())
          << (std::abs(r.error()) > spec.row_tolerance ? "  (outside)" : "") << "\n";
    else
      out << column("-", 11) << "no prediction: " << r.failure << "\n";
  }
  out << "\n(seconds per iteration; error = predicted / published throughput - 1, positive when the "
         "prediction is faster)\n\n";
  write_breakdowns(out, study, name_width);
  write_per_layer(out, study, name_width);
  write_flop_rates(out, study, name_width);
  out << "runs within " << format_number(100 * spec.row_tolerance, "%.0f") << "%: " << sum.within << " of "
      << sum.rows << " (" << sum.predicted << " predicted)\n";
  out << "mean absolute error: " << format_number(100 * sum.mean_abs_error, "%.1f") << "% (acceptance "
      << format_number(100 * spec.mean_tolerance, "%.0f") << "%), largest "
      << format_number(100 * sum.max_abs_error, "%.1f") << "%\n";
  for (const auto& s : sum.scaling) write_scaling(out, spec, s);
  out << (sum.passed ? "acceptance: met\n" : "acceptance: not met\n");
  out << "\nsources:\n";
  for (const auto& r : study.runs) out << "  " << r.run.name << ": " << r.run.source << "\n";
  out << "\napproximate: every run takes the approximations that `zettasim run` prints for its scenario\n";
  return out.str();
}

nlohmann::json published_runs_json(const scenario::PublishedRunsSpec& spec,
                                   const study::PublishedRunsStudy& study) {
  const auto& sum = study.summary;
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& r : study.runs) {
    nlohmann::json j = {{"name", r.run.name},
                        {"scenario", r.run.scenario},
                        {"hardware", r.run.hardware},
                        {"moe", r.run.moe},
                        {"source", r.run.source},
                        {"gpus", r.gpus},
                        {"tokens_per_iteration", r.tokens_per_iteration},
                        {"model_flops_per_iteration_flop", r.model_flops},
                        {"published_iteration_time_s", r.run.published_iteration_s}};
    if (r.predicted_iteration_s) {
      const auto& b = r.breakdown;
      j["predicted_iteration_time_s"] = *r.predicted_iteration_s;
      j["error"] = r.error();
      j["unaccounted_s"] = r.unaccounted_s();
      if (r.micro_batches > 0) {
        j["layers_per_stage"] = r.layers_per_stage;
        j["micro_batches_per_replica"] = r.micro_batches;
      }
      j["predicted_breakdown_s"] = {{"compute", b.compute_s},
                                    {"exposed_communication", b.exposed_communication_s},
                                    {"pipeline_bubble", b.pipeline_bubble_s},
                                    {"memory_stall", b.memory_stall_s},
                                    {"collective_wait", b.collective_wait_s},
                                    {"idle", b.idle_s}};
    } else {
      j["failure"] = r.failure;
    }
    runs.push_back(j);
  }
  nlohmann::json scaling = nlohmann::json::array();
  for (const auto& s : sum.scaling) {
    nlohmann::json j = {{"name", s.series.name}, {"runs", s.series.runs}, {"holds", s.holds}};
    if (s.published) j["published_efficiency"] = *s.published;
    if (s.predicted) j["predicted_efficiency"] = *s.predicted;
    scaling.push_back(j);
  }
  nlohmann::json summary = error_summary_json(sum, spec.row_tolerance, spec.mean_tolerance);
  summary["scaling_tolerance"] = spec.scaling_tolerance;
  summary["scaling"] = scaling;
  summary["passed"] = sum.passed;
  return {{"validation", spec.name},
          {"file", spec.file},
          {"mechanisms", spec.mechanisms},
          {"overrides", overrides_json(spec.overrides)},
          {"zettasim_version", core::kVersion},
          {"runs", runs},
          {"summary", summary}};
}

std::string published_runs_csv(const study::PublishedRunsStudy& study) {
  std::string csv =
      "name,hardware,gpus,published_iteration_time_s,predicted_iteration_time_s,error,"
      "unaccounted_s,compute_s,exposed_communication_s,pipeline_bubble_s,memory_stall_s,collective_wait_s,"
      "idle_s\n";
  for (const auto& r : study.runs) {
    csv += r.run.name + "," + r.run.hardware + "," + std::to_string(r.gpus) + "," +
           format_number(r.run.published_iteration_s, "%.6g") + ",";
    if (r.predicted_iteration_s) {
      const auto& b = r.breakdown;
      csv += format_number(*r.predicted_iteration_s, "%.6g") + "," + format_number(r.error(), "%.6g");
      for (double v : {r.unaccounted_s(), b.compute_s, b.exposed_communication_s, b.pipeline_bubble_s,
                       b.memory_stall_s, b.collective_wait_s, b.idle_s})
        csv += "," + format_number(v, "%.6g");
    } else {
      csv += ",,,,,,,,";  // no prediction: its nine fields empty
    }
    csv += "\n";
  }
  return csv;
}

}  // namespace zs::output
