// `zettasim regress` and the case runner it starts: read the options, call the batch library, print.
#include <filesystem>

#include "batch/regression_runner.hpp"
#include "cli/commands.hpp"
#include "core/file_source.hpp"
#include "core/input_error.hpp"
#include "core/output_file.hpp"
#include "output/regression_report.hpp"

namespace zs::cli {

int run_regress(const RegressOptions& opt, std::ostream& out) {
  batch::RegressionOptions o;
  o.junit = opt.junit;
  o.force = opt.force;
  o.suite = opt.suite;
  o.update_baselines = opt.update_baselines;
  o.jobs = opt.jobs;
  o.plugins = opt.plugins;
  o.executable = std::filesystem::read_symlink("/proc/self/exe").string();
  core::DiskFileSource files;
  const batch::RegressionRun run = batch::run_regression(files, o);
  out << output::regression_table(run.suite, run.outcome);
  if (run.junit) {
    core::write_output_file(*run.junit, output::regression_junit_xml(run.suite, run.outcome));
    out << "junit: " << opt.junit << "\n";
  }
  if (opt.update_baselines) {
    out << "baselines: " << run.suite.baselines << " (" << run.outcome.baseline_changes.size()
        << " changed)\n";
    for (const auto& line : run.outcome.baseline_changes) out << "  " << line << "\n";
    return run.outcome.count(scenario::Verdict::kError) == 0 ? 0 : 1;
  }
  return run.outcome.passed() ? 0 : 1;
}

int run_regress_case(const RegressCaseOptions& opt, std::ostream&) {
  batch::run_regression_case_process(opt.suite, opt.index, opt.record, opt.plugins);
  return 0;
}

}  // namespace zs::cli
