// The contract every fuzz target checks: an input is accepted, or refused with one line naming a file.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "core/input_error.hpp"
#include "scenario/scenario_loader.hpp"

namespace zs::fuzz {

/// Bounds for the targets that build machines and traces: lower than the defaults, so that one input
/// takes milliseconds to a second (a machine of 2^17 nodes, a trace of 2^18 ops, a sweep of 256 points), far
/// under the time cap; larger ones are refused as the defaults refuse larger still.
inline constexpr scenario::LoadLimits kFuzzLimits{uint64_t(1) << 17, uint64_t(1) << 18, 256};

/// Reports a broken contract and aborts, so that libFuzzer saves the input as a finding.
[[noreturn]] inline void finding(const std::string& what) {
  std::fprintf(stderr, "zettasim fuzz finding: %s\n", core::one_line(what).c_str());
  std::abort();
}

/// Runs `read` on one input. Returning, or throwing a core::InputError that names a file and is one
/// line, keeps the contract; any other exception is a finding (as are crashes, sanitizer reports, and
/// the time and memory caps libFuzzer is run with).
template <class Read>
void check_contract(Read&& read) {
  try {
    read();
  } catch (const core::InputError& e) {
    if (e.file().empty()) finding(std::string("an InputError names no file: ") + e.what());
    if (std::string(e.what()).find('\n') != std::string::npos) finding("an InputError spans several lines");
  } catch (const std::exception& e) {
    finding(std::string("not an InputError: ") + e.what());
  } catch (...) {
    finding("an exception that is not a std::exception");
  }
}

}  // namespace zs::fuzz
