// What `zettasim regress` prints and writes: the table of checks and the JUnit XML file.
#pragma once

#include <string>

#include "scenario/regression_check.hpp"
#include "scenario/regression_suite.hpp"

namespace zs::output {

/// One line per check (case, metric, baseline, now, change %, tolerance, verdict), then the totals and
/// the errors' reasons.
std::string regression_table(const scenario::RegressionSuite& suite,
                             const scenario::RegressionOutcome& outcome);

/// JUnit XML as GitLab, Jenkins and GitHub's test reporters read it: one testsuite for the suite, one
/// testcase per case and metric (classname SUITE.CASE, name METRIC); a regression or missing baseline is a
/// <failure>, a case that failed to run an <error>, each with the numbers in its message. No times, so that
/// the same results give the same bytes.
std::string regression_junit_xml(const scenario::RegressionSuite& suite,
                                 const scenario::RegressionOutcome& outcome);

/// One line saying what a check found, e.g. "iteration_time_s: 0.94 now, baseline 0.184 (+411%, tolerance
/// 2%, lower-is-better)".
std::string check_message(const scenario::MetricCheck& check);

}  // namespace zs::output
