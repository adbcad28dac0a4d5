// What `zettasim regress` prints and writes: the table of checks and the JUnit XML file.
#include "output/regression_report.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "core/version.hpp"
#include "output/output_formats.hpp"
#include "output/xml_text.hpp"

namespace zs::output {
namespace {

using scenario::MetricCheck;
using scenario::Verdict;

std::string number(const std::optional<double>& v) {
  if (!v) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", *v);
  return text;
}

std::string percent(const std::optional<double>& v) {
  if (!v) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%+.2f%%", *v);
  return text;
}

std::string direction_text(scenario::MetricDirection d) {
  switch (d) {
    case scenario::MetricDirection::kLowerIsBetter:
      return "lower-is-better";
    case scenario::MetricDirection::kHigherIsBetter:
      return "higher-is-better";
    case scenario::MetricDirection::kBoth:
      return "both ways";
  }
  return "";
}

/// Rows of cells padded to their columns' widths, two spaces apart.
std::string aligned(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> width(rows.front().size(), 0);
  for (const auto& row : rows)
    for (size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i)
      line += row[i] + (i + 1 < row.size() ? std::string(width[i] - row[i].size() + 2, ' ') : "");
    out += line + "\n";
  }
  return out;
}

}  // namespace

std::string check_message(const MetricCheck& check) {
  const std::string& name = check.metric.name;
  if (check.verdict == Verdict::kError) return name + ": " + check.error;
  if (check.verdict == Verdict::kNoBaseline)
    return name + ": " + number(check.now) +
           " now, no baseline (run regress --update-baselines to record one)";
  return name + ": " + number(check.now) + " now, baseline " + number(check.baseline) + " (" +
         percent(check.change_percent()) + ", tolerance " + check.tolerance_text() + ", " +
         direction_text(check.metric.direction) + ")";
}

std::string regression_table(const scenario::RegressionSuite& suite,
                             const scenario::RegressionOutcome& outcome) {
  std::vector<std::vector<std::string>> rows{
      {"case", "metric", "baseline", "now", "change", "tolerance", "verdict"}};
  for (const auto& c : outcome.checks)
    rows.push_back({c.case_name, c.metric.name, number(c.baseline), number(c.now),
                    percent(c.change_percent()), c.tolerance_text(), scenario::to_string(c.verdict)});
  std::string out = "regression suite \"" + suite.name + "\" (" + suite.file +
                    "): " + std::to_string(suite.cases.size()) + " cases, " +
                    std::to_string(outcome.checks.size()) + " checks\n" + aligned(rows);
  for (const auto& c : outcome.checks)
    if (!scenario::passes(c.verdict)) out += "  " + c.case_name + ": " + check_message(c) + "\n";
  for (const auto& s : outcome.stale) out += "  stale baseline (no case compares it): " + s + "\n";
  out += "result: " + std::to_string(outcome.count(Verdict::kHeld)) + " held, " +
         std::to_string(outcome.count(Verdict::kImproved)) + " improved, " +
         std::to_string(outcome.count(Verdict::kRegressed)) + " regressed, " +
         std::to_string(outcome.count(Verdict::kNoBaseline)) + " without baseline, " +
         std::to_string(outcome.count(Verdict::kError)) +
         " errors: " + (outcome.passed() ? "PASSED" : "FAILED") + "\n";
  return out;
}

std::string regression_junit_xml(const scenario::RegressionSuite& suite,
                                 const scenario::RegressionOutcome& outcome) {
  const size_t tests = outcome.checks.size();
  const size_t errors = outcome.count(Verdict::kError);
  const size_t failures = outcome.count(Verdict::kRegressed) + outcome.count(Verdict::kNoBaseline);
  const std::string counts = " tests=\"" + std::to_string(tests) + "\" failures=\"" +
                             std::to_string(failures) + "\" errors=\"" + std::to_string(errors) + "\"";
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- " + std::string(kWrittenByZettasim) +
                    " " + core::kVersion +
                    " (zettasim regress, JUnit XML) -->\n<testsuites name=\"zettasim regress\"" + counts +
                    ">\n  <testsuite name=\"" + xml_escaped(suite.name) + "\"" + counts + " skipped=\"0\">\n";
  for (const auto& c : outcome.checks) {
    out += "    <testcase classname=\"" + xml_escaped(suite.name + "." + c.case_name) + "\" name=\"" +
           xml_escaped(c.metric.name) + "\"";
    const std::string message = xml_escaped(check_message(c));
    switch (c.verdict) {
      case Verdict::kHeld:
        out += "/>\n";
        break;
      case Verdict::kImproved:
        out += ">\n      <system-out>improved: " + message + "</system-out>\n    </testcase>\n";
        break;
      case Verdict::kRegressed:
      case Verdict::kNoBaseline:
        out += ">\n      <failure type=\"" + scenario::to_string(c.verdict) + "\" message=\"" + message +
               "\">" + message + "</failure>\n    </testcase>\n";
        break;
      case Verdict::kError:
        out += ">\n      <error type=\"error\" message=\"" + message + "\">" + message +
               "</error>\n    </testcase>\n";
        break;
    }
  }
  return out + "  </testsuite>\n</testsuites>\n";
}

}  // namespace zs::output
